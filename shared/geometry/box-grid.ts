/**
 * A uniform grid over axis-aligned boxes in the plane (triangles, segments, polygons by
 * their bounds), stored as compressed rows (cell → item list) so that building it is two
 * linear passes and a query touches only the cells its box overlaps. Items spanning
 * several cells are reported once per query.
 */
export class BoxGrid {
  readonly minX: number;
  readonly minY: number;
  readonly cell: number;
  readonly nx: number;
  readonly ny: number;
  private readonly cellStart: Uint32Array;
  private readonly items: Uint32Array;
  private readonly stamp: Uint32Array;
  private query = 0;

  /**
   * `boxes` holds minX, minY, maxX, maxY per item (non-finite boxes are left out). The
   * cell size defaults to the larger of the mean item extent and the square root of the
   * covered area per item, so an item spans a few cells and a cell holds a few items.
   */
  constructor(boxes: Float64Array, cellSize?: number) {
    const n = boxes.length >> 2;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity, extent = 0, counted = 0;
    for (let i = 0; i < n; i++) {
      const x0 = boxes[i * 4]!, y0 = boxes[i * 4 + 1]!, x1 = boxes[i * 4 + 2]!, y1 = boxes[i * 4 + 3]!;
      if (!(x0 <= x1 && y0 <= y1 && Number.isFinite(x0) && Number.isFinite(x1) && Number.isFinite(y0) && Number.isFinite(y1))) continue;
      if (x0 < minX) minX = x0;
      if (y0 < minY) minY = y0;
      if (x1 > maxX) maxX = x1;
      if (y1 > maxY) maxY = y1;
      extent += Math.max(x1 - x0, y1 - y0);
      counted++;
    }
    if (counted === 0) {
      minX = minY = 0;
      maxX = maxY = 1;
    }
    const w = Math.max(maxX - minX, 1e-9);
    const h = Math.max(maxY - minY, 1e-9);
    let cell = cellSize ?? Math.max(extent / Math.max(counted, 1), Math.sqrt((w * h) / Math.max(counted, 1)));
    // Never more than about four cells per item (plus a few), whatever the caller asked.
    const maxCells = 4 * Math.max(counted, 1) + 16;
    if (!(cell > 0) || (w / cell + 1) * (h / cell + 1) > maxCells) cell = Math.max(cell || 0, Math.sqrt((w * h) / maxCells) * 1.01, 1e-9);
    this.minX = minX;
    this.minY = minY;
    this.cell = cell;
    this.nx = Math.max(1, Math.floor(w / cell) + 1);
    this.ny = Math.max(1, Math.floor(h / cell) + 1);
    const cells = this.nx * this.ny;
    const start = new Uint32Array(cells + 1);
    for (let i = 0; i < n; i++) this.forCells(boxes, i, (c) => start[c + 1]!++);
    for (let c = 0; c < cells; c++) start[c + 1]! += start[c]!;
    const items = new Uint32Array(start[cells]!);
    const fill = start.slice(0, cells);
    for (let i = 0; i < n; i++) this.forCells(boxes, i, (c) => (items[fill[c]!++] = i));
    this.cellStart = start;
    this.items = items;
    this.stamp = new Uint32Array(n);
  }

  /** Calls `visit` once for every item whose box may overlap the query box (not re-entrant). */
  forEachInBox(x0: number, y0: number, x1: number, y1: number, visit: (item: number) => void): void {
    if (!(x0 <= x1 && y0 <= y1)) return;
    const cx0 = Math.max(0, this.clampX(x0)), cx1 = Math.min(this.nx - 1, this.clampX(x1));
    const cy0 = Math.max(0, this.clampY(y0)), cy1 = Math.min(this.ny - 1, this.clampY(y1));
    if (cx0 > cx1 || cy0 > cy1) return;
    if (++this.query === 0xffffffff) {
      this.stamp.fill(0);
      this.query = 1;
    }
    const q = this.query;
    for (let cy = cy0; cy <= cy1; cy++) {
      for (let cx = cx0; cx <= cx1; cx++) {
        const c = cy * this.nx + cx;
        for (let k = this.cellStart[c]!; k < this.cellStart[c + 1]!; k++) {
          const item = this.items[k]!;
          if (this.stamp[item] === q) continue;
          this.stamp[item] = q;
          visit(item);
        }
      }
    }
  }

  /** Items whose box may contain the point. */
  forEachAt(x: number, y: number, visit: (item: number) => void): void {
    this.forEachInBox(x, y, x, y, visit);
  }

  /** Cell column of x, clamped to the grid; a box entirely off one side gives an empty range. */
  private clampX(x: number): number {
    return Math.min(this.nx, Math.max(-1, Math.floor((x - this.minX) / this.cell)));
  }

  private clampY(y: number): number {
    return Math.min(this.ny, Math.max(-1, Math.floor((y - this.minY) / this.cell)));
  }

  private forCells(boxes: Float64Array, i: number, f: (cell: number) => void): void {
    const x0 = boxes[i * 4]!, y0 = boxes[i * 4 + 1]!, x1 = boxes[i * 4 + 2]!, y1 = boxes[i * 4 + 3]!;
    if (!(x0 <= x1 && y0 <= y1 && Number.isFinite(x0) && Number.isFinite(x1) && Number.isFinite(y0) && Number.isFinite(y1))) return;
    const cx0 = Math.min(this.nx - 1, Math.max(0, Math.floor((x0 - this.minX) / this.cell)));
    const cx1 = Math.min(this.nx - 1, Math.max(0, Math.floor((x1 - this.minX) / this.cell)));
    const cy0 = Math.min(this.ny - 1, Math.max(0, Math.floor((y0 - this.minY) / this.cell)));
    const cy1 = Math.min(this.ny - 1, Math.max(0, Math.floor((y1 - this.minY) / this.cell)));
    for (let cy = cy0; cy <= cy1; cy++) for (let cx = cx0; cx <= cx1; cx++) f(cy * this.nx + cx);
  }
}
