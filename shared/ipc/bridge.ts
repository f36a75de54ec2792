/**
 * What the Electron preload exposes to the renderer as `window.walkbench`: the contract
 * and nothing else (no ipcRenderer, no Node). Calls resolve to an outcome rather than
 * rejecting, because Electron's IPC strips everything but the message from an error.
 */
import type { EventName, Method, Params, Result, WalkbenchEvents } from './contract';
import type { RpcOutcome } from './rpc-error';

export interface WalkbenchBridge {
  invoke<M extends Method>(method: M, params: Params<M>): Promise<RpcOutcome<Result<M>>>;
  /** Subscribes to a main-process event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: WalkbenchEvents[E]) => void): () => void;
}

/** The global name the preload exposes the bridge under. */
export const BRIDGE_GLOBAL = 'walkbench';

/** The IPC channel of a contract method (one `ipcMain.handle` per method). */
export function methodChannel(method: Method): string {
  return `walkbench:call:${method}`;
}

/** The IPC channel the main process sends an event on. */
export function eventChannel(event: EventName): string {
  return `walkbench:event:${event}`;
}
