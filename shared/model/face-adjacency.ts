/**
 * Face adjacency through shared vertex pairs, built in one pass over the edges with a
 * hash table keyed by the (smaller, larger) vertex pair. Never an all-pairs scan.
 */

/** `neighbors` value of an edge with no neighbour (a border edge). */
export const NO_NEIGHBOR = -1;

export interface NonManifoldEdge {
  /** The two vertex indices of the edge, smaller first. */
  a: number;
  b: number;
  /** Every face that has this edge (three or more). */
  faces: number[];
}

export interface FaceAdjacency {
  /**
   * For face f and edge e (0: v0→v1, 1: v1→v2, 2: v2→v0), `neighbors[3f+e]` is the other
   * face on that edge, or NO_NEIGHBOR. An edge shared by more than two faces links none of
   * them and is reported in `nonManifold` instead.
   */
  neighbors: Int32Array;
  nonManifold: NonManifoldEdge[];
  /** Edges whose two faces run the edge in the same direction (one face is flipped). */
  inconsistentWinding: number;
}

export function buildFaceAdjacency(triangles: Uint32Array, vertexCount: number): FaceAdjacency {
  const edgeCount = triangles.length;
  const neighbors = new Int32Array(edgeCount).fill(NO_NEIGHBOR);
  // Open addressing: keys are (lo * vertexCount + hi) stored as doubles (exact below 2^53),
  // values the first half-edge seen with that key.
  let capacity = 16;
  while (capacity < edgeCount * 2) capacity *= 2;
  const mask = capacity - 1;
  const keys = new Float64Array(capacity).fill(-1);
  const firstEdge = new Int32Array(capacity);
  const secondEdge = new Int32Array(capacity);
  const count = new Int32Array(capacity);
  const over: Map<number, number[]> = new Map();
  let inconsistentWinding = 0;

  for (let he = 0; he < edgeCount; he++) {
    const f = (he / 3) | 0;
    const corner = he - f * 3;
    const va = triangles[he]!;
    const vb = triangles[f * 3 + (corner === 2 ? 0 : corner + 1)]!;
    if (va === vb) continue; // degenerate edge: joins nothing
    const lo = va < vb ? va : vb;
    const hi = va < vb ? vb : va;
    const key = lo * vertexCount + hi;
    let slot = hashKey(lo, hi) & mask;
    while (keys[slot] !== -1 && keys[slot] !== key) slot = (slot + 1) & mask;
    if (keys[slot] === -1) {
      keys[slot] = key;
      firstEdge[slot] = he;
      count[slot] = 1;
      continue;
    }
    const n = ++count[slot]!;
    const first = firstEdge[slot]!;
    if (n === 2) {
      secondEdge[slot] = he;
      neighbors[first] = f;
      neighbors[he] = (first / 3) | 0;
      if (triangles[first] === va) inconsistentWinding++;
    } else {
      if (n === 3) {
        // The edge is non-manifold: unlink the pair made earlier and remember every face.
        // It is no winding pair either, so take back the count the pair may have added.
        const second = secondEdge[slot]!;
        neighbors[first] = NO_NEIGHBOR;
        neighbors[second] = NO_NEIGHBOR;
        if (triangles[first] === triangles[second]) inconsistentWinding--;
        over.set(slot, [first, second]);
      }
      over.get(slot)!.push(he);
    }
  }

  const nonManifold: NonManifoldEdge[] = [];
  for (const [slot, halfEdges] of over) {
    const key = keys[slot]!;
    const lo = Math.floor(key / vertexCount);
    nonManifold.push({ a: lo, b: key - lo * vertexCount, faces: halfEdges.map((h) => (h / 3) | 0) });
  }
  nonManifold.sort((x, y) => x.a - y.a || x.b - y.b);
  return { neighbors, nonManifold, inconsistentWinding };
}

function hashKey(lo: number, hi: number): number {
  return (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca77)) >>> 0;
}
