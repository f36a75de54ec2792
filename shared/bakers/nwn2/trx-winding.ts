import { floatView, TriangleFlag, type AswmDocument } from '../../formats/nwn2/aswm-document';
import { signedArea2 } from '../../formats/nwn2/aswm-geometry';

/**
 * The TRX convention (spec §4.1, §4.5): triangles clockwise seen from +Z with flag 0x04
 * set on every one; the TRN keeps them counter-clockwise with the flag clear. Returns new
 * triangle and flag arrays: each counter-clockwise triangle reversed, all flagged.
 * Triangles with no area keep their order (they have no winding) but get the flag too,
 * as the toolset does.
 */
export function toTrxWinding(positions: ArrayLike<number>, triangles: Uint32Array, flags: Uint16Array): { triangles: Uint32Array; flags: Uint16Array } {
  const T = flags.length;
  const outTriangles = triangles.slice(0, T * 3);
  const outFlags = new Uint16Array(T);
  for (let t = 0; t < T; t++) {
    outFlags[t] = flags[t]! | TriangleFlag.clockwise;
    const a = triangles[t * 3]! * 3, b = triangles[t * 3 + 1]! * 3, c = triangles[t * 3 + 2]! * 3;
    const d = (positions[b]! - positions[a]!) * (positions[c + 1]! - positions[a + 1]!) - (positions[b + 1]! - positions[a + 1]!) * (positions[c]! - positions[a]!);
    if (d > 0) {
      outTriangles[t * 3 + 1] = triangles[t * 3 + 2]!;
      outTriangles[t * 3 + 2] = triangles[t * 3 + 1]!;
    }
  }
  return { triangles: outTriangles, flags: outFlags };
}

/** Triangles of a TRX walkmesh that break the convention: the flag missing, or wound counter-clockwise. */
export function trxWindingViolations(a: AswmDocument): number[] {
  const p = floatView(a.vertices);
  const out: number[] = [];
  for (let t = 0; t < a.triFlags.length; t++) {
    if (!(a.triFlags[t]! & TriangleFlag.clockwise) || signedArea2(p, a.triVertices, t) > 0) out.push(t);
  }
  return out;
}
