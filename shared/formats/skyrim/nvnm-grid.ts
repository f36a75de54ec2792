import type { NvnmDocument } from './nvnm-document';

/** The largest divisor xEdit accepts (its cell counter returns 0 above 12). */
export const MAX_GRID_DIVISOR = 12;

/** The CK's divisor for `triangles` triangles: a curve fit of every sample (spec §7), not a known formula. */
export function gridDivisorFor(triangles: number): number {
  return Math.max(1, Math.min(MAX_GRID_DIVISOR, Math.floor(0.1 * Math.pow(triangles, 0.75) + 1)));
}

/** True when the closed triangle and the closed rectangle share a point (separating-axis test). */
function triangleTouchesRect(xs: readonly number[], ys: readonly number[], x0: number, y0: number, x1: number, y1: number): boolean {
  for (let k = 0; k < 3; k++) {
    const ax = xs[k]!;
    const ay = ys[k]!;
    const nx = ys[(k + 1) % 3]! - ay;
    const ny = -(xs[(k + 1) % 3]! - ax);
    if (nx === 0 && ny === 0) continue;
    const c = xs[(k + 2) % 3]! * nx + ys[(k + 2) % 3]! * ny;
    const e = ax * nx + ay * ny;
    const triMin = Math.min(c, e);
    const triMax = Math.max(c, e);
    const p = [x0 * nx + y0 * ny, x1 * nx + y0 * ny, x0 * nx + y1 * ny, x1 * nx + y1 * ny];
    if (Math.max(...p) < triMin || Math.min(...p) > triMax) return false;
  }
  return true;
}

/**
 * Rebuilds the grid after a geometry change (spec §7): bounds = the vertex AABB, cell size
 * = span / divisor, Y-major cells, and each triangle in every cell its XY footprint
 * overlaps or touches (the safe superset of the CK's rule, widened by a few f32 ULPs as
 * the CK's cell borders are), indices ascending.
 */
export function rebuildGrid(n: NvnmDocument, divisor: number): Pick<NvnmDocument, 'gridDivisor' | 'gridBounds' | 'gridCellCounts' | 'gridTriangles'> {
  const pos = new Float32Array(new Uint32Array(n.vertices).buffer);
  const nv = pos.length / 3;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < nv; i++) {
    for (let a = 0; a < 3; a++) {
      const v = pos[i * 3 + a]!;
      if (v < min[a]!) min[a] = v;
      if (v > max[a]!) max[a] = v;
    }
  }
  if (nv === 0) for (let a = 0; a < 3; a++) min[a] = max[a] = 0;
  const dx = Math.fround((max[0]! - min[0]!) / divisor);
  const dy = Math.fround((max[1]! - min[1]!) / divisor);
  const boundsF = new Float32Array([dx, dy, min[0]!, min[1]!, min[2]!, max[0]!, max[1]!, max[2]!]);
  // The CK's cell borders carry f32 rounding: triangles a few ULPs outside a cell are still listed in it.
  const eps = 1e-5 * Math.max(1, Math.abs(min[0]!), Math.abs(min[1]!), Math.abs(max[0]!), Math.abs(max[1]!));
  const cellOf = (v: number, lo: number, d: number) => (d > 0 ? Math.max(0, Math.min(divisor - 1, Math.floor((v - lo) / d))) : 0);
  const cells: number[][] = Array.from({ length: divisor * divisor }, () => []);
  const nt = n.triFlags.length;
  const xs = [0, 0, 0];
  const ys = [0, 0, 0];
  for (let t = 0; t < nt; t++) {
    for (let k = 0; k < 3; k++) {
      const vi = n.triVertices[t * 3 + k]!;
      xs[k] = vi < nv ? pos[vi * 3]! : 0;
      ys[k] = vi < nv ? pos[vi * 3 + 1]! : 0;
    }
    const c0 = cellOf(Math.min(...xs) - eps, min[0]!, dx);
    const c1 = cellOf(Math.max(...xs) + eps, min[0]!, dx);
    const r0 = cellOf(Math.min(...ys) - eps, min[1]!, dy);
    const r1 = cellOf(Math.max(...ys) + eps, min[1]!, dy);
    for (let row = r0; row <= r1; row++) {
      for (let col = c0; col <= c1; col++) {
        const x0 = min[0]! + col * dx;
        const y0 = min[1]! + row * dy;
        if (triangleTouchesRect(xs, ys, x0 - eps, y0 - eps, x0 + dx + eps, y0 + dy + eps)) cells[row * divisor + col]!.push(t);
      }
    }
  }
  const gridCellCounts = new Uint32Array(cells.map((c) => c.length));
  const gridTriangles = new Int16Array(cells.flat());
  return { gridDivisor: divisor, gridBounds: new Uint32Array(boundsF.buffer), gridCellCounts, gridTriangles };
}
