import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildTriangleBvh, raycastBvh } from '../../../shared/geometry/triangle-bvh';

/** A w×h grid of unit squares at z = height(x, y), two triangles each. */
function terrain(w: number, h: number, height: (x: number, y: number) => number): { positions: Float32Array; triangles: Uint32Array } {
  const positions = new Float32Array((w + 1) * (h + 1) * 3);
  for (let y = 0; y <= h; y++) for (let x = 0; x <= w; x++) positions.set([x, y, height(x, y)], (y * (w + 1) + x) * 3);
  const triangles = new Uint32Array(w * h * 6);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const a = y * (w + 1) + x;
      triangles.set([a, a + 1, a + w + 2, a, a + w + 2, a + w + 1], (y * w + x) * 6);
    }
  }
  return { positions, triangles };
}

/** Every face tested: the reference the tree must agree with. */
function bruteForce(positions: Float32Array, triangles: Uint32Array, o: number[], d: number[]): number | null {
  let best = Infinity;
  for (let f = 0; f < triangles.length / 3; f++) {
    const bvh = buildTriangleBvh(positions, triangles.slice(f * 3, f * 3 + 3));
    const hit = raycastBvh(bvh, o[0]!, o[1]!, o[2]!, d[0]!, d[1]!, d[2]!);
    if (hit && hit.t < best) best = hit.t;
  }
  return Number.isFinite(best) ? best : null;
}

describe('triangle BVH', () => {
  it('finds the face under a vertical ray on a grid', () => {
    const { positions, triangles } = terrain(40, 30, () => 2);
    const bvh = buildTriangleBvh(positions, triangles);
    // Square (12, 7) is faces 2·(7·40 + 12) and +1; (12.8, 7.2) lies below the diagonal: the first.
    const hit = raycastBvh(bvh, 12.8, 7.2, 50, 0, 0, -1);
    expect(hit?.face).toBe(2 * (7 * 40 + 12));
    expect(hit?.t).toBeCloseTo(48, 5);
    expect(raycastBvh(bvh, 12.2, 7.8, 50, 0, 0, -1)?.face).toBe(2 * (7 * 40 + 12) + 1);
    expect(raycastBvh(bvh, -5, 7, 50, 0, 0, -1)).toBeNull();
    expect(raycastBvh(bvh, 12.5, 7.5, 50, 0, 0, 1)).toBeNull();
  });

  it('returns the nearest of stacked floors, from above and from below', () => {
    const low = terrain(4, 4, () => 0);
    const high = terrain(4, 4, () => 10);
    const positions = new Float32Array([...low.positions, ...high.positions]);
    const offset = low.positions.length / 3;
    const triangles = new Uint32Array([...low.triangles, ...high.triangles.map((v) => v + offset)]);
    const bvh = buildTriangleBvh(positions, triangles);
    const fromAbove = raycastBvh(bvh, 1.5, 1.2, 20, 0, 0, -1)!;
    expect(fromAbove.face).toBeGreaterThanOrEqual(32);
    const fromBelow = raycastBvh(bvh, 1.5, 1.2, -20, 0, 0, 1)!;
    expect(fromBelow.face).toBeLessThan(32);
    expect(fromAbove.face - 32).toBe(fromBelow.face);
  });

  it('agrees with testing every face for random rays over a bumpy mesh', () => {
    const { positions, triangles } = terrain(12, 9, (x, y) => Math.sin(x * 0.7) * 2 + Math.cos(y * 1.3));
    const bvh = buildTriangleBvh(positions, triangles);
    fc.assert(
      fc.property(
        fc.tuple(fc.double({ min: -2, max: 14, noNaN: true }), fc.double({ min: -2, max: 11, noNaN: true }), fc.double({ min: 5, max: 20, noNaN: true })),
        fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: -0.05, noNaN: true })),
        (o, d) => {
          const expected = bruteForce(positions, triangles, o, d);
          const hit = raycastBvh(bvh, o[0], o[1], o[2], d[0], d[1], d[2]);
          if (expected === null) expect(hit).toBeNull();
          else expect(hit?.t).toBeCloseTo(expected, 4);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('copes with no faces, degenerate faces and faces sharing one centroid', () => {
    expect(raycastBvh(buildTriangleBvh(new Float32Array(), new Uint32Array()), 0, 0, 1, 0, 0, -1)).toBeNull();
    // Ten copies of one triangle and a degenerate sliver: a single leaf, still searchable.
    const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 2, 0]);
    const triangles = new Uint32Array([...Array.from({ length: 10 }, () => [0, 1, 2]).flat(), 0, 3, 3]);
    const bvh = buildTriangleBvh(positions, triangles);
    expect(raycastBvh(bvh, 0.2, 0.2, 1, 0, 0, -1)?.face).toBe(0);
    expect(raycastBvh(bvh, 1.5, 1.5, 1, 0, 0, -1)).toBeNull();
  });

  it('keeps the tree shallow for 100,000 faces', () => {
    const { positions, triangles } = terrain(250, 200, (x, y) => (x * y) % 7);
    const bvh = buildTriangleBvh(positions, triangles);
    expect(bvh.nodeCount).toBeLessThan((2 * triangles.length) / 3);
    let maxDepth = 0;
    const stack: [number, number][] = [[0, 0]];
    while (stack.length) {
      const [n, d] = stack.pop()!;
      maxDepth = Math.max(maxDepth, d);
      const l = bvh.left[n]!;
      if (l >= 0) stack.push([l, d + 1], [l + 1, d + 1]);
    }
    expect(maxDepth).toBeLessThanOrEqual(Math.ceil(Math.log2(triangles.length / 3)));
    expect(raycastBvh(bvh, 100.3, 50.6, 100, 0, 0, -1)?.face).toBe(2 * (50 * 250 + 100) + 1);
  });
});
