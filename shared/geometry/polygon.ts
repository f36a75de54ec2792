/**
 * Polygons in the plane as flat x, y arrays (one ring each; the closing edge is
 * implied). Point-in-polygon uses the even–odd rule, which is what the NWN2 toolset and
 * nwn-lib-d use for walkmesh cutters and what makes a polygon with holes a list of rings.
 */

/** Even–odd test of (x, y) against one ring; a point exactly on an edge may fall either way. */
export function pointInRing(ring: ArrayLike<number>, x: number, y: number): boolean {
  const n = ring.length >> 1;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = ring[i * 2]!, yi = ring[i * 2 + 1]!;
    const xj = ring[j * 2]!, yj = ring[j * 2 + 1]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Even–odd test against several rings taken together (a polygon with holes). */
export function pointInRings(rings: readonly ArrayLike<number>[], x: number, y: number): boolean {
  let inside = false;
  for (const r of rings) if (pointInRing(r, x, y)) inside = !inside;
  return inside;
}

/** Signed area of a ring (> 0 counter-clockwise, y up). */
export function ringSignedArea(ring: ArrayLike<number>): number {
  const n = ring.length >> 1;
  let s = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) s += ring[j * 2]! * ring[i * 2 + 1]! - ring[i * 2]! * ring[j * 2 + 1]!;
  return s / 2;
}

/** minX, minY, maxX, maxY of the rings. */
export function ringsBounds(rings: readonly ArrayLike<number>[]): [number, number, number, number] {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const r of rings) {
    for (let i = 0; i + 1 < r.length; i += 2) {
      const x = r[i]!, y = r[i + 1]!;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return [x0, y0, x1, y1];
}

/** Twice the signed area of the triangle (> 0 counter-clockwise). */
export function triangleArea2(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/**
 * The smallest altitude of a triangle (twice the area over the longest side): a sliver
 * measure that, unlike the area, does not flag small but well-shaped triangles.
 */
export function triangleMinAltitude(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const a2 = Math.abs(triangleArea2(ax, ay, bx, by, cx, cy));
  const l = Math.max(Math.hypot(bx - ax, by - ay), Math.hypot(cx - bx, cy - by), Math.hypot(ax - cx, ay - cy));
  return l > 0 ? a2 / l : 0;
}

/** True when (x, y) lies inside or on the triangle (within `tolerance` of twice-area units scaled by the edge length). */
export function pointInTriangle(x: number, y: number, ax: number, ay: number, bx: number, by: number, cx: number, cy: number, tolerance = 0): boolean {
  const d = triangleArea2(ax, ay, bx, by, cx, cy);
  if (d === 0) return false;
  const s = d > 0 ? 1 : -1;
  const e0 = triangleArea2(ax, ay, bx, by, x, y) * s;
  const e1 = triangleArea2(bx, by, cx, cy, x, y) * s;
  const e2 = triangleArea2(cx, cy, ax, ay, x, y) * s;
  if (tolerance === 0) return e0 >= 0 && e1 >= 0 && e2 >= 0;
  return e0 >= -tolerance * Math.hypot(bx - ax, by - ay) && e1 >= -tolerance * Math.hypot(cx - bx, cy - by) && e2 >= -tolerance * Math.hypot(ax - cx, ay - cy);
}
