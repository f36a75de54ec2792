/**
 * Segment and point predicates in the plane, in doubles. Callers that need robustness
 * compare the results with a tolerance of their own (the cut snaps within millimetres),
 * so no exact arithmetic is attempted here.
 */

/** Twice the signed area of (a, b, c): > 0 when c lies left of a→b (counter-clockwise). */
export function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** The parameter of the point of line a→b closest to p (0 at a, 1 at b; not clamped). */
export function projectionParam(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  return len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
}

/** Squared distance from p to the segment a–b. */
export function segmentDistanceSquared(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  let t = projectionParam(px, py, ax, ay, bx, by);
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const x = ax + t * (bx - ax) - px;
  const y = ay + t * (by - ay) - py;
  return x * x + y * y;
}

/**
 * Where segments a–b and c–d cross at a single point strictly inside both (proper
 * crossing: each segment has the other's end points strictly on opposite sides): writes
 * the parameters along a–b and c–d into out[0], out[1] and returns true. Touching,
 * collinear and disjoint segments return false.
 */
export function properCrossing(
  ax: number, ay: number, bx: number, by: number,
  cx: number, cy: number, dx: number, dy: number,
  out: Float64Array,
): boolean {
  const o1 = orient(ax, ay, bx, by, cx, cy);
  const o2 = orient(ax, ay, bx, by, dx, dy);
  if (!((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0))) return false;
  const o3 = orient(cx, cy, dx, dy, ax, ay);
  const o4 = orient(cx, cy, dx, dy, bx, by);
  if (!((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return false;
  out[0] = o3 / (o3 - o4);
  out[1] = o1 / (o1 - o2);
  return true;
}

/** Squared distance between segments a–b and c–d (0 when they intersect). */
export function segmentsDistanceSquared(
  ax: number, ay: number, bx: number, by: number,
  cx: number, cy: number, dx: number, dy: number,
): number {
  const o1 = orient(ax, ay, bx, by, cx, cy);
  const o2 = orient(ax, ay, bx, by, dx, dy);
  const o3 = orient(cx, cy, dx, dy, ax, ay);
  const o4 = orient(cx, cy, dx, dy, bx, by);
  if (((o1 >= 0 && o2 <= 0) || (o1 <= 0 && o2 >= 0)) && ((o3 >= 0 && o4 <= 0) || (o3 <= 0 && o4 >= 0)) && !(o1 === 0 && o2 === 0)) return 0;
  return Math.min(
    segmentDistanceSquared(ax, ay, cx, cy, dx, dy),
    segmentDistanceSquared(bx, by, cx, cy, dx, dy),
    segmentDistanceSquared(cx, cy, ax, ay, bx, by),
    segmentDistanceSquared(dx, dy, ax, ay, bx, by),
  );
}
