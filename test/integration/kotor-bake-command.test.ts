import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakeWokCommand } from '../../electron/cli/commands/kotor-bake';
import { UsageError } from '../../electron/cli/cli-io';
import { readBwm } from '../../shared/formats/kotor/bwm-reader';
import { validateBwm } from '../../shared/formats/kotor/bwm-validate';
import { fixturesRoot } from '../support/fixtures';
import { commandRunner } from '../support/run-command';

const run = commandRunner(bakeWokCommand);

interface SectionJson {
  identical: boolean;
  maxDifference: number | null;
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
    const rows = Array.from({ length: 23 }, (_, i) => `${i} m${i} ${i === 4 ? 1 : 0}`);
    writeFileSync(table, ['2DA V2.0', '', 'label Walk', ...rows, ''].join('\n'));
    const r = await run(room, '-o', path.join(tmp, 'stone.wok'), '--surfacemat', table, '--json');
    expect(r.status).toBe(0);
    const [result] = JSON.parse(r.out) as { walkability: string; counts: { walkableFaces: number }; walkabilityDisagreements: { material: number }[] }[];
    expect(result!.walkability).toBe(table);
    const doc = readBwm(new Uint8Array(readFileSync(room)));
    expect(result!.counts.walkableFaces).toBe(Array.from(doc.materials).filter((m) => m === 4).length);
    const used = new Set(Array.from(doc.materials).filter((m) => m !== 4 && m !== 2 && m !== 7));
    expect(result!.walkabilityDisagreements.map((d) => d.material).filter((m) => used.has(m)).length).toBe(used.size);
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
