import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { importSources } from '../../electron/services/project/project-import';
import { ProjectStore } from '../../electron/services/project/project-store';
import type { ProjectTree } from '../../shared/ipc/project-contract';
import type { AppInfo } from '../../shared/ipc/contract';
import { decodeFrame } from '../../shared/ipc/mesh-payload';
import { fixturesRoot, repoRoot } from '../support/fixtures';

const itemtest = path.join(fixturesRoot, 'source/tf2/itemtest.nav');

/** Runs `serveCommand` from source in a child process, as `walkbench serve` would. */
function startServe(args: string[]): { child: ChildProcess; output: () => string; exit: Promise<number | null> } {
  const script = `
    const { serveCommand } = await import('./electron/cli/commands/serve-command.ts');
    try {
      process.exitCode = await serveCommand(${JSON.stringify(args)}, {
        out: (s) => process.stdout.write(s),
        err: (s) => process.stderr.write(s),
      });
    } catch (e) {
      // What the CLI dispatcher does with a UsageError.
      process.stderr.write(e.name + ': ' + e.message + '\\n');
      process.exitCode = 2;
    }`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot });
  let text = '';
  child.stdout.on('data', (c: Buffer) => (text += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (text += c.toString('utf8')));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => text, exit };
}

/** Runs the built `walkbench serve` (bin.mjs and dist/, built by `npm run build:node`). */
function startBuiltServe(args: string[]): { child: ChildProcess; output: () => string; exit: Promise<number | null> } {
  for (const built of ['dist/cli/walkbench.mjs', 'dist/workers/bake-worker.mjs']) {
    if (!existsSync(path.join(repoRoot, built))) throw new Error(`${built} is missing: run \`npm run build:node\` before this test`);
  }
  const child = spawn(process.execPath, [path.join(repoRoot, 'electron/cli/bin.mjs'), 'serve', ...args], { cwd: repoRoot });
  let text = '';
  child.stdout.on('data', (c: Buffer) => (text += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (text += c.toString('utf8')));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => text, exit };
}

async function waitFor<T>(get: () => T | null, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('walkbench serve', () => {
  let running: ChildProcess | null = null;
  afterEach(() => {
    if (running && running.exitCode === null) running.kill('SIGKILL');
    running = null;
  });

  it('prints the URL with its token, opens the --file at start, and stops cleanly on SIGTERM', async () => {
    const relative = path.relative(repoRoot, itemtest);
    const serve = startServe(['--port', '0', '--file', relative]);
    running = serve.child;
    const url = await waitFor(() => serve.output().match(/http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/)?.[0] ?? null, 30_000);
    const { origin, searchParams } = new URL(url);
    const reply = await fetch(`${origin}/rpc/app.info`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Walkbench-Token': searchParams.get('token')! },
      body: '{}',
    });
    expect(reply.status).toBe(200);
    const info = decodeFrame(new Uint8Array(await reply.arrayBuffer())) as AppInfo;
    // The relative --file is resolved, so the renderer can open it by absolute path.
    expect(info.startupFile).toBe(itemtest);

    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
    expect(serve.output()).toContain('Walkbench stopped.');
  });

  it('refuses a bad port and a missing file with a clear message', async () => {
    const badPort = startServe(['--port', '70000']);
    running = badPort.child;
    const code = await badPort.exit;
    expect(code).toBe(2);
    expect(badPort.output()).toMatch(/UsageError: --port needs a port number from 0 to 65535/);

    const missing = startServe(['--project', path.join(fixturesRoot, 'no-such-level.nav')]);
    running = missing.child;
    expect(await missing.exit).toBe(1);
    expect(missing.output()).toContain('no-such-level.nav: no such file');
    expect(missing.output()).not.toContain('http://');
  });

  describe('stops on a signal with an NWN2 area open (its live bake worker started), closing the project', () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-serve-signal-'));
    afterAll(() => rmSync(tmp, { recursive: true, force: true }));
    const area = path.join(fixturesRoot, 'nwn2/kaedrin/db_templemaiden_int');

    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      it(`exits on ${signal}`, async () => {
        const project = path.join(tmp, `${signal}.wbproj`);
        const store = ProjectStore.create(project, { name: signal, game: 'nwn2' });
        await importSources(store, ['.ARE', '.GIT', '.TRN', '.TRX'].map((ext) => `${area}${ext}`));
        store.close();

        const serve = startBuiltServe(['--port', '0', '--project', project]);
        running = serve.child;
        const url = await waitFor(() => serve.output().match(/http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/)?.[0] ?? null, 30_000);
        const { origin, searchParams } = new URL(url);
        const call = async (method: string, params: unknown) => {
          const reply = await fetch(`${origin}/rpc/${method}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-Walkbench-Token': searchParams.get('token')! },
            body: JSON.stringify(params),
          });
          expect(reply.status).toBe(200);
          return decodeFrame(new Uint8Array(await reply.arrayBuffer()));
        };
        const tree = (await call('project.open', { path: project })) as ProjectTree;
        const trx = tree.modules.flatMap((m) => m.areas.flatMap((a) => a.files)).find((f) => f.name.toLowerCase().endsWith('.trx'))!;
        // Opening the area starts its live bake worker (warm for the first cutter edit).
        await call('project.openFile', { session: tree.session, fileId: trx.id });
        await new Promise((r) => setTimeout(r, 500));

        const stopAt = Date.now();
        serve.child.kill(signal);
        const code = await Promise.race([serve.exit, new Promise<'alive'>((r) => setTimeout(() => r('alive'), 15_000))]);
        expect(code).toBe(0);
        expect(Date.now() - stopAt).toBeLessThan(15_000);
        expect(serve.output()).toContain('Walkbench stopped.');
        // Every connection to the project was closed: SQLite folded its log back in and removed it.
        expect(existsSync(`${project}-wal`)).toBe(false);
      }, 60_000);
    }
  });
});
