/**
 * A hash grid of points for merging those closer than a radius: `find` returns the
 * nearest stored point within the radius in O(1) expected time. Keys are the cell
 * coordinates packed into one safe integer (cells of a few millimetres still cover
 * tens of kilometres).
 */
export class PointHash {
  private readonly cells = new Map<number, number[]>();
  private readonly xs: number[] = [];
  private readonly ys: number[] = [];
  private readonly ids: number[] = [];

  constructor(readonly radius: number) {
    if (!(radius > 0)) throw new RangeError(`PointHash radius must be positive, not ${radius}`);
  }

  private key(cx: number, cy: number): number {
    return (cx + 0x2000000) * 0x4000000 + (cy + 0x2000000);
  }

  /** The id of the stored point nearest to (x, y) within the radius, or -1. */
  find(x: number, y: number): number {
    const cx = Math.floor(x / this.radius);
    const cy = Math.floor(y / this.radius);
    let best = -1;
    let bestD = this.radius * this.radius;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const list = this.cells.get(this.key(cx + dx, cy + dy));
        if (!list) continue;
        for (const k of list) {
          const ex = this.xs[k]! - x;
          const ey = this.ys[k]! - y;
          const d = ex * ex + ey * ey;
          if (d <= bestD) {
            bestD = d;
            best = this.ids[k]!;
          }
        }
      }
    }
    return best;
  }

  add(x: number, y: number, id: number): void {
    const k = this.key(Math.floor(x / this.radius), Math.floor(y / this.radius));
    let list = this.cells.get(k);
    if (!list) this.cells.set(k, (list = []));
    list.push(this.xs.length);
    this.xs.push(x);
    this.ys.push(y);
    this.ids.push(id);
  }

  /** The nearest point within the radius, or a new one with `nextId`; returns the id used. */
  findOrAdd(x: number, y: number, nextId: number): number {
    const found = this.find(x, y);
    if (found >= 0) return found;
    this.add(x, y, nextId);
    return nextId;
  }
}
