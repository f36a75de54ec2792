import { describe, expect, it } from 'vitest';
import { TriangleFlag } from '../../../shared/formats/nwn2/aswm-document';
import { pointInRing, triangleMinAltitude } from '../../../shared/geometry/polygon';
import { segmentDistanceSquared } from '../../../shared/geometry/segment';
import { TriangleGrid } from '../../../shared/geometry/triangle-grid';
import { seededRandom } from '../../../shared/bakers/nwn2/point-reachability';
import { overlappingTriangles } from '../../../shared/geometry/triangle-overlap';
import { bakeTrn } from '../../../shared/bakers/nwn2/trn-bake';
import { surfaceArea, surfaceFromAswm, type TrnSurface } from '../../../shared/bakers/nwn2/trn-surface';
import { cutSurface, type CutStats } from '../../../shared/bakers/nwn2/walkmesh-cutter';
import { aswmOf, errorsOf, loadArea, mordDir, syntheticGit, syntheticTrn } from './bake-support';

const WOOD = TriangleFlag.walkable | TriangleFlag.wood;

/** A flat 18 m × 18 m room of 3 m cells (2 × 2 tiles of 9 m), all walkable wood. */
function room(height: (x: number, y: number) => number = () => 0): TrnSurface {
  return surfaceFromAswm(aswmOf(syntheticTrn({ grid: 2, tileWidth: 9, border: 0, cellsPerTile: 3, height, flags: () => WOOD })));
}

function ring(points: readonly (readonly [number, number])[]): Float64Array {
  return Float64Array.from(points.flat());
}

/** Checks every cut must pass: no centre inside, no overlap, no sliver, each edge shared by at most two triangles. */
function expectClean(s: TrnSurface, cutters: Float64Array[], stats: CutStats): void {
  const p = s.positions;
  const edgeUse = new Map<string, number>();
  for (let t = 0; t < s.flags.length; t++) {
    const v = [0, 1, 2].map((k) => s.triangles[t * 3 + k]!);
    const cx = (p[v[0]! * 3]! + p[v[1]! * 3]! + p[v[2]! * 3]!) / 3;
    const cy = (p[v[0]! * 3 + 1]! + p[v[1]! * 3 + 1]! + p[v[2]! * 3 + 1]!) / 3;
    const cuts = cutters.filter((c) => pointInRing(c, cx, cy)).length;
    expect(cuts, `triangle ${t} centre (${cx}, ${cy})`).toBe(0);
    const [a, b, c] = v.map((i) => i * 3) as [number, number, number];
    expect(triangleMinAltitude(p[a]!, p[a + 1]!, p[b]!, p[b + 1]!, p[c]!, p[c + 1]!)).toBeGreaterThanOrEqual(0.001);
    for (let k = 0; k < 3; k++) {
      const e = [v[k]!, v[(k + 1) % 3]!].sort((x, y) => x - y).join(',');
      edgeUse.set(e, (edgeUse.get(e) ?? 0) + 1);
    }
  }
  expect([...edgeUse.values()].every((n) => n <= 2)).toBe(true);
  expect(overlappingTriangles(s.positions, s.triangles, 1e-9)).toEqual([]);
  expect(stats.fallbacks).toBe(0);
}

/** Vertices of the surface used by triangles that lie on a boundary (an edge with one triangle). */
function boundaryVertices(s: TrnSurface): [number, number][] {
  const count = new Map<string, number>();
  for (let t = 0; t < s.flags.length; t++) {
    for (let k = 0; k < 3; k++) {
      const e = [s.triangles[t * 3 + k]!, s.triangles[t * 3 + ((k + 1) % 3)]!].sort((x, y) => x - y).join(',');
      count.set(e, (count.get(e) ?? 0) + 1);
    }
  }
  const out: [number, number][] = [];
  for (const [e, n] of count) {
    if (n !== 1) continue;
    for (const v of e.split(',').map(Number)) out.push([s.positions[v * 3]!, s.positions[v * 3 + 1]!]);
  }
  return out;
}

describe('walkmesh cutter: constrained re-triangulation', () => {
  it('cuts a hole strictly inside one triangle, with the cutter outline as the hole boundary', () => {
    const s = room();
    // Inside the cell triangle (3, 0), (6, 0), (6, 3).
    const hole: [number, number][] = [[4.0, 0.4], [5.6, 0.6], [5.3, 1.8]];
    const c = ring(hole);
    const r = cutSurface(s, [{ rings: [c] }]);
    const area = Math.abs((5.6 - 4.0) * (1.8 - 0.4) - (0.6 - 0.4) * (5.3 - 4.0)) / 2;
    expect(surfaceArea(r.surface)).toBeCloseTo(324 - area, 9);
    expect(r.stats.retriangulated).toBe(1);
    // The hole's corners became mesh vertices on the new boundary.
    const b = boundaryVertices(r.surface);
    for (const [x, y] of hole) expect(b.some(([bx, by]) => Math.hypot(bx - x, by - y) < 1e-9)).toBe(true);
    expectClean(r.surface, [c], r.stats);
  });

  it('cuts along existing edges and through existing vertices (where nwn-lib-d asserts) without new vertices', () => {
    const s = room();
    // A square on the grid lines, and a parallelogram along grid lines and cell diagonals
    // whose long sides pass through grid vertices ((9, 12) and (12, 15)).
    const square = ring([[3, 3], [9, 3], [9, 9], [3, 9]]);
    const diamond = ring([[6, 12], [12, 12], [15, 15], [9, 15]]);
    const r = cutSurface(s, [{ rings: [square] }, { rings: [diamond] }]);
    expect(surfaceArea(r.surface)).toBeCloseTo(324 - 36 - 18, 9);
    expect(r.surface.positions.length).toBeGreaterThanOrEqual(s.positions.length);
    // Every vertex actually used is an original grid vertex.
    const used = new Set<number>(r.surface.triangles);
    for (const v of used) expect(v).toBeLessThan(s.positions.length / 3);
    expectClean(r.surface, [square, diamond], r.stats);
  });

  it('takes self-intersecting cutters by the even–odd rule and overlapping cutters as their union', () => {
    const s = room();
    // A bow tie: two triangles of 2 × (4 · 2 / 2) = 8 m², crossing at (5, 5).
    const bowTie = ring([[3, 3], [7, 7], [7, 3], [3, 7]]);
    // Two squares overlapping on 1 m × 4 m: union 16 + 16 − 4 = 28 m².
    const a = ring([[10.3, 10.3], [14.3, 10.3], [14.3, 14.3], [10.3, 14.3]]);
    const b = ring([[13.3, 10.3], [17.3, 10.3], [17.3, 14.3], [13.3, 14.3]]);
    const r = cutSurface(s, [{ rings: [bowTie] }, { rings: [a] }, { rings: [b] }]);
    expect(surfaceArea(r.surface)).toBeCloseTo(324 - 8 - 28, 9);
    expectClean(r.surface, [bowTie], r.stats);
    const c = r.surface;
    for (let t = 0; t < c.flags.length; t++) {
      const v = [0, 1, 2].map((k) => c.triangles[t * 3 + k]! * 3);
      const cx = (c.positions[v[0]!]! + c.positions[v[1]!]! + c.positions[v[2]!]!) / 3;
      const cy = (c.positions[v[0]! + 1]! + c.positions[v[1]! + 1]! + c.positions[v[2]! + 1]!) / 3;
      expect(pointInRing(a, cx, cy) || pointInRing(b, cx, cy)).toBe(false);
    }
  });

  it('snaps cutter points within 5 mm of a mesh vertex or edge instead of leaving slivers', () => {
    const s = room();
    // Corners 2 mm from the grid vertex (3, 3) and 1 mm from the grid line y = 6.
    const c = ring([[3.002, 2.998], [7.1, 3.3], [6.2, 6.001], [4.4, 5.999]]);
    const r = cutSurface(s, [{ rings: [c] }]);
    expect(r.stats.snappedPoints).toBe(3);
    const used = new Set<number>(r.surface.triangles);
    const p = r.surface.positions;
    // The grid vertex (3, 3) is used as the cutter's corner; no new vertex lies within 5 mm of it.
    for (const v of used) {
      const d = Math.hypot(p[v * 3]! - 3, p[v * 3 + 1]! - 3);
      expect(d === 0 || d > 0.005).toBe(true);
    }
    expectClean(r.surface, [], r.stats);
    expect(surfaceArea(r.surface)).toBeLessThan(324);
  });

  it('cuts stacked layers (a floor under a bridge) each on its own, at its own height', () => {
    const floor = room();
    const bridge = room(() => 3);
    const V = floor.positions.length / 3;
    const both: TrnSurface = {
      positions: Float64Array.from([...floor.positions, ...bridge.positions]),
      triangles: Uint32Array.from([...floor.triangles, ...[...bridge.triangles].map((v) => v + V)]),
      flags: Uint16Array.from([...floor.flags, ...bridge.flags]),
      source: Uint32Array.from([...floor.source, ...bridge.source]),
    };
    const c = ring([[4.2, 4.7], [11.9, 5.1], [8.8, 13.6]]);
    const r = cutSurface(both, [{ rings: [c] }]);
    const hole = Math.abs((11.9 - 4.2) * (13.6 - 4.7) - (5.1 - 4.7) * (8.8 - 4.2)) / 2;
    expect(surfaceArea(r.surface)).toBeCloseTo(2 * (324 - hole), 9);
    // New vertices take their own layer's height.
    for (let v = both.positions.length / 3; v < r.surface.positions.length / 3; v++) {
      expect([0, 3]).toContain(r.surface.positions[v * 3 + 2]);
    }
  });

  it('leaves the surface alone for cutters with fewer than three distinct points or far away', () => {
    const s = room();
    const r = cutSurface(s, [{ rings: [ring([[1, 1], [2, 2]])] }, { rings: [ring([[100, 100], [101, 100], [100, 101]])] }]);
    expect(r.surface.flags.length).toBe(s.flags.length);
    expect(surfaceArea(r.surface)).toBeCloseTo(324, 9);
  });

  it('bakes a GIT cutter on a sloped floor: new vertices lie on the original planes, the TRX validates', () => {
    const slope = (x: number, y: number) => 0.1 * x + 0.05 * y;
    const trn = syntheticTrn({ grid: 2, tileWidth: 9, border: 0, cellsPerTile: 3, height: slope, flags: () => WOOD });
    const r = bakeTrn({ trn, git: syntheticGit([[[2.2, 2.9], [13.1, 4.4], [9.9, 15.2], [4.1, 11.7]]]) });
    expect(errorsOf(r.trx)).toEqual([]);
    const p = new Float32Array(r.aswm.vertices.buffer, r.aswm.vertices.byteOffset, r.aswm.vertices.length);
    for (let v = 0; v < p.length / 3; v++) expect(p[v * 3 + 2]!).toBeCloseTo(slope(p[v * 3]!, p[v * 3 + 1]!), 4);
  });

  it('cuts random cutters (convex, star-shaped, self-intersecting, overlapping) over the Mord Mansion correctly', () => {
    const s = surfaceFromAswm(aswmOf(loadArea(mordDir, 'CSLMordMansion').trn));
    const before = new TriangleGrid(s.positions, s.triangles);
    const random = seededRandom(2024);
    for (let round = 0; round < 12; round++) {
      const cutters: Float64Array[] = [];
      for (let c = 0, n = 1 + Math.floor(random() * 4); c < n; c++) {
        const cx = random() * 54, cy = random() * 54, r = 0.3 + random() * 6, k = 3 + Math.floor(random() * 12);
        const star = random() < 0.5;
        const pts: number[] = [];
        for (let i = 0; i < k; i++) {
          const angle = star ? (i / k) * 2 * Math.PI : random() * 2 * Math.PI;
          const rr = r * (0.3 + random() * 0.7);
          pts.push(cx + rr * Math.cos(angle), cy + rr * Math.sin(angle));
        }
        cutters.push(Float64Array.from(pts));
      }
      const r = cutSurface(s, cutters.map((c) => ({ rings: [c] })));
      expectClean(r.surface, cutters, r.stats);
      // Away from the outlines (beyond twice the snap), the surface is the TRN minus the cutters.
      const after = new TriangleGrid(r.surface.positions, r.surface.triangles);
      const nearOutline = (x: number, y: number) =>
        cutters.some((c) => {
          for (let i = 0, n = c.length / 2; i < n; i++) {
            const j = (i + 1) % n;
            if (segmentDistanceSquared(x, y, c[i * 2]!, c[i * 2 + 1]!, c[j * 2]!, c[j * 2 + 1]!) < 0.01 * 0.01) return true;
          }
          return false;
        });
      for (let k = 0; k < 1500; k++) {
        const x = random() * 54, y = random() * 54;
        if (nearOutline(x, y)) continue;
        let was = false;
        before.forEachContaining(x, y, () => (was = true));
        let is = false;
        after.forEachContaining(x, y, () => (is = true));
        const cut = cutters.some((c) => pointInRing(c, x, y));
        expect(is, `round ${round} at (${x}, ${y})`).toBe(was && !cut);
      }
    }
  });
});
