import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ContractHandlers } from '../../shared/ipc/contract';
import { MAX_FILE_BYTES } from '../../shared/ipc/contract';
import { dispatch } from '../../shared/ipc/dispatch';
import type { EventHub } from '../../shared/ipc/event-hub';
import { decodeFrame, encodeFrame, FRAME_CONTENT_TYPE, FrameError } from '../../shared/ipc/mesh-payload';
import type { RpcErrorCode, RpcErrorInfo } from '../../shared/ipc/rpc-error';
import { SECURITY_HEADERS } from './content-security-policy';
import { resolveRendererFile } from './static-files';

/** The header the renderer sends the token in on every contract call. */
export const TOKEN_HEADER = 'x-walkbench-token';

/** The path of the server-sent event stream. */
export const EVENTS_PATH = '/events';

/** A page that reads its events slower than this much piles up is dropped (it reconnects). */
const MAX_EVENT_BACKLOG_BYTES = 8 * 1024 * 1024;

/** A comment line often enough that proxies and idle timers keep the stream open. */
const EVENT_HEARTBEAT_MS = 15_000;

/** Loopback only: browser mode serves the user's own files and must not reach the network. */
export const LOOPBACK_ADDRESS = '127.0.0.1';

export interface BrowserServerOptions {
  service: ContractHandlers;
  /** The events to stream to pages at GET /events (server-sent events); without it the stream stays quiet. */
  events?: EventHub;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 32 random bytes; tests may fix it. */
  token?: string;
  /** Largest request body; files sent as bytes must fit, plus the frame header. */
  maxBodyBytes?: number;
  /** Where unexpected errors are logged. */
  log?: (line: string) => void;
}

export interface BrowserServer {
  /** The address to open, with the token: `http://127.0.0.1:PORT/?token=…`. */
  url: string;
  origin: string;
  address: string;
  port: number;
  token: string;
  close(): Promise<void>;
  /** Settles once the server has closed, whoever closed it. */
  closed: Promise<void>;
}

const statusOf: Record<RpcErrorCode, number> = {
  'invalid-params': 400,
  'unknown-method': 404,
  'not-found': 404,
  'not-a-file': 400,
  'too-large': 413,
  unreadable: 422,
  forbidden: 403,
  stale: 409,
  unavailable: 501,
  exists: 409,
  internal: 500,
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: RpcErrorCode,
    message: string,
  ) {
    super(message);
  }
}

function sameSecret(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function sendJsonError(res: ServerResponse, status: number, error: RpcErrorInfo): void {
  const body = JSON.stringify({ error });
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(body);
}

async function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    throw new HttpError(413, 'too-large', `the request body of ${declared} bytes is more than the ${limit}-byte limit`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    total += buf.byteLength;
    if (total > limit) throw new HttpError(413, 'too-large', `the request body is more than the ${limit}-byte limit`);
    chunks.push(buf);
  }
  const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
}

function parseParams(contentType: string, body: Uint8Array): unknown {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === FRAME_CONTENT_TYPE) {
    try {
      return decodeFrame(body);
    } catch (e) {
      if (e instanceof FrameError) throw new HttpError(400, 'invalid-params', e.message);
      throw e;
    }
  }
  if (type === 'application/json') {
    if (body.byteLength === 0) return {};
    try {
      return JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) as unknown;
    } catch {
      throw new HttpError(400, 'invalid-params', 'the request body is not valid JSON');
    }
  }
  throw new HttpError(415, 'invalid-params', `send the parameters as ${FRAME_CONTENT_TYPE} or application/json, not ${JSON.stringify(type)}`);
}

/**
 * Browser mode: the renderer and the contract over HTTP on 127.0.0.1. Whatever reaches the
 * user's files needs the random token in the X-Walkbench-Token header (a header a
 * cross-site page cannot add without a CORS preflight, which is never granted): contract
 * calls, and the pushed events (bake progress), which stream as server-sent events from
 * GET /events. The token travels in that header only, never in a cookie: browsers do not
 * keep cookies apart by port, so any other local service the browser visits would receive
 * one. The page takes the token from the printed address once (`?token=`, then removed from
 * the address bar). The renderer's own files (the page, its scripts and styles, which hold
 * no secret) are served without it; a `?token=` that does not match is refused, so a stale
 * address says so. The Host header must name the loopback address (DNS rebinding) and an
 * Origin, when sent, must be this server's (cross-site).
 */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const rendererDir = path.resolve(options.rendererDir);
  const maxBodyBytes = options.maxBodyBytes ?? MAX_FILE_BYTES + 1024 * 1024;
  const log = options.log ?? (() => {});
  let port = 0;
  const allowedHosts = new Set<string>();
  const allowedOrigins = new Set<string>();

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (e instanceof HttpError) {
        if (!res.headersSent) {
          if (e.status === 413) res.setHeader('Connection', 'close');
          sendJsonError(res, e.status, { code: e.code, message: e.message });
        }
        if (e.status === 413) req.resume();
        return;
      }
      log(`walkbench serve: ${req.method ?? '?'} ${req.url ?? '?'} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      if (!res.headersSent) sendJsonError(res, 500, { code: 'internal', message: 'the server failed to answer' });
      else res.destroy();
    });
  });
  server.requestTimeout = 5 * 60_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const host = req.headers.host ?? '';
    if (!allowedHosts.has(host.toLowerCase())) {
      throw new HttpError(403, 'forbidden', `host ${JSON.stringify(host)} is not this server; open ${LOOPBACK_ADDRESS}:${port}`);
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase())) {
      throw new HttpError(403, 'forbidden', `requests from ${JSON.stringify(origin)} are not allowed`);
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', `http://${LOOPBACK_ADDRESS}:${port}`);
    } catch {
      throw new HttpError(400, 'invalid-params', 'the request address is not a valid URL');
    }
    const fetchSite = req.headers['sec-fetch-site'];
    // Opening the printed address from a link elsewhere (a chat, a notes page) is a
    // cross-site navigation; it is harmless, since it still needs the token. Anything else
    // from another site (fetches, script or image loads) is refused.
    const topLevelNavigation =
      req.method === 'GET' && req.headers['sec-fetch-mode'] === 'navigate' && req.headers['sec-fetch-dest'] === 'document';
    if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none' && !(topLevelNavigation && !url.pathname.startsWith('/rpc/'))) {
      throw new HttpError(403, 'forbidden', `${fetchSite} requests are not allowed`);
    }

    if (url.pathname.startsWith('/rpc/')) {
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST');
        throw new HttpError(405, 'invalid-params', 'contract calls are POST requests');
      }
      requireTokenHeader(req);
      let method: string;
      try {
        method = decodeURIComponent(url.pathname.slice('/rpc/'.length));
      } catch {
        // `%E0%A4%A` and the like: the caller's malformed address, answered as such.
        throw new HttpError(400, 'invalid-params', 'the method name in the address is not valid percent-encoding');
      }
      await callContract(req, res, method);
      return;
    }
    if (url.pathname === EVENTS_PATH) {
      if (req.method !== 'GET') {
        res.setHeader('Allow', 'GET');
        throw new HttpError(405, 'invalid-params', 'the event stream is a GET request');
      }
      // The page reads the stream with fetch, not EventSource, so the token travels in
      // the same header as for contract calls rather than in a URL or a cookie.
      requireTokenHeader(req);
      streamEvents(req, res);
      return;
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      throw new HttpError(405, 'invalid-params', `${req.method ?? '?'} is not allowed here`);
    }
    // The renderer's files hold no secret: they are served without the token (scripts and
    // styles cannot send a header, and no cookie is set). The page takes the token from
    // `?token=`; one given that does not match (an address of an earlier server) is refused.
    const queryToken = url.searchParams.get('token');
    if (queryToken !== null && !sameSecret(queryToken, token)) {
      throw new HttpError(403, 'forbidden', 'the access token does not match: open the address this walkbench serve printed');
    }
    await serveStatic(req, res, url.pathname);
  }

  function requireTokenHeader(req: IncomingMessage): void {
    const given = req.headers[TOKEN_HEADER];
    if (typeof given !== 'string' || given === '') throw new HttpError(401, 'forbidden', `the ${TOKEN_HEADER} header is missing`);
    if (!sameSecret(given, token)) throw new HttpError(403, 'forbidden', `the ${TOKEN_HEADER} header does not match this server's token`);
  }

  /** Server-sent events: `event: NAME` and `data: JSON` per contract event, until the page goes. */
  function streamEvents(req: IncomingMessage, res: ServerResponse): void {
    const hub = options.events;
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    });
    req.socket.setNoDelay(true);
    const unsubscribe = hub?.subscribe((event, payload) => {
      if (res.writableLength > MAX_EVENT_BACKLOG_BYTES) {
        log(`walkbench serve: dropped an event stream that fell ${res.writableLength} bytes behind`);
        res.destroy();
        return;
      }
      res.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
    });
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), EVENT_HEARTBEAT_MS);
    heartbeat.unref();
    res.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe?.();
    });
    // Sent once subscribed: a client that has read it misses no later event.
    res.write(': connected\n\n');
  }

  async function callContract(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    const body = await readBody(req, maxBodyBytes);
    const params = parseParams(req.headers['content-type'] ?? '', body);
    const outcome = await dispatch(options.service, method, params, (m, e) =>
      log(`walkbench serve: ${m} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
    );
    if (!outcome.ok) {
      sendJsonError(res, statusOf[outcome.error.code], outcome.error);
      return;
    }
    const frame = encodeFrame(outcome.value);
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': FRAME_CONTENT_TYPE,
      'Content-Length': String(frame.byteLength),
      'Cache-Control': 'no-store',
    });
    res.end(frame);
  }

  async function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const indexStat = await stat(path.join(rendererDir, 'index.html')).catch(() => null);
    if (!indexStat) {
      throw new HttpError(503, 'not-found', `the renderer is not built (no ${path.join(rendererDir, 'index.html')}); run npm run build:renderer`);
    }
    const found = await resolveRendererFile(rendererDir, pathname);
    if (!found) throw new HttpError(404, 'not-found', `${pathname} is not here`);
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': found.contentType,
      'Content-Length': String(found.size),
      'Cache-Control': 'no-store',
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const stream = createReadStream(found.file);
      stream.on('error', reject);
      res.on('close', () => resolve());
      stream.pipe(res);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK_ADDRESS, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  port = address.port;
  for (const name of [LOOPBACK_ADDRESS, 'localhost']) {
    allowedHosts.add(`${name}:${port}`);
    allowedOrigins.add(`http://${name}:${port}`);
  }
  const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
  const origin = `http://${LOOPBACK_ADDRESS}:${port}`;
  return {
    url: `${origin}/?token=${encodeURIComponent(token)}`,
    origin,
    address: address.address,
    port,
    token,
    closed,
    close() {
      if (server.listening) {
        server.close();
        server.closeAllConnections();
      }
      return closed;
    },
  };
}
