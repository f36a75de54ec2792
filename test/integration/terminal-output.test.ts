import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { terminalLines, terminalText } from '../../electron/cli/terminal-text';
import { createErfDocument, putErfResource } from '../../shared/formats/aurora/erf-document';
import { writeErf } from '../../shared/formats/aurora/erf-writer';
import { KotorResType } from '../../shared/formats/aurora/resource-types';
import { fixturesRoot, listFixtures, readFixture, repoRoot } from '../support/fixtures';

/**
 * What the command line prints about files goes to a terminal: a resource name (or a file
 * name) holding escape sequences must show them, not run them (recolour, retitle or clear
 * the user's terminal). And a reader that goes away (`| head`) ends the command quietly.
 */
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-terminal-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const ESC = '\u001b';
const RED = `a${ESC}[31mred`;
const TITLE = `lev${ESC}]0;pwned\u0007el`;

/** The built `walkbench` (bin.mjs and dist/, `npm run build:node`); `closeOut` closes its stdout's reader at once. */
function walkbench(args: string[], options: { closeOut?: boolean } = {}): Promise<{ status: number | null; out: string; err: string }> {
  if (!existsSync(path.join(repoRoot, 'dist/cli/walkbench.mjs'))) throw new Error('dist/cli/walkbench.mjs is missing: run `npm run build:node` before this test');
  const child = spawn(process.execPath, [path.join(repoRoot, 'electron/cli/bin.mjs'), ...args], { cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  if (options.closeOut) child.stdout.destroy();
  else child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, out, err });
    }),
  );
}

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('terminalText', () => {
  it('shows control characters as \\xNN, line breaks included, and invisible marks as \\u{NNNN}', () => {
    expect(terminalText(`${RED}\n`)).toBe('a\\x1b[31mred\\x0a');
    expect(terminalText('\u009b2J\u202eevil')).toBe('\\x9b2J\\u{202e}evil');
    expect(terminalText('plain name.wok')).toBe('plain name.wok');
    expect(terminalLines(`one ${RED}\ttwo\n`)).toBe('one a\\x1b[31mred\ttwo\n');
  });
});

describe('names from files, printed by the command line', () => {
  const project = path.join(tmp, 'escapes.wbproj');
  const archive = path.join(tmp, 'esc.mod');
  beforeAll(async () => {
    const mod = createErfDocument('MOD', 'V1.0');
    putErfResource(mod, { resRef: RED, type: KotorResType.WOK, data: readFixture(path.join(fixturesRoot, 'kotor/k1-blackvulkar/m10aa_09a.wok')) });
    writeFileSync(archive, writeErf(mod));
    expect((await walkbench(['project', 'create', project, '--game', 'kotor'])).status).toBe(0);
  }, 60_000);

  it('import, rebake and export show a resource name with an escape sequence escaped', async () => {
    const imported = await walkbench(['project', 'import', project, archive]);
    expect(imported.status).toBe(0);
    expect(imported.out).toContain('a\\x1b[31mred.wok');
    expect(imported.out + imported.err).not.toMatch(CONTROLS);

    const rebaked = await walkbench(['project', 'rebake', project]);
    expect(rebaked.status).toBe(0);
    expect(rebaked.err).toContain('a\\x1b[31mred.wok');
    expect(rebaked.out + rebaked.err).not.toMatch(CONTROLS);

    const game = path.join(tmp, 'game');
    mkdirSync(path.join(game, 'override'), { recursive: true });
    const exported = await walkbench(['project', 'export', project, '--to', game, '--dry-run']);
    expect(exported.out).toContain('refused esc/a\\x1b[31mred.wok: the name contains the control character U+001B');
    expect(exported.out + exported.err).not.toMatch(CONTROLS);
  }, 120_000);

  it('info and validate show a file name with an escape sequence escaped', async () => {
    const named = path.join(tmp, `${TITLE}.nav`);
    copyFileSync(path.join(fixturesRoot, 'source/tf2/itemtest.nav'), named);
    for (const command of ['info', 'validate', 'roundtrip']) {
      const r = await walkbench([command, named]);
      expect(r.status, command).toBe(0);
      expect(r.out, command).toContain('lev\\x1b]0;pwned\\x07el.nav');
      expect(r.out + r.err, command).not.toMatch(CONTROLS);
    }
    // A malformed file's one-line error quotes its name the same way.
    const broken = path.join(tmp, `${RED}.nav`);
    writeFileSync(broken, 'not a nav');
    const bad = await walkbench(['info', broken]);
    expect(bad.status).toBe(1);
    expect(bad.err).toContain('a\\x1b[31mred.nav');
    expect(bad.err).not.toMatch(CONTROLS);
  }, 60_000);
});

describe('a reader that goes away (walkbench … | head)', () => {
  it('ends the command quietly with status 0: no EPIPE stack', async () => {
    const project = path.join(tmp, 'pipe.wbproj');
    expect((await walkbench(['project', 'create', project, '--game', 'nwn2'])).status).toBe(0);
    const info = await walkbench(['project', 'info', project], { closeOut: true });
    expect(info).toMatchObject({ status: 0, err: '' });
    const many = listFixtures('nwn2/kaedrin', ['.trx']);
    const files = await walkbench(['info', ...many], { closeOut: true });
    expect(files).toMatchObject({ status: 0, err: '' });
  }, 60_000);
});
