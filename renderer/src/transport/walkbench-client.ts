import type { WalkbenchBridge } from '../../../shared/ipc/bridge';
import type { EventName, Method, Params, Result, WalkbenchEvents } from '../../../shared/ipc/contract';
import { WalkbenchRpcError } from '../../../shared/ipc/rpc-error';
import { createHttpTransport, takeToken } from './http-transport';
import type { Transport } from './transport';

/**
 * The renderer's one way to reach the services: typed calls that resolve to the result
 * or throw a WalkbenchRpcError with the same code on either transport.
 */
export class WalkbenchClient {
  constructor(private readonly transport: Transport) {}

  async call<M extends Method>(method: M, params: Params<M>): Promise<Result<M>> {
    const outcome = await this.transport.invoke(method, params);
    if (outcome.ok) return outcome.value;
    throw new WalkbenchRpcError(method, outcome.error);
  }

  on<E extends EventName>(event: E, listener: (payload: WalkbenchEvents[E]) => void): () => void {
    return this.transport.on(event, listener);
  }
}

export class NoTransportError extends Error {
  constructor() {
    super('Walkbench cannot reach its services: open the address `walkbench serve` printed (it carries the access token), or start the desktop app.');
    this.name = 'NoTransportError';
  }
}

/** The Electron preload's bridge when present, otherwise HTTP with the page's token. */
export function connectClient(win: Window): WalkbenchClient {
  // Typed here rather than through env.d.ts's global, so code outside the renderer's
  // program (tests of the stores) can import this module.
  const bridge = (win as Window & { walkbench?: WalkbenchBridge }).walkbench;
  if (bridge) return new WalkbenchClient(bridge);
  const token = takeToken(win);
  if (token === null) throw new NoTransportError();
  return new WalkbenchClient(createHttpTransport(win.location.origin, token));
}
