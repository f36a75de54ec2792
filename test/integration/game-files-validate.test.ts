import { describe, expect, it } from 'vitest';
import { validateCommand } from '../../electron/cli/commands/validate-command';
import { fixtureName, listFixtures } from '../support/fixtures';
import { commandRunner } from '../support/run-command';

/**
 * Severity as the game sees it (issue 15): what a game ships or its own tools wrote, and the
 * game loads, is never an error, so a build script that validates game files passes on the
 * games' own data. Walked from the fixture folders, never a fixed list.
 *
 * Which fixtures count as the games' own: NWN2 TRX/TRN baked by the NWN2 toolset
 * (`nwn2/kaedrin`, `nwn2/mordmansion`), KotOR rooms written by BioWare's tools
 * (`kotor/k1-blackvulkar`, `kotor2`), and `.nav` files the games' own `nav_generate` wrote
 * (`source`, `source-maps`). The Skyrim fixtures are mods that delete vanilla navmeshes, which
 * the game crashes on: their only errors must be that.
 */
const validate = commandRunner(validateCommand);

interface JsonResult {
  file: string;
  ok: boolean;
  errors: { code?: string; message: string }[];
  warnings: { code?: string; message: string }[];
}

async function findings(file: string): Promise<JsonResult> {
  const run = await validate(file, '--json');
  const [result] = JSON.parse(run.out) as JsonResult[];
  if (!result) throw new Error(`validate printed no result for ${file}`);
  expect(run.status, `${fixtureName(file)}: exit status with ${result.errors.length} error(s)`).toBe(result.ok ? 0 : 1);
  return result;
}

const gameMade: [string, string[]][] = [
  ['nwn2/kaedrin', ['.trx', '.trn']],
  ['nwn2/mordmansion', ['.trx', '.trn']],
  ['kotor/k1-blackvulkar', ['.wok']],
  ['kotor2', ['.wok']],
  ['source', ['.nav']],
  ['source-maps', ['.nav']],
];

describe('files the games ship and load are not invalid', () => {
  for (const [folder, extensions] of gameMade) {
    const files = listFixtures(folder, extensions);
    it(`${folder}: every ${extensions.join('/')} validates with no error (${files.length} files)`, async () => {
      expect(files.length).toBeGreaterThan(0);
      const invalid: string[] = [];
      for (const file of files) {
        const r = await findings(file);
        if (r.errors.length > 0) invalid.push(`${fixtureName(file)}: ${r.errors.slice(0, 3).map((e) => `${e.message} [${e.code}]`).join('; ')}`);
      }
      expect(invalid).toEqual([]);
    }, 120_000);
  }

  it('the tolerated oddities of game files are warnings that say why', async () => {
    // The BioWare room with a zero-area face and the TSL room whose edges are shared by three
    // faces: both load in game, so each is a warning, and the file is valid.
    const rooms = [...listFixtures('kotor/k1-blackvulkar', ['.wok']), ...listFixtures('kotor2', ['.wok'])];
    const codes = new Set<string>();
    for (const file of rooms) for (const w of (await findings(file)).warnings) codes.add(w.code ?? '');
    expect([...codes].some((c) => c.includes('degenerate') || c.includes('zero-area'))).toBe(true);
    expect([...codes].some((c) => c.includes('non-manifold'))).toBe(true);
  }, 120_000);

  it('Skyrim: a mod deleting a navmesh is an error (the game crashes on it), and nothing else is', async () => {
    for (const file of listFixtures('skyrim', ['.esp', '.esm'])) {
      const r = await findings(file);
      for (const e of r.errors) expect(e.code, `${fixtureName(file)}: ${e.message}`).toBe('navm.deleted');
    }
  }, 120_000);
});
