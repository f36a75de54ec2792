import { weldVertices } from './welded-vertices';

/**
 * The outline of a placed walkmesh: its boundary edges, those used by exactly one face.
 * Vertices are welded by position first, so faces that meet through duplicated vertices
 * (as KotOR PWKs and NWN2 WALK packets store them) do not draw their shared edge. Edges
 * are counted in an open-addressing hash over typed arrays: one pass, no all-pairs.
 *
 * Returns the segments as x, y, z of both ends (game space), each boundary edge once, in
 * the winding of the face that owns it. Degenerate faces (two corners at one place) and
 * faces whose `skip` flag is set add no edges.
 */
export function boundarySegments(positions: Float32Array, triangles: Uint32Array, skip?: Uint8Array): Float32Array {
  const ids = weldVertices(positions);
  const faceCount = Math.floor(triangles.length / 3);
  let capacity = 16;
  while (capacity < faceCount * 6) capacity *= 2;
  const mask = capacity - 1;
  const slots = new Int32Array(capacity).fill(-1);
  // Per distinct edge: its ends as the owning face wrote them (welded ids) and its use count.
  const from = new Uint32Array(faceCount * 3);
  const to = new Uint32Array(faceCount * 3);
  const uses = new Uint32Array(faceCount * 3);
  let edges = 0;
  for (let f = 0; f < faceCount; f++) {
    if (skip?.[f]) continue;
    const a = ids[triangles[f * 3]!]!, b = ids[triangles[f * 3 + 1]!]!, c = ids[triangles[f * 3 + 2]!]!;
    if (a === b || b === c || a === c) continue;
    for (let k = 0; k < 3; k++) {
      const u = k === 0 ? a : k === 1 ? b : c;
      const v = k === 0 ? b : k === 1 ? c : a;
      const lo = u < v ? u : v, hi = u < v ? v : u;
      let slot = (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca77)) & mask;
      for (;;) {
        const e = slots[slot]!;
        if (e < 0) {
          slots[slot] = edges;
          from[edges] = u;
          to[edges] = v;
          uses[edges++] = 1;
          break;
        }
        const eu = from[e]!, ev = to[e]!;
        if ((eu === lo && ev === hi) || (eu === hi && ev === lo)) {
          uses[e]!++;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
  }
  let boundary = 0;
  for (let e = 0; e < edges; e++) if (uses[e] === 1) boundary++;
  const out = new Float32Array(boundary * 6);
  let w = 0;
  for (let e = 0; e < edges; e++) {
    if (uses[e] !== 1) continue;
    const p = from[e]! * 3, q = to[e]! * 3;
    out[w++] = positions[p]!;
    out[w++] = positions[p + 1]!;
    out[w++] = positions[p + 2]!;
    out[w++] = positions[q]!;
    out[w++] = positions[q + 1]!;
    out[w++] = positions[q + 2]!;
  }
  return out;
}
