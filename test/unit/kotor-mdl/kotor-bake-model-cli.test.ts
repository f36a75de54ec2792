import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakeWokCommand } from '../../../electron/cli/commands/kotor-bake';
import { fixturesRoot, listFixtures } from '../../support/fixtures';
import { commandRunner } from '../../support/run-command';

const run = commandRunner(bakeWokCommand);
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-kotor-model-bake-'));
const rooms = listFixtures('kotor/k1-blackvulkar', ['.wok']);
const modelOf = (wok: string): string => path.join(fixturesRoot, 'kotor/k1-blackvulkar-models', `${path.basename(wok, '.wok')}.mdl`);

/** Rooms whose model bake is the game file byte for byte (the other three differ in 1–2 plane flags). */
const BYTE_IDENTICAL = ['m10aa_01c.wok', 'm10aa_05a.wok', 'm10aa_06a.wok', 'm10aa_08b.wok', 'm10aa_09b.wok'];

describe('walkbench bake ROOM.wok --model ROOM.mdl', () => {
  it('writes the game file byte for byte where the model decides every plane flag', async () => {
    let identical = 0;
    for (const wok of rooms) {
      const out = path.join(tmp, path.basename(wok));
      const r = await run(wok, '--model', modelOf(wok), '-o', out);
      expect(r.status, r.err).toBe(0);
      const same = Buffer.compare(readFileSync(out), readFileSync(wok)) === 0;
      expect(same, path.basename(wok)).toBe(BYTE_IDENTICAL.includes(path.basename(wok)));
      if (same) identical++;
    }
    expect(identical).toBe(5);
  });

  it('reports the model, the LYT position and per-section identity in --json, without -o', async () => {
    const wok = rooms.find((r) => r.endsWith('m10aa_09a.wok'))!;
    const r = await run(wok, '--model', modelOf(wok), '--compare', wok, '--json');
    expect(r.status, r.err).toBe(0);
    const [entry] = JSON.parse(r.out) as { output: string | null; model: { node: string; aabb: string; lytPosition: number[] }; sections: Record<string, { identical: boolean; differing: number; note?: string }> }[];
    expect(entry!.output).toBeNull();
    expect(entry!.model.node).toBe('walkmesh_16');
    expect(entry!.model.aabb).toBe('model');
    expect(entry!.model.lytPosition.map((v) => Number(v.toFixed(3)))).toEqual([144.142, 135.861, 2.25]);
    for (const s of ['vertices', 'faces', 'materials', 'normals', 'planes', 'adjacency', 'edges', 'perimeters']) expect(entry!.sections[s]!.identical, s).toBe(true);
    expect(entry!.sections.aabb!.differing).toBe(2);
    expect(entry!.sections.aabb!.note).toMatch(/exactly the same box/);
  });

  it('says the AABB section depends on the model when there is none', async () => {
    const wok = rooms[0]!;
    const r = await run(wok, '--compare', wok);
    expect(r.status).toBe(0);
    expect(r.out).toMatch(/aabb\s+differs/);
    expect(r.out).toMatch(/depends on the room model/);
    expect(r.out).toMatch(/still a valid tree/);
  });

  it("names both files when the model is not the room's, and needs -o or --compare", async () => {
    const r = await run(rooms[0]!, '--model', modelOf(rooms[1]!), '-o', path.join(tmp, 'x.wok'));
    expect(r.status).not.toBe(0);
    expect(r.err).toMatch(/m10aa_01c\.wok with .*m10aa_03a\.mdl: the WOK has 68 faces but the model's walkmesh node walkmesh_8 has 123/);
    await expect(run(rooms[0]!, '--model', modelOf(rooms[0]!))).rejects.toThrow(/needs -o/);
  });
});
