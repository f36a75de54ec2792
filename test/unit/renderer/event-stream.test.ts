import { describe, expect, it } from 'vitest';
import type { JobProgress } from '../../../shared/ipc/jobs-contract';
import { EventStream, ServerSentEventParser } from '../../../renderer/src/transport/event-stream';

describe('ServerSentEventParser', () => {
  it('splits events across arbitrary chunk boundaries, CRLF or LF, and drops comments', () => {
    const text = ': connected\r\n\r\nevent: jobs.progress\r\ndata: {"a":1}\r\n\r\n: keep-alive\n\nevent: x\ndata: line 1\ndata: line 2\n\ndata: no name\n\n';
    const whole = new ServerSentEventParser().push(text);
    expect(whole).toEqual([
      { event: 'jobs.progress', data: '{"a":1}' },
      { event: 'x', data: 'line 1\nline 2' },
      { event: 'message', data: 'no name' },
    ]);
    // Byte by byte gives the same events, each only once its blank line has come.
    const parser = new ServerSentEventParser();
    const pieces = [...text].flatMap((c) => parser.push(c));
    expect(pieces).toEqual(whole);
    expect(new ServerSentEventParser().push('event: a\ndata: unfinished\n')).toEqual([]);
  });
});

/** A fetch whose every call answers with a stream the test writes to. */
function fakeServer() {
  const streams: ReadableStreamDefaultController<Uint8Array>[] = [];
  const requests: { url: string; headers: Record<string, string> }[] = [];
  const fetchFn = (async (url: string, init?: RequestInit) => {
    requests.push({ url, headers: init?.headers as Record<string, string> });
    const body = new ReadableStream<Uint8Array>({ start: (c) => void streams.push(c) });
    init?.signal?.addEventListener('abort', () => streams.at(-1) && body.cancel().catch(() => {}));
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  }) as unknown as typeof fetch;
  const write = (text: string) => streams.at(-1)!.enqueue(new TextEncoder().encode(text));
  return { fetchFn, streams, requests, write };
}

const state = (done: number): JobProgress => ({
  jobId: 1,
  project: '/p.walkbench',
  title: 't',
  done,
  total: 2,
  label: '',
  state: 'running',
  baked: done,
  skipped: 0,
  failed: 0,
  failures: [],
  seq: done,
});

describe('EventStream', () => {
  it('connects on the first listener with the headers, checks payloads, and reconnects after the stream ends', async () => {
    const server = fakeServer();
    const events = new EventStream({ url: 'http://127.0.0.1:1/events', headers: { 'X-Walkbench-Token': 't0k' }, fetchFn: server.fetchFn, retryDelaysMs: [5] });
    expect(server.requests).toHaveLength(0);
    const seen: number[] = [];
    const off = events.on('jobs.progress', (p) => seen.push(p.done));
    await expect.poll(() => server.streams.length).toBe(1);
    expect(server.requests[0]).toMatchObject({ url: 'http://127.0.0.1:1/events', headers: { 'X-Walkbench-Token': 't0k' } });
    server.write(`event: jobs.progress\ndata: ${JSON.stringify(state(1))}\n\n`);
    server.write(`event: jobs.progress\ndata: ${JSON.stringify({ ...state(2), done: -1 })}\n\n`);
    server.write('event: jobs.progress\ndata: not json\n\n');
    server.write('event: shell.exec\ndata: {}\n\n');
    server.write(`event: jobs.progress\ndata: ${JSON.stringify(state(2))}\n\n`);
    await expect.poll(() => seen).toEqual([1, 2]);

    server.streams[0]!.close();
    await expect.poll(() => server.streams.length).toBe(2);
    server.write(`event: jobs.progress\ndata: ${JSON.stringify(state(0))}\n\n`);
    await expect.poll(() => seen).toEqual([1, 2, 0]);
    off();
    server.streams[1]!.close();
    await new Promise((r) => setTimeout(r, 30));
    // Nobody listens any more: no reconnection.
    expect(server.streams).toHaveLength(2);
  });

  it('refuses to subscribe to a name outside the contract', () => {
    const events = new EventStream({ url: 'x', headers: {}, fetchFn: fakeServer().fetchFn });
    expect(() => (events.on as (e: string, l: () => void) => void)('ipc.raw', () => {})).toThrow(/not a Walkbench event/);
  });
});
