import { beforeAll, describe, expect, it } from 'vitest';
import { readGitWalkmeshCutters } from '../../../shared/formats/aurora/nwn2-git';
import { floatView, MAX_TILE_NODES, TriangleFlag, type AswmDocument } from '../../../shared/formats/nwn2/aswm-document';
import { pointInRing } from '../../../shared/geometry/polygon';
import { segmentDistanceSquared } from '../../../shared/geometry/segment';
import { planeHeight, TriangleGrid } from '../../../shared/geometry/triangle-grid';
import { overlappingTriangles } from '../../../shared/geometry/triangle-overlap';
import { seededRandom } from '../../../shared/bakers/nwn2/point-reachability';
import { bakeTrn, SLIVER_ALTITUDE, type TrnBakeResult } from '../../../shared/bakers/nwn2/trn-bake';
import { walkableAreaOf } from '../../../shared/bakers/nwn2/trn-bake-compare';
import { DEFAULT_CUT_SNAP } from '../../../shared/bakers/nwn2/walkmesh-cutter';
import { ModelMappingError } from '../../../shared/model/model-mapping-error';
import { Nwn2ModelResolver } from '../../../electron/services/nwn2-model-resolver';
import { aswmOf, errorsOf, libdDir, loadArea, mordDir, syntheticGit, syntheticTrn, twoDaDir, walkableAreaOutsideCutters, type PlaceableSpec } from './bake-support';
import { cutterPolygons, mergedPolygonCounts, smallCutter, thinnestWalkable, walkablePerTile, withCutters, type Polygon } from './stress-support';

/**
 * A generated stress set for the full bake (issue 15): areas with many small walkmesh
 * cutters, cutters over tile borders and tile corners, and placeables overlapping
 * cutters. The toolset bakes areas like these with at most 127 walkable triangles per
 * tile; so must we, whenever a triangulation under that budget exists.
 */

const W = 9;
const WOOD = TriangleFlag.walkable | TriangleFlag.wood;
const STONE = TriangleFlag.walkable | TriangleFlag.stone;
/** Our count of a fully merged tile may differ from the polygon count by the 5 mm snap of the cut: a few triangles. */
const SNAP_SLACK = 3;

type Layout = 'scattered' | 'tile borders' | 'tile corners' | 'one tile';

/** Cutter polygons for a 5 × 5 grid of 9 m tiles, by layout. */
function cutters(layout: Layout, seed: number, grid: number): Polygon[] {
  const random = seededRandom(seed);
  const count = layout === 'one tile' ? 12 + Math.floor(random() * 10) : 20 + Math.floor(random() * 40);
  const out: Polygon[] = [];
  for (let i = 0; i < count; i++) {
    let cx: number;
    let cy: number;
    const line = 1 + Math.floor(random() * (grid - 1));
    if (layout === 'scattered') {
      cx = W + random() * W * (grid - 2);
      cy = W + random() * W * (grid - 2);
    } else if (layout === 'tile borders') {
      const along = random() * grid * W;
      const off = (random() - 0.5) * 0.6;
      [cx, cy] = random() < 0.5 ? [line * W + off, along] : [along, line * W + off];
    } else if (layout === 'tile corners') {
      cx = line * W + (random() - 0.5) * 1.2;
      cy = (1 + Math.floor(random() * (grid - 1))) * W + (random() - 0.5) * 1.2;
    } else {
      cx = 2 * W + random() * W;
      cy = 2 * W + random() * W;
    }
    out.push(smallCutter(random, cx, cy, 0.2, 0.7));
  }
  return out;
}

function boundsOf(poly: Polygon): [number, number, number, number] {
  const xs = poly.map((p) => p[0]);
  const ys = poly.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** Checks every bake of the set must pass. */
function expectSound(r: TrnBakeResult, cutterList: readonly Polygon[]): void {
  const a = r.aswm;
  expect(errorsOf(r.trx)).toEqual([]);
  for (const n of walkablePerTile(a)) expect(n).toBeLessThanOrEqual(MAX_TILE_NODES);
  expect(r.report.retile.maxWalkablePerTile).toBe(Math.max(...walkablePerTile(a)));
  expect(r.report.overlaps.pairs).toBe(0);
  expect(r.report.slivers.count).toBe(0);
  expect(thinnestWalkable(a)).toBeGreaterThanOrEqual(SLIVER_ALTITUDE);
  // No walkable centre inside a cutter, but within the cut's snap distance of its outline
  // (the cut moves outline points that close onto mesh vertices and edges).
  const c = floatView(a.triCentre);
  const rings = cutterList.map((p) => Float64Array.from(p.flat()));
  const deepInside: number[] = [];
  for (let t = 0; t < a.triFlags.length; t++) {
    if (!(a.triFlags[t]! & TriangleFlag.walkable)) continue;
    const x = c[t * 2]!, y = c[t * 2 + 1]!;
    if (rings.some((ring) => pointInRing(ring, x, y) && distanceToRing(ring, x, y) > DEFAULT_CUT_SNAP)) deepInside.push(t);
  }
  expect(deepInside).toEqual([]);
}

function distanceToRing(ring: Float64Array, x: number, y: number): number {
  const n = ring.length / 2;
  let d = Infinity;
  for (let i = 0, j = n - 1; i < n; j = i++) d = Math.min(d, segmentDistanceSquared(x, y, ring[j * 2]!, ring[j * 2 + 1]!, ring[i * 2]!, ring[i * 2 + 1]!));
  return Math.sqrt(d);
}

describe('bake stress set: flat 5 × 5 interiors with many small cutters', () => {
  const layouts: Layout[] = ['scattered', 'tile borders', 'tile corners', 'one tile'];
  const cases = layouts.flatMap((layout) => [1, 2, 3, 4].map((k) => ({ layout, seed: k * 7919 + layouts.indexOf(layout) })));
  const grid = 5;
  const trn = syntheticTrn({ grid, tileWidth: W, border: 0, cellsPerTile: 6, flags: () => WOOD });
  const uncut = walkableAreaOf(aswmOf(trn));

  it.each(cases)('$layout (seed $seed): refused only where the merged polygons of a tile cannot fit 127 triangles', ({ layout, seed }) => {
    const list = cutters(layout, seed, grid);
    const git = syntheticGit(list);
    const lower = mergedPolygonCounts(grid, W, list);
    let result: TrnBakeResult | undefined;
    let error: unknown;
    try {
      result = bakeTrn({ trn, git });
    } catch (e) {
      error = e;
    }
    console.log(`${layout} seed ${seed}: ${list.length} cutters; merged-polygon count per tile at most ${Math.max(...lower)}; ${result ? `baked, fullest tile ${result.report.retile.maxWalkablePerTile}, merged whole: ${result.report.retile.simplifiedTiles.length} tile(s)` : `refused: ${(error as Error).message.slice(0, 80)}`}`);
    if (!result) {
      expect(error).toBeInstanceOf(ModelMappingError);
      const m = /^tile (\d+),(\d+) holds (\d+) walkable triangles \((walkmesh cutters ([#\d, ]+)|no walkmesh cutter) and/.exec((error as Error).message);
      expect(m).not.toBeNull();
      const k = Number(m![2]) * grid + Number(m![1]);
      expect(Number(m![1])).toBeLessThan(grid);
      expect(Number(m![3])).toBeGreaterThan(MAX_TILE_NODES);
      // Refused only when no triangulation of the tile's merged polygons fits.
      expect(lower[k]!).toBeGreaterThan(MAX_TILE_NODES - SNAP_SLACK);
      // It names every cutter reaching into the tile.
      const x0 = (k % grid) * W, y0 = Math.floor(k / grid) * W;
      const expected = list.map((p, i) => ({ i, b: boundsOf(p) })).filter(({ b }) => b[2] >= x0 && b[0] <= x0 + W && b[3] >= y0 && b[1] <= y0 + W).map(({ i }) => `#${i}`);
      expect(m![5]!.split(', ')).toEqual(expected);
      return;
    }
    expectSound(result, list);
    // The tiles merged whole use the merged-polygon count (up to the snap's few triangles).
    const perTile = walkablePerTile(result.aswm);
    for (const label of result.report.retile.simplifiedTiles) {
      const [, col, row] = /^tile (\d+),(\d+)$/.exec(label)!;
      const k = Number(row) * grid + Number(col);
      expect(perTile[k]!).toBeLessThanOrEqual(lower[k]! + SNAP_SLACK);
    }
    // Walkable area = the floor minus the union of the cutters (polygon-clipping), within 0.01 %.
    const expectedArea = walkableAreaOutsideCutters(aswmOf(trn), git);
    expect(expectedArea).toBeLessThan(uncut);
    expect(Math.abs(walkableAreaOf(result.aswm) - expectedArea) / expectedArea).toBeLessThan(1e-4);
  });

  it('holds areas that fit and areas that cannot (the per-area tests bake them)', () => {
    const worst = cases.map(({ layout, seed }) => Math.max(...mergedPolygonCounts(grid, W, cutters(layout, seed, grid))));
    expect(worst.filter((w) => w <= MAX_TILE_NODES).length).toBeGreaterThan(10);
    expect(worst.filter((w) => w > MAX_TILE_NODES).length).toBeGreaterThan(0);
    // Some fitting areas need a tile merged whole: within 20 triangles of the budget.
    expect(worst.filter((w) => w <= MAX_TILE_NODES && w > MAX_TILE_NODES - 20).length).toBeGreaterThan(0);
  });
});

describe('bake stress set: materials, unwalkable cells and a raised platform', () => {
  // Cells of wood and stone, some unwalkable, and a platform 0.6 m up in the middle with ramps around it.
  const grid = 4;
  const platform = (x: number, y: number) => (x >= 12 && x <= 24 && y >= 12 && y <= 24 ? 0.6 : 0);
  const flags = (cx: number, cy: number) => ((cx * 5 + cy * 3) % 17 === 0 ? 0 : (cx + cy * 2) % 7 < 3 ? STONE : WOOD);
  const trn = syntheticTrn({ grid, tileWidth: W, border: 0, cellsPerTile: 6, height: platform, flags });
  const source = aswmOf(trn);

  it.each([101, 202, 303, 404])('seed %i: keeps every walkable triangle on the TRN surface it came from, with its flags and height', (seed) => {
    const random = seededRandom(seed);
    const list: Polygon[] = [];
    for (let i = 0; i < 40; i++) {
      const onBorder = i % 3 === 0;
      const cx = onBorder ? (1 + Math.floor(random() * 3)) * W + (random() - 0.5) * 0.8 : random() * grid * W;
      const cy = random() * grid * W;
      list.push(smallCutter(random, cx, cy, 0.2, 0.6));
    }
    const git = syntheticGit(list);
    const r = bakeTrn({ trn, git });
    expectSound(r, list);
    const expectedArea = walkableAreaOutsideCutters(source, git);
    expect(Math.abs(walkableAreaOf(r.aswm) - expectedArea) / expectedArea).toBeLessThan(1e-4);
    expectOnSourceSurface(r.aswm, source);
  });
});

/** Every walkable triangle's centre lies on a TRN triangle with the same flags, at the same height (within 1 mm). */
function expectOnSourceSurface(a: AswmDocument, source: AswmDocument): void {
  const sp = Float64Array.from(floatView(source.vertices));
  const sg = new TriangleGrid(sp, source.triVertices);
  const p = Float64Array.from(floatView(a.vertices));
  let checked = 0;
  for (let t = 0; t < a.triFlags.length; t++) {
    if (!(a.triFlags[t]! & TriangleFlag.walkable)) continue;
    const v = [0, 1, 2].map((c) => a.triVertices[t * 3 + c]! * 3);
    const x = (p[v[0]!]! + p[v[1]!]! + p[v[2]!]!) / 3;
    const y = (p[v[0]! + 1]! + p[v[1]! + 1]! + p[v[2]! + 1]!) / 3;
    const z = planeHeight(p, a.triVertices, t, x, y);
    const under: { flags: number; dz: number }[] = [];
    sg.forEachContaining(x, y, (u) => under.push({ flags: source.triFlags[u]! & ~TriangleFlag.clockwise, dz: Math.abs(planeHeight(sp, source.triVertices, u, x, y) - z) }), 1e-6);
    const match = under.find((u) => u.dz < 1e-3);
    expect(match, `triangle ${t} at (${x}, ${y}, ${z})`).toBeDefined();
    expect(match!.flags).toBe(a.triFlags[t]! & ~TriangleFlag.clockwise);
    checked++;
  }
  expect(checked).toBeGreaterThan(100);
}

describe('bake stress set: the Mord Mansion TRN with many more small cutters', () => {
  it.each([11, 22, 33])('seed %i: 60 cutters on its walkable floor, some over tile borders', (seed) => {
    const area = loadArea(mordDir, 'CSLMordMansion');
    const trn = aswmOf(area.trn);
    const p = floatView(trn.vertices);
    const walkable: number[] = [];
    for (let t = 0; t < trn.triFlags.length; t++) if (trn.triFlags[t]! & TriangleFlag.walkable) walkable.push(t);
    const random = seededRandom(seed);
    const added: Polygon[] = [];
    for (let i = 0; i < 60; i++) {
      const t = walkable[Math.floor(random() * walkable.length)]!;
      const v = [0, 1, 2].map((c) => trn.triVertices[t * 3 + c]! * 3);
      let cx = (p[v[0]!]! + p[v[1]!]! + p[v[2]!]!) / 3;
      let cy = (p[v[0]! + 1]! + p[v[1]! + 1]! + p[v[2]! + 1]!) / 3;
      // Every fourth on the nearest tile border.
      if (i % 4 === 0) {
        if (random() < 0.5) cx = Math.round(cx / W) * W + (random() - 0.5) * 0.4;
        else cy = Math.round(cy / W) * W + (random() - 0.5) * 0.4;
      }
      added.push(smallCutter(random, cx, cy, 0.15, 0.5));
    }
    const git = withCutters(area.git, added);
    const r = bakeTrn({ trn: area.trn, git });
    console.log(`Mord Mansion + 60 cutters (seed ${seed}): fullest tiles ${r.report.retile.fullestTiles.map((f) => `${f.column},${f.row}: ${f.walkable}`).join('; ')}; merged ${r.report.retile.merged.trianglesBefore} → ${r.report.retile.merged.trianglesAfter}`);
    expectSound(r, cutterPolygons(git));
    const expectedArea = walkableAreaOutsideCutters(trn, git);
    expect(Math.abs(walkableAreaOf(r.aswm) - expectedArea) / expectedArea).toBeLessThan(1e-3);
    expectOnSourceSurface(r.aswm, trn);
  });
});

describe('bake stress set: placeables overlapping cutters', () => {
  /** placeables.2da row whose NWN2_ModelName is PLC_MC_BALCONY3 (the only public model with a WALK packet). */
  const BALCONY_ROW = 1599;
  let lookup: Awaited<ReturnType<Nwn2ModelResolver['preload']>>;
  beforeAll(async () => {
    const resolver = await Nwn2ModelResolver.open({ modelDirs: [libdDir], twoDaDir });
    lookup = await resolver.preload([BALCONY_ROW]);
  });

  it.each([5, 6, 7, 8])('seed %i: three balconies over tile borders, with cutters across their footprints', (seed) => {
    const random = seededRandom(seed);
    const trn = syntheticTrn({ grid: 4, tileWidth: W, border: 0, cellsPerTile: 6, flags: () => WOOD });
    const specs: PlaceableSpec[] = [0, 1, 2].map((i) => ({
      appearance: BALCONY_ROW,
      x: (1 + i) * W + (random() - 0.5) * 2,
      y: (1 + (i % 2)) * W + (random() - 0.5) * 2,
      bearing: random() * 2 * Math.PI,
      scale: 0.6 + random() * 0.3,
    }));
    const list: Polygon[] = [];
    for (const s of specs) for (let k = 0; k < 5; k++) list.push(smallCutter(random, s.x + (random() - 0.5) * 4, s.y + (random() - 0.5) * 4, 0.2, 0.6));
    const git = syntheticGit(list, specs);
    expect(readGitWalkmeshCutters(git).length).toBe(list.length);
    const r = bakeTrn({ trn, git, placeableModels: lookup });
    expect(r.report.placeables.stats!.applied.length).toBe(3);
    expectSound(r, list);
    const pos = Float64Array.from(floatView(r.aswm.vertices));
    expect(overlappingTriangles(pos, r.aswm.triVertices, 1e-6)).toEqual([]);
  });
});
