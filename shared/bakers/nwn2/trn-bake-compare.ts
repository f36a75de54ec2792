import { floatView, TriangleFlag, type AswmDocument } from '../../formats/nwn2/aswm-document';
import { comparePointReachability, type PointReachabilityResult } from './point-reachability';

export interface CountPair {
  baked: number;
  reference: number;
}

/** A TRN bake measured against the TRX the toolset baked from the same TRN. */
export interface TrnBakeComparison {
  /** Walkable area seen from above (m²); ratio = baked / reference. */
  walkableArea: CountPair & { ratio: number };
  triangles: CountPair;
  walkableTriangles: CountPair;
  islands: CountPair;
  agreement: {
    /**
     * Fraction of random walkable point pairs whose reachability agrees (see
     * point-reachability.ts); with the TRN given, over the points where the reference's
     * surface is the TRN's own (not a placeable's).
     */
    pointReachability: number;
    details: PointReachabilityResult;
    /** The same over all pairs, placeable surfaces of the reference included (only with the TRN given). */
    allPairs?: PointReachabilityResult;
  };
}

/** Walkable area of an ASWM seen from above (m²). */
export function walkableAreaOf(a: AswmDocument): number {
  const p = floatView(a.vertices);
  const tv = a.triVertices;
  let sum = 0;
  for (let t = 0; t < a.triFlags.length; t++) {
    if (!(a.triFlags[t]! & TriangleFlag.walkable)) continue;
    const i = tv[t * 3]! * 3, j = tv[t * 3 + 1]! * 3, k = tv[t * 3 + 2]! * 3;
    sum += Math.abs((p[j]! - p[i]!) * (p[k + 1]! - p[i + 1]!) - (p[j + 1]! - p[i + 1]!) * (p[k]! - p[i]!)) / 2;
  }
  return sum;
}

function walkableCount(a: AswmDocument): number {
  let n = 0;
  for (let t = 0; t < a.triFlags.length; t++) if (a.triFlags[t]! & TriangleFlag.walkable) n++;
  return n;
}

export interface CompareOptions {
  /** Point pairs (default 10,000). */
  pairs?: number;
  seed?: number;
  /**
   * The TRN the bake came from: point reachability is then measured where the reference's
   * surface is the TRN's own, leaving out what the reference's placeables raised (their
   * models are often not at hand); the unrestricted figure is reported beside it.
   */
  trn?: AswmDocument;
}

/** Compares a baked walkmesh with a reference TRX: areas, counts and point reachability (10,000 pairs, fixed seed). */
export function compareTrnBake(baked: AswmDocument, reference: AswmDocument, options: CompareOptions = {}): TrnBakeComparison {
  const areaBaked = walkableAreaOf(baked);
  const areaRef = walkableAreaOf(reference);
  const details = comparePointReachability(baked, reference, { pairs: options.pairs, seed: options.seed, trn: options.trn });
  const allPairs = options.trn ? comparePointReachability(baked, reference, { pairs: options.pairs, seed: options.seed }) : undefined;
  return {
    walkableArea: { baked: areaBaked, reference: areaRef, ratio: areaRef > 0 ? areaBaked / areaRef : Number.NaN },
    triangles: { baked: baked.triFlags.length, reference: reference.triFlags.length },
    walkableTriangles: { baked: walkableCount(baked), reference: walkableCount(reference) },
    islands: { baked: baked.islands.count, reference: reference.islands.count },
    agreement: { pointReachability: details.agreement, details, ...(allPairs ? { allPairs } : {}) },
  };
}
