import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFixtures } from '../support/fixtures';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const launcher = path.join(repoRoot, 'electron/cli/bin.mjs');
let work: string;
let hook: string;

beforeAll(() => {
  // Not rebuilt here: other tests run the built CLI at the same time (as project-kill.test.ts).
  if (!existsSync(path.join(repoRoot, 'dist/cli/walkbench.mjs'))) throw new Error('dist/cli/walkbench.mjs is missing: run `npm run build:node` (npm test does) before this test');
  work = mkdtempSync(path.join(tmpdir(), 'wb-lazy-'));
  // A module loader hook (Node ≥ 20.6) that appends every file module the process loads to a log.
  hook = path.join(work, 'log-loads.mjs');
  const hookBody = [
    "import { appendFileSync } from 'node:fs';",
    'let log;',
    'export function initialize(data) { log = data.log; }',
    "export async function load(url, context, next) { if (url.startsWith('file:')) appendFileSync(log, url + '\\n'); return next(url, context); }",
  ].join('\n');
  writeFileSync(
    hook,
    `import { register } from 'node:module';\nregister('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hookBody)}), { data: { log: process.env.WB_LOAD_LOG } });\n`,
  );
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The source files (from each loaded bundle file's source map) that one run of the built CLI loaded. */
function sourcesLoadedBy(args: readonly string[]): { status: number | null; sources: Set<string> } {
  const log = path.join(work, `loads-${args[0]}-${Date.now()}.txt`);
  writeFileSync(log, '');
  const r = spawnSync(process.execPath, ['--import', hook, launcher, ...args], { encoding: 'utf8', env: { ...process.env, WB_LOAD_LOG: log } });
  const sources = new Set<string>();
  for (const url of readFileSync(log, 'utf8').split('\n')) {
    if (!url.startsWith('file:')) continue;
    const file = fileURLToPath(url);
    if (!file.startsWith(path.join(repoRoot, 'dist')) || !existsSync(`${file}.map`)) continue;
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
    for (const s of map.sources) sources.add(path.relative(repoRoot, path.resolve(path.dirname(file), s)).split(path.sep).join('/'));
  }
  return { status: r.status, sources };
}

const smallest = (files: string[]) => files.reduce((a, b) => (readFileSync(a).length <= readFileSync(b).length ? a : b));

describe('the built CLI loads only what a command needs', () => {
  it('info on a KotOR walkmesh loads its reader, not the NWN2 bakers, the project store or the server', () => {
    const wok = smallest(listFixtures('kotor', ['.wok']));
    const { status, sources } = sourcesLoadedBy(['info', wok]);
    expect(status).toBe(0);
    expect(sources).toContain('shared/formats/kotor/bwm-reader.ts');
    expect(sources).toContain('electron/cli/commands/info-command.ts');
    const loaded = [...sources];
    expect(loaded.filter((s) => s.startsWith('shared/bakers/nwn2/'))).toEqual([]);
    expect(loaded.filter((s) => s.startsWith('electron/services/project/') || s.startsWith('electron/services/bake-pool/'))).toEqual([]);
    expect(sources).not.toContain('electron/cli/commands/serve-command.ts');
    expect(sources).not.toContain('electron/cli/commands/bake-command.ts');
  });

  it('bake on a TRX does load the NWN2 baker (the split follows the command)', () => {
    const trx = smallest(listFixtures('nwn2', ['.trx']));
    const { status, sources } = sourcesLoadedBy(['bake', trx, '-o', path.join(work, 'out.trx')]);
    expect(status).toBe(0);
    expect(sources).toContain('shared/bakers/nwn2/trx-rebake.ts');
    expect(sources).not.toContain('electron/cli/commands/serve-command.ts');
  });

  it('--version loads no command', () => {
    const { status, sources } = sourcesLoadedBy(['--version']);
    expect(status).toBe(0);
    expect([...sources].filter((s) => s.startsWith('electron/cli/commands/') || s.startsWith('shared/'))).toEqual([]);
  });
});
