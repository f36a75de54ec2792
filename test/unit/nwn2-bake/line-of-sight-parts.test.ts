import { describe, expect, it } from 'vitest';
import { convexHull, segmentCrossesInterior, type Polygon } from '../../../shared/bakers/nwn2/convex-geometry';
import { CornerHull, HullEdges } from '../../../shared/bakers/nwn2/corner-hull';
import { bakeEdges } from '../../../shared/bakers/nwn2/bake-edges';
import { bakeMeshOf } from '../../../shared/bakers/nwn2/bake-mesh';
import { TileGraph } from '../../../shared/bakers/nwn2/tile-graph';
import { TileLinks } from '../../../shared/bakers/nwn2/tile-links';
import { triangleCentres } from '../../../shared/bakers/nwn2/triangle-centres';
import { listFixtures } from '../../support/fixtures';
import { aswmOf, loadTrx } from './bake-test-support';
import { mulberry32 } from '../../support/seeded-random';

/**
 * The pieces issue 18 gave the line-of-sight step in place of convex-geometry.ts calls and
 * TileGraph give the same answers as those, on inputs shaped like a tile's triangles
 * (shared corners, collinear corners, segments along hull edges and through corners).
 */

const polygon = (size: number): Polygon => ({ count: 0, x: new Float64Array(size), y: new Float64Array(size) });
const corners = (p: Polygon) => Array.from({ length: p.count }, (_, i) => [p.x[i], p.y[i]]);

/** Triangles over a small lattice (with float32 coordinates), so corners repeat and many lie on one line. */
function latticeTriangles(rand: () => number, count: number, side: number) {
  const points = Array.from({ length: side * side }, (_, i) => [Math.fround((i % side) * 1.5 + (rand() < 0.3 ? rand() * 0.01 : 0)), Math.fround(Math.floor(i / side) * 1.5)]);
  const x = new Float64Array(count * 3);
  const y = new Float64Array(count * 3);
  const vertex = new Int32Array(count * 3);
  for (let u = 0; u < count * 3; u++) {
    const v = Math.floor(rand() * points.length);
    vertex[u] = v;
    x[u] = points[v]![0]!;
    y[u] = points[v]![1]!;
  }
  return { x, y, vertex, points };
}

describe('CornerHull', () => {
  it('builds the hull convexHull builds from every corner, with and without a member list', () => {
    const rand = mulberry32(18);
    const hull = new CornerHull(400);
    for (let round = 0; round < 400; round++) {
      const count = 1 + Math.floor(rand() * 60);
      const side = 2 + Math.floor(rand() * 6);
      const { x, y, vertex } = latticeTriangles(rand, count, side);
      const nodes = Int32Array.from({ length: count }, (_, i) => i);
      const all = new Float64Array(count * 6);
      for (let i = 0; i < count * 3; i++) {
        all[i * 2] = x[i]!;
        all[i * 2 + 1] = y[i]!;
      }
      const expected = polygon(count * 3 + 1);
      convexHull(all, count * 3, expected);
      const got = polygon(count * 3 + 1);
      hull.build(x, y, vertex, nodes, null, count, got);
      expect(corners(got)).toEqual(corners(expected));
      // Every other node, through `which`.
      const which = Int32Array.from({ length: Math.ceil(count / 2) }, (_, i) => i * 2);
      const some = new Float64Array(which.length * 6);
      which.forEach((u, i) => {
        for (let c = 0; c < 3; c++) {
          some[(i * 3 + c) * 2] = x[u * 3 + c]!;
          some[(i * 3 + c) * 2 + 1] = y[u * 3 + c]!;
        }
      });
      convexHull(some, which.length * 3, expected);
      hull.build(x, y, vertex, nodes, which, which.length, got);
      expect(corners(got)).toEqual(corners(expected));
    }
  });
});

describe('HullEdges', () => {
  it('answers as segmentCrossesInterior for both signs of epsilon', () => {
    const rand = mulberry32(7);
    const edges = new HullEdges(400);
    let crossing = 0;
    let tested = 0;
    for (let round = 0; round < 300; round++) {
      const count = 1 + Math.floor(rand() * 20);
      const { x, y, points } = latticeTriangles(rand, count, 2 + Math.floor(rand() * 5));
      const all = new Float64Array(count * 6);
      for (let i = 0; i < count * 3; i++) {
        all[i * 2] = x[i]!;
        all[i * 2 + 1] = y[i]!;
      }
      const hull = polygon(count * 3 + 1);
      convexHull(all, count * 3, hull);
      for (const epsilon of [1e-7, -1e-5]) {
        edges.load(hull, epsilon);
        for (let s = 0; s < 40; s++) {
          // Segments between lattice points (along hull edges, through corners) and random ones.
          const p = points[Math.floor(rand() * points.length)]!;
          const q = points[Math.floor(rand() * points.length)]!;
          const segment = rand() < 0.5 ? [p[0]!, p[1]!, q[0]!, q[1]!] : [p[0]!, p[1]!, p[0]! + (rand() - 0.5) * 4, p[1]! + (rand() - 0.5) * 4];
          const expected = segmentCrossesInterior(segment[0]!, segment[1]!, segment[2]!, segment[3]!, hull, epsilon);
          expect(edges.crosses(segment[0]!, segment[1]!, segment[2]!, segment[3]!)).toBe(expected);
          tested++;
          if (expected) crossing++;
        }
      }
    }
    // Both answers occur often enough for the comparison to mean something.
    expect(crossing).toBeGreaterThan(tested / 10);
    expect(crossing).toBeLessThan(tested - tested / 10);
  });
});

describe('TileLinks', () => {
  it('loads the nodes and arcs TileGraph loads, tile by tile', () => {
    const file = listFixtures('nwn2', ['.trx']).find((f) => f.toLowerCase().endsWith('dm_dungeon.trx')) ?? listFixtures('nwn2', ['.trx'])[0]!;
    const a = aswmOf(loadTrx(file));
    const e = bakeEdges(a.triVertices, a.vertices.length / 3, a.edges);
    const mesh = bakeMeshOf(a, e.triLinks, triangleCentres(a.vertices, a.triVertices));
    const graph = new TileGraph(mesh);
    const links = new TileLinks(mesh);
    let arcs = 0;
    for (let k = 0; k < mesh.tileCount; k++) {
      graph.load(k);
      links.load(k);
      expect(links.nodeCount).toBe(graph.nodeCount);
      const n = graph.nodeCount;
      expect(Array.from(links.triangle.subarray(0, n))).toEqual(Array.from(graph.triangle.subarray(0, n)));
      expect(Array.from(links.start.subarray(0, n + 1))).toEqual(Array.from(graph.start.subarray(0, n + 1)));
      const m = graph.start[n]!;
      expect(Array.from(links.target.subarray(0, m))).toEqual(Array.from(graph.target.subarray(0, m)));
      for (let u = 0; u < n; u++) expect(links.nodeOf[graph.triangle[u]!]).toBe(u);
      arcs += m;
    }
    expect(arcs).toBeGreaterThan(0);
  });
});
