import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectCommand } from '../../electron/cli/commands/project-command';
import { readBytes } from '../../electron/services/file-access';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { ServiceError } from '../../shared/ipc/rpc-error';
import { fixturesRoot, repoRoot } from '../support/fixtures';
import { commandRunner } from '../support/run-command';

/**
 * Devices, FIFOs and sockets (and links to them) named where Walkbench reads or writes a
 * file are refused before they are opened, with what they are: a FIFO never blocks a
 * command, and a link to /dev/zero is never read (a review saw `walkbench info` grow to
 * 7.4 GB on one, and hang on a FIFO).
 */
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-special-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const itemtest = path.join(fixturesRoot, 'source/tf2/itemtest.nav');
const fifo = path.join(tmp, 'level.nav');
const zero = path.join(tmp, 'zero.nav');
const run = commandRunner(projectCommand);

beforeAll(() => {
  execFileSync('mkfifo', [fifo]);
  symlinkSync('/dev/zero', zero);
});

/** The built `walkbench` (bin.mjs and dist/, `npm run build:node`), killed if it runs past `ms`. */
function walkbench(args: string[], ms = 10_000): Promise<{ status: number | null; out: string; err: string; ms: number; killed: boolean }> {
  if (!existsSync(path.join(repoRoot, 'dist/cli/walkbench.mjs'))) throw new Error('dist/cli/walkbench.mjs is missing: run `npm run build:node` before this test');
  const started = Date.now();
  const child = spawn(process.execPath, [path.join(repoRoot, 'electron/cli/bin.mjs'), ...args], { cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, ms);
  return new Promise((resolve) =>
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, out, err, ms: Date.now() - started, killed });
    }),
  );
}

describe('the command line refuses special files at once, naming what they are', () => {
  it('info, validate and roundtrip on a FIFO: one line, exit 1, no wait', async () => {
    for (const command of ['info', 'validate', 'roundtrip']) {
      const r = await walkbench([command, fifo]);
      expect(r.killed, `${command} waited on the FIFO`).toBe(false);
      expect(r.status).toBe(1);
      expect(r.err).toBe(`walkbench: ${fifo}: is a FIFO, not a regular file\n`);
    }
  }, 60_000);

  it('info on a symbolic link to /dev/zero: refused unread', async () => {
    const r = await walkbench(['info', zero]);
    expect(r.killed).toBe(false);
    expect(r.status).toBe(1);
    expect(r.err).toBe(`walkbench: ${zero}: is a symbolic link to a character device, not a regular file\n`);
  }, 30_000);

  it('convert from a FIFO, and onto one, is refused', async () => {
    const from = await walkbench(['convert', fifo, path.join(tmp, 'out.obj')]);
    expect(from.killed).toBe(false);
    expect(from.status).toBe(1);
    expect(from.err).toContain(`${fifo}: is a FIFO, not a regular file`);
    const outFifo = path.join(tmp, 'out-fifo.obj');
    execFileSync('mkfifo', [outFifo]);
    const onto = await walkbench(['convert', itemtest, outFifo]);
    expect(onto.killed).toBe(false);
    expect(onto.status).toBe(1);
    expect(onto.err).toContain(`${outFifo}: is a FIFO, not a regular file`);
  }, 30_000);

  it('project info, import of a FIFO, and serve --file on one are refused', async () => {
    const info = await walkbench(['project', 'info', fifo]);
    expect(info.killed).toBe(false);
    expect(info.status).toBe(1);
    expect(info.err).toBe(`walkbench: ${fifo}: is a FIFO, not a regular file\n`);

    const project = path.join(tmp, 'named.wbproj');
    expect((await walkbench(['project', 'create', project, '--game', 'source'])).status).toBe(0);
    const imported = await walkbench(['project', 'import', project, fifo]);
    expect(imported.killed).toBe(false);
    expect(imported.status).toBe(1);
    expect(imported.err).toContain(`${fifo}: is a FIFO, not a regular file`);

    const serve = await walkbench(['serve', '--port', '0', '--file', fifo]);
    expect(serve.killed).toBe(false);
    expect(serve.status).toBe(1);
    expect(serve.err).toContain(`${fifo}: is a FIFO, not a regular file`);
    expect(serve.out).not.toContain('http://');
  }, 60_000);

  it('project import of a folder holding a FIFO and a link to a device imports the rest and lists them as skipped', async () => {
    const project = path.join(tmp, 'folder.wbproj');
    await run('create', project, '--game', 'source');
    const maps = path.join(tmp, 'maps');
    mkdirSync(maps);
    copyFileSync(itemtest, path.join(maps, 'itemtest.nav'));
    execFileSync('mkfifo', [path.join(maps, 'pipe.nav')]);
    symlinkSync('/dev/zero', path.join(maps, 'zero.nav'));
    const r = await walkbench(['project', 'import', project, maps]);
    expect(r.killed).toBe(false);
    expect(r.status).toBe(0);
    expect(r.out).toContain(`skipped ${path.join(maps, 'pipe.nav')}: is a FIFO, not a regular file`);
    expect(r.out).toContain(`skipped ${path.join(maps, 'zero.nav')}: is a symbolic link to a character device`);
    expect(r.out).toContain('1 added, 0 changed, 0 unchanged, 2 skipped');
  }, 30_000);

  it('project export refuses a target file that is a FIFO, and writes nothing', async () => {
    const project = path.join(tmp, 'export.wbproj');
    await run('create', project, '--game', 'source');
    expect((await run('import', project, itemtest, '--module', 'maps')).status).toBe(0);
    const game = path.join(tmp, 'game');
    mkdirSync(path.join(game, 'maps'), { recursive: true });
    execFileSync('mkfifo', [path.join(game, 'maps', 'itemtest.nav')]);
    const r = await walkbench(['project', 'export', project, '--to', game]);
    expect(r.killed).toBe(false);
    expect(r.status).toBe(1);
    expect(r.out).toContain(`refused maps/itemtest.nav: ${path.join(game, 'maps', 'itemtest.nav')} is a FIFO, not a regular file`);
  }, 30_000);
});

describe('the services refuse special files before opening them', () => {
  it('files.open and files.inspect answer not-a-file for a FIFO and a link to /dev/zero', async () => {
    const service = createWalkbenchService();
    for (const method of ['files.open', 'files.inspect'] as const) {
      await expect(service[method]({ path: fifo })).rejects.toThrow(new ServiceError('not-a-file', `${fifo}: is a FIFO, not a regular file`));
      await expect(service[method]({ path: zero })).rejects.toThrow(`${zero}: is a symbolic link to a character device, not a regular file`);
    }
  });

  it('readBytes refuses a FIFO without opening it for a blocking read', async () => {
    const started = Date.now();
    await expect(readBytes(fifo)).rejects.toThrow(`${fifo}: is a FIFO, not a regular file`);
    await expect(readBytes('/dev/null')).rejects.toThrow('/dev/null: is a character device, not a regular file');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
