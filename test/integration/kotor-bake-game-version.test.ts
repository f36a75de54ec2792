import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakeWokCommand, kotorBakeUsage, kotorGameOfFolder } from '../../electron/cli/commands/kotor-bake';
import { UsageError } from '../../electron/cli/cli-io';
import { fixtureName, fixturesRoot, listFixtures } from '../support/fixtures';
import { commandRunner } from '../support/run-command';

/**
 * `walkbench bake` picks the normals' arithmetic by the game the room comes from:
 * --game-version, else the --game folder's game, else the input's own normals.
 */
const run = commandRunner(bakeWokCommand);
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-kotor-game-'));
const tsl = path.join(fixturesRoot, 'kotor2/203tell.wok');
const k1Rooms = listFixtures('kotor/k1-blackvulkar', ['.wok']);

interface BakeJson {
  normals: { rule: string; from: string; agreement?: Record<string, number> };
  sections: Record<string, { identical: boolean; differing: number }>;
}

async function bakeJson(file: string, ...options: string[]): Promise<BakeJson> {
  const r = await run(file, '-o', path.join(tmp, path.basename(file)), '--compare', file, '--json', ...options);
  expect(r.err).toBe('');
  expect(r.status).toBe(0);
  return (JSON.parse(r.out) as BakeJson[])[0]!;
}

/** A game folder with a surfacemat.2da in override (for --game's table) and `marker`. */
function gameFolder(name: string, marker: { file?: string; dir?: string }): string {
  const root = path.join(tmp, name);
  mkdirSync(path.join(root, 'override'), { recursive: true });
  const rows = Array.from({ length: 31 }, (_, i) => `${i} m${i} ${[1, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 16, 18, 20, 21, 22].includes(i) ? 1 : 0}`);
  writeFileSync(path.join(root, 'override', 'surfacemat.2da'), ['2DA V2.0', '', 'label Walk', ...rows, ''].join('\n'));
  if (marker.file) writeFileSync(path.join(root, marker.file), '');
  if (marker.dir) mkdirSync(path.join(root, marker.dir));
  return root;
}

describe('walkbench bake: normals by the game (KotOR 1 or TSL)', () => {
  it('the usage names the option and how the game is found otherwise', () => {
    expect(kotorBakeUsage).toMatch(/--game-version 1\|2/);
    expect(kotorBakeUsage).toMatch(/swkotor2\.exe/);
  });

  it('TSL room with --game-version 2: normals and planes identical; with 1: 41 normals differ', async () => {
    const two = await bakeJson(tsl, '--game-version', '2');
    expect(two.normals).toMatchObject({ rule: 'kotor2', from: 'option' });
    expect(two.sections.normals).toMatchObject({ identical: true });
    expect(two.sections.planes).toMatchObject({ identical: true });
    const one = await bakeJson(tsl, '--game-version', '1');
    expect(one.sections.normals).toMatchObject({ identical: false, differing: 41 });
  });

  it('K1 rooms with --game-version 1 stay identical, and so does the default', async () => {
    expect(k1Rooms.length).toBeGreaterThan(0);
    for (const room of k1Rooms) {
      for (const options of [['--game-version', '1'], []]) {
        const r = await bakeJson(room, ...options);
        expect(r.normals.rule, fixtureName(room)).toBe('kotor1');
        expect(r.sections.normals!.identical, `${fixtureName(room)} ${options.join(' ')}`).toBe(true);
        expect(r.sections.planes!.identical, fixtureName(room)).toBe(true);
      }
    }
  });

  it("without an option or game folder, follows the input's own normals and says so", async () => {
    const r = await bakeJson(tsl);
    expect(r.normals).toMatchObject({ rule: 'kotor2', from: 'input normals', agreement: { kotor1: 1168, kotor2: 1209 } });
    expect(r.sections.normals!.identical).toBe(true);
    const plain = await run(tsl, '-o', path.join(tmp, 'plain.wok'));
    expect(plain.out).toMatch(/normals by KotOR 2 \(TSL\) arithmetic \(from the input's own normals: 1168 of 1209 faces follow KotOR 1's, 1209 TSL's\)/);
  });

  it('takes the game from the --game folder: swkotor2.exe or StreamVoice is TSL, swkotor.exe or StreamWaves is KotOR', async () => {
    const tslExe = gameFolder('tsl-exe', { file: 'SWKOTOR2.EXE' });
    const tslVoice = gameFolder('tsl-voice', { dir: 'StreamVoice' });
    const k1Exe = gameFolder('k1-exe', { file: 'swkotor.exe' });
    const k1Waves = gameFolder('k1-waves', { dir: 'streamwaves' });
    const neither = gameFolder('neither', {});
    expect(await kotorGameOfFolder(tslExe)).toBe('kotor2');
    expect(await kotorGameOfFolder(tslVoice)).toBe('kotor2');
    expect(await kotorGameOfFolder(k1Exe)).toBe('kotor1');
    expect(await kotorGameOfFolder(k1Waves)).toBe('kotor1');
    expect(await kotorGameOfFolder(neither)).toBeUndefined();
    const fromTsl = await bakeJson(tsl, '--game', tslExe);
    expect(fromTsl.normals).toMatchObject({ rule: 'kotor2', from: 'game folder' });
    expect(fromTsl.sections.normals!.identical).toBe(true);
    // The folder's game wins over the file's own normals.
    const fromK1 = await bakeJson(tsl, '--game', k1Waves);
    expect(fromK1.normals).toMatchObject({ rule: 'kotor1', from: 'game folder' });
    expect(fromK1.sections.normals!.identical).toBe(false);
    // A folder that shows neither game leaves it to the file.
    expect((await bakeJson(tsl, '--game', neither)).normals.from).toBe('input normals');
    // And the option wins over the folder.
    expect((await bakeJson(tsl, '--game', tslExe, '--game-version', '1')).normals).toMatchObject({ rule: 'kotor1', from: 'option' });
  });

  it('refuses a --game-version other than 1 or 2', async () => {
    await expect(run(tsl, '-o', path.join(tmp, 'x.wok'), '--game-version', '3')).rejects.toBeInstanceOf(UsageError);
  });
});
