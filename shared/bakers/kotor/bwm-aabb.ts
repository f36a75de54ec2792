import { AABB_NODE_WORDS, AABB_NO_CHILD, AABB_UNKNOWN_VALUE } from '../../formats/kotor/bwm-document';

/** Leaf boxes: triangle bounds minus this on every axis (game files)… */
export const AABB_LEAF_PADDING = 0.01;
/**
 * …and plus this: BioWare's leaf maxima are 0.0101 above the vertices (every leaf coordinate
 * whose vertex agrees with the model's reproduces bit for bit with these two values, none
 * with a symmetric 0.01).
 */
export const AABB_LEAF_PADDING_MAX = 0.0101;
/** Plane flags by axis: +X, +Y, +Z, then −X, −Y, −Z. */
export const AABB_PLANE_FLAGS = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20] as const;

/**
 * The AABB tree as BioWare's exporter builds it (spec §2.3, §5.1), reconstructed from the
 * game's rooms: every face is a leaf (2F−1 nodes), nodes in pre-order with 0-based children
 * (left = k+1), leaf boxes = triangle bounds −0.01/+0.0101, parent boxes = exact union of
 * the children, unknown = 4.
 *
 * - Split: the node box's longest axis, where an exact tie goes to the later axis (Y over X,
 *   Z over Y); the node's faces are sorted by centroid on it with the Microsoft C runtime's
 *   qsort and a comparator that never answers "equal" (sortLikeMsvcQsort), and the left
 *   child takes the first ⌊n/2⌋. Each child sorts its half in the order the parent's sort
 *   left it, so equal centroids end up where that qsort puts them.
 * - Plane flag: the axis on which the two children's box centres are furthest apart, with
 *   −X/−Y/−Z when the right child's centre is on the negative side.
 *
 * Evidence (ten BioWare-made WOKs in the fixtures): every internal node's children are
 * separated by centroid on that axis (1,220 of 1,220) and the flag rule holds wherever the
 * children's boxes differ (1,148 of 1,148). Started from the exporter's face list, the
 * build reproduces the game's tree leaf for leaf in m10aa_05a, 06a, 08a, 08b, 09b and
 * test.wok; that list was the WOK's own order in 08b, 09b and test.wok and, in the others,
 * the WOK order with the non-walkable block moved after the first 1 or 4 walkable faces.
 * The WOK does not record that list, so a bake starts from the WOK order (`listOrder`
 * takes another). The remaining differences: the flag of children with equal boxes (~6 %
 * of nodes; it came from sub-float differences of the model's coordinates, so the same
 * tree in 08b and 09b has +Y at one such node and −Y at the other) and the boxes, which
 * BioWare computed from the model's coordinates, up to ~1e-4 from the WOK vertices.
 * From the WOK order, nodes with the game's faces and flag: m10aa_01c 73/135, 03a 153/245,
 * 05a 214/255, 06a 125/137, 08a 305/319, 08b 169/171, 09a 53/77, 09b 170/171, test.wok
 * 387/389, zio006j 519/551 (88.5 %, against 60.9 % for MDLEdit's tree).
 *
 * Cost: a full sort per node is O(n log² n) per tree, so nodes above EXACT_SORT_LIMIT faces
 * are split by quickselect instead (O(n) per level), keeping huge meshes O(n log n).
 * Returns AABB_NODE_WORDS words per node, float boxes as bit patterns.
 */
export function buildAabbTree(positions: Float32Array, triangles: Uint32Array, listOrder?: ArrayLike<number>): Uint32Array {
  const faces = triangles.length / 3;
  if (faces === 0) return new Uint32Array(0);
  const nodeCount = 2 * faces - 1;
  const words = new Uint32Array(nodeCount * AABB_NODE_WORDS);
  const boxes = new Float32Array(words.buffer);
  // Per-face padded bounds (6 floats) and centroid sums (3 doubles; the /3 does not change
  // the order), indexed by face.
  const faceBox = new Float32Array(faces * 6);
  const centroid = new Float64Array(faces * 3);
  const order = new Int32Array(faces);
  if (listOrder !== undefined) checkPermutation(listOrder, faces);
  for (let f = 0; f < faces; f++) {
    order[f] = listOrder === undefined ? f : listOrder[f]!;
    const a = triangles[3 * f]! * 3, b = triangles[3 * f + 1]! * 3, c = triangles[3 * f + 2]! * 3;
    for (let ax = 0; ax < 3; ax++) {
      const pa = positions[a + ax]!, pb = positions[b + ax]!, pc = positions[c + ax]!;
      const lo = pa < pb ? (pa < pc ? pa : pc) : pb < pc ? pb : pc;
      const hi = pa > pb ? (pa > pc ? pa : pc) : pb > pc ? pb : pc;
      faceBox[6 * f + ax] = lo - AABB_LEAF_PADDING;
      faceBox[6 * f + 3 + ax] = hi + AABB_LEAF_PADDING_MAX;
      centroid[3 * f + ax] = pa + pb + pc;
    }
  }
  // The split axis's centroid of order[i], kept beside it so the sort reads in sequence.
  const keys = new Float64Array(faces);
  const stack = new Int32Array(128);

  let next = 0;
  // Median splits keep the recursion depth at ⌈log2 F⌉.
  const build = (lo: number, hi: number): number => {
    const node = next++;
    const base = node * AABB_NODE_WORDS;
    words[base + 7] = AABB_UNKNOWN_VALUE;
    if (hi - lo === 1) {
      const f = order[lo]!;
      for (let i = 0; i < 6; i++) boxes[base + i] = faceBox[6 * f + i]!;
      words[base + 6] = f;
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
    // Extents in float32, as the exporter compared them.
    const ex = Math.fround(maxX - minX), ey = Math.fround(maxY - minY), ez = Math.fround(maxZ - minZ);
    const axis = ex > ey && ex > ez ? 0 : ey > ez ? 1 : 2;
    const mid = lo + ((hi - lo) >> 1);
    for (let i = lo; i < hi; i++) keys[i] = centroid[3 * order[i]! + axis]!;
    if (hi - lo <= EXACT_SORT_LIMIT) sortLikeMsvcQsort(order, keys, lo, hi - 1, stack);
    else selectMedian(order, keys, lo, hi - 1, mid);
    boxes[base] = minX;
    boxes[base + 1] = minY;
    boxes[base + 2] = minZ;
    boxes[base + 3] = maxX;
    boxes[base + 4] = maxY;
    boxes[base + 5] = maxZ;
    words[base + 6] = 0xffffffff;
    const left = build(lo, mid);
    const right = build(mid, hi);
    words[base + 8] = planeFlag(boxes, left * AABB_NODE_WORDS, right * AABB_NODE_WORDS);
    words[base + 9] = left;
    words[base + 10] = right;
    return node;
  };
  build(0, faces);
  return words;
}

function checkPermutation(list: ArrayLike<number>, faces: number): void {
  if (list.length !== faces) throw new RangeError(`the face list order has ${list.length} entries for ${faces} faces`);
  const seen = new Uint8Array(faces);
  for (let i = 0; i < faces; i++) {
    const f = list[i]!;
    if (!(f >= 0 && f < faces) || seen[f]) throw new RangeError(`the face list order names face ${f} at ${i}: not each of 0..${faces - 1} once`);
    seen[f] = 1;
  }
}

/**
 * The flag of children whose boxes are equal. The game's flag there (+Y, −Y or −Z, never
 * the others) comes from sub-float differences of the model's coordinates: the same tree
 * in m10aa_08b and m10aa_09b has +Y at one such node and −Y at the other. −Y is the most
 * frequent of the three.
 */
const EQUAL_BOXES_FLAG = 0x10;

/** The flag of the axis with the largest gap between the children's box centres (spec §2.3). */
function planeFlag(boxes: Float32Array, l: number, r: number): number {
  let best = -1;
  let bestGap = 0;
  let negative = false;
  for (let ax = 0; ax < 3; ax++) {
    const d = boxes[r + ax]! + boxes[r + 3 + ax]! - (boxes[l + ax]! + boxes[l + 3 + ax]!);
    if (Math.abs(d) > bestGap) {
      bestGap = Math.abs(d);
      best = ax;
      negative = d < 0;
    }
  }
  return best < 0 ? EQUAL_BOXES_FLAG : AABB_PLANE_FLAGS[best + (negative ? 3 : 0)]!;
}

/**
 * Nodes up to this many faces are sorted exactly as BioWare's exporter sorted them
 * (O(n log n) per node, O(n log² n) per tree); larger ones, which no game room has (the
 * largest known has 1,209 faces), are split by quickselect in O(n) so that huge meshes
 * still build in O(n log n). Their trees are as valid, only not the exporter's.
 */
const EXACT_SORT_LIMIT = 4096;

/** Below this many elements the CRT's qsort finishes with its selection "shortsort". */
const QSORT_CUTOFF = 8;

/**
 * Sorts order[lo..hi] (keys with it) by key exactly as the Microsoft C runtime's qsort does
 * with a comparator that never answers "equal" (`a < b ? -1 : 1`), which is what BioWare's
 * exporter used: equal keys end up in the order this particular algorithm leaves them,
 * and that order decides the game's tree wherever centroids tie. Median-of-three quicksort
 * that recurses on the smaller part (an explicit stack of ⌈log2 n⌉ pairs), with a selection
 * sort below QSORT_CUTOFF elements.
 */
export function sortLikeMsvcQsort(order: Int32Array, keys: Float64Array, lo: number, hi: number, stack: Int32Array): void {
  let sp = 0;
  for (;;) {
    const size = hi - lo + 1;
    if (size <= QSORT_CUTOFF) {
      // shortsort: move the last of the largest keys to the end, repeatedly.
      let end = hi;
      while (end > lo) {
        let max = lo;
        for (let p = lo + 1; p <= end; p++) if (keys[p]! >= keys[max]!) max = p;
        swap(order, keys, max, end);
        end--;
      }
    } else {
      let mid = lo + (size >> 1);
      if (keys[lo]! >= keys[mid]!) swap(order, keys, lo, mid);
      if (keys[lo]! >= keys[hi]!) swap(order, keys, lo, hi);
      if (keys[mid]! >= keys[hi]!) swap(order, keys, mid, hi);
      let loguy = lo, higuy = hi;
      // The pivot element moves (mid follows it), its key does not.
      const pivot = keys[mid]!;
      for (;;) {
        if (mid > loguy) {
          do loguy++;
          while (loguy < mid && keys[loguy]! < pivot);
        }
        if (mid <= loguy) {
          do loguy++;
          while (loguy <= hi && keys[loguy]! < pivot);
        }
        do higuy--;
        while (higuy > mid && keys[higuy]! >= pivot);
        if (higuy < loguy) break;
        swap(order, keys, loguy, higuy);
        if (mid === higuy) mid = loguy;
      }
      // The CRT then skips elements equal to the pivot; with no "equal" answer it steps once.
      higuy++;
      if (mid < higuy) higuy--;
      if (mid >= higuy) higuy--;
      if (higuy - lo >= hi - loguy) {
        if (lo < higuy) {
          stack[sp++] = lo;
          stack[sp++] = higuy;
        }
        if (loguy < hi) {
          lo = loguy;
          continue;
        }
      } else {
        if (loguy < hi) {
          stack[sp++] = loguy;
          stack[sp++] = hi;
        }
        if (lo < higuy) {
          hi = higuy;
          continue;
        }
      }
    }
    if (sp === 0) return;
    hi = stack[--sp]!;
    lo = stack[--sp]!;
  }
}

/** Quickselect's order for nodes above EXACT_SORT_LIMIT: by centroid, equal centroids larger face first. */
function before(ka: number, a: number, kb: number, b: number): boolean {
  return ka < kb || (ka === kb && a > b);
}

/**
 * Rearranges order[lo..hi] (keys with it) so that order[k] is the face a full sort would
 * put there, with smaller ones before it and larger ones after (Hoare quickselect,
 * median-of-three pivot).
 */
function selectMedian(order: Int32Array, keys: Float64Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    const m = lo + ((hi - lo) >> 1);
    if (before(keys[m]!, order[m]!, keys[lo]!, order[lo]!)) swap(order, keys, m, lo);
    if (before(keys[hi]!, order[hi]!, keys[lo]!, order[lo]!)) swap(order, keys, hi, lo);
    if (before(keys[hi]!, order[hi]!, keys[m]!, order[m]!)) swap(order, keys, hi, m);
    const pf = order[m]!, pk = keys[m]!;
    let i = lo, j = hi;
    while (i <= j) {
      while (before(keys[i]!, order[i]!, pk, pf)) i++;
      while (before(pk, pf, keys[j]!, order[j]!)) j--;
      if (i <= j) {
        swap(order, keys, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

function swap(order: Int32Array, keys: Float64Array, i: number, j: number): void {
  const t = order[i]!;
  order[i] = order[j]!;
  order[j] = t;
  const u = keys[i]!;
  keys[i] = keys[j]!;
  keys[j] = u;
}
