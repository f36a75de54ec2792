import { AABB_NODE_WORDS, AABB_NO_CHILD, AABB_UNKNOWN_VALUE } from '../../formats/kotor/bwm-document';

/** Leaf boxes are the triangle's bounds grown by this much on every axis (game files). */
export const AABB_LEAF_PADDING = 0.01;
/** Plane flags: +X, +Y, +Z; the negative ones (0x08, 0x10, 0x20) are this shifted by 3. */
export const AABB_PLANE_POSITIVE = [0x01, 0x02, 0x04] as const;

/**
 * The AABB tree with the game's storage conventions (spec §2.3, §5.1): every face is a leaf
 * (2F−1 nodes), nodes in pre-order with 0-based children (left = k+1), leaf boxes =
 * triangle bounds ±0.01, parent boxes = exact union of the children, unknown = 4, plane
 * = bit flag of the split axis (0 on leaves).
 *
 * The split is the exact median: the left child takes the ⌊n/2⌋ faces with the smallest
 * centroid on the longest axis of the node box (ties by smaller |plane distance|, then by
 * face index — MDLEdit's order), so the right child is on the + side and the flag is
 * positive. BioWare's own axis choice is not reproducible from the files (spec §14), so
 * its trees differ in shape; their boxes were also computed from the model's pre-transform
 * coordinates and differ from the WOK vertices by up to ~1e-4.
 *
 * The median is found with quickselect (O(n) per level), so the whole build is O(n log n).
 * Returns AABB_NODE_WORDS words per node, float boxes as bit patterns.
 */
export function buildAabbTree(positions: Float32Array, triangles: Uint32Array, planeDistances: Float32Array): Uint32Array {
  const faces = triangles.length / 3;
  if (faces === 0) return new Uint32Array(0);
  const nodeCount = 2 * faces - 1;
  const words = new Uint32Array(nodeCount * AABB_NODE_WORDS);
  const boxes = new Float32Array(words.buffer);
  // Per-face padded bounds (6 floats), centroid sums (3 doubles; the /3 does not change the
  // order) and |plane distance| for ties, indexed by face.
  const faceBox = new Float32Array(faces * 6);
  const centroid = new Float64Array(faces * 3);
  const absDistance = new Float64Array(faces);
  const order = new Int32Array(faces);
  for (let f = 0; f < faces; f++) {
    order[f] = f;
    absDistance[f] = Math.abs(planeDistances[f] ?? 0);
    for (let ax = 0; ax < 3; ax++) {
      const a = positions[triangles[3 * f]! * 3 + ax]!;
      const b = positions[triangles[3 * f + 1]! * 3 + ax]!;
      const c = positions[triangles[3 * f + 2]! * 3 + ax]!;
      faceBox[6 * f + ax] = Math.min(a, b, c) - AABB_LEAF_PADDING;
      faceBox[6 * f + 3 + ax] = Math.max(a, b, c) + AABB_LEAF_PADDING;
      centroid[3 * f + ax] = a + b + c;
    }
  }
  // The split axis's centroid and |distance| of order[i], kept beside it so the selection
  // reads them in sequence.
  const keys = new Float64Array(faces);
  const ties = new Float64Array(faces);

  let next = 0;
  // Median splits keep the recursion depth at ⌈log2 F⌉.
  const build = (lo: number, hi: number): number => {
    const node = next++;
    const base = node * AABB_NODE_WORDS;
    if (hi - lo === 1) {
      const f = order[lo]!;
      for (let i = 0; i < 6; i++) boxes[base + i] = faceBox[6 * f + i]!;
      words[base + 6] = f;
      words[base + 7] = AABB_UNKNOWN_VALUE;
      words[base + 8] = 0;
      words[base + 9] = AABB_NO_CHILD;
      words[base + 10] = AABB_NO_CHILD;
      return node;
    }
    let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
    for (let i = lo; i < hi; i++) {
      const o = 6 * order[i]!;
      if (faceBox[o]! < minX) minX = faceBox[o]!;
      if (faceBox[o + 1]! < minY) minY = faceBox[o + 1]!;
      if (faceBox[o + 2]! < minZ) minZ = faceBox[o + 2]!;
      if (faceBox[o + 3]! > maxX) maxX = faceBox[o + 3]!;
      if (faceBox[o + 4]! > maxY) maxY = faceBox[o + 4]!;
      if (faceBox[o + 5]! > maxZ) maxZ = faceBox[o + 5]!;
    }
    const ex = maxX - minX, ey = maxY - minY, ez = maxZ - minZ;
    const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
    const mid = lo + ((hi - lo) >> 1);
    for (let i = lo; i < hi; i++) {
      const f = order[i]!;
      keys[i] = centroid[3 * f + axis]!;
      ties[i] = absDistance[f]!;
    }
    selectMedian(order, keys, ties, lo, hi - 1, mid);
    boxes[base] = minX;
    boxes[base + 1] = minY;
    boxes[base + 2] = minZ;
    boxes[base + 3] = maxX;
    boxes[base + 4] = maxY;
    boxes[base + 5] = maxZ;
    words[base + 6] = 0xffffffff;
    words[base + 7] = AABB_UNKNOWN_VALUE;
    words[base + 8] = AABB_PLANE_POSITIVE[axis]!;
    words[base + 9] = build(lo, mid);
    words[base + 10] = build(mid, hi);
    return node;
  };
  build(0, faces);
  return words;
}

/** True when (centroid ka, |distance| da, face a) sorts before (kb, db, b): MDLEdit's order. */
function before(ka: number, da: number, a: number, kb: number, db: number, b: number): boolean {
  if (ka !== kb) return ka < kb;
  if (da !== db) return da < db;
  return a < b;
}

/**
 * Rearranges order[lo..hi] (keys and ties with it) so that order[k] is the face a full
 * sort would put there, with smaller ones before it and larger ones after (Hoare
 * quickselect, median-of-three pivot).
 */
function selectMedian(order: Int32Array, keys: Float64Array, ties: Float64Array, lo: number, hi: number, k: number): void {
  const less = (i: number, j: number): boolean => before(keys[i]!, ties[i]!, order[i]!, keys[j]!, ties[j]!, order[j]!);
  while (hi > lo) {
    const m = lo + ((hi - lo) >> 1);
    if (less(m, lo)) swap(order, keys, ties, m, lo);
    if (less(hi, lo)) swap(order, keys, ties, hi, lo);
    if (less(hi, m)) swap(order, keys, ties, hi, m);
    const pf = order[m]!, pk = keys[m]!, pd = ties[m]!;
    let i = lo, j = hi;
    while (i <= j) {
      while (before(keys[i]!, ties[i]!, order[i]!, pk, pd, pf)) i++;
      while (before(pk, pd, pf, keys[j]!, ties[j]!, order[j]!)) j--;
      if (i <= j) {
        swap(order, keys, ties, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

function swap(order: Int32Array, keys: Float64Array, ties: Float64Array, i: number, j: number): void {
  const t = order[i]!;
  order[i] = order[j]!;
  order[j] = t;
  const u = keys[i]!;
  keys[i] = keys[j]!;
  keys[j] = u;
  const v = ties[i]!;
  ties[i] = ties[j]!;
  ties[j] = v;
}
