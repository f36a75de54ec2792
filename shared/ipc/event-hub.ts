import type { EventName, WalkbenchEvents } from './contract';

/** Receives every event the services push, whatever its name. */
export type EventSink = <E extends EventName>(event: E, payload: WalkbenchEvents[E]) => void;

/**
 * Where the services publish contract events, and where each transport listens: the
 * Electron main process forwards them with webContents.send, the browser server as
 * server-sent events. Services publish without knowing which transport (if any) listens.
 */
export interface EventHub {
  emit: EventSink;
  /** Returns the function that stops listening. */
  subscribe(sink: EventSink): () => void;
}

export function createEventHub(onListenerError?: (error: unknown) => void): EventHub {
  const sinks = new Set<EventSink>();
  return {
    emit(event, payload) {
      for (const sink of [...sinks]) {
        try {
          sink(event, payload);
        } catch (e) {
          // One broken transport (a closed window, a dropped stream) must not starve the others.
          onListenerError?.(e);
        }
      }
    },
    subscribe(sink) {
      sinks.add(sink);
      return () => void sinks.delete(sink);
    },
  };
}
