import { BoxGrid } from './box-grid';
import { pointInTriangle } from './polygon';

/**
 * A uniform grid over the x/y bounds of a triangle mesh's triangles (positions as x, y, z
 * per vertex), for "which triangles are near this point or box" queries in expected
 * constant time per hit.
 */
export class TriangleGrid {
  readonly grid: BoxGrid;

  constructor(readonly positions: ArrayLike<number>, readonly triangles: ArrayLike<number>, cellSize?: number) {
    const T = triangles.length / 3;
    const boxes = new Float64Array(T * 4);
    for (let t = 0; t < T; t++) {
      const a = triangles[t * 3]! * 3, b = triangles[t * 3 + 1]! * 3, c = triangles[t * 3 + 2]! * 3;
      boxes[t * 4] = Math.min(positions[a]!, positions[b]!, positions[c]!);
      boxes[t * 4 + 1] = Math.min(positions[a + 1]!, positions[b + 1]!, positions[c + 1]!);
      boxes[t * 4 + 2] = Math.max(positions[a]!, positions[b]!, positions[c]!);
      boxes[t * 4 + 3] = Math.max(positions[a + 1]!, positions[b + 1]!, positions[c + 1]!);
    }
    this.grid = new BoxGrid(boxes, cellSize);
  }

  /** Triangles whose bounds overlap the box (a superset of those that intersect it). */
  forEachInBox(x0: number, y0: number, x1: number, y1: number, visit: (t: number) => void): void {
    this.grid.forEachInBox(x0, y0, x1, y1, visit);
  }

  /** Triangles containing (x, y) in the plane (edges included, within `tolerance` metres). */
  forEachContaining(x: number, y: number, visit: (t: number) => void, tolerance = 0): void {
    const p = this.positions;
    const tri = this.triangles;
    this.grid.forEachInBox(x - tolerance, y - tolerance, x + tolerance, y + tolerance, (t) => {
      const a = tri[t * 3]! * 3, b = tri[t * 3 + 1]! * 3, c = tri[t * 3 + 2]! * 3;
      if (pointInTriangle(x, y, p[a]!, p[a + 1]!, p[b]!, p[b + 1]!, p[c]!, p[c + 1]!, tolerance)) visit(t);
    });
  }

  /** The height of triangle t's plane at (x, y) (the mean height for a triangle with no area in the plane). */
  heightAt(t: number, x: number, y: number): number {
    return planeHeight(this.positions, this.triangles, t, x, y);
  }
}

/** The height at (x, y) of the plane through triangle t (positions x, y, z per vertex). */
export function planeHeight(p: ArrayLike<number>, tri: ArrayLike<number>, t: number, x: number, y: number): number {
  const a = tri[t * 3]! * 3, b = tri[t * 3 + 1]! * 3, c = tri[t * 3 + 2]! * 3;
  const ax = p[a]!, ay = p[a + 1]!, az = p[a + 2]!;
  const ux = p[b]! - ax, uy = p[b + 1]! - ay, uz = p[b + 2]! - az;
  const vx = p[c]! - ax, vy = p[c + 1]! - ay, vz = p[c + 2]! - az;
  const d = ux * vy - uy * vx;
  if (d === 0) return (az + p[b + 2]! + p[c + 2]!) / 3;
  const s = ((x - ax) * vy - (y - ay) * vx) / d;
  const r = (ux * (y - ay) - uy * (x - ax)) / d;
  return az + s * uz + r * vz;
}
