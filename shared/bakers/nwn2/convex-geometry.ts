/** A convex polygon, counter-clockwise, in caller-owned arrays (`count` corners used). */
export interface Polygon {
  count: number;
  x: Float64Array;
  y: Float64Array;
}

let order = new Int32Array(64);

/**
 * The convex hull of `count` points (x, y pairs in `points`) into `out`, counter-clockwise,
 * without collinear corners (Andrew's monotone chain). `out` must hold `count + 1` corners.
 * Fewer than 3 corners means the points are collinear: the hull has no interior.
 */
export function convexHull(points: Float64Array, count: number, out: Polygon): void {
  if (count > 16 && giftWrap(points, count, out)) return;
  if (order.length < count) order = new Int32Array(count * 2);
  for (let i = 0; i < count; i++) order[i] = i;
  // Insertion sort by (x, y): hulls of a few points are built per pair of triangles.
  for (let i = 1; i < count; i++) {
    const v = order[i]!;
    const vx = points[v * 2]!;
    const vy = points[v * 2 + 1]!;
    let j = i - 1;
    while (j >= 0) {
      const w = order[j]!;
      const wx = points[w * 2]!;
      if (wx < vx || (wx === vx && points[w * 2 + 1]! <= vy)) break;
      order[j + 1] = w;
      j--;
    }
    order[j + 1] = v;
  }
  const hx = out.x;
  const hy = out.y;
  let k = 0;
  for (let s = 0; s < count; s++) {
    const i = order[s]!;
    const px = points[i * 2]!;
    const py = points[i * 2 + 1]!;
    while (k >= 2 && (hx[k - 1]! - hx[k - 2]!) * (py - hy[k - 2]!) - (hy[k - 1]! - hy[k - 2]!) * (px - hx[k - 2]!) <= 0) k--;
    hx[k] = px;
    hy[k] = py;
    k++;
  }
  const lower = k + 1;
  for (let s = count - 2; s >= 0; s--) {
    const i = order[s]!;
    const px = points[i * 2]!;
    const py = points[i * 2 + 1]!;
    while (k >= lower && (hx[k - 1]! - hx[k - 2]!) * (py - hy[k - 2]!) - (hy[k - 1]! - hy[k - 2]!) * (px - hx[k - 2]!) <= 0) k--;
    hx[k] = px;
    hy[k] = py;
    k++;
  }
  // The upper chain ends where the lower one began.
  out.count = count > 1 ? k - 1 : k;
}

/**
 * Jarvis's gift wrapping: O(points · corners) without sorting, for the hull of a whole
 * component (up to 381 points, typically a dozen corners). Returns false (and the caller
 * sorts instead) if rounding ever makes it go round more corners than there are points.
 */
function giftWrap(points: Float64Array, count: number, out: Polygon): boolean {
  let start = 0;
  for (let i = 1; i < count; i++) {
    const x = points[i * 2]!;
    const sx = points[start * 2]!;
    if (x < sx || (x === sx && points[i * 2 + 1]! < points[start * 2 + 1]!)) start = i;
  }
  let p = start;
  let k = 0;
  do {
    if (k === count) return false;
    const px = points[p * 2]!;
    const py = points[p * 2 + 1]!;
    out.x[k] = px;
    out.y[k] = py;
    k++;
    // The next corner: the point with every other point on its left (or nearer on the line).
    let q = p === 0 ? 1 : 0;
    let qx = points[q * 2]! - px;
    let qy = points[q * 2 + 1]! - py;
    for (let r = 0; r < count; r++) {
      if (r === p) continue;
      const rx = points[r * 2]! - px;
      const ry = points[r * 2 + 1]! - py;
      const c = qx * ry - qy * rx;
      if (c < 0 || (c === 0 && rx * rx + ry * ry > qx * qx + qy * qy)) {
        q = r;
        qx = rx;
        qy = ry;
      }
    }
    if (qx === 0 && qy === 0) break;
    p = q;
  } while (p !== start);
  out.count = k;
  return true;
}

/**
 * True when the segment (x1, y1)–(x2, y2) has a stretch of positive length inside the
 * polygon shrunk by `epsilon` (so a segment lying along an edge, touching a corner or
 * entering by less than epsilon does not count). Cyrus–Beck clipping against each edge's
 * inner half-plane.
 */
export function segmentCrossesInterior(x1: number, y1: number, x2: number, y2: number, poly: Polygon, epsilon: number): boolean {
  const n = poly.count;
  if (n < 3) return false;
  const px = poly.x;
  const py = poly.y;
  const dx = x2 - x1;
  const dy = y2 - y1;
  let tMin = 0;
  let tMax = 1;
  for (let i = 0; i < n; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const ex = px[j]! - px[i]!;
    const ey = py[j]! - py[i]!;
    const limit = epsilon * Math.sqrt(ex * ex + ey * ey);
    const f0 = ex * (y1 - py[i]!) - ey * (x1 - px[i]!) - limit;
    const fd = ex * dy - ey * dx;
    if (fd === 0) {
      if (f0 <= 0) return false;
      continue;
    }
    const t = -f0 / fd;
    if (fd > 0) {
      if (t > tMin) tMin = t;
    } else if (t < tMax) tMax = t;
    if (tMin >= tMax) return false;
  }
  return tMin < tMax;
}
