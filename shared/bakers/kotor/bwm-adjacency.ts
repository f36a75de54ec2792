/** `adjacency` value of an edge with no walkable neighbour. */
export const NO_ADJACENT = -1;

/**
 * Walkable adjacency as the game stores it: for each of the first `walkableCount` faces
 * (walkable faces come first) and each local edge e (0: v1→v2, 1: v2→v3, 2: v3→v1), the
 * neighbour's `face*3 + edge`, or −1. Faces are linked by shared vertex *indices* (not
 * positions) through opposite directed edges: a half-edge a→b is linked to the first
 * unlinked half-edge b→a of another face that comes after it. The half-edges are bucketed
 * by start vertex (a counting sort), so finding a twin scans one vertex's few outgoing
 * edges: O(n) overall, no all-pairs scan and no hash table. On a non-manifold edge (three or
 * more faces) the first two in file order are linked; validation reports the edge.
 */
export function computeWalkableAdjacency(triangles: Uint32Array, walkableCount: number, vertexCount: number): Int32Array {
  const slots = walkableCount * 3;
  const adjacency = new Int32Array(slots).fill(NO_ADJACENT);
  const start = new Int32Array(vertexCount + 1);
  for (let he = 0; he < slots; he++) start[triangles[he]! + 1]!++;
  for (let v = 0; v < vertexCount; v++) start[v + 1]! += start[v]!;
  const fill = start.slice(0, vertexCount);
  const bucket = new Int32Array(slots);
  for (let he = 0; he < slots; he++) bucket[fill[triangles[he]!]!++] = he;
  for (let he = 0; he < slots; he++) {
    if (adjacency[he] !== NO_ADJACENT) continue;
    const f = (he / 3) | 0;
    const e = he - 3 * f;
    const a = triangles[he]!;
    const b = triangles[3 * f + (e === 2 ? 0 : e + 1)]!;
    if (a === b) continue;
    for (let i = start[b]!, end = start[b + 1]!; i < end; i++) {
      const other = bucket[i]!;
      if (other <= he || adjacency[other] !== NO_ADJACENT) continue;
      const g = (other / 3) | 0;
      if (g === f) continue;
      const oe = other - 3 * g;
      if (triangles[3 * g + (oe === 2 ? 0 : oe + 1)] !== a) continue;
      adjacency[he] = other;
      adjacency[other] = he;
      break;
    }
  }
  return adjacency;
}
