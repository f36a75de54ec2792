import type { NvmiEntry } from '../../formats/skyrim/navi-document';
import { TRI_EDGE_LINK_BITS, type NvnmDocument } from '../../formats/skyrim/nvnm-document';
import { sameDoorPairs } from './navi-rebake';

/**
 * Agreement of a rebaked navmesh with a reference (fractions 0..1):
 * - edgeLinks: triangle edge slots (3 × triangles) whose link bit and value both match;
 * - coverList: |rebuilt ∩ reference| / |rebuilt ∪ reference| of the cover-triangle sets (1 when both are empty);
 * - grid: |rebuilt ∩ reference| / |rebuilt ∪ reference| of the (cell, triangle) entries; 0 when the divisors differ
 *   (cells then name other rectangles), and when the meshes differ in triangle count;
 * - navi: matching NVMI fields out of 5 (centre bit-identical, preferred fraction bit-identical, edge-link set, preferred edge-link set, door set);
 *   null when either side has no NVMI entry for the navmesh.
 */
export interface NavmeshAgreement {
  edgeLinks: number;
  coverList: number;
  grid: number;
  navi: number | null;
}

export interface NaviFieldAgreement {
  centre: boolean;
  preferredFraction: boolean;
  edgeLinks: boolean;
  preferredEdgeLinks: boolean;
  doors: boolean;
  /** Largest |difference| of the centre coordinates, in game units. */
  centreMaxDifference: number;
}

export interface NavmeshComparison {
  agreement: NavmeshAgreement;
  counts: {
    triangles: number;
    edgeSlots: number;
    edgeSlotsMatching: number;
    coverEntries: number;
    referenceCoverEntries: number;
    coverMatching: number;
    gridEntries: number;
    referenceGridEntries: number;
    gridMatching: number;
    /** Grid entries only in the rebuilt grid / only in the reference's. */
    gridExtra: number;
    gridMissing: number;
    divisor: number;
    referenceDivisor: number;
    /** The 8 grid floats (max distances, min, max) are bit-identical. */
    gridBoundsIdentical: boolean;
  };
  navi: NaviFieldAgreement | null;
}


function fraction(matching: number, total: number): number {
  return total === 0 ? 1 : matching / total;
}

function compareEdges(a: NvnmDocument, b: NvnmDocument): { slots: number; matching: number } {
  const slots = a.triFlags.length * 3;
  if (a.triFlags.length !== b.triFlags.length) return { slots, matching: 0 };
  let matching = 0;
  for (let t = 0; t < a.triFlags.length; t++) {
    for (let k = 0; k < 3; k++) {
      const bit = TRI_EDGE_LINK_BITS[k]!;
      if ((a.triFlags[t]! & bit) === (b.triFlags[t]! & bit) && a.triEdges[t * 3 + k] === b.triEdges[t * 3 + k]) matching++;
    }
  }
  return { slots, matching };
}

function setOverlap(a: ArrayLike<number>, b: ArrayLike<number>): { matching: number; union: number } {
  const sa = new Set<number>();
  for (let i = 0; i < a.length; i++) sa.add(a[i]!);
  const sb = new Set<number>();
  for (let i = 0; i < b.length; i++) sb.add(b[i]!);
  let matching = 0;
  for (const x of sa) if (sb.has(x)) matching++;
  return { matching, union: sa.size + sb.size - matching };
}

/** Grid entries as numbers cell × 65536 + triangle. */
function gridEntries(n: NvnmDocument): Float64Array {
  const out = new Float64Array(n.gridTriangles.length);
  for (let k = 0; k < n.gridCells.length; k++) {
    const c = n.gridCells[k]!;
    for (let o = n.gridCellStart[k]!; o < n.gridCellStart[k + 1]!; o++) out[o] = c * 65536 + (n.gridTriangles[o]! & 0xffff);
  }
  return out;
}

function compareNvmi(a: NvmiEntry, b: NvmiEntry): NaviFieldAgreement {
  const fa = new Float32Array(new Uint32Array(a.floats).buffer);
  const fb = new Float32Array(new Uint32Array(b.floats).buffer);
  let centreMaxDifference = 0;
  for (let i = 0; i < 3; i++) centreMaxDifference = Math.max(centreMaxDifference, Math.abs(fa[i]! - fb[i]!));
  const set = (x: Uint32Array, y: Uint32Array) => {
    const o = setOverlap(x, y);
    return x.length === y.length && o.matching === o.union;
  };
  return {
    centre: a.floats[0] === b.floats[0] && a.floats[1] === b.floats[1] && a.floats[2] === b.floats[2],
    preferredFraction: a.floats[3] === b.floats[3],
    edgeLinks: set(a.edgeLinks, b.edgeLinks),
    preferredEdgeLinks: set(a.preferredEdgeLinks, b.preferredEdgeLinks),
    doors: sameDoorPairs(a.doors, b.doors),
    centreMaxDifference,
  };
}

/** How far the rebaked NVNM (and NVMI entry) agree with a reference navmesh of the same FormID. */
export function compareNavmesh(
  rebuilt: NvnmDocument,
  reference: NvnmDocument,
  rebuiltNvmi: NvmiEntry | undefined,
  referenceNvmi: NvmiEntry | undefined,
): NavmeshComparison {
  const edges = compareEdges(rebuilt, reference);
  const cover = setOverlap(rebuilt.coverTriangles, reference.coverTriangles);
  const sameShape = rebuilt.gridDivisor === reference.gridDivisor && rebuilt.triFlags.length === reference.triFlags.length;
  const grid = setOverlap(gridEntries(rebuilt), gridEntries(reference));
  const gridMatching = sameShape ? grid.matching : 0;
  const gridUnion = sameShape ? grid.union : rebuilt.gridTriangles.length + reference.gridTriangles.length;
  let gridBoundsIdentical = rebuilt.gridBounds.length === reference.gridBounds.length;
  for (let i = 0; gridBoundsIdentical && i < rebuilt.gridBounds.length; i++) gridBoundsIdentical = rebuilt.gridBounds[i] === reference.gridBounds[i];
  const navi = rebuiltNvmi && referenceNvmi ? compareNvmi(rebuiltNvmi, referenceNvmi) : null;
  const naviMatching = navi ? [navi.centre, navi.preferredFraction, navi.edgeLinks, navi.preferredEdgeLinks, navi.doors].filter(Boolean).length : 0;
  return {
    agreement: {
      edgeLinks: fraction(edges.matching, edges.slots),
      coverList: fraction(cover.matching, cover.union),
      grid: fraction(gridMatching, gridUnion),
      navi: navi ? naviMatching / 5 : null,
    },
    counts: {
      triangles: rebuilt.triFlags.length,
      edgeSlots: edges.slots,
      edgeSlotsMatching: edges.matching,
      coverEntries: rebuilt.coverTriangles.length,
      referenceCoverEntries: reference.coverTriangles.length,
      coverMatching: cover.matching,
      gridEntries: rebuilt.gridTriangles.length,
      referenceGridEntries: reference.gridTriangles.length,
      gridMatching,
      gridExtra: rebuilt.gridTriangles.length - gridMatching,
      gridMissing: reference.gridTriangles.length - gridMatching,
      divisor: rebuilt.gridDivisor,
      referenceDivisor: reference.gridDivisor,
      gridBoundsIdentical,
    },
    navi,
  };
}
