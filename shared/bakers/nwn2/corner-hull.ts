import { convexHull, type Polygon } from './convex-geometry';

/**
 * The convex hull of the corners of some of a tile's triangles, as convexHull would build
 * it from every corner of every triangle, but gift-wrapping each vertex once (issue 18).
 *
 * Neighbouring triangles share vertices (about six triangles per vertex on the NWN2
 * fixtures), so the list of all corners repeats most points several times, and gift
 * wrapping costs points × hull corners. A repeated point never changes a gift-wrapping step:
 * compared with the candidate it equals, its cross product is exactly 0 and its distance
 * not greater, so the walk keeps the same candidate; each vertex is kept at its first
 * occurrence, so the points are met in the same order. Small sets (at most 16 corners) still
 * go through convexHull's own monotone chain on all corners, as before, and so does a set
 * whose wrap fails (convexHull then retries it on all the corners, exactly as it did).
 */
export class CornerHull {
  /** x, y of every corner (the caller's list, as convexHull takes it). */
  private readonly all: Float64Array;
  /** x, y of each distinct vertex among them, in order of first occurrence. */
  private readonly unique: Float64Array;
  private stamp = new Int32Array(0);
  private round = 0;

  constructor(maxCorners: number) {
    this.all = new Float64Array(maxCorners * 2);
    this.unique = new Float64Array(maxCorners * 2);
  }

  /**
   * The hull into `out` of the corners of nodes `nodes[which[0 .. count)]` (3 corners each,
   * coordinates `x`, `y` and vertex indices `vertex` at node · 3 + c); `which` null means
   * `nodes[0 .. count)`.
   */
  build(x: Float64Array, y: Float64Array, vertex: Int32Array, nodes: Int32Array, which: Int32Array | null, count: number, out: Polygon): void {
    const corners = count * 3;
    const all = this.all;
    if (corners <= 16) {
      for (let i = 0; i < count; i++) {
        const u = nodes[which === null ? i : which[i]!]! * 3;
        for (let c = 0; c < 3; c++) {
          all[(i * 3 + c) * 2] = x[u + c]!;
          all[(i * 3 + c) * 2 + 1] = y[u + c]!;
        }
      }
      convexHull(all, corners, out);
      return;
    }
    if (++this.round === 0x7fffffff) {
      this.round = 1;
      this.stamp.fill(0);
    }
    const round = this.round;
    const unique = this.unique;
    let k = 0;
    for (let i = 0; i < count; i++) {
      const u = nodes[which === null ? i : which[i]!]! * 3;
      for (let c = 0; c < 3; c++) {
        const v = vertex[u + c]!;
        if (v >= this.stamp.length) this.grow(v);
        if (this.stamp[v] === round) continue;
        this.stamp[v] = round;
        unique[k * 2] = x[u + c]!;
        unique[k * 2 + 1] = y[u + c]!;
        k++;
      }
    }
    if (giftWrap(unique, k, out)) return;
    for (let i = 0; i < count; i++) {
      const u = nodes[which === null ? i : which[i]!]! * 3;
      for (let c = 0; c < 3; c++) {
        all[(i * 3 + c) * 2] = x[u + c]!;
        all[(i * 3 + c) * 2 + 1] = y[u + c]!;
      }
    }
    convexHull(all, corners, out);
  }

  private grow(v: number): void {
    const next = new Int32Array(Math.max(v + 1, this.stamp.length * 2, 1024));
    next.set(this.stamp);
    this.stamp = next;
  }
}

/**
 * convex-geometry.ts's gift wrapping, line for line (the same comparisons in the same
 * order), on points without repeats. Returns false if rounding ever makes it go round
 * more corners than there are points.
 */
function giftWrap(points: Float64Array, count: number, out: Polygon): boolean {
  if (count < 2) return false;
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
 * convex-geometry.ts's segmentCrossesInterior against one polygon for many segments: each
 * edge's direction and tolerance (epsilon · length, a square root) are computed once per
 * polygon instead of once per segment, with the same expressions, so every answer is the
 * same. With a positive epsilon a segment whose box lies outside the polygon's box
 * (touching included) is answered false at once: no point of it is inside the polygon,
 * let alone by epsilon (1e-7 m, far beyond float64 rounding on NWN2 coordinates).
 */
export class HullEdges {
  private count = 0;
  private readonly px: Float64Array;
  private readonly py: Float64Array;
  private readonly ex: Float64Array;
  private readonly ey: Float64Array;
  private readonly limit: Float64Array;
  private boxed = false;
  private x0 = 0;
  private y0 = 0;
  private x1 = 0;
  private y1 = 0;

  constructor(maxCorners: number) {
    this.px = new Float64Array(maxCorners);
    this.py = new Float64Array(maxCorners);
    this.ex = new Float64Array(maxCorners);
    this.ey = new Float64Array(maxCorners);
    this.limit = new Float64Array(maxCorners);
  }

  load(poly: Polygon, epsilon: number): void {
    const n = poly.count;
    this.count = n;
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (let i = 0; i < n; i++) {
      const j = i + 1 === n ? 0 : i + 1;
      const px = poly.x[i]!;
      const py = poly.y[i]!;
      const ex = poly.x[j]! - px;
      const ey = poly.y[j]! - py;
      this.px[i] = px;
      this.py[i] = py;
      this.ex[i] = ex;
      this.ey[i] = ey;
      this.limit[i] = epsilon * Math.sqrt(ex * ex + ey * ey);
      if (px < x0) x0 = px;
      if (px > x1) x1 = px;
      if (py < y0) y0 = py;
      if (py > y1) y1 = py;
    }
    this.boxed = epsilon > 0;
    this.x0 = x0;
    this.y0 = y0;
    this.x1 = x1;
    this.y1 = y1;
  }

  /** segmentCrossesInterior(x1, y1, x2, y2, poly, epsilon) for the loaded polygon and epsilon. */
  crosses(x1: number, y1: number, x2: number, y2: number): boolean {
    const n = this.count;
    if (n < 3) return false;
    // The segment's box outside the polygon's (max(x1, x2) ≤ x0 is x1 ≤ x0 and x2 ≤ x0, and so
    // on), compared branch-free: Math.max / min and short-circuits were a tenth of the call.
    if (this.boxed) {
      const { x0, y0, x1: right, y1: top } = this;
      const outside = (+(x1 <= x0) & +(x2 <= x0)) | (+(x1 >= right) & +(x2 >= right)) | (+(y1 <= y0) & +(y2 <= y0)) | (+(y1 >= top) & +(y2 >= top));
      if (outside !== 0) return false;
    }
    const { px, py, ex: edgeX, ey: edgeY, limit: edgeLimit } = this;
    const dx = x2 - x1;
    const dy = y2 - y1;
    let tMin = 0;
    let tMax = 1;
    for (let i = 0; i < n; i++) {
      const ex = edgeX[i]!;
      const ey = edgeY[i]!;
      const f0 = ex * (y1 - py[i]!) - ey * (x1 - px[i]!) - edgeLimit[i]!;
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
}
