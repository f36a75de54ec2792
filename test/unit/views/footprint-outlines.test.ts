import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlaceableModel } from '../../../shared/bakers/nwn2/placeable-walkmesh';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { readGitPlaceables } from '../../../shared/formats/aurora/nwn2-git';
import { floatsOf } from '../../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { placeWalkmeshVertices } from '../../../shared/formats/kotor/kotor-git-placement';
import { CURTAIN_Z } from '../../../shared/formats/nwn2/mdb-document';
import { readMdbWalkmeshes } from '../../../shared/formats/nwn2/mdb-reader';
import { boundarySegments } from '../../../shared/views/footprint-outlines';
import { FOOTPRINT_CLASS_LABELS, gitOverlays, placeNwn2Walkmeshes } from '../../../shared/views/placement-overlays';
import { fixturesRoot, readFixture } from '../../support/fixtures';

const cage = () => readBwm(readFixture(path.join(fixturesRoot, 'kotor/k1cp/plc_fccage2.pwk')));
const balcony = (): PlaceableModel => ({ name: 'PLC_MC_BALCONY3', walkmeshes: readMdbWalkmeshes(readFixture(path.join(fixturesRoot, 'nwn2/nwn-lib-d/PLC_MC_BALCONY3.MDB'))) });

/** Boundary segments as sorted strings of their rounded ends, direction kept. */
function segmentKeys(s: Float32Array): string[] {
  const out: string[] = [];
  const r = (v: number) => v.toFixed(3);
  for (let i = 0; i < s.length; i += 6) out.push(`${r(s[i]!)},${r(s[i + 1]!)},${r(s[i + 2]!)}>${r(s[i + 3]!)},${r(s[i + 4]!)},${r(s[i + 5]!)}`);
  return out.sort();
}

/** Every end point is the start of as many segments as it ends: the outline is made of closed loops. */
function expectClosedLoops(s: Float32Array): void {
  const balance = new Map<string, number>();
  for (let i = 0; i < s.length; i += 6) {
    const a = `${s[i]},${s[i + 1]},${s[i + 2]}`, b = `${s[i + 3]},${s[i + 4]},${s[i + 5]}`;
    balance.set(a, (balance.get(a) ?? 0) + 1);
    balance.set(b, (balance.get(b) ?? 0) - 1);
  }
  for (const v of balance.values()) expect(v).toBe(0);
}

describe('footprint outlines: boundary edges of placed faces', () => {
  it('a square of two triangles has its 4 sides and not its diagonal, shared or duplicated corners alike', () => {
    const shared = boundarySegments(new Float32Array([0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0]), new Uint32Array([0, 1, 2, 0, 2, 3]));
    expect(shared.length / 6).toBe(4);
    expect(segmentKeys(shared)).toEqual(['0.000,0.000,0.000>2.000,0.000,0.000', '0.000,2.000,0.000>0.000,0.000,0.000', '2.000,0.000,0.000>2.000,2.000,0.000', '2.000,2.000,0.000>0.000,2.000,0.000']);
    // The same square with each triangle holding its own copies of the diagonal's corners.
    const split = boundarySegments(new Float32Array([0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 0, 0, 2, 2, 0, 0, 2, 0]), new Uint32Array([0, 1, 2, 3, 4, 5]));
    expect(segmentKeys(split)).toEqual(segmentKeys(shared));
    // A skipped face leaves the other triangle's three sides.
    expect(boundarySegments(new Float32Array([0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0]), new Uint32Array([0, 1, 2, 0, 2, 3]), new Uint8Array([0, 1])).length / 6).toBe(3);
    // A degenerate face (two corners at one place) adds nothing.
    expect(boundarySegments(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), new Uint32Array([0, 1, 1])).length).toBe(0);
  });

  it('outlines the K1CP cage PWK, placed and turned, at the turned and moved outline of the model', () => {
    const doc = cage();
    const local = boundarySegments(floatsOf(doc.vertices), doc.faces);
    // 18 vertices, 16 faces, one piece without holes: E = V + F − 1 = 33 edges, B = 2E − 3F = 18 on the border.
    expect(local.length / 6).toBe(18);
    expectClosedLoops(local);
    const at = { x: 12.5, y: -7.25, z: 3, bearing: 1.1 };
    const placed = boundarySegments(placeWalkmeshVertices(doc, at), doc.faces);
    expect(placed.length).toBe(local.length);
    const c = Math.cos(at.bearing), s = Math.sin(at.bearing);
    const moved = new Float32Array(local.length);
    for (let i = 0; i < local.length; i += 3) {
      moved[i] = local[i]! * c - local[i + 1]! * s + at.x;
      moved[i + 1] = local[i]! * s + local[i + 1]! * c + at.y;
      moved[i + 2] = local[i + 2]! + at.z;
    }
    expect(segmentKeys(placed)).toEqual(segmentKeys(moved));
    // Turning keeps each outline point's distance from the pivot.
    const radii = (a: Float32Array, x: number, y: number) => Array.from({ length: a.length / 3 }, (_, i) => Math.hypot(a[i * 3]! - x, a[i * 3 + 1]! - y).toFixed(3)).sort();
    expect(radii(placed, at.x, at.y)).toEqual(radii(local, 0, 0));
  });

  it('KotOR GIT: the placeable and the door drawn by their walkmeshes, markers where no model is given', () => {
    const git = readFixture(path.join(fixturesRoot, 'kotor/pykotor/test.git'));
    const doc = cage();
    const withModels = gitOverlays('kotor', git, { kotor: (o) => (o.kind === 'placeable' ? [{ state: 'placeable', doc }] : [{ state: 'closed', doc }, { state: 'open1', doc }, { state: 'open2', doc }]) }).find((o) => o.id === 'footprints')!;
    expect(withModels.classes.map((k) => k.label)).toEqual([...FOOTPRINT_CLASS_LABELS]);
    // One door, drawn closed and open both ways: counted once as closed, once as open.
    expect(withModels.classes.map((k) => k.count)).toEqual([1, 1, 1, 0, 0]);
    expect(withModels.segments.length / 6).toBe(4 * 18);
    // The placeable's outline sits where the GIT puts it: test.git places it at Z 9.536.
    for (let i = 0; i < withModels.segmentClass.length; i++) if (withModels.segmentClass[i] === 0) expect(withModels.segments[i * 6 + 2]).toBeCloseTo(9.536, 2);
    const bare = gitOverlays('kotor', git).find((o) => o.id === 'footprints')!;
    expect(bare.classes.map((k) => k.count)).toEqual([0, 0, 0, 1, 1]);
    expect(bare.segments.length / 6).toBe(2 * 5);
  });

  it('NWN2: PLC_MC_BALCONY3 placed by a GIT is outlined along the foot of its curtain walls at the placeable Z, never at the curtain depth', () => {
    const model = balcony();
    const placeable = { ...readGitPlaceables(readGff(readFixture(path.join(fixturesRoot, 'nwn2/mordmansion/CSLMordMansion.GIT'))))[0]!, x: 4, y: 40.5, z: 2, bearing: 0.6, scale: { x: 0.8, y: 0.8, z: 0.8 } };
    const placed = placeNwn2Walkmeshes(placeable, model);
    const curtain = model.walkmeshes.reduce((n, w) => n + Array.from(w.positions).filter((v, i) => i % 3 === 2 && v <= CURTAIN_Z).length, 0);
    expect(curtain).toBe(18);
    const outline = boundarySegments(placed.positions, placed.triangles);
    // The curtain walls close the raised floor and stairs off, so the border is their foot: 14 edges round the footprint.
    expect(outline.length / 6).toBe(14);
    expectClosedLoops(outline);
    for (let i = 2; i < outline.length; i += 3) expect(outline[i]).toBeCloseTo(2, 4);
    // Every outline point is a model vertex scaled, turned by the bearing and moved to the placeable.
    const c = Math.cos(0.6), s = Math.sin(0.6);
    const expected = new Set<string>();
    for (const w of model.walkmeshes) {
      for (let i = 0; i < w.positions.length; i += 3) {
        const lx = w.positions[i]! * 0.8, ly = w.positions[i + 1]! * 0.8;
        expected.add(`${(4 + c * lx - s * ly).toFixed(3)},${(40.5 + s * lx + c * ly).toFixed(3)}`);
      }
    }
    for (let i = 0; i < outline.length; i += 3) expect(expected.has(`${outline[i]!.toFixed(3)},${outline[i + 1]!.toFixed(3)}`)).toBe(true);

    const git = readFixture(path.join(fixturesRoot, 'nwn2/mordmansion/CSLMordMansion.GIT'));
    const count = readGitPlaceables(readGff(git)).length;
    const overlay = gitOverlays('nwn2', git, { nwn2Placeable: (p) => (p.index === 0 ? model : undefined) }).find((o) => o.id === 'footprints')!;
    // The fixture's GIT holds 19 placeables and 12 doors: one outlined, the rest and the doors marked.
    expect(overlay.classes.map((k) => k.count)).toEqual([1, 0, 0, count - 1, 12]);
  });
});
