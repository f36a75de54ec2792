import { orient } from '../geometry/segment';

/**
 * String pulling (the "simple stupid funnel"): the shortest polyline in the plane from the
 * first portal to the last through a corridor of portals, each given as left and right
 * points (x, y, z) as seen walking along the corridor. The first and last portals are the
 * start and goal points (both ends equal). Heights come from the portal corners the
 * polyline bends at, so on slopes and stairs the polyline follows the corridor's corners.
 *
 * Returns the polyline as x, y, z triples and, per point, the portal it lies on.
 */
export function pullString(left: Float64Array, right: Float64Array, count: number): { points: number[]; portals: number[] } {
  const out: number[] = [left[0]!, left[1]!, left[2]!];
  const portals: number[] = [0];
  if (count < 2) return { points: out, portals };
  let ax = left[0]!, ay = left[1]!;
  let apex = 0, li = 0, ri = 0;
  let lx = ax, ly = ay, rx = ax, ry = ay;
  const same = (px: number, py: number, qx: number, qy: number) => Math.abs(px - qx) < 1e-9 && Math.abs(py - qy) < 1e-9;
  // Each restart moves the apex forward, so the scan is at most count² steps; the cap
  // only guards against non-finite input.
  let budget = count * count + 16;
  for (let i = 1; i < count && budget-- > 0; i++) {
    const plx = left[i * 3]!, ply = left[i * 3 + 1]!;
    const prx = right[i * 3]!, pry = right[i * 3 + 1]!;
    // Right side: a new right point to the left of the current right narrows the funnel.
    if (orient(ax, ay, rx, ry, prx, pry) >= 0) {
      if (same(ax, ay, rx, ry) || orient(ax, ay, lx, ly, prx, pry) < 0) {
        rx = prx;
        ry = pry;
        ri = i;
      } else {
        // The right side crossed the left one: the left point is a corner of the path.
        apex = li;
        ax = lx;
        ay = ly;
        pushPoint(out, portals, left, apex);
        rx = lx = ax;
        ry = ly = ay;
        ri = li = apex;
        i = apex;
        continue;
      }
    }
    if (orient(ax, ay, lx, ly, plx, ply) <= 0) {
      if (same(ax, ay, lx, ly) || orient(ax, ay, rx, ry, plx, ply) > 0) {
        lx = plx;
        ly = ply;
        li = i;
      } else {
        apex = ri;
        ax = rx;
        ay = ry;
        pushPoint(out, portals, right, apex);
        rx = lx = ax;
        ry = ly = ay;
        ri = li = apex;
        i = apex;
        continue;
      }
    }
  }
  const last = count - 1;
  const n = out.length;
  if (out[n - 3] === left[last * 3] && out[n - 2] === left[last * 3 + 1] && out[n - 1] === left[last * 3 + 2]) portals[portals.length - 1] = last;
  else pushPoint(out, portals, left, last);
  return { points: out, portals };
}

function pushPoint(out: number[], portals: number[], pts: Float64Array, i: number): void {
  const n = out.length;
  const x = pts[i * 3]!, y = pts[i * 3 + 1]!, z = pts[i * 3 + 2]!;
  if (n >= 3 && out[n - 3] === x && out[n - 2] === y && out[n - 1] === z) return;
  out.push(x, y, z);
  portals.push(i);
}

/** Length of a polyline given as x, y, z triples, in 3-D. */
export function polylineLength(points: readonly number[]): number {
  let sum = 0;
  for (let i = 3; i < points.length; i += 3) sum += Math.hypot(points[i]! - points[i - 3]!, points[i + 1]! - points[i - 2]!, points[i + 2]! - points[i - 1]!);
  return sum;
}

/**
 * String pulling that passes through every one-point portal (a Source ladder's ends, a
 * jump's landing) as a corner of its own: in the plan a ladder's bottom and top lie on
 * one spot, and the height between them must stay in the polyline.
 */
export function pullPinned(left: Float64Array, right: Float64Array, n: number): { points: number[]; portals: number[] } {
  const points: number[] = [];
  const portals: number[] = [];
  let from = 0;
  for (let i = 1; i < n; i++) {
    const pinned = left[i * 3] === right[i * 3] && left[i * 3 + 1] === right[i * 3 + 1] && left[i * 3 + 2] === right[i * 3 + 2];
    if (!pinned && i < n - 1) continue;
    const part = pullString(left.subarray(from * 3, (i + 1) * 3), right.subarray(from * 3, (i + 1) * 3), i + 1 - from);
    // Each part starts where the last one ended: keep that point once.
    const skip = points.length > 0 ? 1 : 0;
    for (let k = skip; k < part.portals.length; k++) {
      points.push(part.points[k * 3]!, part.points[k * 3 + 1]!, part.points[k * 3 + 2]!);
      portals.push(part.portals[k]! + from);
    }
    from = i;
  }
  if (points.length === 0) return pullString(left, right, n);
  return { points, portals };
}
