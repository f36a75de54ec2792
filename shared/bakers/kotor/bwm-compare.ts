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
    aabb: compareWords(rebuilt.aabb, reference.aabb, AABB_NODE_WORDS, (i) => i % AABB_NODE_WORDS < 6),
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
