import { AABB_NODE_WORDS } from '../../formats/kotor/bwm-document';

/** A BWM's geometry and AABB table, as the queries read them. */
export interface BwmTreeMesh {
  /** x, y, z per vertex. */
  positions: Float32Array;
  /** Three vertex indices per face. */
  faces: Uint32Array;
  /** AABB_NODE_WORDS words per node, boxes as float bit patterns, root at 0. */
  aabb: Uint32Array;
}

export interface BwmRayHit {
  /** Face index, −1 for no hit. */
  face: number;
  /** Distance along the ray in units of its direction's length. */
  t: number;
  /** Faces whose triangle was tested (the tree's work). */
  tested: number;
}

/**
 * The nearest face a ray hits through a BWM AABB tree, as the game's walkmesh queries use
 * the tree: descend into every node whose box the ray crosses, test the triangles of the
 * leaves (both sides). Equal distances go to the lower face index, so two valid trees over
 * the same faces answer the same. Iterative (an explicit stack, each node visited once), so
 * a malformed table with a cycle cannot loop: a child index not after its parent is
 * skipped.
 */
export function bwmRayCast(mesh: BwmTreeMesh, origin: readonly [number, number, number], dir: readonly [number, number, number], maxT = Infinity): BwmRayHit {
  const nodes = mesh.aabb.length / AABB_NODE_WORDS;
  const boxes = new Float32Array(mesh.aabb.buffer, mesh.aabb.byteOffset, mesh.aabb.length);
  let best = -1, bestT = maxT, tested = 0;
  if (nodes === 0) return { face: -1, t: Infinity, tested };
  const stack = [0];
  while (stack.length > 0) {
    const k = stack.pop()!;
    const o = k * AABB_NODE_WORDS;
    if (!rayHitsBox(boxes, o, origin, dir, bestT)) continue;
    const face = mesh.aabb[o + 6]! | 0;
    if (face >= 0) {
      tested++;
      const t = rayTriangle(mesh, face, origin, dir);
      if (t !== null && t <= bestT && (t < bestT || best < 0 || face < best)) {
        best = face;
        bestT = t;
      }
      continue;
    }
    const l = mesh.aabb[o + 9]!, r = mesh.aabb[o + 10]!;
    if (l > k && l < nodes) stack.push(l);
    if (r > k && r < nodes) stack.push(r);
  }
  return { face: best, t: best < 0 ? Infinity : bestT, tested };
}

/** The face straight below (x, y) from height z (a vertical ray down), as the game finds the floor under a point. */
export function bwmFaceBelow(mesh: BwmTreeMesh, x: number, y: number, z: number): BwmRayHit {
  return bwmRayCast(mesh, [x, y, z], [0, 0, -1]);
}

/** The same query without a tree: every face (the oracle the tree queries are checked against). */
export function bruteRayCast(mesh: BwmTreeMesh, origin: readonly [number, number, number], dir: readonly [number, number, number], maxT = Infinity): BwmRayHit {
  let best = -1, bestT = maxT;
  const faces = mesh.faces.length / 3;
  for (let f = 0; f < faces; f++) {
    const t = rayTriangle(mesh, f, origin, dir);
    if (t !== null && (t < bestT || (t === bestT && best >= 0 && f < best) || (t === bestT && best < 0))) {
      best = f;
      bestT = t;
    }
  }
  return { face: best, t: best < 0 ? Infinity : bestT, tested: faces };
}

function rayHitsBox(b: Float32Array, o: number, origin: readonly number[], dir: readonly number[], maxT: number): boolean {
  let t0 = 0, t1 = maxT;
  for (let ax = 0; ax < 3; ax++) {
    const lo = b[o + ax]!, hi = b[o + 3 + ax]!;
    const d = dir[ax]!, p = origin[ax]!;
    if (d === 0) {
      if (p < lo || p > hi) return false;
      continue;
    }
    let a = (lo - p) / d, c = (hi - p) / d;
    if (a > c) [a, c] = [c, a];
    if (a > t0) t0 = a;
    if (c < t1) t1 = c;
    if (t0 > t1) return false;
  }
  return true;
}

/** Möller–Trumbore in doubles, both sides; null for a miss or a degenerate face. */
function rayTriangle(mesh: BwmTreeMesh, f: number, o: readonly number[], d: readonly number[]): number | null {
  const p = mesh.positions;
  const a = mesh.faces[3 * f]! * 3, b = mesh.faces[3 * f + 1]! * 3, c = mesh.faces[3 * f + 2]! * 3;
  const e1x = p[b]! - p[a]!, e1y = p[b + 1]! - p[a + 1]!, e1z = p[b + 2]! - p[a + 2]!;
  const e2x = p[c]! - p[a]!, e2y = p[c + 1]! - p[a + 1]!, e2z = p[c + 2]! - p[a + 2]!;
  const px = d[1]! * e2z - d[2]! * e2y, py = d[2]! * e2x - d[0]! * e2z, pz = d[0]! * e2y - d[1]! * e2x;
  const det = e1x * px + e1y * py + e1z * pz;
  if (Math.abs(det) < 1e-12) return null;
  const inv = 1 / det;
  const tx = o[0]! - p[a]!, ty = o[1]! - p[a + 1]!, tz = o[2]! - p[a + 2]!;
  const u = (tx * px + ty * py + tz * pz) * inv;
  if (u < 0 || u > 1) return null;
  const qx = ty * e1z - tz * e1y, qy = tz * e1x - tx * e1z, qz = tx * e1y - ty * e1x;
  const v = (d[0]! * qx + d[1]! * qy + d[2]! * qz) * inv;
  if (v < 0 || u + v > 1) return null;
  const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
  return t >= 0 ? t : null;
}
