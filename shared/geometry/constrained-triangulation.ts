import Constrainautor from '@kninnug/constrainautor';
import Delaunator from 'delaunator';

/**
 * A constrained Delaunay triangulation (Delaunator, then Constrainautor's edge flips) of
 * a small planar straight-line graph: `coords` as x, y pairs and `segments` as pairs of
 * point indices that must appear as triangle edges. Returns three point indices per
 * triangle, counter-clockwise seen from +Z (y up), covering the convex hull of the points.
 *
 * The libraries' preconditions are the caller's: no two points equal, no two segments
 * crossing, no point lying inside a segment. When they are not met the libraries throw
 * (or Delaunator leaves a point out, which is reported the same way), so a caller can
 * fall back to something simpler.
 */
export function triangulateConstrained(coords: Float64Array, segments: ArrayLike<number>): Uint32Array {
  const n = coords.length >> 1;
  if (n < 3) return new Uint32Array(0);
  const del = new Delaunator(coords);
  if (del.triangles.length === 0) return new Uint32Array(0);
  const edges: [number, number][] = [];
  for (let i = 0; i + 1 < segments.length; i += 2) {
    const a = segments[i]!;
    const b = segments[i + 1]!;
    if (a !== b) edges.push([a, b]);
  }
  if (edges.length > 0) new Constrainautor(del, edges);
  const t = del.triangles;
  const out = new Uint32Array(t.length);
  for (let i = 0; i < t.length; i += 3) {
    const a = t[i]!;
    const b = t[i + 1]!;
    const c = t[i + 2]!;
    const cross = (coords[b * 2]! - coords[a * 2]!) * (coords[c * 2 + 1]! - coords[a * 2 + 1]!) - (coords[b * 2 + 1]! - coords[a * 2 + 1]!) * (coords[c * 2]! - coords[a * 2]!);
    out[i] = a;
    out[i + 1] = cross >= 0 ? b : c;
    out[i + 2] = cross >= 0 ? c : b;
  }
  return out;
}

/** True when every point took part in the triangulation (Delaunator skips near-duplicates). */
export function usesEveryPoint(pointCount: number, triangles: Uint32Array): boolean {
  const seen = new Uint8Array(pointCount);
  for (let i = 0; i < triangles.length; i++) seen[triangles[i]!] = 1;
  for (let i = 0; i < pointCount; i++) if (seen[i] === 0) return false;
  return true;
}
