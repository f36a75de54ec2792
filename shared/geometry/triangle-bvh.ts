/**
 * A bounding-volume hierarchy over the triangles of one walkmesh, for picking under the
 * cursor: built once per mesh in O(n log n) (median split of the centroids on the longest
 * axis, by quickselect), then each ray visits O(log n) boxes instead of every face.
 * Nodes live in typed arrays; the tree is implicit in `left` (the right child is stored
 * next to the left one).
 */

/** Faces per leaf: small enough that a leaf test is cheap, large enough to keep the tree shallow. */
const LEAF_FACES = 4;

export interface TriangleBvh {
  positions: Float32Array;
  triangles: Uint32Array;
  /** Per node: min x, y, z then max x, y, z. */
  bounds: Float32Array;
  /** Per node: index of the left child (the right one is left + 1), or -1 for a leaf. */
  left: Int32Array;
  /** Per leaf: its first entry in `order` and how many faces it holds. */
  start: Uint32Array;
  count: Uint32Array;
  /** Face indices, grouped by leaf. */
  order: Uint32Array;
  nodeCount: number;
}

export interface RayHit {
  face: number;
  /** Distance along the ray in units of the direction's length. */
  t: number;
}

export function buildTriangleBvh(positions: Float32Array, triangles: Uint32Array): TriangleBvh {
  const faces = triangles.length / 3;
  const centroid = new Float32Array(faces * 3);
  const faceMin = new Float32Array(faces * 3);
  const faceMax = new Float32Array(faces * 3);
  for (let f = 0; f < faces; f++) {
    for (let k = 0; k < 3; k++) {
      const a = positions[triangles[f * 3]! * 3 + k]!;
      const b = positions[triangles[f * 3 + 1]! * 3 + k]!;
      const c = positions[triangles[f * 3 + 2]! * 3 + k]!;
      faceMin[f * 3 + k] = Math.min(a, b, c);
      faceMax[f * 3 + k] = Math.max(a, b, c);
      centroid[f * 3 + k] = (a + b + c) / 3;
    }
  }
  const order = new Uint32Array(faces);
  for (let f = 0; f < faces; f++) order[f] = f;
  // A binary tree with leaves of at least one face has fewer than 2n nodes.
  const maxNodes = Math.max(1, 2 * faces);
  const bounds = new Float32Array(maxNodes * 6);
  const left = new Int32Array(maxNodes).fill(-1);
  const start = new Uint32Array(maxNodes);
  const count = new Uint32Array(maxNodes);
  let nodeCount = 1;
  // Explicit stack, so a degenerate mesh cannot overflow the call stack.
  const stack: number[] = [0, 0, faces];
  while (stack.length > 0) {
    const to = stack.pop()!;
    const from = stack.pop()!;
    const node = stack.pop()!;
    let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
    let cMinX = Infinity, cMinY = Infinity, cMinZ = Infinity, cMaxX = -Infinity, cMaxY = -Infinity, cMaxZ = -Infinity;
    for (let i = from; i < to; i++) {
      const f = order[i]! * 3;
      if (faceMin[f]! < minX) minX = faceMin[f]!;
      if (faceMin[f + 1]! < minY) minY = faceMin[f + 1]!;
      if (faceMin[f + 2]! < minZ) minZ = faceMin[f + 2]!;
      if (faceMax[f]! > maxX) maxX = faceMax[f]!;
      if (faceMax[f + 1]! > maxY) maxY = faceMax[f + 1]!;
      if (faceMax[f + 2]! > maxZ) maxZ = faceMax[f + 2]!;
      const cx = centroid[f]!, cy = centroid[f + 1]!, cz = centroid[f + 2]!;
      if (cx < cMinX) cMinX = cx;
      if (cy < cMinY) cMinY = cy;
      if (cz < cMinZ) cMinZ = cz;
      if (cx > cMaxX) cMaxX = cx;
      if (cy > cMaxY) cMaxY = cy;
      if (cz > cMaxZ) cMaxZ = cz;
    }
    const b = node * 6;
    bounds[b] = minX;
    bounds[b + 1] = minY;
    bounds[b + 2] = minZ;
    bounds[b + 3] = maxX;
    bounds[b + 4] = maxY;
    bounds[b + 5] = maxZ;
    const n = to - from;
    const sx = cMaxX - cMinX, sy = cMaxY - cMinY, sz = cMaxZ - cMinZ;
    // Faces with one centroid cannot be separated by a split; they stay one leaf.
    if (n <= LEAF_FACES || !(sx > 0 || sy > 0 || sz > 0)) {
      start[node] = from;
      count[node] = n;
      continue;
    }
    const axis = sx >= sy && sx >= sz ? 0 : sy >= sz ? 1 : 2;
    const mid = (from + to) >> 1;
    selectNth(order, centroid, axis, from, to - 1, mid);
    const l = nodeCount;
    nodeCount += 2;
    left[node] = l;
    stack.push(l, from, mid, l + 1, mid, to);
  }
  return { positions, triangles, bounds, left, start, count, order, nodeCount };
}

/**
 * Recomputes every node's box from the triangles' current corners (after vertices moved,
 * the corners and faces unchanged), keeping the tree: O(nodes), far cheaper than a build.
 * Children are always stored after their parent, so one pass from the last node up sees
 * both children before the parent. Large moves leave a looser tree; picking stays exact.
 */
export function refitTriangleBvh(bvh: TriangleBvh): void {
  for (let node = bvh.nodeCount - 1; node >= 0; node--) {
    if (bvh.left[node]! >= 0) joinChildren(bvh, node);
    else fitLeaf(bvh, node);
  }
}

/** Each node's parent and each face's leaf, for refitting a few faces (built once per tree). */
const refitIndexes = new WeakMap<TriangleBvh, { parent: Int32Array; leafOf: Int32Array }>();

/**
 * Refits only the boxes over the listed faces (the faces round moved vertices): their
 * leaves, then those leaves' ancestors, each once. Same boxes as refitTriangleBvh gives;
 * a long list falls back to it.
 */
export function refitTriangleBvhFaces(bvh: TriangleBvh, faces: ArrayLike<number>): void {
  if (faces.length * 16 > bvh.order.length) {
    refitTriangleBvh(bvh);
    return;
  }
  let index = refitIndexes.get(bvh);
  if (!index) {
    const parent = new Int32Array(bvh.nodeCount).fill(-1);
    const leafOf = new Int32Array(bvh.order.length).fill(-1);
    for (let node = 0; node < bvh.nodeCount; node++) {
      const l = bvh.left[node]!;
      if (l >= 0) parent[l] = parent[l + 1] = node;
      else for (let i = bvh.start[node]!; i < bvh.start[node]! + bvh.count[node]!; i++) leafOf[bvh.order[i]!] = node;
    }
    refitIndexes.set(bvh, (index = { parent, leafOf }));
  }
  const inner = new Set<number>();
  const leaves = new Set<number>();
  for (let i = 0; i < faces.length; i++) {
    const leaf = index.leafOf[faces[i]!] ?? -1;
    if (leaf < 0 || leaves.has(leaf)) continue;
    leaves.add(leaf);
    fitLeaf(bvh, leaf);
    for (let p = index.parent[leaf]!; p >= 0 && !inner.has(p); p = index.parent[p]!) inner.add(p);
  }
  // Children are stored after their parents: from the highest index down, children first.
  for (const node of Array.from(inner).sort((a, b) => b - a)) joinChildren(bvh, node);
}

function joinChildren(bvh: TriangleBvh, node: number): void {
  const bounds = bvh.bounds;
  const b = node * 6;
  const l = bvh.left[node]!;
  const lb = l * 6, rb = (l + 1) * 6;
  for (let k = 0; k < 3; k++) {
    bounds[b + k] = Math.min(bounds[lb + k]!, bounds[rb + k]!);
    bounds[b + 3 + k] = Math.max(bounds[lb + 3 + k]!, bounds[rb + 3 + k]!);
  }
}

function fitLeaf(bvh: TriangleBvh, node: number): void {
  const { bounds, start, count, order, positions: p, triangles: t } = bvh;
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  const end = start[node]! + count[node]!;
  for (let i = start[node]!; i < end; i++) {
    const f = order[i]!;
    for (let c = 0; c < 3; c++) {
      const v = t[f * 3 + c]! * 3;
      const x = p[v]!, y = p[v + 1]!, z = p[v + 2]!;
      if (x < minX) minX = x;
      if (y < minY) minY = y;
      if (z < minZ) minZ = z;
      if (x > maxX) maxX = x;
      if (y > maxY) maxY = y;
      if (z > maxZ) maxZ = z;
    }
  }
  const b = node * 6;
  bounds[b] = minX;
  bounds[b + 1] = minY;
  bounds[b + 2] = minZ;
  bounds[b + 3] = maxX;
  bounds[b + 4] = maxY;
  bounds[b + 5] = maxZ;
}

/** Quickselect: puts the face with the k-th smallest centroid on `axis` at k, smaller before it. */
function selectNth(order: Uint32Array, centroid: Float32Array, axis: number, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    // Median of three as the pivot keeps sorted input (common: faces in scan order) linear.
    const m = (lo + hi) >> 1;
    const a = centroid[order[lo]! * 3 + axis]!, b = centroid[order[m]! * 3 + axis]!, c = centroid[order[hi]! * 3 + axis]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (centroid[order[i]! * 3 + axis]! < pivot) i++;
      while (centroid[order[j]! * 3 + axis]! > pivot) j--;
      if (i <= j) {
        const t = order[i]!;
        order[i] = order[j]!;
        order[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/**
 * The nearest face the ray origin + t·dir (t ≥ 0) passes through, from either side, or
 * null. Coordinates are in the mesh's own (game) space.
 */
export function raycastBvh(
  bvh: TriangleBvh,
  ox: number, oy: number, oz: number,
  dx: number, dy: number, dz: number,
  maxT = Infinity,
): RayHit | null {
  if (bvh.order.length === 0) return null;
  const ix = 1 / dx, iy = 1 / dy, iz = 1 / dz;
  const { bounds, left, start, count, order, positions: p, triangles: t } = bvh;
  let bestT = maxT;
  let bestFace = -1;
  const stack = new Int32Array(128);
  let sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const node = stack[--sp]!;
    const b = node * 6;
    // Slab test; NaN from 0 · ∞ on an axis-parallel ray fails the comparisons safely.
    let t0 = (bounds[b]! - ox) * ix, t1 = (bounds[b + 3]! - ox) * ix;
    let tmin = Math.min(t0, t1), tmax = Math.max(t0, t1);
    t0 = (bounds[b + 1]! - oy) * iy;
    t1 = (bounds[b + 4]! - oy) * iy;
    tmin = Math.max(tmin, Math.min(t0, t1));
    tmax = Math.min(tmax, Math.max(t0, t1));
    t0 = (bounds[b + 2]! - oz) * iz;
    t1 = (bounds[b + 5]! - oz) * iz;
    tmin = Math.max(tmin, Math.min(t0, t1));
    tmax = Math.min(tmax, Math.max(t0, t1));
    if (tmax < Math.max(tmin, 0) || tmin > bestT) continue;
    const l = left[node]!;
    if (l >= 0) {
      if (sp + 2 > stack.length) continue; // deeper than any balanced tree of 2^64 faces
      stack[sp++] = l + 1;
      stack[sp++] = l;
      continue;
    }
    const end = start[node]! + count[node]!;
    for (let i = start[node]!; i < end; i++) {
      const f = order[i]!;
      const a = t[f * 3]! * 3, bb = t[f * 3 + 1]! * 3, c = t[f * 3 + 2]! * 3;
      const hit = intersect(ox, oy, oz, dx, dy, dz, p[a]!, p[a + 1]!, p[a + 2]!, p[bb]!, p[bb + 1]!, p[bb + 2]!, p[c]!, p[c + 1]!, p[c + 2]!);
      // Ties (coincident faces) go to the lower index, so a pick does not depend on tree order.
      if (hit >= 0 && (hit < bestT || (hit === bestT && f < bestFace))) {
        bestT = hit;
        bestFace = f;
      }
    }
  }
  return bestFace < 0 ? null : { face: bestFace, t: bestT };
}

/** Möller–Trumbore, two-sided: the ray parameter of the hit, or -1. */
function intersect(
  ox: number, oy: number, oz: number, dx: number, dy: number, dz: number,
  ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number,
): number {
  const e1x = bx - ax, e1y = by - ay, e1z = bz - az;
  const e2x = cx - ax, e2y = cy - ay, e2z = cz - az;
  const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
  const det = e1x * px + e1y * py + e1z * pz;
  if (det === 0 || !Number.isFinite(det)) return -1;
  const inv = 1 / det;
  const sx = ox - ax, sy = oy - ay, sz = oz - az;
  const u = (sx * px + sy * py + sz * pz) * inv;
  if (u < 0 || u > 1) return -1;
  const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
  const v = (dx * qx + dy * qy + dz * qz) * inv;
  if (v < 0 || u + v > 1) return -1;
  const hit = (e2x * qx + e2y * qy + e2z * qz) * inv;
  return hit >= 0 ? hit : -1;
}
