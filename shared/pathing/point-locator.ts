import { TriangleGrid, planeHeight } from '../geometry/triangle-grid';
import { segmentDistanceSquared, projectionParam } from '../geometry/segment';

/** Where a query point lands on the walkable surface. */
export interface LocatedPoint {
  /** The walkable face under the point (or nearest to it), -1 when none within the tolerance. */
  face: number;
  /** The point moved onto that face (x, y kept when the face covers them; z on the face's plane). */
  x: number;
  y: number;
  z: number;
  /** Horizontal distance the point was moved to reach the face (0 when the face covers it). */
  moved: number;
  /** An unwalkable face covering the point when no walkable one does, else -1. */
  unwalkableFace: number;
}

/**
 * Point location on a triangle mesh through a uniform grid built once: each query looks at
 * the few triangles in the grid cells around the point, never at every triangle.
 */
export class PointLocator {
  private readonly grid: TriangleGrid;

  constructor(
    readonly positions: ArrayLike<number>,
    readonly triangles: ArrayLike<number>,
    readonly walkable: Uint8Array,
  ) {
    this.grid = new TriangleGrid(positions, triangles);
  }

  /**
   * The walkable face under (x, y) whose plane is nearest to z; failing that, the walkable
   * face nearest in the plane within `tolerance` metres (the point is moved onto its edge).
   * `accept` restricts the candidate faces (e.g. to one navmesh).
   */
  locate(x: number, y: number, z: number, tolerance: number, accept?: (face: number) => boolean): LocatedPoint {
    const p = this.positions;
    const tri = this.triangles;
    let best = -1, bestDz = Infinity, unwalkable = -1, unwalkableDz = Infinity;
    this.grid.forEachContaining(x, y, (t) => {
      if (accept && !accept(t)) return;
      const dz = Math.abs(planeHeight(p, tri, t, x, y) - z);
      if (this.walkable[t]) {
        if (dz < bestDz) [best, bestDz] = [t, dz];
      } else if (dz < unwalkableDz) [unwalkable, unwalkableDz] = [t, dz];
    }, 1e-6);
    if (best >= 0) {
      // An unwalkable face clearly nearer in height than every walkable one (a table top
      // above the floor) is where the point stands: it is not on the walkable surface.
      if (unwalkable >= 0 && unwalkableDz + 0.5 < bestDz) return { face: -1, x, y, z, moved: 0, unwalkableFace: unwalkable };
      return { face: best, x, y, z: planeHeight(p, tri, best, x, y), moved: 0, unwalkableFace: -1 };
    }
    let near = -1, nearD = tolerance * tolerance, nearX = x, nearY = y, nearDz = Infinity;
    if (tolerance > 0) {
      this.grid.forEachInBox(x - tolerance, y - tolerance, x + tolerance, y + tolerance, (t) => {
        if (!this.walkable[t] || (accept && !accept(t))) return;
        for (let e = 0; e < 3; e++) {
          const a = tri[t * 3 + e]! * 3, b = tri[t * 3 + (e === 2 ? 0 : e + 1)]! * 3;
          const d = segmentDistanceSquared(x, y, p[a]!, p[a + 1]!, p[b]!, p[b + 1]!);
          if (d > nearD) continue;
          const dz = Math.abs((p[a + 2]! + p[b + 2]!) / 2 - z);
          if (d === nearD && dz >= nearDz) continue;
          const s = Math.min(1, Math.max(0, projectionParam(x, y, p[a]!, p[a + 1]!, p[b]!, p[b + 1]!)));
          near = t;
          nearD = d;
          nearDz = dz;
          nearX = p[a]! + s * (p[b]! - p[a]!);
          nearY = p[a + 1]! + s * (p[b + 1]! - p[a + 1]!);
        }
      });
    }
    if (near >= 0) {
      return { face: near, x: nearX, y: nearY, z: planeHeight(p, tri, near, nearX, nearY), moved: Math.sqrt(nearD), unwalkableFace: unwalkable };
    }
    return { face: -1, x, y, z, moved: 0, unwalkableFace: unwalkable };
  }
}
