import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildFaceAdjacency, NO_NEIGHBOR, type FaceAdjacency } from '../../../shared/model/face-adjacency';

/**
 * The obvious quadratic definition: every half-edge is compared with every other one.
 * Only usable on small meshes, which is what makes it a trustworthy oracle.
 */
function bruteForceAdjacency(triangles: Uint32Array): FaceAdjacency {
  const n = triangles.length;
  const start = (he: number) => triangles[he]!;
  const end = (he: number) => triangles[he - (he % 3) + ((he % 3) + 1) % 3]!;
  const neighbors = new Int32Array(n).fill(NO_NEIGHBOR);
  const nonManifold: FaceAdjacency['nonManifold'] = [];
  let inconsistentWinding = 0;
  const seen = new Set<string>();
  for (let he = 0; he < n; he++) {
    const a = start(he);
    const b = end(he);
    if (a === b) continue;
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    const sharing: number[] = [];
    for (let other = 0; other < n; other++) {
      const c = start(other);
      const d = end(other);
      if (c !== d && Math.min(c, d) === lo && Math.max(c, d) === hi) sharing.push(other);
    }
    if (sharing.length === 2) {
      const other = sharing[0] === he ? sharing[1]! : sharing[0]!;
      neighbors[he] = Math.floor(other / 3);
    }
    const key = `${lo},${hi}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (sharing.length === 2 && start(sharing[0]!) === start(sharing[1]!)) inconsistentWinding++;
    if (sharing.length >= 3) nonManifold.push({ a: lo, b: hi, faces: sharing.map((h) => Math.floor(h / 3)) });
  }
  nonManifold.sort((x, y) => x.a - y.a || x.b - y.b);
  return { neighbors, nonManifold, inconsistentWinding };
}

/** Small meshes over few vertices, so shared, flipped and non-manifold edges are common. */
const smallMesh = fc
  .integer({ min: 1, max: 7 })
  .chain((vertexCount) =>
    fc.record({
      vertexCount: fc.constant(vertexCount),
      triangles: fc.array(fc.integer({ min: 0, max: vertexCount - 1 }), { maxLength: 3 * 14 }).map((a) => Uint32Array.from(a.slice(0, a.length - (a.length % 3)))),
    }),
  );

describe('buildFaceAdjacency', () => {
  it('agrees with a brute-force oracle on random small meshes', () => {
    fc.assert(
      fc.property(smallMesh, ({ vertexCount, triangles }) => {
        const got = buildFaceAdjacency(triangles, vertexCount);
        const want = bruteForceAdjacency(triangles);
        expect(Array.from(got.neighbors)).toEqual(Array.from(want.neighbors));
        expect(got.nonManifold).toEqual(want.nonManifold);
        expect(got.inconsistentWinding).toBe(want.inconsistentWinding);
      }),
      { numRuns: 2000 },
    );
  });

  it('links the two faces of a quad and reports its borders as open', () => {
    // 3---2
    // | / |
    // 0---1     faces (0,1,2) and (0,2,3) share the diagonal 0-2 in opposite directions
    const adj = buildFaceAdjacency(Uint32Array.from([0, 1, 2, 0, 2, 3]), 4);
    expect(Array.from(adj.neighbors)).toEqual([NO_NEIGHBOR, NO_NEIGHBOR, 1, 0, NO_NEIGHBOR, NO_NEIGHBOR]);
    expect(adj.nonManifold).toEqual([]);
    expect(adj.inconsistentWinding).toBe(0);
  });

  it('counts a flipped neighbour as inconsistent winding but still links it', () => {
    // Face 0 (0,1,2) runs 2→0, and so does face 1 (0,3,2): one of them is flipped.
    const adj = buildFaceAdjacency(Uint32Array.from([0, 1, 2, 0, 3, 2]), 4);
    expect(Array.from(adj.neighbors)).toEqual([NO_NEIGHBOR, NO_NEIGHBOR, 1, NO_NEIGHBOR, NO_NEIGHBOR, 0]);
    expect(adj.inconsistentWinding).toBe(1);
  });

  it('reports an edge shared by three faces as non-manifold and links none of them', () => {
    // A fin: faces 0, 1 and 2 all hang on the edge 0-1; face 3 is a plain neighbour of face 0.
    // Faces 0 and 1 run 0→1 the same way, so a reader stopping at the second face would
    // wrongly see a flipped pair.
    const triangles = Uint32Array.from([0, 1, 2, 0, 1, 4, 1, 0, 3, 2, 1, 5]);
    const adj = buildFaceAdjacency(triangles, 6);
    expect(adj.nonManifold).toEqual([{ a: 0, b: 1, faces: [0, 1, 2] }]);
    expect(adj.neighbors[0]).toBe(NO_NEIGHBOR); // face 0, edge 0→1
    expect(adj.neighbors[3]).toBe(NO_NEIGHBOR); // face 1, edge 0→1
    expect(adj.neighbors[6]).toBe(NO_NEIGHBOR); // face 2, edge 1→0
    expect(adj.neighbors[1]).toBe(3); // face 0 edge 1→2 meets face 3 edge 2→1
    expect(adj.neighbors[9]).toBe(0);
    // A non-manifold edge is not a winding pair.
    expect(adj.inconsistentWinding).toBe(0);
  });
});
