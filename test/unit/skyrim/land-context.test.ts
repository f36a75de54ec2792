import { describe, expect, it } from 'vitest';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { checkLevelContextPiece } from '../../../shared/model/level-context';
import { LAND_CELL_UNITS, LAND_SIDE, landHeightAt, readLandRecord } from '../../../shared/formats/skyrim/land-record';
import { walkRecords, type PluginDocument, type PluginRecord } from '../../../shared/formats/skyrim/plugin-document';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { SkyrimLoadOrder, skyrimLevelContext, skyrimLevelContextIn } from '../../../shared/formats/skyrim/skyrim-level-context';
import { listFixtures, readFixture } from '../../support/fixtures';
import { env } from './skyrim-helpers';

const file = listFixtures('skyrim-land', ['.esp']).find((f) => f.includes('DawnOfTheSilverHand'))!;
const PLUGIN = 'DawnOfTheSilverHand.esp';

function read(): PluginDocument {
  return readPlugin(readFixture(file), env);
}

function landOf(doc: PluginDocument): PluginRecord {
  const lands = [...walkRecords(doc.items)].filter((r) => r.record.signature === 'LAND');
  expect(lands).toHaveLength(1);
  return lands[0]!.record;
}

function cellOfLand(doc: PluginDocument): number {
  for (const { record, parents } of walkRecords(doc.items)) if (record.signature === 'LAND') return parents[parents.length - 1]!.label;
  throw new Error('no LAND');
}

/**
 * How well the heights agree with the stored normals (VNML): the dot product of the
 * normal of the height field (central differences, 128 units apart) with the stored one,
 * over the inner vertices. `transpose` decodes rows as columns, to show the check tells.
 */
function normalAgreement(heights: Float32Array, normals: Int8Array, transpose = false): { median: number; p5: number } {
  const dots: number[] = [];
  const at = (c: number, r: number) => (transpose ? heights[c * LAND_SIDE + r]! : heights[r * LAND_SIDE + c]!);
  for (let r = 1; r < LAND_SIDE - 1; r++) {
    for (let c = 1; c < LAND_SIDE - 1; c++) {
      const dx = (at(c + 1, r) - at(c - 1, r)) / 256;
      const dy = (at(c, r + 1) - at(c, r - 1)) / 256;
      const n = [-dx, -dy, 1];
      const v = (r * LAND_SIDE + c) * 3;
      const s = [normals[v]!, normals[v + 1]!, normals[v + 2]!];
      dots.push((n[0]! * s[0]! + n[1]! * s[1]! + n[2]! * s[2]!) / (Math.hypot(...n) * Math.hypot(...s)));
    }
  }
  dots.sort((a, b) => a - b);
  return { median: dots[dots.length >> 1]!, p5: dots[Math.floor(dots.length * 0.05)]! };
}

describe('Skyrim LAND record', () => {
  it('decodes the fixture LAND: heights, normals, colours and texture layers', () => {
    const land = readLandRecord(landOf(read()));
    expect(land.heights).toHaveLength(LAND_SIDE * LAND_SIDE);
    expect(land.normals).toHaveLength(LAND_SIDE * LAND_SIDE * 3);
    expect(land.colours).toHaveLength(LAND_SIDE * LAND_SIDE * 3);
    expect(land.heightUnused).toHaveLength(3);
    // 4 base layers (one per quadrant) and 16 alpha layers, each alpha with its VTXT.
    expect(land.layers.filter((l) => l.kind === 'base').map((l) => l.quadrant).sort()).toEqual([0, 1, 2, 3]);
    const alphas = land.layers.filter((l) => l.kind === 'alpha');
    expect(alphas).toHaveLength(16);
    for (const a of alphas) {
      expect(a.points!.position.length).toBeGreaterThan(0);
      for (const p of a.points!.position) expect(p).toBeLessThan(289);
      for (const o of a.points!.opacity) expect(o >= 0 && o <= 1).toBe(true);
    }
  });

  it('gives heights whose slopes match the stored normals (the row accumulation and the ×8 scale)', () => {
    // No navmesh of this plugin lies in the LAND's cell (WhiterunSkyforge, WhiterunWorld 7,-1:
    // its navmeshes are interiors and Tamriel 24,1), so the decoding is checked against the
    // record's own VNML, which the Creation Kit computes from the same heights.
    const land = readLandRecord(landOf(read()));
    const fit = normalAgreement(land.heights!, land.normals!);
    expect(fit.median).toBeGreaterThan(0.999);
    expect(fit.p5).toBeGreaterThan(0.98);
    const transposed = normalAgreement(land.heights!, land.normals!, true);
    expect(transposed.median).toBeLessThan(0.95);
    // The wrong scale (steps of 1 unit instead of 8) flattens the slopes: the fit drops.
    const flat = normalAgreement(land.heights!.map((h) => h / 8), land.normals!);
    expect(flat.p5).toBeLessThan(fit.p5 - 0.02);
  });

  it('refuses a VHGT of the wrong size, naming the record and the field', () => {
    const doc = read();
    const record = landOf(doc);
    const vhgt = record.subrecords.find((s) => s.signature === 'VHGT')!;
    if (vhgt.kind !== 'raw') throw new Error('VHGT not raw');
    vhgt.data = vhgt.data.subarray(0, 1000);
    let error: unknown;
    try {
      readLandRecord(record);
    } catch (e) {
      error = e;
    }
    expect(isMalformedInputError(error)).toBe(true);
    expect((error as Error).message).toContain('VHGT.size');
    expect((error as Error).message).toContain('0x0204F621');
    // The context turns it into a gap instead of failing.
    const context = skyrimLevelContext({ name: PLUGIN, doc }, { cell: cellOfLand(doc) });
    expect(context.pieces.filter((p) => p.kind === 'terrain')).toHaveLength(0);
    expect(context.gaps.some((g) => g.what.startsWith('LAND 0x0204F621') && g.why.includes('VHGT.size'))).toBe(true);
  });
});

describe('Skyrim level context', () => {
  it('places the LAND of a cell at its grid square (4096 units, vertices 128 apart)', () => {
    const doc = read();
    const land = readLandRecord(landOf(doc));
    const context = skyrimLevelContext({ name: PLUGIN, doc }, { cell: cellOfLand(doc) });
    expect(context.game).toBe('skyrim');
    const terrain = context.pieces.filter((p) => p.kind === 'terrain');
    expect(terrain).toHaveLength(1);
    const t = terrain[0]!;
    checkLevelContextPiece(t);
    expect(t.label).toContain('WhiterunSkyforge (7, -1)');
    expect(t.triangles.length / 3).toBe(2 * 32 * 32);
    expect(t.vertexColours).toHaveLength(LAND_SIDE * LAND_SIDE * 4);
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let v = 0; v < t.positions.length; v += 3) {
      x0 = Math.min(x0, t.positions[v]!);
      x1 = Math.max(x1, t.positions[v]!);
      y0 = Math.min(y0, t.positions[v + 1]!);
      y1 = Math.max(y1, t.positions[v + 1]!);
    }
    expect([x0, y0, x1, y1]).toEqual([7 * LAND_CELL_UNITS, -1 * LAND_CELL_UNITS, 8 * LAND_CELL_UNITS, 0]);
    // The mesh's height at a point equals the height map interpolated there.
    const h = landHeightAt(land.heights!, 7, -1, 7 * 4096 + 1000, -4096 + 3000)!;
    expect(h).toBeGreaterThan(-4200);
    expect(h).toBeLessThan(-2000);
    // Each quadrant's base texture names its triangles.
    expect(t.surfaces!.length).toBeGreaterThan(0);
    expect(t.faceSurface).toHaveLength(2048);
  });

  it('names the base objects of masters that are not loaded, and boxes those a loaded master bounds', () => {
    const doc = read();
    const interior = 0x02007698; // DSilHand_Warehouse
    const without = skyrimLevelContext({ name: PLUGIN, doc }, { cell: interior });
    const gap = without.gaps.find((g) => g.what.startsWith('base object 0x0001601F'));
    expect(gap?.why).toBe('it is in Skyrim.esm, which is not loaded');
    const refs = Number(/\((\d+) references?\)/.exec(gap!.what)![1]);
    expect(refs).toBeGreaterThan(1);
    const boxesBefore = without.pieces.filter((p) => p.kind === 'bounds').reduce((n, p) => n + p.triangles.length / 36, 0);

    // A stand-in Skyrim.esm holding that base object with its bounds (top byte 0: its own).
    const header: PluginRecord = { kind: 'record', signature: 'TES4', flags: 1, formId: 0, versionControl1: 0, formVersion: 43, versionControl2: 0, compressed: false, subrecords: [], sourceOffset: -1 };
    const obnd = new Uint8Array(12);
    const dv = new DataView(obnd.buffer);
    [-10, -20, 0, 10, 20, 30].forEach((v, i) => dv.setInt16(i * 2, v, true));
    const acti: PluginRecord = {
      kind: 'record', signature: 'ACTI', flags: 0, formId: 0x0001601f, versionControl1: 0, formVersion: 43, versionControl2: 0, compressed: false, sourceOffset: -1,
      subrecords: [{ kind: 'raw', signature: 'EDID', data: new TextEncoder().encode('TestCrate\0') }, { kind: 'raw', signature: 'OBND', data: obnd }],
    };
    const master: PluginDocument = { items: [header, { kind: 'group', label: 0x49544341, groupType: 0, timestamp: 0, versionControl: 0, unknown: 0, children: [acti] }] };
    const withMaster = skyrimLevelContext({ name: PLUGIN, doc }, { cell: interior }, [{ name: 'skyrim.esm', doc: master }]);
    expect(withMaster.gaps.some((g) => g.what.startsWith('base object 0x0001601F'))).toBe(false);
    const bounds = withMaster.pieces.filter((p) => p.kind === 'bounds');
    expect(bounds).toHaveLength(1);
    bounds.forEach(checkLevelContextPiece);
    const b = bounds[0]!;
    expect(b.triangles.length / 36).toBe(boxesBefore + refs);
    const s = b.surfaces!.indexOf('ACTI TestCrate');
    expect(s).toBeGreaterThanOrEqual(0);
    // Each such box is 20 × 40 × 30 units (any rotation keeps the edge lengths).
    const box = [...b.faceSurface!].indexOf(s) / 12;
    const corner = (k: number) => [0, 1, 2].map((a) => b.positions[(box * 8 + k) * 3 + a]!);
    const dist = (p: number[], q: number[]) => Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!);
    expect(dist(corner(0), corner(1))).toBeCloseTo(20, 2);
    expect(dist(corner(0), corner(2))).toBeCloseTo(40, 2);
    expect(dist(corner(0), corner(4))).toBeCloseTo(30, 2);
  });

  it('gives the worldspace context: its LAND cells and the references of its cells', () => {
    const doc = read();
    const context = skyrimLevelContext({ name: PLUGIN, doc }, { worldspace: 0x0001a26f });
    expect(context.pieces.filter((p) => p.kind === 'terrain')).toHaveLength(1);
    const limited = skyrimLevelContext({ name: PLUGIN, doc }, { worldspace: 0x0001a26f }, [], { maxTerrainCells: 0 });
    expect(limited.pieces.filter((p) => p.kind === 'terrain')).toHaveLength(0);
    expect(limited.gaps.some((g) => g.what === '1 more terrain cell(s)')).toBe(true);
  });

  it('answers every cell from one indexed load order as the one-shot call does', () => {
    const doc = read();
    const order = new SkyrimLoadOrder({ name: PLUGIN, doc }, []);
    for (const cell of [cellOfLand(doc), 0x02007698, 0x0000918c]) {
      const a = skyrimLevelContextIn(order, { cell });
      const b = skyrimLevelContext({ name: PLUGIN, doc }, { cell });
      expect(a.pieces.map((p) => [p.label, p.triangles.length])).toEqual(b.pieces.map((p) => [p.label, p.triangles.length]));
      expect(a.gaps).toEqual(b.gaps);
    }
  });
});
