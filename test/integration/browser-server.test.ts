import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileReport } from '../../shared/formats/file-report';
import type { OpenedFile } from '../../shared/ipc/contract';
import { decodeFrame, encodeFrame, FRAME_CONTENT_TYPE } from '../../shared/ipc/mesh-payload';
import { startBrowserServer, TOKEN_HEADER, type BrowserServer } from '../../electron/services/browser-server';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { createEventHub } from '../../shared/ipc/event-hub';
import type { JobProgress } from '../../shared/ipc/jobs-contract';
import { createHttpTransport } from '../../renderer/src/transport/http-transport';
import { fixturesRoot, readFixture } from '../support/fixtures';

const itemtest = path.join(fixturesRoot, 'source/tf2/itemtest.nav');

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A raw request, so the test controls Host, Origin and every other header. */
function send(server: BrowserServer, options: { method?: string; path: string; headers?: Record<string, string>; body?: Uint8Array | string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, method: options.method ?? 'GET', path: options.path, headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function rpc(server: BrowserServer, method: string, params: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return send(server, {
    method: 'POST',
    path: `/rpc/${method}`,
    headers: { 'Content-Type': FRAME_CONTENT_TYPE, [TOKEN_HEADER]: server.token, ...headers },
    body: encodeFrame(params),
  });
}

function jsonError(reply: Reply): { code: string; message: string; parameter?: string } {
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  return (JSON.parse(reply.body.toString('utf8')) as { error: { code: string; message: string; parameter?: string } }).error;
}

function decoded<T>(reply: Reply): T {
  expect(reply.status).toBe(200);
  expect(reply.headers['content-type']).toBe(FRAME_CONTENT_TYPE);
  return decodeFrame(new Uint8Array(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength)) as T;
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('browser-mode server', () => {
  let server: BrowserServer;
  let rendererDir: string;
  const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-server-'));

  beforeAll(async () => {
    // A stand-in renderer: the server's static rules are tested on known files; the real
    // build is exercised by the end-to-end test.
    rendererDir = path.join(tmp, 'renderer');
    mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
    writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Walkbench</title><script type="module" src="./assets/app.js"></script>');
    writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'export const ok = 1;\n');
    writeFileSync(path.join(tmp, 'secret.txt'), 'outside the renderer');
    server = await startBrowserServer({ service: createWalkbenchService(), rendererDir, maxBodyBytes: 1 << 20 });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 only, with the token in the printed URL', async () => {
    expect(server.address).toBe('127.0.0.1');
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${encodeURIComponent(server.token)}`);
    expect(server.token.length).toBeGreaterThanOrEqual(40);
    expect(await canConnect('127.0.0.1', server.port)).toBe(true);
    expect(await canConnect('::1', server.port)).toBe(false);
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && i.family === 'IPv4' && !i.internal)
      .map((i) => i!.address);
    for (const address of external) expect(await canConnect(address, server.port)).toBe(false);
  });

  it('gives each server its own random token', async () => {
    const other = await startBrowserServer({ service: createWalkbenchService(), rendererDir });
    try {
      expect(other.token).not.toBe(server.token);
      expect(other.port).not.toBe(server.port);
    } finally {
      await other.close();
    }
  });

  it('refuses contract calls without the token (401) or with a wrong one (403)', async () => {
    const missing = await send(server, { method: 'POST', path: '/rpc/app.info', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(missing.status).toBe(401);
    expect(jsonError(missing).code).toBe('forbidden');
    const wrong = await rpc(server, 'app.info', {}, { [TOKEN_HEADER]: `${server.token.slice(0, -1)}x` });
    expect(wrong.status).toBe(403);
    // The token in the query string or a cookie opens no call.
    const inQuery = await send(server, {
      method: 'POST',
      path: `/rpc/app.info?token=${server.token}`,
      headers: { 'Content-Type': 'application/json', Cookie: `walkbench-token-${server.port}=${server.token}` },
      body: '{}',
    });
    expect(inQuery.status).toBe(401);
  });

  it('serves the renderer without the token (it holds no secret), but refuses a page address with a wrong one (403)', async () => {
    expect((await send(server, { path: '/' })).status).toBe(200);
    expect((await send(server, { path: '/assets/app.js' })).status).toBe(200);
    expect((await send(server, { path: '/?token=nope' })).status).toBe(403);
  });

  it('never sets the token as a cookie, which any other local port the browser visits would receive', async () => {
    // Cookies are not kept apart by port: the token travels in the X-Walkbench-Token header only.
    for (const p of [`/?token=${encodeURIComponent(server.token)}`, '/', '/assets/app.js']) {
      const reply = await send(server, { path: p });
      expect(reply.headers['set-cookie'], p).toBeUndefined();
      expect(reply.body.toString('utf8'), p).not.toContain(server.token);
    }
    const call = await rpc(server, 'app.info', {});
    expect(call.status).toBe(200);
    expect(call.headers['set-cookie']).toBeUndefined();
    // A cookie holding the token opens nothing.
    const cookie = { Cookie: `walkbench-token-${server.port}=${server.token}` };
    expect((await send(server, { method: 'POST', path: '/rpc/app.info', headers: { 'Content-Type': 'application/json', ...cookie }, body: '{}' })).status).toBe(401);
    expect((await send(server, { path: '/events', headers: cookie })).status).toBe(401);
  });

  it('answers a malformed percent-encoding in the method name with 400 and a JSON error, logging nothing', async () => {
    const logged: string[] = [];
    const logging = await startBrowserServer({ service: createWalkbenchService(), rendererDir, log: (line) => logged.push(line) });
    try {
      const reply = await send(logging, { method: 'POST', path: '/rpc/%E0%A4%A', headers: { 'Content-Type': 'application/json', [TOKEN_HEADER]: logging.token }, body: '{}' });
      expect(reply.status).toBe(400);
      expect(jsonError(reply)).toMatchObject({ code: 'invalid-params', message: expect.stringMatching(/percent-encoding/) });
      expect(logged).toEqual([]);
    } finally {
      await logging.close();
    }
  });

  it('answers a truncated or foreign project file with a 4xx naming it, never a 500 with a stack in the log', async () => {
    const { ProjectStore } = await import('../../electron/services/project/project-store');
    const { readFileSync } = await import('node:fs');
    const logged: string[] = [];
    const logging = await startBrowserServer({ service: createWalkbenchService(), rendererDir, log: (line) => logged.push(line) });
    try {
      const whole = path.join(tmp, 'whole.wbproj');
      const store = ProjectStore.create(whole, { name: 'whole', game: 'source' });
      for (let i = 0; i < 40; i++) store.upsertFile({ module: 'm', name: `f${i}.nav`, kind: 'walkmesh', format: 'source-nav', bytes: new Uint8Array(8192).fill(i) });
      store.close();
      const truncated = path.join(tmp, 'truncated.wbproj');
      writeFileSync(truncated, readFileSync(whole).subarray(0, 40_000));
      // Damaged inside, whole in length: the header checks pass, a query meets the bad pages.
      const garbled = path.join(tmp, 'garbled.wbproj');
      const bytes = Buffer.from(readFileSync(whole));
      for (let at = 4096; at < bytes.length; at += 4096) bytes.fill(0xa5, at, at + 200);
      writeFileSync(garbled, bytes);
      const foreign = path.join(tmp, 'foreign.wbproj');
      writeFileSync(foreign, 'not a project at all, just text long enough to be more than a header '.repeat(4));
      for (const file of [truncated, garbled, foreign]) {
        const reply = await rpc(logging, 'project.open', { path: file });
        expect(reply.status, file).toBeGreaterThanOrEqual(400);
        expect(reply.status, file).toBeLessThan(500);
        expect(jsonError(reply).message, file).toContain(file);
      }
      expect(logged).toEqual([]);
    } finally {
      await logging.close();
    }
  });

  it('refuses a foreign Origin, a cross-site fetch and a foreign Host even with the token', async () => {
    const foreign = await rpc(server, 'app.info', {}, { Origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(jsonError(foreign).message).toContain('evil.example');
    // Another local server's page is another origin too.
    expect((await rpc(server, 'app.info', {}, { Origin: `http://127.0.0.1:${server.port + 1}` })).status).toBe(403);
    expect((await rpc(server, 'app.info', {}, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    // DNS rebinding: a hostile name resolving to 127.0.0.1 still sends its own Host.
    const rebound = await rpc(server, 'app.info', {}, { Host: `evil.example:${server.port}` });
    expect(rebound.status).toBe(403);
    expect(jsonError(rebound).message).toMatch(/host/);
    // Its own origin is fine.
    expect((await rpc(server, 'app.info', {}, { Origin: server.origin, 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200);
  });

  it('lets a cross-site link open the page but refuses other cross-site loads', async () => {
    const navigate = { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' };
    expect((await send(server, { path: `/?token=${server.token}`, headers: navigate })).status).toBe(200);
    expect((await send(server, { path: '/?token=nope', headers: navigate })).status).toBe(403);
    const script = { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'script' };
    expect((await send(server, { path: '/assets/app.js', headers: script })).status).toBe(403);
    expect((await send(server, { path: '/assets/app.js', headers: { ...script, 'Sec-Fetch-Site': 'same-origin' } })).status).toBe(200);
  });

  it('inspects a real .nav file through files.inspect', async () => {
    const report = decoded<FileReport>(await rpc(server, 'files.inspect', { path: itemtest }));
    expect(report.format).toBe('source-nav');
    expect(report.game).toBe('source');
    expect(report.summary?.counts['areas']).toBe(33);
    expect(report.readFailure).toBeNull();
  });

  it('accepts JSON parameters as well as frames', async () => {
    const reply = await send(server, {
      method: 'POST',
      path: '/rpc/files.inspect',
      headers: { 'Content-Type': 'application/json', [TOKEN_HEADER]: server.token },
      body: JSON.stringify({ path: itemtest }),
    });
    expect(decoded<FileReport>(reply).summary?.counts['areas']).toBe(33);
  });

  it('opens file bytes into walkmeshes whose typed arrays survive the transport', async () => {
    const bytes = readFixture(itemtest);
    const opened = decoded<OpenedFile>(await rpc(server, 'files.openBytes', { name: 'itemtest.nav', bytes }));
    expect(opened.name).toBe('itemtest.nav');
    expect(opened.path).toBeNull();
    expect(opened.byteLength).toBe(bytes.byteLength);
    expect(opened.report.summary?.counts['areas']).toBe(33);
    expect(opened.walkmeshes).toHaveLength(1);
    const mesh = opened.walkmeshes[0]!;
    expect(mesh.positions).toBeInstanceOf(Float32Array);
    expect(mesh.triangles).toBeInstanceOf(Uint32Array);
    expect(mesh.triangles.length).toBe(33 * 2 * 3);
    expect(new Set(mesh.faceOwner).size).toBe(33);
  });

  it('rejects invalid parameters with 400 and a message naming the parameter', async () => {
    const wrongType = await rpc(server, 'files.inspect', { path: 42 });
    expect(wrongType.status).toBe(400);
    const e1 = jsonError(wrongType);
    expect(e1).toMatchObject({ code: 'invalid-params', parameter: 'params.path' });
    expect(e1.message).toContain('params.path');

    const missing = jsonError(await rpc(server, 'files.openBytes', { name: 'x.nav' }));
    expect(missing.parameter).toBe('params.bytes');

    const extra = await rpc(server, 'files.inspect', { path: itemtest, recursive: true });
    expect(extra.status).toBe(400);
    expect(jsonError(extra).parameter).toBe('params.recursive');

    const relative = await rpc(server, 'files.inspect', { path: 'itemtest.nav' });
    expect(relative.status).toBe(400);
    expect(jsonError(relative).message).toMatch(/absolute path/);
  });

  it('answers unknown methods, missing files, bad bodies and oversized bodies with clear errors', async () => {
    const unknown = await rpc(server, 'files.delete', { path: itemtest });
    expect(unknown.status).toBe(404);
    expect(jsonError(unknown).code).toBe('unknown-method');

    const notFound = await rpc(server, 'files.open', { path: path.join(tmp, 'missing.nav') });
    expect(notFound.status).toBe(404);
    expect(jsonError(notFound)).toMatchObject({ code: 'not-found', message: expect.stringContaining('missing.nav') });

    const garbage = await send(server, {
      method: 'POST',
      path: '/rpc/app.info',
      headers: { 'Content-Type': FRAME_CONTENT_TYPE, [TOKEN_HEADER]: server.token },
      body: 'WBF1 not really',
    });
    expect(garbage.status).toBe(400);
    expect(jsonError(garbage).message).toMatch(/invalid Walkbench frame/);

    const plain = await send(server, { method: 'POST', path: '/rpc/app.info', headers: { 'Content-Type': 'text/plain', [TOKEN_HEADER]: server.token }, body: '{}' });
    expect(plain.status).toBe(415);

    const huge = await rpc(server, 'files.openBytes', { name: 'big.nav', bytes: new Uint8Array(2 << 20) });
    expect(huge.status).toBe(413);
    expect(jsonError(huge).code).toBe('too-large');

    const get = await send(server, { path: '/rpc/app.info', headers: { [TOKEN_HEADER]: server.token } });
    expect(get.status).toBe(405);
  });

  it('reports a file it cannot read as a result with the reason, not as a failed call', async () => {
    const opened = decoded<OpenedFile>(await rpc(server, 'files.openBytes', { name: 'broken.nav', bytes: new Uint8Array([0xce, 0xfa, 0xed, 0xfe, 1]) }));
    expect(opened.walkmeshes).toEqual([]);
    expect(opened.report.readFailure?.message).toContain('broken.nav');
  });

  it('serves index.html with the CSP and its assets', async () => {
    const page = await send(server, { path: `/?token=${encodeURIComponent(server.token)}` });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.body.toString('utf8')).toContain('<title>Walkbench</title>');

    const asset = await send(server, { path: '/assets/app.js' });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.body.toString('utf8')).toContain('export const ok');

    const head = await send(server, { method: 'HEAD', path: '/assets/app.js' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String('export const ok = 1;\n'.length));
  });

  it('never serves a file outside the renderer folder', async () => {
    const auth = {};
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/..%5csecret.txt', '/%00', '/missing.js']) {
      const reply = await send(server, { path: p, headers: auth });
      expect(reply.status, p).toBeGreaterThanOrEqual(400);
      expect(reply.body.toString('utf8'), p).not.toContain('outside the renderer');
    }
    expect((await send(server, { method: 'DELETE', path: '/index.html', headers: auth })).status).toBe(405);
  });

  it('says so when the renderer is not built', async () => {
    const bare = await startBrowserServer({ service: createWalkbenchService(), rendererDir: path.join(tmp, 'not-built') });
    try {
      const reply = await send(bare, { path: `/?token=${bare.token}` });
      expect(reply.status).toBe(503);
      expect(jsonError(reply).message).toMatch(/npm run build:renderer/);
      // The contract still works without the renderer.
      expect((await rpc(bare, 'app.info', {})).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});

describe('browser-mode server events', () => {
  let server: BrowserServer;
  const hub = createEventHub();
  const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-events-'));
  const progress = (jobId: number, done: number): JobProgress => ({
    jobId,
    project: path.join(tmp, 'p.walkbench'),
    title: 'Bake everything',
    done,
    total: 3,
    label: `file ${done}`,
    state: done === 3 ? 'done' : 'running',
    baked: done,
    skipped: 0,
    failed: 0,
    failures: [],
    seq: done + 1,
  });

  beforeAll(async () => {
    server = await startBrowserServer({ service: createWalkbenchService({ events: hub }), events: hub, rendererDir: path.join(tmp, 'renderer') });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** Opens GET /events and collects its text until `until` matches or the stream ends. */
  function stream(headers: Record<string, string>): { status: Promise<number>; text: () => string; ended: Promise<void>; close(): void } {
    let body = '';
    let close = () => {};
    let status!: (n: number) => void;
    const statusP = new Promise<number>((r) => (status = r));
    const ended = new Promise<void>((resolve) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/events', headers }, (res) => {
        status(res.statusCode ?? 0);
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve());
        res.on('close', () => resolve());
      });
      req.on('error', () => resolve());
      close = () => req.destroy();
      req.end();
    });
    return { status: statusP, text: () => body, ended, close };
  }

  it('refuses the stream without the token header, with a wrong one, or from another origin', async () => {
    expect((await send(server, { path: '/events' })).status).toBe(401);
    expect((await send(server, { path: `/events?token=${server.token}`, headers: { Cookie: `walkbench-token-${server.port}=${server.token}` } })).status).toBe(401);
    expect((await send(server, { path: '/events', headers: { [TOKEN_HEADER]: 'wrong' } })).status).toBe(403);
    expect((await send(server, { path: '/events', headers: { [TOKEN_HEADER]: server.token, Origin: 'http://evil.example' } })).status).toBe(403);
    expect((await send(server, { path: '/events', headers: { [TOKEN_HEADER]: server.token, 'Sec-Fetch-Site': 'cross-site' } })).status).toBe(403);
    expect((await send(server, { method: 'POST', path: '/events', headers: { [TOKEN_HEADER]: server.token } })).status).toBe(405);
  });

  it('streams each pushed event as a server-sent event to every open stream', async () => {
    const a = stream({ [TOKEN_HEADER]: server.token, Origin: server.origin });
    const b = stream({ [TOKEN_HEADER]: server.token });
    expect(await a.status).toBe(200);
    expect(await b.status).toBe(200);
    await expect.poll(() => a.text() + b.text()).toMatch(/^: connected\n\n: connected\n\n$/);
    hub.emit('jobs.progress', progress(4, 1));
    hub.emit('app.openFileRequested', { path: '/levels/a.nav' });
    const expected = `event: jobs.progress\ndata: ${JSON.stringify(progress(4, 1))}\n\nevent: app.openFileRequested\ndata: {"path":"/levels/a.nav"}\n\n`;
    await expect.poll(() => a.text()).toBe(`: connected\n\n${expected}`);
    await expect.poll(() => b.text()).toBe(`: connected\n\n${expected}`);
    a.close();
    await a.ended;
    // The closed stream is unsubscribed; the other one goes on.
    hub.emit('jobs.progress', progress(4, 2));
    await expect.poll(() => b.text()).toContain('"done":2');
    b.close();
  });

  it('delivers events to the renderer transport, checked against the contract', async () => {
    const transport = createHttpTransport(server.origin, server.token);
    const seen: JobProgress[] = [];
    const off = transport.on('jobs.progress', (p) => seen.push(p));
    try {
      // The stream is open once a test event gets through.
      await expect
        .poll(() => {
          hub.emit('jobs.progress', progress(9, 0));
          return seen.length;
        })
        .toBeGreaterThan(0);
      // A payload the contract refuses never reaches the listener; the next one does.
      hub.emit('jobs.progress', { ...progress(9, 1), state: 'exploded' } as unknown as JobProgress);
      hub.emit('jobs.progress', progress(9, 3));
      const after = () => seen.filter((s) => s.done > 0);
      await expect.poll(() => after().map((s) => s.done)).toEqual([3]);
      expect(after()[0]).toEqual(progress(9, 3));
    } finally {
      off();
    }
  });

  it('ends the streams when the server closes', async () => {
    const s = stream({ [TOKEN_HEADER]: server.token });
    expect(await s.status).toBe(200);
    await server.close();
    await s.ended;
    expect(s.text()).toBe(': connected\n\n');
  });

  it('answers the native dialogs with unavailable in browser mode', async () => {
    const other = await startBrowserServer({ service: createWalkbenchService(), rendererDir: path.join(tmp, 'renderer') });
    try {
      const reply = await rpc(other, 'dialog.openFile', {});
      expect(reply.status).toBe(501);
      expect(jsonError(reply)).toMatchObject({ code: 'unavailable', message: expect.stringMatching(/browser mode.*type the file's path/) });
    } finally {
      await other.close();
    }
  });
});
