import { TriangleGrid } from './triangle-grid';

const scratchA = new Float64Array(32);
const scratchB = new Float64Array(32);

/**
 * Area (seen from above) shared by two triangles given as x0, y0, x1, y1, x2, y2, by
 * clipping one with the other (Sutherland–Hodgman; both are convex). Orientation does
 * not matter.
 */
export function triangleOverlapArea(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const sb = Math.sign((b[2]! - b[0]!) * (b[5]! - b[1]!) - (b[3]! - b[1]!) * (b[4]! - b[0]!));
  if (sb === 0) return 0;
  let poly = scratchA;
  let out = scratchB;
  for (let i = 0; i < 6; i++) poly[i] = a[i]!;
  let n = 3;
  for (let e = 0; e < 3 && n >= 3; e++) {
    const ex = b[e * 2]!, ey = b[e * 2 + 1]!;
    const fx = b[((e + 1) % 3) * 2]!, fy = b[((e + 1) % 3) * 2 + 1]!;
    let m = 0;
    for (let i = 0; i < n; i++) {
      const j = i + 1 === n ? 0 : i + 1;
      const px = poly[i * 2]!, py = poly[i * 2 + 1]!;
      const qx = poly[j * 2]!, qy = poly[j * 2 + 1]!;
      const sp = sb * ((fx - ex) * (py - ey) - (fy - ey) * (px - ex));
      const sq = sb * ((fx - ex) * (qy - ey) - (fy - ey) * (qx - ex));
      if (sp >= 0) {
        out[m * 2] = px;
        out[m * 2 + 1] = py;
        m++;
      }
      if (sp >= 0 !== sq >= 0) {
        const t = sp / (sp - sq);
        out[m * 2] = px + t * (qx - px);
        out[m * 2 + 1] = py + t * (qy - py);
        m++;
      }
    }
    const swap = poly;
    poly = out;
    out = swap;
    n = m;
  }
  let s = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) s += poly[j * 2]! * poly[i * 2 + 1]! - poly[i * 2]! * poly[j * 2 + 1]!;
  return Math.abs(s) / 2;
}

/**
 * True when an edge of one triangle (or the other) separates them, touching allowed
 * within `slack` (in twice-area units): the cheap test that rules out almost every pair
 * of neighbours before any clipping.
 */
function separated(a: Float64Array, ia: number, b: Float64Array, ib: number, slack: number): boolean {
  for (let pass = 0; pass < 2; pass++) {
    const p = pass === 0 ? a : b;
    const ip = pass === 0 ? ia : ib;
    const q = pass === 0 ? b : a;
    const iq = pass === 0 ? ib : ia;
    const orient = (p[ip + 2]! - p[ip]!) * (p[ip + 5]! - p[ip + 1]!) - (p[ip + 3]! - p[ip + 1]!) * (p[ip + 4]! - p[ip]!);
    const s = orient > 0 ? 1 : -1;
    for (let e = 0; e < 3; e++) {
      const ex = p[ip + e * 2]!, ey = p[ip + e * 2 + 1]!;
      const fx = p[ip + ((e + 1) % 3) * 2]!, fy = p[ip + ((e + 1) % 3) * 2 + 1]!;
      let allOutside = true;
      for (let k = 0; k < 3 && allOutside; k++) {
        const side = s * ((fx - ex) * (q[iq + k * 2 + 1]! - ey) - (fy - ey) * (q[iq + k * 2]! - ex));
        if (side > slack * Math.hypot(fx - ex, fy - ey)) allOutside = false;
      }
      if (allOutside) return true;
    }
  }
  return false;
}

export interface OverlapPair {
  a: number;
  b: number;
  area: number;
}

/**
 * Pairs of triangles of a mesh (positions x, y, z per vertex) that overlap seen from
 * above by more than `minArea` m² (a surface meant to be 2.5-D has none), found through a
 * grid and a separating-edge test, so the cost grows with the mesh, not its square.
 */
export function overlappingTriangles(positions: ArrayLike<number>, triangles: ArrayLike<number>, minArea = 1e-6): OverlapPair[] {
  const grid = new TriangleGrid(positions, triangles);
  const T = triangles.length / 3;
  const xy = new Float64Array(T * 6);
  for (let t = 0; t < T; t++) {
    for (let k = 0; k < 3; k++) {
      const v = triangles[t * 3 + k]! * 3;
      xy[t * 6 + k * 2] = positions[v]!;
      xy[t * 6 + k * 2 + 1] = positions[v + 1]!;
    }
  }
  const out: OverlapPair[] = [];
  const a = new Float64Array(6);
  const b = new Float64Array(6);
  for (let t = 0; t < T; t++) {
    const o = t * 6;
    const x0 = Math.min(xy[o]!, xy[o + 2]!, xy[o + 4]!), x1 = Math.max(xy[o]!, xy[o + 2]!, xy[o + 4]!);
    const y0 = Math.min(xy[o + 1]!, xy[o + 3]!, xy[o + 5]!), y1 = Math.max(xy[o + 1]!, xy[o + 3]!, xy[o + 5]!);
    grid.forEachInBox(x0, y0, x1, y1, (u) => {
      if (u <= t || separated(xy, o, xy, u * 6, 1e-9)) return;
      a.set(xy.subarray(o, o + 6));
      b.set(xy.subarray(u * 6, u * 6 + 6));
      const area = triangleOverlapArea(a, b);
      if (area > minArea) out.push({ a: t, b: u, area });
    });
  }
  return out;
}
