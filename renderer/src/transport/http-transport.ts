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
 * (shared/ipc/mesh-payload.ts) and the token (takeToken) in a header, never a cookie; results
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
          // The token is in the header; no cookie is needed or sent.
          credentials: 'omit',
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

/** Where the tab keeps the token across reloads (sessionStorage: this origin, this tab only). */
const TOKEN_KEY = 'walkbench-token';

/**
 * Takes the access token for browser mode once: from the page address `walkbench serve`
 * printed (`?token=…`), which is then removed from the address bar (history.replaceState),
 * so it is not left on screen, in the history or in a bookmark. The token stays in memory
 * (the transport holds it) and in this tab's sessionStorage, which, unlike a cookie, is
 * kept per origin, port included, never sent anywhere, and gone with the tab: a reload
 * finds it there. It travels only in the X-Walkbench-Token header of the page's requests.
 */
export function takeToken(win: Pick<Window, 'location' | 'history' | 'sessionStorage'>): string | null {
  const fromAddress = tokenFromLocation(win.location);
  if (fromAddress !== null) {
    const url = new URL(win.location.href);
    url.searchParams.delete('token');
    win.history.replaceState(win.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    try {
      win.sessionStorage.setItem(TOKEN_KEY, fromAddress);
    } catch {
      // Storage refused (a private mode): the token lives in memory only; a reload needs the address again.
    }
    return fromAddress;
  }
  try {
    const kept = win.sessionStorage.getItem(TOKEN_KEY);
    return kept && kept.length > 0 ? kept : null;
  } catch {
    return null;
  }
}
