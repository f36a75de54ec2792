/**
 * The sandboxed preload: exposes the typed contract as `window.walkbench` and nothing
 * else. It is bundled as CommonJS (sandboxed preloads cannot be ES modules) and may only
 * require 'electron'. Method and event names are checked here too, so the page cannot
 * reach any IPC channel outside the contract even by calling the bridge with a made-up
 * name; the main process validates the parameters again.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { BRIDGE_GLOBAL, eventChannel, methodChannel, type WalkbenchBridge } from '../shared/ipc/bridge';
import {
  eventSchemas,
  isEventName,
  isMethod,
  type EventName,
  type Method,
  type Params,
  type Result,
  type WalkbenchEvents,
} from '../shared/ipc/contract';
import type { RpcOutcome } from '../shared/ipc/rpc-error';
import { validate } from '../shared/ipc/schema';

const bridge: WalkbenchBridge = {
  invoke<M extends Method>(method: M, params: Params<M>): Promise<RpcOutcome<Result<M>>> {
    if (!isMethod(method)) {
      const outcome: RpcOutcome<Result<M>> = { ok: false, error: { code: 'unknown-method', message: `${String(method)} is not a Walkbench method` } };
      return Promise.resolve(outcome);
    }
    // The main process answers every call with an outcome (register-handlers.ts).
    return ipcRenderer.invoke(methodChannel(method), params) as Promise<RpcOutcome<Result<M>>>;
  },
  on<E extends EventName>(event: E, listener: (payload: WalkbenchEvents[E]) => void): () => void {
    if (!isEventName(event)) throw new TypeError(`${String(event)} is not a Walkbench event`);
    const channel = eventChannel(event);
    const schema = eventSchemas[event];
    const wrapped = (_e: IpcRendererEvent, payload: unknown) => {
      const checked = validate(schema, payload, 'payload');
      if (checked.ok) listener(checked.value);
    };
    ipcRenderer.on(channel, wrapped);
    return () => void ipcRenderer.removeListener(channel, wrapped);
  },
};

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge);
