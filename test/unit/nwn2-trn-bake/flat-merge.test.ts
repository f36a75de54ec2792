import { describe, expect, it } from 'vitest';
import { TriangleFlag } from '../../../shared/formats/nwn2/aswm-document';
import { mergeFlatRegions } from '../../../shared/bakers/nwn2/flat-merge';
import { assignTiles } from '../../../shared/bakers/nwn2/retile';
import { surfaceArea, surfaceFromAswm, type TrnSurface } from '../../../shared/bakers/nwn2/trn-surface';
import { cutSurface } from '../../../shared/bakers/nwn2/walkmesh-cutter';
import { triangulateConstrained } from '../../../shared/geometry/constrained-triangulation';
import { pointInRings } from '../../../shared/geometry/polygon';
import { segmentDistanceSquared } from '../../../shared/geometry/segment';
import { aswmOf, syntheticTrn } from './bake-support';

const WOOD = TriangleFlag.walkable | TriangleFlag.wood;
const STONE = TriangleFlag.walkable | TriangleFlag.stone;
const grid = { gridWidth: 2, gridHeight: 2, tileWidth: 9 };

function room(flags: (cx: number, cy: number) => number = () => WOOD): TrnSurface {
  return surfaceFromAswm(aswmOf(syntheticTrn({ grid: 2, tileWidth: 9, border: 0, cellsPerTile: 6, flags })));
}

/** Edge (vertex pair) → how many triangles use it. */
function edgeUses(s: TrnSurface): Map<string, number> {
  const out = new Map<string, number>();
  for (let t = 0; t < s.flags.length; t++) {
    for (let c = 0; c < 3; c++) {
      const a = s.triangles[t * 3 + c]!;
      const b = s.triangles[t * 3 + ((c + 1) % 3)]!;
      const k = a < b ? `${a},${b}` : `${b},${a}`;
      out.set(k, (out.get(k) ?? 0) + 1);
    }
  }
  return out;
}

function usedVertices(s: TrnSurface): Set<number> {
  return new Set(s.triangles);
}

describe('merging flat regions (flat-merge.ts)', () => {
  it('turns each flat tile of 72 triangles into 2, dropping the straight border points on both sides', () => {
    const s = room();
    const r = mergeFlatRegions(s, assignTiles(s, grid).tileOf);
    expect(r.stats.regions).toBe(4);
    expect(r.stats.trianglesBefore).toBe(288);
    // The centre of the room is a corner of all four tiles, so it stays: 4 × 2 triangles.
    expect(r.stats.trianglesAfter).toBe(8);
    expect(surfaceArea(r.surface)).toBeCloseTo(324, 9);
    // Conforming: inner edges are shared by two triangles, the room's outline by one.
    const uses = [...edgeUses(r.surface).values()];
    // Inner edges: the diagonal of each tile and the four half tile borders from the centre.
    expect(uses.filter((n) => n === 2).length).toBe(8);
    expect(uses.every((n) => n === 1 || n === 2)).toBe(true);
    expect(usedVertices(r.surface).size).toBe(9);
  });

  it('keeps a vertex another (non-merged) triangle uses, and the flags of each region', () => {
    // Column 0..5 stone, the rest wood: the stone/wood line runs through tile (0, *) and (1, *) at x = 9.
    const s = room((cx) => (cx < 6 ? STONE : WOOD));
    const eligible = new Uint8Array(s.flags.length);
    // Only the left half may merge; the wood half stays as it is and pins its vertices.
    const tiles = assignTiles(s, grid);
    for (let t = 0; t < s.flags.length; t++) eligible[t] = tiles.tileOf[t]! % 2 === 0 ? 1 : 0;
    const r = mergeFlatRegions(s, tiles.tileOf, { eligible });
    expect(surfaceArea(r.surface)).toBeCloseTo(324, 9);
    let stone = 0;
    let wood = 0;
    for (let t = 0; t < r.surface.flags.length; t++) {
      if (r.surface.flags[t] === STONE) stone++;
      else if (r.surface.flags[t] === WOOD) wood++;
    }
    expect(wood).toBe(144);
    // Each stone tile keeps the 7 points the wood side uses along x = 9 and its 2 corners at
    // x = 0: 9 corners, 7 triangles; the points on its other, straight sides go.
    expect(stone).toBe(2 * (9 - 2));
    for (const n of edgeUses(r.surface).values()) expect(n === 1 || n === 2).toBe(true);
  });

  it('moves a finely sampled round hole by at most the 1 mm tolerance (no flattening by small steps)', () => {
    // 400 points on a circle of 2 m radius: each lies 0.06 mm off the chord of its
    // neighbours, far under the tolerance; dropping them one at a time against their
    // current neighbours alone would flatten the circle.
    const s = room();
    const n = 400;
    const ring = new Float64Array(n * 2);
    for (let i = 0; i < n; i++) {
      ring[i * 2] = 9 + 2 * Math.cos((i / n) * 2 * Math.PI + 0.1);
      ring[i * 2 + 1] = 9 + 2 * Math.sin((i / n) * 2 * Math.PI + 0.1);
    }
    const cut = cutSurface(s, [{ rings: [ring] }]).surface;
    const before = surfaceArea(cut);
    const r = mergeFlatRegions(cut, assignTiles(cut, grid).tileOf);
    expect(r.stats.trianglesAfter).toBeLessThan(r.stats.trianglesBefore);
    // Every point of the circle is within 1 mm of the new outline (its edges used once).
    const out = r.surface;
    const p = out.positions;
    const outline: [number, number, number, number][] = [];
    for (const [k, uses] of edgeUses(out)) {
      if (uses !== 1) continue;
      const [a, b] = k.split(',').map(Number) as [number, number];
      outline.push([p[a * 3]!, p[a * 3 + 1]!, p[b * 3]!, p[b * 3 + 1]!]);
    }
    for (let i = 0; i < n; i++) {
      const x = ring[i * 2]!, y = ring[i * 2 + 1]!;
      const d = Math.min(...outline.map(([ax, ay, bx, by]) => Math.sqrt(segmentDistanceSquared(x, y, ax, ay, bx, by))));
      expect(d).toBeLessThanOrEqual(1e-3 + 1e-9);
    }
    // So the floor grows by at most the perimeter times the tolerance.
    expect(surfaceArea(out) - before).toBeGreaterThanOrEqual(0);
    expect(surfaceArea(out) - before).toBeLessThan(2 * Math.PI * 2 * 1e-3);
    // A chord 1 mm from the circle spans at most 4 steps of it, so at least a quarter of the points stay.
    const kept = [...usedVertices(out)].filter((v) => Math.abs(Math.hypot(p[v * 3]! - 9, p[v * 3 + 1]! - 9) - 2) < 1e-6).length;
    expect(kept).toBeGreaterThanOrEqual(n / 4);
    expect(kept).toBeLessThan(n);
  });

  it('leaves a region whose straightened outline would cross its hole as it was, and its neighbour keeps the vertices it shares', () => {
    // Tile 0 (x 0..9): a floor whose lower side dips 0.9 mm at x = 4.5, with a small
    // triangular hole 0.3 mm above the dip's lowest point; dropping the dip's point (it is
    // within 1 mm of a straight line) would put the hole's lower edge outside the floor.
    // Tile 1 (x 9..18) is plain floor sharing the points (9, 1), (9, 4), (9, 7), (9, 10), with
    // a point inside and one on its straight right side, which go.
    const pts: [number, number][] = [
      [0, 1], [4, 1], [4.5, 1 - 0.0009], [5, 1], [9, 1], [9, 4], [9, 7], [9, 10], [0, 10], // 0..8: tile 0 outline
      [4.4, 1 - 0.0003], [4.6, 1 - 0.0003], [4.5, 1.5], // 9..11: the hole
      [18, 1], [18, 10], [18, 5.5], [13.5, 5.5], // 12..15: tile 1's corners, a point on its side and one inside
    ];
    const left = { outline: [0, 1, 2, 3, 4, 5, 6, 7, 8], hole: [9, 11, 10], inner: [] as number[] };
    const right = { outline: [4, 12, 14, 13, 7, 6, 5], hole: [] as number[], inner: [15] };
    const triangles: number[] = [];
    for (const part of [left, right]) {
      const ids = [...part.outline, ...part.hole, ...part.inner];
      const coords = Float64Array.from(ids.flatMap((i) => pts[i]!));
      const loops = [part.outline, part.hole].filter((l) => l.length > 0).map((l) => l.map((i) => ids.indexOf(i)));
      const constraints = loops.flatMap((l) => l.flatMap((a, k) => [a, l[(k + 1) % l.length]!]));
      const local = triangulateConstrained(coords, constraints);
      const rings = loops.map((l) => Float64Array.from(l.flatMap((i) => [coords[i * 2]!, coords[i * 2 + 1]!])));
      for (let i = 0; i < local.length; i += 3) {
        const [a, b, c] = [local[i]!, local[i + 1]!, local[i + 2]!];
        const mx = (coords[a * 2]! + coords[b * 2]! + coords[c * 2]!) / 3;
        const my = (coords[a * 2 + 1]! + coords[b * 2 + 1]! + coords[c * 2 + 1]!) / 3;
        if (pointInRings(rings, mx, my)) triangles.push(ids[a]!, ids[b]!, ids[c]!);
      }
    }
    const T = triangles.length / 3;
    const s: TrnSurface = {
      positions: Float64Array.from(pts.flatMap(([x, y]) => [x, y, 0])),
      triangles: Uint32Array.from(triangles),
      flags: new Uint16Array(T).fill(WOOD),
      source: Uint32Array.from({ length: T }, (_, t) => t),
    };
    const groupOf = Uint32Array.from({ length: T }, (_, t) => (pts[triangles[t * 3]!]![0] + pts[triangles[t * 3 + 1]!]![0] + pts[triangles[t * 3 + 2]!]![0] < 27 ? 0 : 1));
    const r = mergeFlatRegions(s, groupOf);
    expect(r.stats.failedRegions).toBe(1);
    expect(surfaceArea(r.surface)).toBeCloseTo(surfaceArea(s), 9);
    // Tile 0 is untouched; tile 1 became one polygon with the four shared border points: 4 triangles.
    const leftBefore = [...Array(T).keys()].filter((t) => groupOf[t] === 0).map((t) => [...s.triangles.subarray(t * 3, t * 3 + 3)].join(','));
    const after: string[] = [];
    for (let t = 0; t < r.surface.flags.length; t++) after.push([...r.surface.triangles.subarray(t * 3, t * 3 + 3)].join(','));
    for (const tri of leftBefore) expect(after).toContain(tri);
    expect(r.stats.regions).toBe(1);
    expect(r.stats.trianglesAfter).toBe(4);
    for (const n of edgeUses(r.surface).values()) expect(n === 1 || n === 2).toBe(true);
  });
});

