import { AABB_NODE_WORDS, type BwmDocument } from '../../formats/kotor/bwm-document';

export interface SectionComparison {
  identical: boolean;
  /** Largest absolute difference of a float value (float sections of equal size), else null. */
  maxDifference: number | null;
  /** Elements in the rebuilt and reference sections. */
  count: number;
  referenceCount: number;
  /** Elements (words, or nodes for aabb) that differ, when the counts agree. */
  differing: number;
  /**
   * AABB only: nodes with the same faces below them and the same plane flag as the
   * reference's node at the same index (boxes aside), when the node counts agree.
   */
  sameShapeNodes?: number;
}

export type BwmSectionKey = 'vertices' | 'faces' | 'materials' | 'normals' | 'planes' | 'aabb' | 'adjacency' | 'edges' | 'perimeters';

export type BwmComparison = Record<BwmSectionKey, SectionComparison>;

/** Per-section comparison of a rebuilt BWM with a reference (usually the game's file). */
export function compareBwm(rebuilt: BwmDocument, reference: BwmDocument): BwmComparison {
  const edgeWords = (d: BwmDocument): Uint32Array => {
    const w = new Uint32Array(d.edgeIndex.length * 2);
    for (let i = 0; i < d.edgeIndex.length; i++) {
      w[2 * i] = d.edgeIndex[i]!;
      w[2 * i + 1] = d.edgeTransition[i]! >>> 0;
    }
    return w;
  };
  const u32 = (a: Int32Array): Uint32Array => new Uint32Array(a.buffer, a.byteOffset, a.length);
  return {
    vertices: compareWords(rebuilt.vertices, reference.vertices, 3, allFloat),
    faces: compareWords(rebuilt.faces, reference.faces, 3, noFloat),
    materials: compareWords(rebuilt.materials, reference.materials, 1, noFloat),
    normals: compareWords(rebuilt.normals, reference.normals, 3, allFloat),
    planes: compareWords(rebuilt.planes, reference.planes, 1, allFloat),
    aabb: { ...compareWords(rebuilt.aabb, reference.aabb, AABB_NODE_WORDS, (i) => i % AABB_NODE_WORDS < 6), sameShapeNodes: sameShapeNodes(rebuilt.aabb, reference.aabb) },
    adjacency: compareWords(u32(rebuilt.adjacency), u32(reference.adjacency), 3, noFloat),
    edges: compareWords(edgeWords(rebuilt), edgeWords(reference), 2, noFloat),
    perimeters: compareWords(rebuilt.perimeters, reference.perimeters, 1, noFloat),
  };
}

const allFloat = (): boolean => true;
const noFloat = (): boolean => false;

function compareWords(a: Uint32Array, b: Uint32Array, wordsPerItem: number, isFloat: (word: number) => boolean): SectionComparison {
  const count = a.length / wordsPerItem;
  const referenceCount = b.length / wordsPerItem;
  if (a.length !== b.length) return { identical: false, maxDifference: null, count, referenceCount, differing: 0 };
  const fa = new Float32Array(a.buffer, a.byteOffset, a.length);
  const fb = new Float32Array(b.buffer, b.byteOffset, b.length);
  let hasFloat = false;
  let maxDifference = 0;
  let differing = 0;
  let lastItem = -1;
  for (let i = 0; i < a.length; i++) {
    const float = isFloat(i);
    if (float) {
      hasFloat = true;
      const d = Math.abs(fa[i]! - fb[i]!);
      if (d > maxDifference || Number.isNaN(d)) maxDifference = Number.isNaN(d) ? Infinity : d;
    }
    if (a[i] !== b[i]) {
      const item = Math.floor(i / wordsPerItem);
      if (item !== lastItem) differing++;
      lastItem = item;
    }
  }
  return { identical: differing === 0, maxDifference: hasFloat ? maxDifference : null, count, referenceCount, differing };
}

/**
 * Nodes of two AABB tables that cover the same set of faces with the same plane flag. The
 * game's boxes come from the model's coordinates and cannot match bit for bit, so this is
 * the measure of whether the tree itself is the game's. Face sets are compared through an
 * order-independent hash summed from the leaves up (children follow their parent in
 * pre-order), so the count is O(n).
 */
export function sameShapeNodes(a: Uint32Array, b: Uint32Array): number {
  if (a.length !== b.length) return 0;
  const n = a.length / AABB_NODE_WORDS;
  const ha = subtreeHashes(a, n), hb = subtreeHashes(b, n);
  let same = 0;
  for (let k = 0; k < n; k++) {
    const o = k * AABB_NODE_WORDS;
    if (ha.valid[k] && hb.valid[k] && ha.sum[k] === hb.sum[k] && ha.mix[k] === hb.mix[k] && a[o + 8] === b[o + 8] && a[o + 6] === b[o + 6]) same++;
  }
  return same;
}

function subtreeHashes(w: Uint32Array, n: number): { sum: Uint32Array; mix: Uint32Array; valid: Uint8Array } {
  const sum = new Uint32Array(n), mix = new Uint32Array(n), valid = new Uint8Array(n);
  for (let k = n - 1; k >= 0; k--) {
    const o = k * AABB_NODE_WORDS;
    const face = w[o + 6]!;
    if (face !== 0xffffffff) {
      sum[k] = hash32(face);
      mix[k] = hash32(face ^ 0x9e3779b9);
      valid[k] = 1;
      continue;
    }
    const l = w[o + 9]!, r = w[o + 10]!;
    // A malformed table (children before their parent or out of range) has no comparable shape.
    if (l <= k || r <= k || l >= n || r >= n || !valid[l] || !valid[r]) continue;
    sum[k] = (sum[l]! + sum[r]!) >>> 0;
    mix[k] = (mix[l]! ^ mix[r]!) >>> 0;
    valid[k] = 1;
  }
  return { sum, mix, valid };
}

function hash32(x: number): number {
  let h = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}
