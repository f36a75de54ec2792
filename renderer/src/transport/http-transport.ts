import type { Method, Params, Result } from '../../../shared/ipc/contract';
import { decodeFrame, encodeFrame, FRAME_CONTENT_TYPE } from '../../../shared/ipc/mesh-payload';
import { toRpcErrorInfo, type RpcOutcome } from '../../../shared/ipc/rpc-error';
import { EventStream } from './event-stream';
import type { Transport } from './transport';

/** Must match TOKEN_HEADER in electron/services/browser-server.ts. */
const TOKEN_HEADER = 'X-Walkbench-Token';

/** Must match EVENTS_PATH in electron/services/browser-server.ts. */
const EVENTS_PATH = '/events';

/**
 * Browser mode: contract calls are POST /rpc/<method> with the parameters as a frame
 * (shared/ipc/mesh-payload.ts) and the token from the page address in a header; results
 * come back as frames, failures as JSON `{ error }`. Events arrive as server-sent events
 * on GET /events, with the same token header.
 */
export function createHttpTransport(origin: string, token: string, fetchFn: typeof fetch = fetch.bind(globalThis)): Transport {
  const events = new EventStream({ url: `${origin}${EVENTS_PATH}`, headers: { [TOKEN_HEADER]: token }, fetchFn });
  return {
    async invoke<M extends Method>(method: M, params: Params<M>): Promise<RpcOutcome<Result<M>>> {
      let response: Response;
      try {
        response = await fetchFn(`${origin}/rpc/${encodeURIComponent(method)}`, {
          method: 'POST',
          headers: { 'Content-Type': FRAME_CONTENT_TYPE, [TOKEN_HEADER]: token },
          body: encodeFrame(params),
          cache: 'no-store',
          credentials: 'same-origin',
        });
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        return { ok: false, error: { code: 'internal', message: `the Walkbench server did not answer (${why}); is walkbench serve still running?` } };
      }
      if (response.ok) {
        // The server is this app's own backend: its frames hold what the contract says.
        return { ok: true, value: decodeFrame(new Uint8Array(await response.arrayBuffer())) as Result<M> };
      }
      const body: unknown = await response.json().catch(() => null);
      const error = typeof body === 'object' && body !== null && 'error' in body ? body.error : { message: `the server answered HTTP ${response.status}` };
      return { ok: false, error: toRpcErrorInfo(error) };
    },
    on: (event, listener) => events.on(event, listener),
  };
}

/** The token `walkbench serve` put in the page address, if any. */
export function tokenFromLocation(location: Pick<Location, 'search'>): string | null {
  const token = new URLSearchParams(location.search).get('token');
  return token && token.length > 0 ? token : null;
}
