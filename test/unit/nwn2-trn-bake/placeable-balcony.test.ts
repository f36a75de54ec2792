import path from 'node:path';
import polygonClipping from 'polygon-clipping';
import { beforeAll, describe, expect, it } from 'vitest';
import { floatView, TriangleFlag, type AswmDocument } from '../../../shared/formats/nwn2/aswm-document';
import { optList } from '../../../shared/formats/aurora/gff-fields';
import { CURTAIN_Z, type MdbWalkmesh } from '../../../shared/formats/nwn2/mdb-document';
import { readMdbWalkmeshes } from '../../../shared/formats/nwn2/mdb-reader';
import { planeHeight, TriangleGrid } from '../../../shared/geometry/triangle-grid';
import { overlappingTriangles } from '../../../shared/geometry/triangle-overlap';
import { bakeTrn, type TrnBakeResult } from '../../../shared/bakers/nwn2/trn-bake';
import { walkableAreaOf } from '../../../shared/bakers/nwn2/trn-bake-compare';
import { ReachabilityOracle } from '../../../shared/bakers/nwn2/point-reachability';
import { Nwn2ModelResolver } from '../../../electron/services/nwn2-model-resolver';
import { readFixture } from '../../support/fixtures';
import { aswmOf, errorsOf, libdDir, loadArea, mordDir, syntheticGit, syntheticTrn, twoDaDir, withPlaceables, type Area, type PlaceableSpec } from './bake-support';

/** placeables.2da row whose NWN2_ModelName is PLC_MC_BALCONY3 (the fixture copy of the table). */
const BALCONY_ROW = 1599;
/** Height of the balcony's floor in the model (its raised vertices). */
const FLOOR_Z = 0.929;

/**
 * PLC_MC_BALCONY3 (the only public WALK sample: a raised wooden floor with two stairs,
 * walls down to 18 "curtain" vertices at z = −1,000,000) placed into the Mord Mansion
 * TRN on a stretch of walkable floor no cutter touches (the only one in the mansion wide
 * enough: around (4, 40.5)), once as modelled and once turned and scaled down.
 */
describe('placeable walkmesh: PLC_MC_BALCONY3 in the Mord Mansion', () => {
  let area: Area;
  let lookup: Awaited<ReturnType<Nwn2ModelResolver['preload']>>;
  let plain: TrnBakeResult;
  const walk = readMdbWalkmeshes(readFixture(path.join(libdDir, 'PLC_MC_BALCONY3.MDB')));

  beforeAll(async () => {
    area = loadArea(mordDir, 'CSLMordMansion');
    const resolver = await Nwn2ModelResolver.open({ modelDirs: [libdDir], twoDaDir });
    lookup = await resolver.preload([BALCONY_ROW]);
    plain = bakeTrn({ trn: area.trn, git: area.git });
  });

  const cases: { label: string; spec: PlaceableSpec }[] = [
    { label: 'as modelled at (4, 40.5)', spec: { appearance: BALCONY_ROW, x: 4, y: 40.5 } },
    { label: 'turned 0.6 rad and scaled 0.8 at (4.5, 40.5)', spec: { appearance: BALCONY_ROW, x: 4.5, y: 40.5, bearing: 0.6, scale: 0.8 } },
  ];

  for (const { label, spec } of cases) {
    describe(label, () => {
      let result: TrnBakeResult;
      let a: AswmDocument;
      let grid: TriangleGrid;
      let pos: Float64Array;
      const s = spec.scale ?? 1;
      const world = (lx: number, ly: number): [number, number] => {
        const c = Math.cos(spec.bearing ?? 0);
        const n = Math.sin(spec.bearing ?? 0);
        return [spec.x + c * lx * s - n * ly * s, spec.y + n * lx * s + c * ly * s];
      };
      const trianglesAt = (x: number, y: number) => {
        const out: { t: number; z: number; walkable: boolean }[] = [];
        grid.forEachContaining(x, y, (t) => out.push({ t, z: planeHeight(pos, a.triVertices, t, x, y), walkable: (a.triFlags[t]! & TriangleFlag.walkable) !== 0 }), 1e-6);
        return out;
      };

      beforeAll(() => {
        result = bakeTrn({ trn: area.trn, git: withPlaceables(area.git, [spec]), placeableModels: lookup });
        a = result.aswm;
        pos = Float64Array.from(floatView(a.vertices));
        grid = new TriangleGrid(pos, a.triVertices);
        const st = result.report.placeables.stats!;
        console.log(
          `balcony ${label}: ${st.applied[0]?.faces} faces (${st.applied[0]?.walkableFaces} walkable), footprint ${st.applied[0]?.footprintArea.toFixed(3)} m², ` +
            `${st.applied[0]?.joinedVertices} outline vertices joined to the ground; ${result.report.output.triangles} triangles, walkable area ${walkableAreaOf(a).toFixed(3)} m²`,
        );
      });

      it('is applied (the others have no public model) and validates with no errors', () => {
        const applied = result.report.placeables.stats!.applied;
        expect(applied.map((p) => p.model)).toEqual(['PLC_MC_BALCONY3']);
        expect(applied[0]!.faces).toBe(50);
        expect(applied[0]!.walkableFaces).toBe(22);
        expect(result.report.placeables.skippedWalkable.length).toBe(7);
        expect(result.report.placeables.missingModel.length).toBe(12);
        expect(errorsOf(result.trx)).toEqual([]);
      });

      it('drapes the 18 curtain vertices (z = −1,000,000) on the floor: nothing ends up below the TRN', () => {
        let curtain = 0;
        for (let v = 2; v < walk[0]!.positions.length; v += 3) if (walk[0]!.positions[v]! <= CURTAIN_Z) curtain++;
        expect(curtain).toBe(18);
        const trnZ = floatView(aswmOf(area.trn).vertices).filter((_, i) => i % 3 === 2);
        const lowest = Math.min(...trnZ);
        const outZ = pos.filter((_, i) => i % 3 === 2);
        expect(Math.min(...outZ)).toBeGreaterThanOrEqual(lowest - 1e-3);
      });

      it('keeps a single 2.5-D surface: no two triangles overlap seen from above', () => {
        expect(overlappingTriangles(pos, a.triVertices, 1e-6)).toEqual([]);
        expect(result.report.overlaps.pairs).toBe(0);
      });

      it("has the balcony's walkable floor at its height, with no ground under it", () => {
        for (const [lx, ly] of [[0, 0.035], [-1.3, 0.7], [1.5, -0.6], [-0.4, -1.0]] as const) {
          const at = trianglesAt(...world(lx, ly));
          expect(at.length, `at local (${lx}, ${ly})`).toBe(1);
          expect(at[0]!.walkable).toBe(true);
          expect(at[0]!.z).toBeCloseTo(FLOOR_Z * s, 4);
        }
      });

      it('blocks the ground under its non-walkable footprint (the walls)', () => {
        // Centres of non-walkable faces between the floor and the outline.
        const p = walk[0]!.positions;
        const faces = walk[0]!.faces;
        let checked = 0;
        for (let f = 0; f < walk[0]!.faceFlags.length; f++) {
          if (walk[0]!.faceFlags[f]! & TriangleFlag.walkable) continue;
          const lx = (p[faces[f * 3]! * 3]! + p[faces[f * 3 + 1]! * 3]! + p[faces[f * 3 + 2]! * 3]!) / 3;
          const ly = (p[faces[f * 3]! * 3 + 1]! + p[faces[f * 3 + 1]! * 3 + 1]! + p[faces[f * 3 + 2]! * 3 + 1]!) / 3;
          const at = trianglesAt(...world(lx, ly));
          expect(at.length).toBeGreaterThan(0);
          expect(at.every((x) => !x.walkable), `face ${f}`).toBe(true);
          checked++;
        }
        expect(checked).toBe(28);
      });

      it('keeps the floor around it and joins the stairs to it: the balcony is reachable from the room', () => {
        const o = new ReachabilityOracle(a);
        const [gx, gy] = world(1.4, -4.0);
        const ground = trianglesAt(gx, gy);
        expect(ground.length).toBe(1);
        expect(ground[0]!.walkable).toBe(true);
        expect(ground[0]!.z).toBeCloseTo(0, 3);
        const top = o.groupAt(...world(0, 0.035), FLOOR_Z * s);
        expect(o.reachable(o.groupAt(gx, gy, 0), top)).toBe(true);
        expect(result.report.placeables.stats!.applied[0]!.joinedVertices).toBeGreaterThan(0);
      });

      it('replaces exactly the ground under the footprint: walkable area = before − ground under it + its walkable faces', () => {
        const faces = placedFaces(walk[0]!, spec);
        const footprint = polygonClipping.union(faces.all[0]!, ...faces.all.slice(1));
        const groundUnder = walkableAreaInside(plain.aswm, footprint);
        const expected = walkableAreaOf(plain.aswm) - groundUnder + faces.walkableArea;
        const got = walkableAreaOf(a);
        console.log(`  walkable area: before ${walkableAreaOf(plain.aswm).toFixed(3)}, ground under the footprint ${groundUnder.toFixed(3)}, balcony floor ${faces.walkableArea.toFixed(3)} → expected ${expected.toFixed(3)}, baked ${got.toFixed(3)}`);
        expect(Math.abs(got - expected) / expected).toBeLessThan(0.001);
      });
    });
  }

  it('fits two overlapping balconies in one 9 m tile by merging, and refuses four naming the tile, its count and what lies in it', () => {
    // The toolset fails such a bake too ("a tile region can get overloaded", spec §11).
    const specs: PlaceableSpec[] = [
      { appearance: BALCONY_ROW, x: 4, y: 40.5 },
      { appearance: BALCONY_ROW, x: 4.6, y: 41.2, bearing: 0.3, scale: 0.7 },
      { appearance: BALCONY_ROW, x: 3.6, y: 40.0, bearing: 1.1, scale: 0.6 },
      { appearance: BALCONY_ROW, x: 4.2, y: 40.8, bearing: 2.0, scale: 0.5 },
    ];
    const two = bakeTrn({ trn: area.trn, git: withPlaceables(area.git, specs.slice(0, 2)), placeableModels: lookup });
    expect(two.report.retile.maxWalkablePerTile).toBeLessThanOrEqual(127);
    expect(errorsOf(two.trx)).toEqual([]);
    const first = optList(area.git.root, 'Placeable List').length;
    let message = '';
    try {
      bakeTrn({ trn: area.trn, git: withPlaceables(area.git, specs), placeableModels: lookup });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^tile 0,4 holds (\d+) walkable triangles \(walkmesh cutters [#\d, ]+ and placeable #/);
    expect(Number(/holds (\d+)/.exec(message)![1])).toBeGreaterThan(127);
    for (let i = 0; i < specs.length; i++) expect(message).toContain(`placeable #${first + i} (PLC_MC_BALCONY3)`);
  });

  it('lets a later placeable replace an earlier one where they overlap, still 2.5-D (a flat synthetic room)', () => {
    const trn = syntheticTrn({ grid: 4, tileWidth: 9, border: 0, cellsPerTile: 1, flags: () => TriangleFlag.walkable | TriangleFlag.wood });
    const specs: PlaceableSpec[] = [
      { appearance: BALCONY_ROW, x: 14, y: 16 },
      { appearance: BALCONY_ROW, x: 15.2, y: 17.5, bearing: 0.3, scale: 0.7 },
    ];
    const r = bakeTrn({ trn, git: syntheticGit([], specs), placeableModels: lookup });
    const pos = Float64Array.from(floatView(r.aswm.vertices));
    expect(r.report.placeables.stats!.applied.length).toBe(2);
    expect(overlappingTriangles(pos, r.aswm.triVertices, 1e-6)).toEqual([]);
    expect(errorsOf(r.trx)).toEqual([]);
    const grid = new TriangleGrid(pos, r.aswm.triVertices);
    const heightsAt = (x: number, y: number) => {
      const zs: number[] = [];
      grid.forEachContaining(x, y, (t) => zs.push(planeHeight(pos, r.aswm.triVertices, t, x, y)), 1e-6);
      return zs;
    };
    // The second balcony's floor at its centre, the first's where the second does not reach.
    const second = heightsAt(15.2 - 0.035 * 0.7 * Math.sin(0.3), 17.5 + 0.035 * 0.7 * Math.cos(0.3));
    expect(second.length).toBe(1);
    expect(second[0]!).toBeCloseTo(FLOOR_Z * 0.7, 4);
    const first = heightsAt(14 - 1.5, 16 - 0.6);
    expect(first.length).toBe(1);
    expect(first[0]!).toBeCloseTo(FLOOR_Z, 4);
  });
});

/** The model's faces placed like the bake does, seen from above (heights do not matter here). */
function placedFaces(w: MdbWalkmesh, spec: PlaceableSpec): { all: polygonClipping.Polygon[]; walkableArea: number } {
  const s = spec.scale ?? 1;
  const c = Math.cos(spec.bearing ?? 0);
  const n = Math.sin(spec.bearing ?? 0);
  const all: polygonClipping.Polygon[] = [];
  let walkableArea = 0;
  for (let f = 0; f < w.faceFlags.length; f++) {
    const ring = [0, 1, 2].map((k) => {
      const v = w.faces[f * 3 + k]! * 3;
      const lx = w.positions[v]! * s;
      const ly = w.positions[v + 1]! * s;
      return [spec.x + c * lx - n * ly, spec.y + n * lx + c * ly] as polygonClipping.Pair;
    });
    all.push([ring]);
    if (w.faceFlags[f]! & TriangleFlag.walkable) {
      walkableArea += Math.abs((ring[1]![0] - ring[0]![0]) * (ring[2]![1] - ring[0]![1]) - (ring[1]![1] - ring[0]![1]) * (ring[2]![0] - ring[0]![0])) / 2;
    }
  }
  return { all, walkableArea };
}

/** Walkable area of the walkmesh inside a region (polygon-clipping, independent of the bake). */
function walkableAreaInside(a: AswmDocument, region: polygonClipping.MultiPolygon): number {
  const p = floatView(a.vertices);
  let sum = 0;
  for (let t = 0; t < a.triFlags.length; t++) {
    if (!(a.triFlags[t]! & TriangleFlag.walkable)) continue;
    const ring = [0, 1, 2].map((k) => [p[a.triVertices[t * 3 + k]! * 3]!, p[a.triVertices[t * 3 + k]! * 3 + 1]!] as polygonClipping.Pair);
    for (const poly of polygonClipping.intersection([ring], region)) {
      poly.forEach((r, i) => {
        let s2 = 0;
        for (let k = 0, j = r.length - 1; k < r.length; j = k++) s2 += r[j]![0] * r[k]![1] - r[k]![0] * r[j]![1];
        sum += (Math.abs(s2) / 2) * (i === 0 ? 1 : -1);
      });
    }
  }
  return sum;
}
