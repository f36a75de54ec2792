import { describe, expect, it } from 'vitest';
import { BoxGrid } from '../../../shared/geometry/box-grid';
import { triangulateConstrained, usesEveryPoint } from '../../../shared/geometry/constrained-triangulation';
import { PointHash } from '../../../shared/geometry/point-hash';
import { pointInRing, pointInRings, ringSignedArea, triangleMinAltitude } from '../../../shared/geometry/polygon';
import { properCrossing, segmentDistanceSquared, segmentsDistanceSquared } from '../../../shared/geometry/segment';
import { planeHeight, TriangleGrid } from '../../../shared/geometry/triangle-grid';
import { overlappingTriangles, triangleOverlapArea } from '../../../shared/geometry/triangle-overlap';
import { seededRandom } from '../../../shared/bakers/nwn2/point-reachability';

describe('shared/geometry helpers', () => {
  it('BoxGrid reports exactly the boxes overlapping a query, each once (against a linear scan)', () => {
    const random = seededRandom(11);
    const n = 500;
    const boxes = new Float64Array(n * 4);
    for (let i = 0; i < n; i++) {
      const x = random() * 100, y = random() * 100, w = random() * 8, h = random() * 8;
      boxes.set([x, y, x + w, y + h], i * 4);
    }
    const grid = new BoxGrid(boxes);
    for (let q = 0; q < 200; q++) {
      const x = random() * 110 - 5, y = random() * 110 - 5, w = random() * 20, h = random() * 20;
      const got: number[] = [];
      grid.forEachInBox(x, y, x + w, y + h, (i) => {
        // The grid may report candidates; keep only true overlaps, as its users do.
        if (boxes[i * 4]! <= x + w && boxes[i * 4 + 2]! >= x && boxes[i * 4 + 1]! <= y + h && boxes[i * 4 + 3]! >= y) got.push(i);
      });
      const want: number[] = [];
      for (let i = 0; i < n; i++) if (boxes[i * 4]! <= x + w && boxes[i * 4 + 2]! >= x && boxes[i * 4 + 1]! <= y + h && boxes[i * 4 + 3]! >= y) want.push(i);
      expect(got.sort((a, b) => a - b)).toEqual(want);
    }
  });

  it('PointHash finds the nearest point within its radius and nothing beyond', () => {
    const h = new PointHash(0.01);
    h.add(1, 1, 7);
    h.add(1.006, 1, 8);
    expect(h.find(1.004, 1)).toBe(8);
    expect(h.find(0.995, 1)).toBe(7);
    expect(h.find(1.02, 1)).toBe(-1);
    expect(h.findOrAdd(5, 5, 9)).toBe(9);
    expect(h.find(5.001, 4.999)).toBe(9);
  });

  it('tests points against rings by the even–odd rule (holes, self-intersections)', () => {
    const outer = [0, 0, 10, 0, 10, 10, 0, 10];
    const hole = [3, 3, 7, 3, 7, 7, 3, 7];
    expect(pointInRings([outer, hole], 1, 1)).toBe(true);
    expect(pointInRings([outer, hole], 5, 5)).toBe(false);
    // Lobes (0, 0), (2, 2), (0, 4) and (4, 4), (2, 2), (4, 0).
    const bowTie = [0, 0, 4, 4, 4, 0, 0, 4];
    expect(pointInRing(bowTie, 1, 2)).toBe(true);
    expect(pointInRing(bowTie, 3, 2)).toBe(true);
    expect(pointInRing(bowTie, 2, 1)).toBe(false);
    expect(pointInRing(bowTie, 2, 3.5)).toBe(false);
    expect(ringSignedArea(outer)).toBe(100);
    expect(ringSignedArea([0, 0, 0, 10, 10, 10, 10, 0])).toBe(-100);
    expect(triangleMinAltitude(0, 0, 10, 0, 5, 0.002)).toBeCloseTo(0.002, 12);
  });

  it('finds proper crossings and segment distances', () => {
    const t = new Float64Array(2);
    expect(properCrossing(0, 0, 4, 4, 0, 4, 4, 0, t)).toBe(true);
    expect([t[0], t[1]]).toEqual([0.5, 0.5]);
    expect(properCrossing(0, 0, 4, 0, 2, 0, 2, 3, t)).toBe(false); // touching, not crossing
    expect(properCrossing(0, 0, 4, 0, 0, 1, 4, 1, t)).toBe(false); // parallel
    expect(segmentDistanceSquared(2, 3, 0, 0, 4, 0)).toBe(9);
    expect(segmentDistanceSquared(6, 0, 0, 0, 4, 0)).toBe(4);
    expect(segmentsDistanceSquared(0, 0, 4, 0, 0, 1, 4, 1)).toBe(1);
    expect(segmentsDistanceSquared(0, 0, 4, 4, 0, 4, 4, 0)).toBe(0);
  });

  it('triangulates with constraint edges kept, and refuses crossing constraints', () => {
    // A square with an inner diagonal forced the "wrong" way for Delaunay.
    const coords = Float64Array.from([0, 0, 10, 0, 10, 1, 0, 1, 5, -3, 5, 4]);
    const tris = triangulateConstrained(coords, [4, 5]);
    expect(usesEveryPoint(6, tris)).toBe(true);
    let found = false;
    for (let i = 0; i < tris.length; i += 3) {
      const s = new Set([tris[i]!, tris[i + 1]!, tris[i + 2]!]);
      if (s.has(4) && s.has(5)) found = true;
      // Counter-clockwise.
      const [a, b, c] = [tris[i]!, tris[i + 1]!, tris[i + 2]!];
      expect((coords[b * 2]! - coords[a * 2]!) * (coords[c * 2 + 1]! - coords[a * 2 + 1]!) - (coords[b * 2 + 1]! - coords[a * 2 + 1]!) * (coords[c * 2]! - coords[a * 2]!)).toBeGreaterThan(0);
    }
    expect(found).toBe(true);
    expect(() => triangulateConstrained(coords, [0, 2, 1, 3])).toThrow();
  });

  it('locates points in triangles and reads heights off their planes', () => {
    const positions = [0, 0, 0, 10, 0, 1, 0, 10, 2, 10, 10, 3];
    const triangles = [0, 1, 2, 1, 3, 2];
    const g = new TriangleGrid(positions, triangles);
    const at = (x: number, y: number) => {
      const out: number[] = [];
      g.forEachContaining(x, y, (t) => out.push(t));
      return out;
    };
    expect(at(2, 2)).toEqual([0]);
    expect(at(8, 8)).toEqual([1]);
    expect(at(5, 5).sort()).toEqual([0, 1]);
    expect(at(11, 5)).toEqual([]);
    expect(planeHeight(positions, triangles, 0, 5, 5)).toBeCloseTo(1.5, 12);
  });

  it('measures overlaps of triangles seen from above', () => {
    expect(triangleOverlapArea([0, 0, 4, 0, 0, 4], [0, 0, 2, 0, 0, 2])).toBeCloseTo(2, 12);
    expect(triangleOverlapArea([0, 0, 4, 0, 0, 4], [4, 4, 4, 0, 0, 4])).toBeCloseTo(0, 12);
    expect(triangleOverlapArea([0, 0, 0, 4, 4, 0], [1, 1, 3, 1, 1, 3])).toBeCloseTo(2, 12);
    const positions = [0, 0, 0, 4, 0, 0, 0, 4, 0, 4, 4, 0, 1, 1, 5, 3, 1, 5, 1, 3, 5];
    expect(overlappingTriangles(positions, [0, 1, 2, 1, 3, 2])).toEqual([]);
    // (1, 1), (3, 1), (1, 3) lies inside the first triangle and touches the second along an edge.
    const o = overlappingTriangles(positions, [0, 1, 2, 1, 3, 2, 4, 5, 6]);
    expect(o.map((p) => [p.a, p.b])).toEqual([[0, 2]]);
    expect(o[0]!.area).toBeCloseTo(2, 12);
  });
});
