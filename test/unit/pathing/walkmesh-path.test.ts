import { describe, expect, it } from 'vitest';
import { walkmeshPathSurface } from '../../../shared/pathing/walkmesh-path';
import type { PathResult } from '../../../shared/pathing/path-result';
import { gridMesh, joinMeshes } from './grid-mesh';

/** Every corridor step joins two faces sharing an edge, and every face is walkable. */
function expectCorridorOnMesh(r: PathResult, surface: ReturnType<typeof walkmeshPathSurface>): void {
  const G = surface.graph;
  for (const f of r.corridor) expect(G.walkable[f]).toBe(1);
  for (let i = 0; i + 1 < r.corridor.length; i++) {
    const u = r.corridor[i]!, v = r.corridor[i + 1]!;
    const targets = Array.from(G.linkTarget.subarray(G.linkStart[u]!, G.linkStart[u + 1]!));
    expect(targets).toContain(v);
  }
}

describe('path on a generated walkmesh', () => {
  it('is the straight line across an open grid', () => {
    const s = walkmeshPathSurface(gridMesh(10, 10));
    const r = s.findPath([0.5, 0.5, 0], [9.3, 7.2, 0]);
    expect(r.found).toBe(true);
    expect(r.length).toBeCloseTo(Math.hypot(8.8, 6.7), 5);
    expect(r.points).toHaveLength(2);
    expect(r.facesCrossed).toBe(r.corridor.length);
    expect(r.facesCrossed).toBeGreaterThan(9);
    expectCorridorOnMesh(r, s);
  });

  it('goes round a wall through its one gap, bending at the wall corners', () => {
    // Column 5 is blocked except its top cell: the gap is the square [5,6] × [9,10].
    const s = walkmeshPathSurface(gridMesh(10, 10, { blocked: (i, j) => i === 5 && j < 9 }));
    const r = s.findPath([2.5, 2.5, 0], [7.5, 2.5, 0]);
    expect(r.found).toBe(true);
    const expected = Math.hypot(2.5, 6.5) + 1 + Math.hypot(1.5, 6.5);
    expect(r.length).toBeCloseTo(expected, 5);
    expect(r.points.map((p) => [p[0], p[1]])).toEqual([[2.5, 2.5], [5, 9], [6, 9], [7.5, 2.5]]);
    expectCorridorOnMesh(r, s);
  });

  it('follows a slope in 3-D', () => {
    const s = walkmeshPathSurface(gridMesh(4, 4, { z: (x) => x * 0.5 }));
    const r = s.findPath([0.5, 2, 0.25], [3.5, 2, 1.75]);
    expect(r.found).toBe(true);
    expect(r.length).toBeCloseTo(Math.hypot(3, 1.5), 4);
  });

  it('says the start and end are on different islands, with the break nearest the goal', () => {
    const s = walkmeshPathSurface(joinMeshes([gridMesh(3, 3), gridMesh(3, 3, { x0: 10 })]));
    const r = s.findPath([1.5, 1.5, 0], [11.5, 1.5, 0]);
    expect(r.found).toBe(false);
    expect(r.code).toBe('different-components');
    expect(r.components).toEqual({ start: 0, end: 1 });
    expect(r.reason).toMatch(/different connected regions \(0 and 1\)/);
    expect(r.breaks.length).toBeGreaterThan(0);
    // The border of the start island nearest the goal is its east side, x = 3.
    expect(r.breaks[0]!.a[0]).toBe(3);
    expect(r.breaks[0]!.b[0]).toBe(3);
    expect(r.breaks[0]!.distance).toBeCloseTo(8.5, 5);
    expect(r.unlinked).toEqual([]);
  });

  it('names the unlinked edge where two regions touch without adjacency', () => {
    // Side by side with their own vertices along x = 3: geometrically one floor, but no link.
    const s = walkmeshPathSurface(joinMeshes([gridMesh(3, 3), gridMesh(3, 3, { x0: 3 })]));
    const r = s.findPath([0.5, 1.5, 0], [5.5, 1.5, 0]);
    expect(r.found).toBe(false);
    expect(r.code).toBe('unlinked-edge');
    expect(r.unlinked.length).toBe(1);
    const u = r.unlinked[0]!;
    expect(u.a[0]).toBeCloseTo(3, 6);
    expect(u.b[0]).toBeCloseTo(3, 6);
    expect(Math.abs(u.b[1] - u.a[1])).toBeCloseTo(1, 6);
    expect(r.reason).toMatch(/unlinked edge between face \d+ and face \d+/);
  });

  it('follows unlinked edges through a middle region to explain a break', () => {
    const s = walkmeshPathSurface(joinMeshes([gridMesh(2, 2), gridMesh(2, 2, { x0: 2 }), gridMesh(2, 2, { x0: 4 })]));
    const r = s.findPath([0.5, 0.5, 0], [5.5, 0.5, 0]);
    expect(r.code).toBe('unlinked-edge');
    expect(r.unlinked.map((u) => Math.round(u.a[0]))).toEqual([2, 4]);
  });

  it('refuses points off the walkable surface and moves near ones onto it', () => {
    const s = walkmeshPathSurface(gridMesh(4, 4, { blocked: (i, j) => i === 1 && j === 1 }));
    const far = s.findPath([20, 20, 0], [1, 1, 0]);
    expect(far.found).toBe(false);
    expect(far.code).toBe('start-off-mesh');
    expect(far.reason).toMatch(/start point \(20, 20, 0\) is not on a walkable face/);
    const onWall = s.findPath([0.5, 0.5, 0], [1.5, 1.5, 0], { tolerance: 0 });
    expect(onWall.code).toBe('end-off-mesh');
    expect(onWall.reason).toMatch(/on unwalkable face/);
    const near = s.findPath([-0.5, 0.5, 0], [3.5, 0.5, 0]);
    expect(near.found).toBe(true);
    expect(near.start!.moved).toBeCloseTo(0.5, 6);
    expect(near.start!.point[0]).toBeCloseTo(0, 6);
    expect(near.length).toBeCloseTo(3.5, 5);
  });

  it('gives a zero-length path inside one face', () => {
    const s = walkmeshPathSurface(gridMesh(2, 2));
    const r = s.findPath([0.6, 0.2, 0], [0.8, 0.3, 0]);
    expect(r.found).toBe(true);
    expect(r.facesCrossed).toBe(1);
    expect(r.length).toBeCloseTo(Math.hypot(0.2, 0.1), 6);
  });

  it('puts a point on the floor nearest its height where floors are stacked', () => {
    const s = walkmeshPathSurface(joinMeshes([gridMesh(3, 3), gridMesh(3, 3, { z: () => 3 })]));
    const low = s.findPath([0.5, 0.5, 0.2], [2.5, 2.5, 0.1]);
    const high = s.findPath([0.5, 0.5, 2.8], [2.5, 2.5, 3.3]);
    expect(low.found && high.found).toBe(true);
    expect(low.points.every((p) => p[2] === 0)).toBe(true);
    expect(high.points.every((p) => p[2] === 3)).toBe(true);
    expect(low.corridor.every((f) => f < 18)).toBe(true);
    expect(high.corridor.every((f) => f >= 18)).toBe(true);
    const across = s.findPath([0.5, 0.5, 0], [2.5, 2.5, 3]);
    expect(across.code).toBe('different-components');
    // The floors lie one above the other, not side by side: no unlinked seam joins them.
    expect(across.unlinked).toEqual([]);
  });
});
