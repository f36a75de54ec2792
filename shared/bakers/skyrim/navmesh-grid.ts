import { sparseGrid, type NvnmDocument, type NvnmGrid } from '../../formats/skyrim/nvnm-document';

/**
 * The grid's 8 floats (max distance x, y; min x, y, z; max x, y, z) as the CK computes them:
 * the vertex AABB and cell size = f32(f32(max − min) × f32(1 / divisor)). Dividing instead
 * misses the stored cell size by one ULP on 2 of the fixture navmeshes; this product
 * reproduces all of them.
 */
export function gridBoundsOf(n: NvnmDocument, divisor: number): Float32Array {
  const pos = new Float32Array(new Uint32Array(n.vertices).buffer);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < pos.length; i++) {
    const a = i % 3;
    const v = pos[i]!;
    if (v < min[a]!) min[a] = v;
    if (v > max[a]!) max[a] = v;
  }
  if (pos.length === 0) for (let a = 0; a < 3; a++) min[a] = max[a] = 0;
  const inv = Math.fround(1 / divisor);
  const dx = Math.fround(Math.fround(max[0]! - min[0]!) * inv);
  const dy = Math.fround(Math.fround(max[1]! - min[1]!) * inv);
  return new Float32Array([dx, dy, min[0]!, min[1]!, min[2]!, max[0]!, max[1]!, max[2]!]);
}

/** True when the closed triangle and the closed rectangle share a point (2-D separating axes). */
function touches(xs: Float64Array, ys: Float64Array, x0: number, y0: number, x1: number, y1: number): boolean {
  if (Math.max(xs[0]!, xs[1]!, xs[2]!) < x0 || Math.min(xs[0]!, xs[1]!, xs[2]!) > x1) return false;
  if (Math.max(ys[0]!, ys[1]!, ys[2]!) < y0 || Math.min(ys[0]!, ys[1]!, ys[2]!) > y1) return false;
  for (let k = 0; k < 3; k++) {
    const ax = xs[k]!;
    const ay = ys[k]!;
    const nx = ys[(k + 1) % 3]! - ay;
    const ny = ax - xs[(k + 1) % 3]!;
    if (nx === 0 && ny === 0) continue;
    const e = ax * nx + ay * ny;
    const c = xs[(k + 2) % 3]! * nx + ys[(k + 2) % 3]! * ny;
    const lo = Math.min(c, e);
    const hi = Math.max(c, e);
    const p0 = x0 * nx + y0 * ny;
    const p1 = x1 * nx + y0 * ny;
    const p2 = x0 * nx + y1 * ny;
    const p3 = x1 * nx + y1 * ny;
    if (Math.max(p0, p1, p2, p3) < lo || Math.min(p0, p1, p2, p3) > hi) return false;
  }
  return true;
}

export type GridColumns = NvnmGrid;

/**
 * The NVNM grid (spec §7), refined on the fixtures: Y-major cells of the vertex AABB; a
 * triangle is listed in the cells from floor((min − lo) / size) to floor((max − lo) / size)
 * of its XY bounding box, computed in f32, that its closed footprint touches (cell corners
 * in f32 too), in ascending order. So a triangle touching a cell's left or bottom line from
 * outside is listed there, and one touching its right or top line from outside is not:
 * this matches the CK's half-open cells.
 *
 * The CK adds one more cell per triangle, which the spec's "conservative variant" could not
 * explain: when the triangle's edge v1→v2 climbs into a higher grid row and another column,
 * the cell in v1's column and v2's row is listed even when the triangle misses it (a
 * rasteriser that steps the edge's row before its column, on that edge only). Edges 0-1 and
 * 2-0, and edge 1-2 going down, never add such a cell: on the 23 fixture navmeshes this
 * explains 116 of the 117 entries the touch rule missed: 15,961 of the 15,962 stored entries
 * rebuilt with 1 extra, 21 of 23 grids exact, every navmesh ≥ 99.9 %. Cost is linear in the
 * triangles.
 */
export function buildGrid(n: NvnmDocument, divisor: number): GridColumns {
  const b = gridBoundsOf(n, divisor);
  const [dx, dy, minX, minY] = [b[0]!, b[1]!, b[2]!, b[3]!];
  const pos = new Float32Array(new Uint32Array(n.vertices).buffer);
  const nv = pos.length / 3;
  const f = Math.fround;
  // In f32 like the CK: a vertex on a cell line then lands exactly on it (3072 / f32(4096 / 12) rounds to 9).
  const cellOf = (v: number, lo: number, d: number) => (d > 0 ? Math.max(0, Math.min(divisor - 1, Math.floor(f(f(v - lo) / d)))) : 0);
  const cells: number[][] = Array.from({ length: divisor * divisor }, () => []);
  const xs = new Float64Array(3);
  const ys = new Float64Array(3);
  const nt = n.triFlags.length;
  for (let t = 0; t < nt; t++) {
    for (let k = 0; k < 3; k++) {
      const vi = n.triVertices[t * 3 + k]!;
      xs[k] = vi < nv ? pos[vi * 3]! : 0;
      ys[k] = vi < nv ? pos[vi * 3 + 1]! : 0;
    }
    const c0 = cellOf(Math.min(xs[0]!, xs[1]!, xs[2]!), minX, dx);
    const c1 = cellOf(Math.max(xs[0]!, xs[1]!, xs[2]!), minX, dx);
    const r0 = cellOf(Math.min(ys[0]!, ys[1]!, ys[2]!), minY, dy);
    const r1 = cellOf(Math.max(ys[0]!, ys[1]!, ys[2]!), minY, dy);
    for (let row = r0; row <= r1; row++) {
      const y0 = f(minY + f(row * dy));
      const y1 = f(minY + f((row + 1) * dy));
      for (let col = c0; col <= c1; col++) {
        const x0 = f(minX + f(col * dx));
        const x1 = f(minX + f((col + 1) * dx));
        if (touches(xs, ys, x0, y0, x1, y1)) cells[row * divisor + col]!.push(t);
      }
    }
    const row1 = cellOf(ys[1]!, minY, dy);
    const row2 = cellOf(ys[2]!, minY, dy);
    const col1 = cellOf(xs[1]!, minX, dx);
    if (row2 > row1 && col1 !== cellOf(xs[2]!, minX, dx)) {
      // Triangles arrive in order, so the cell already holds t only as its last entry and stays ascending.
      const cell = cells[row2 * divisor + col1]!;
      if (cell[cell.length - 1] !== t) cell.push(t);
    }
  }
  return {
    gridDivisor: divisor,
    gridBounds: new Uint32Array(b.buffer),
    ...sparseGrid(cells),
  };
}
