import { eventSchemas, isEventName, type EventName, type WalkbenchEvents } from '../../../shared/ipc/contract';
import { validate, type Schema } from '../../../shared/ipc/schema';

type AnyListener = (payload: unknown) => void;

/** One server-sent event: its name and its data lines joined. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Splits server-sent-event text into events as it arrives. Feed it chunks in order; it
 * keeps an incomplete event until its blank line comes. Comment lines (`: …`) are dropped.
 */
export class ServerSentEventParser {
  private buffer = '';
  /** A chunk ended in CR: whether it was a line end alone or half of CRLF shows in the next one. */
  private heldCr = false;

  push(chunk: string): ServerSentEvent[] {
    let text = this.heldCr ? `\r${chunk}` : chunk;
    this.heldCr = text.endsWith('\r');
    if (this.heldCr) text = text.slice(0, -1);
    this.buffer += text.replace(/\r\n?/g, '\n');
    const out: ServerSentEvent[] = [];
    for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length > 0) out.push({ event, data: data.join('\n') });
    }
    return out;
  }
}

export interface EventStreamOptions {
  url: string;
  headers: Record<string, string>;
  fetchFn: typeof fetch;
  /** Waits before reconnecting after the stream ends or fails (grows to the last value). */
  retryDelaysMs?: readonly number[];
}

/**
 * Browser mode's side of the contract events: one GET /events stream (read with fetch so
 * the token goes in a header, which EventSource cannot send), opened while anything
 * listens and reopened after the server or the network drops it. Each payload is checked
 * against the contract's event schema before a listener sees it, as in the preload.
 */
export class EventStream {
  private readonly listeners = new Map<EventName, Set<AnyListener>>();
  private abort: AbortController | null = null;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: EventStreamOptions) {}

  on<E extends EventName>(event: E, listener: (payload: WalkbenchEvents[E]) => void): () => void {
    if (!isEventName(event)) throw new TypeError(`${String(event)} is not a Walkbench event`);
    const set = this.listeners.get(event) ?? new Set<AnyListener>();
    const wrapped: AnyListener = (payload) => listener(payload as WalkbenchEvents[E]);
    set.add(wrapped);
    this.listeners.set(event, set);
    if (!this.abort && !this.retryTimer) this.connect();
    return () => {
      set.delete(wrapped);
      if (this.listenerCount() === 0) this.stop();
    };
  }

  private listenerCount(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  private stop(): void {
    this.abort?.abort();
    this.abort = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private connect(): void {
    const abort = new AbortController();
    this.abort = abort;
    void this.read(abort).finally(() => {
      if (this.abort !== abort) return;
      this.abort = null;
      if (this.listenerCount() === 0) return;
      const delays = this.options.retryDelaysMs ?? [500, 1000, 2000, 5000];
      const delay = delays[Math.min(this.attempt, delays.length - 1)] ?? 1000;
      this.attempt++;
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        if (this.listenerCount() > 0) this.connect();
      }, delay);
    });
  }

  private async read(abort: AbortController): Promise<void> {
    try {
      const response = await this.options.fetchFn(this.options.url, {
        method: 'GET',
        headers: { Accept: 'text/event-stream', ...this.options.headers },
        cache: 'no-store',
        // The token is in the header; no cookie is needed or sent.
        credentials: 'omit',
        signal: abort.signal,
      });
      if (!response.ok || !response.body) return;
      this.attempt = 0;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new ServerSentEventParser();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        for (const e of parser.push(value)) this.deliver(e);
      }
    } catch {
      // Dropped or refused: the caller reconnects while anything listens.
    }
  }

  private deliver(e: ServerSentEvent): void {
    if (!isEventName(e.event)) return;
    const set = this.listeners.get(e.event);
    if (!set || set.size === 0) return;
    let payload: unknown;
    try {
      payload = JSON.parse(e.data);
    } catch {
      return;
    }
    const schema: Schema<unknown> = eventSchemas[e.event];
    const checked = validate(schema, payload, 'payload');
    if (!checked.ok) return;
    for (const l of [...set]) l(checked.value);
  }
}
