import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakeWokCommand } from '../../electron/cli/commands/kotor-bake';
import { UsageError } from '../../electron/cli/cli-io';
import { KotorResType } from '../../shared/formats/aurora/resource-types';
import { TwoDaBinary } from '../../shared/formats/aurora/twoda-binary';
import { readBwm } from '../../shared/formats/kotor/bwm-reader';
import { validateBwm } from '../../shared/formats/kotor/bwm-validate';
import { fixturesRoot } from '../support/fixtures';
import { commandRunner } from '../support/run-command';
import { buildBif, buildKey } from '../unit/kotor-files/key-bif-builder';

const run = commandRunner(bakeWokCommand);

interface SectionJson {
  identical: boolean;
  maxDifference: number | null;
  count: number;
  sameShapeNodes?: number;
}

interface MaterialJson {
  material: number;
  faces: number;
  walkable: boolean;
  tools: Record<string, boolean>;
}

/** surfacemat.2da rows 0–22 with only `walkable` ids walkable, as text V2.0. */
function surfacematText(walkable: readonly number[]): string {
  const rows = Array.from({ length: 23 }, (_, i) => `${i} m${i} ${walkable.includes(i) ? 1 : 0}`);
  return ['2DA V2.0', '', 'label Walk', ...rows, ''].join('\n');
}

const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-kotor-bake-'));
const room = path.join(fixturesRoot, 'kotor/k1-blackvulkar/m10aa_08a.wok');
const pwk = path.join(fixturesRoot, 'kotor/k1cp/plc_fccage2.pwk');

describe('walkbench bake (KotOR BWM)', () => {
  it('rebuilds a game room and reports per section with --compare --json', async () => {
    const out = path.join(tmp, 'm10aa_08a.wok');
    const r = await run(room, '-o', out, '--compare', room, '--json');
    expect(r.err).toBe('');
    expect(r.status).toBe(0);
    const [result] = JSON.parse(r.out) as { format: string; ok: boolean; sections: Record<string, SectionJson>; walkability: string }[];
    expect(result).toMatchObject({ format: 'kotor-bwm', ok: true, walkability: 'default (kotorblender)' });
    const sections = result!.sections;
    expect(Object.keys(sections)).toEqual(['vertices', 'faces', 'materials', 'normals', 'planes', 'aabb', 'adjacency', 'edges', 'perimeters']);
    for (const name of ['faces', 'materials', 'adjacency', 'edges', 'perimeters']) expect(sections[name], name).toMatchObject({ identical: true });
    expect(sections.normals!.maxDifference).toBeLessThan(2e-7);
    expect(sections.faces!.maxDifference).toBeNull();
    const written = readBwm(new Uint8Array(readFileSync(out)));
    expect(written.faces.length).toBe(160 * 3);
    expect(validateBwm(written)).toEqual([]);
  });

  it('prints a readable per-section report without --json', async () => {
    const r = await run(room, '-o', path.join(tmp, 'plain.wok'), '--compare', room);
    expect(r.status).toBe(0);
    expect(r.out).toMatch(/adjacency\s+identical/);
    expect(r.out).toMatch(/perimeters\s+identical/);
    expect(r.out).toMatch(/aabb\s+differs/);
  });

  it('takes walkability from a surfacemat.2da and shows where tools disagree', async () => {
    const table = path.join(tmp, 'surfacemat.2da');
    // Only Stone (4) walkable: every other walkable material of the room moves to the non-walkable block.
    writeFileSync(table, surfacematText([4]));
    const r = await run(room, '-o', path.join(tmp, 'stone.wok'), '--surfacemat', table, '--json');
    expect(r.status).toBe(0);
    const [result] = JSON.parse(r.out) as { walkability: string; counts: { walkableFaces: number }; walkabilityDisagreements: { material: number }[] }[];
    expect(result!.walkability).toBe(table);
    const doc = readBwm(new Uint8Array(readFileSync(room)));
    expect(result!.counts.walkableFaces).toBe(Array.from(doc.materials).filter((m) => m === 4).length);
    const used = new Set(Array.from(doc.materials).filter((m) => m !== 4 && m !== 2 && m !== 7));
    expect(result!.walkabilityDisagreements.map((d) => d.material).filter((m) => used.has(m)).length).toBe(used.size);
  });

  it('reports normals and planes identical and the share of AABB nodes with the game\'s faces and flags', async () => {
    const r = await run(room, '-o', path.join(tmp, 'shape.wok'), '--compare', room, '--json');
    const [result] = JSON.parse(r.out) as { sections: Record<string, SectionJson>; materials: MaterialJson[] }[];
    expect(result!.sections.normals).toMatchObject({ identical: true });
    expect(result!.sections.planes).toMatchObject({ identical: true });
    const aabb = result!.sections.aabb!;
    expect(aabb.count).toBe(319);
    expect(aabb.sameShapeNodes).toBeGreaterThanOrEqual(305);
    expect(aabb.sameShapeNodes).toBeLessThan(aabb.count);
    // Every material of the file with its face count and each tool's verdict.
    const doc = readBwm(new Uint8Array(readFileSync(room)));
    expect(result!.materials.reduce((n, m) => n + m.faces, 0)).toBe(160);
    expect(result!.materials.map((m) => m.material)).toEqual([...new Set(doc.materials)].sort((a, b) => a - b));
    for (const m of result!.materials) expect(Object.keys(m.tools)).toEqual(['default (kotorblender)', 'MDLEdit', 'PyKotor']);
    const plain = await run(room, '-o', path.join(tmp, 'shape2.wok'), '--compare', room);
    expect(plain.out).toMatch(/aabb\s+differs in \d+ of 319 entries.*; \d+ of 319 nodes \([\d.]+ %\) have the same faces and plane flag/);
    expect(plain.out).toMatch(/every tool's table agrees with default \(kotorblender\)/);
  });

  it('takes surfacemat.2da from a game folder: override first, else the binary 2DA in chitin.key', async () => {
    const doc = readBwm(new Uint8Array(readFileSync(room)));
    const walkableIn = (ids: readonly number[]) => Array.from(doc.materials).filter((m) => ids.includes(m)).length;
    const game = path.join(tmp, 'game');
    mkdirSync(path.join(game, 'Data'), { recursive: true });
    // chitin.key → data/2da.bif holding a binary surfacemat.2da where Nonwalk (7) and Metal (10) are walkable.
    const binary = TwoDaBinary.create(['label', 'Walk']);
    for (let i = 0; i < 23; i++) binary.addRow({ label: `m${i}`, Walk: i === 7 || i === 10 ? '1' : '0' }, String(i));
    writeFileSync(path.join(game, 'Data', '2DA.bif'), buildBif([{ type: KotorResType.TWODA, data: binary.write() }]));
    writeFileSync(path.join(game, 'chitin.key'), buildKey(['data\\2da.bif'], [{ resRef: 'surfacemat', type: KotorResType.TWODA, bif: 0, index: 0 }]));
    const fromKey = await run(room, '-o', path.join(tmp, 'key.wok'), '--game', game, '--json');
    expect(fromKey.err).toBe('');
    const [k] = JSON.parse(fromKey.out) as { walkability: string; counts: { walkableFaces: number }; materials: MaterialJson[] }[];
    expect(k!.walkability).toMatch(/surfacemat\.2da from .*2da\.bif/i);
    expect(k!.counts.walkableFaces).toBe(walkableIn([7, 10]));
    expect(k!.counts.walkableFaces).toBe(160);
    expect(k!.materials.find((m) => m.material === 7)).toMatchObject({ walkable: true, tools: { 'default (kotorblender)': false, MDLEdit: false, PyKotor: false } });
    // An override copy (text, any case) shadows the key's.
    mkdirSync(path.join(game, 'Override'));
    writeFileSync(path.join(game, 'Override', 'SurfaceMat.2da'), surfacematText([4]));
    const fromOverride = await run(room, '-o', path.join(tmp, 'override.wok'), '--game', game, '--json');
    const [o] = JSON.parse(fromOverride.out) as { walkability: string; counts: { walkableFaces: number } }[];
    expect(o!.walkability).toMatch(/Override\/SurfaceMat\.2da/);
    expect(o!.counts.walkableFaces).toBe(walkableIn([4]));
  });

  it('names the table file when it is malformed or missing, and refuses --surfacemat with --game', async () => {
    const bad = path.join(tmp, 'bad.2da');
    writeFileSync(bad, 'not a 2da');
    const r = await run(room, '-o', path.join(tmp, 'z.wok'), '--surfacemat', bad);
    expect(r.status).toBe(1);
    expect(r.err).toContain(bad);
    expect(r.err).toMatch(/2DA V2\.b|2DA V2\.0/);
    const empty = path.join(tmp, 'empty-game');
    mkdirSync(empty);
    const r2 = await run(room, '-o', path.join(tmp, 'z.wok'), '--game', empty);
    expect(r2.status).toBe(1);
    expect(r2.err).toMatch(/no surfacemat\.2da/);
    await expect(run(room, '-o', path.join(tmp, 'z.wok'), '--game', empty, '--surfacemat', bad)).rejects.toBeInstanceOf(UsageError);
  });

  it('bakes a PWK without AABB or walk tables', async () => {
    const out = path.join(tmp, 'cage.pwk');
    const r = await run(pwk, '-o', out, '--compare', pwk, '--json');
    expect(r.status).toBe(0);
    const [result] = JSON.parse(r.out) as { sections: Record<string, SectionJson> }[];
    for (const name of ['aabb', 'adjacency', 'edges', 'perimeters', 'faces']) expect(result!.sections[name]!.identical).toBe(true);
    expect(readFileSync(out).length).toBe(readFileSync(pwk).length);
  });

  it('fails in one line on a malformed file and refuses a missing -o', async () => {
    const bad = path.join(tmp, 'bad.wok');
    writeFileSync(bad, 'BWM V1.0 too short');
    const r = await run(bad, '-o', path.join(tmp, 'x.wok'));
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/kotor-bwm at offset 0/);
    await expect(run(room)).rejects.toBeInstanceOf(UsageError);
    // A face naming a vertex past the end reads (validation reports it) but cannot be baked.
    const broken = new Uint8Array(readFileSync(room));
    const dv = new DataView(broken.buffer);
    dv.setUint32(dv.getUint32(0x54, true), 100000, true);
    const brokenFile = path.join(tmp, 'broken.wok');
    writeFileSync(brokenFile, broken);
    const r2 = await run(brokenFile, '-o', path.join(tmp, 'y.wok'));
    expect(r2.status).toBe(1);
    expect(r2.err).toMatch(/face 0 uses vertex 100000/);
  });
});
