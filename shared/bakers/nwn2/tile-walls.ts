import { MAX_TILE_NODES, NONE32 } from '../../formats/nwn2/aswm-document';
import type { BakeMesh } from './bake-mesh';
import type { TileGraph } from './tile-graph';

/** Walls entering a region by less than this (metres) are ignored. */
export const EPSILON = 1e-7;
/** Twice the area (m²) below which a triangle counts as degenerate. */
const MIN_AREA2 = 1e-9;
const MAX_WALLS = MAX_TILE_NODES * 3;

/**
 * The 2-D shape of one tile's walkable triangles, for line-of-sight tests: each node's
 * corners and box, whether it is degenerate or overlaps another, and the tile's walls.
 *
 * A wall is a side of a walkable triangle of the tile that does not lead, through the
 * triangle's link across it, to a non-degenerate, non-overlapped walkable triangle of the
 * same tile lying on the other side of that side. So borders, sides towards unwalkable or
 * other-tile triangles, folds and the sides of degenerate triangles are walls, and so is
 * every side of a triangle whose interior overlaps another walkable triangle of the tile.
 * Around a point off the walls the tile's triangles then fan round it exactly once, which
 * is what line-of-sight.ts relies on.
 */
export class TileWalls {
  /** Corner coordinates of each node's triangle (3 per node). */
  readonly x = new Float64Array(MAX_TILE_NODES * 3);
  readonly y = new Float64Array(MAX_TILE_NODES * 3);
  readonly minX = new Float64Array(MAX_TILE_NODES);
  readonly minY = new Float64Array(MAX_TILE_NODES);
  readonly maxX = new Float64Array(MAX_TILE_NODES);
  readonly maxY = new Float64Array(MAX_TILE_NODES);
  /** 1 when the node's triangle has a non-zero area. */
  readonly solid = new Uint8Array(MAX_TILE_NODES);
  /** 1 when its interior overlaps another walkable triangle of the tile. */
  readonly overlapped = new Uint8Array(MAX_TILE_NODES);
  /** Per node side (3 per node, side c from corner c to the next): direction x, y, tolerance, ±1 towards the third corner. */
  private readonly sideX = new Float64Array(MAX_TILE_NODES * 3);
  private readonly sideY = new Float64Array(MAX_TILE_NODES * 3);
  private readonly sideLimit = new Float64Array(MAX_TILE_NODES * 3);
  private readonly sideInner = new Float64Array(MAX_TILE_NODES * 3);
  /** The solid nodes by ascending minX (findOverlaps). */
  private readonly order = new Int32Array(MAX_TILE_NODES);
  wallCount = 0;
  /** x1, y1, x2, y2 per wall. */
  readonly wall = new Float64Array(MAX_WALLS * 4);
  /** minX, minY, maxX, maxY per wall. */
  readonly wallBox = new Float64Array(MAX_WALLS * 4);

  /** Loads the loaded tile of `graph`. */
  load(m: BakeMesh, graph: TileGraph, p: Float32Array, triVertices: Uint32Array, triEdges: Uint32Array, edges: Uint32Array): void {
    this.loadTriangles(graph, p, triVertices);
    this.loadSides(graph.nodeCount);
    this.findOverlaps(graph.nodeCount);
    this.findWalls(m, graph, p, triVertices, triEdges, edges);
  }

  private loadTriangles(graph: TileGraph, p: Float32Array, triVertices: Uint32Array): void {
    const { x, y } = this;
    for (let u = 0; u < graph.nodeCount; u++) {
      const t = graph.triangle[u]!;
      let x0 = Infinity;
      let y0 = Infinity;
      let x1 = -Infinity;
      let y1 = -Infinity;
      for (let c = 0; c < 3; c++) {
        const v = triVertices[t * 3 + c]! * 3;
        const vx = p[v]!;
        const vy = p[v + 1]!;
        x[u * 3 + c] = vx;
        y[u * 3 + c] = vy;
        if (vx < x0) x0 = vx;
        if (vx > x1) x1 = vx;
        if (vy < y0) y0 = vy;
        if (vy > y1) y1 = vy;
      }
      this.minX[u] = x0;
      this.minY[u] = y0;
      this.maxX[u] = x1;
      this.maxY[u] = y1;
      const o = u * 3;
      const area2 = (x[o + 1]! - x[o]!) * (y[o + 2]! - y[o]!) - (y[o + 1]! - y[o]!) * (x[o + 2]! - x[o]!);
      this.solid[u] = Math.abs(area2) > MIN_AREA2 ? 1 : 0;
      this.overlapped[u] = 0;
    }
  }

  /**
   * Marks the non-degenerate triangles whose interiors overlap another one's (box test, then
   * separating sides). Sweep and prune (issue 18): the solid nodes sorted by minX, each
   * tested against the following ones until their minX reaches its maxX (no pair beyond can
   * pass the box test either way round, EPSILON only shrinks it). Each pair that can is
   * tested exactly as before, lower node index as u, so the marks are the same.
   */
  private findOverlaps(n: number): void {
    const { minX, minY, maxX, maxY, solid, order } = this;
    let k = 0;
    for (let u = 0; u < n; u++) {
      if (solid[u] === 0) continue;
      const x = minX[u]!;
      let at = k++;
      while (at > 0 && minX[order[at - 1]!]! > x) {
        order[at] = order[at - 1]!;
        at--;
      }
      order[at] = u;
    }
    for (let p = 0; p < k; p++) {
      const a = order[p]!;
      const reach = maxX[a]!;
      for (let q = p + 1; q < k; q++) {
        const b = order[q]!;
        if (minX[b]! >= reach) break;
        const u = a < b ? a : b;
        const v = a < b ? b : a;
        const ux0 = minX[u]! + EPSILON;
        const uy0 = minY[u]! + EPSILON;
        const ux1 = maxX[u]! - EPSILON;
        const uy1 = maxY[u]! - EPSILON;
        if (minX[v]! >= ux1 || maxX[v]! <= ux0 || minY[v]! >= uy1 || maxY[v]! <= uy0) continue;
        if (!this.separated(u, v) && !this.separated(v, u)) {
          this.overlapped[u] = 1;
          this.overlapped[v] = 1;
        }
      }
    }
  }

  /** True when the line of a side of triangle u has all of v's corners on its outer side (or within EPSILON of it). */
  private separated(u: number, v: number): boolean {
    const { x, y, sideX, sideY, sideLimit, sideInner } = this;
    for (let c = 0; c < 3; c++) {
      const a = u * 3 + c;
      const ex = sideX[a]!;
      const ey = sideY[a]!;
      const limit = sideLimit[a]!;
      const inner = sideInner[a]!;
      let apart = true;
      for (let q = v * 3; q < v * 3 + 3; q++) {
        if (inner * (ex * (y[q]! - y[a]!) - ey * (x[q]! - x[a]!)) > limit) {
          apart = false;
          break;
        }
      }
      if (apart) return true;
    }
    return false;
  }

  /** Each side's direction, tolerance and inner side (for separated), computed once per node instead of once per pair. */
  private loadSides(n: number): void {
    const { x, y, sideX, sideY, sideLimit, sideInner } = this;
    for (let u = 0; u < n; u++) {
      for (let c = 0; c < 3; c++) {
        const a = u * 3 + c;
        const b = u * 3 + (c === 2 ? 0 : c + 1);
        const o = u * 3 + (c === 0 ? 2 : c - 1);
        const ex = x[b]! - x[a]!;
        const ey = y[b]! - y[a]!;
        sideX[a] = ex;
        sideY[a] = ey;
        sideLimit[a] = EPSILON * Math.sqrt(ex * ex + ey * ey);
        sideInner[a] = ex * (y[o]! - y[a]!) - ey * (x[o]! - x[a]!) > 0 ? 1 : -1;
      }
    }
  }

  private findWalls(m: BakeMesh, graph: TileGraph, p: Float32Array, triVertices: Uint32Array, triEdges: Uint32Array, edges: Uint32Array): void {
    this.wallCount = 0;
    const { solid, overlapped } = this;
    for (let u = 0; u < graph.nodeCount; u++) {
      const t = graph.triangle[u]!;
      const sound = overlapped[u] === 0 && solid[u] === 1;
      for (let j = 0; j < 3; j++) {
        const e = triEdges[t * 3 + j]!;
        const a = edges[e * 4]!;
        const b = edges[e * 4 + 1]!;
        const ax = p[a * 3]!;
        const ay = p[a * 3 + 1]!;
        const bx = p[b * 3]!;
        const by = p[b * 3 + 1]!;
        if (sound) {
          const o = m.links[t * 3 + j]!;
          const w = o === NONE32 ? -1 : graph.nodeOf[o]!;
          if (w >= 0 && overlapped[w] === 0 && solid[w] === 1) {
            const mine = side(ax, ay, bx, by, p, thirdVertex(triVertices, t, a, b));
            const theirs = side(ax, ay, bx, by, p, thirdVertex(triVertices, o, a, b));
            if ((mine > 0 && theirs < 0) || (mine < 0 && theirs > 0)) continue;
          }
        }
        this.addWall(ax, ay, bx, by);
      }
    }
  }

  private addWall(ax: number, ay: number, bx: number, by: number): void {
    const o = this.wallCount++ * 4;
    this.wall[o] = ax;
    this.wall[o + 1] = ay;
    this.wall[o + 2] = bx;
    this.wall[o + 3] = by;
    this.wallBox[o] = Math.min(ax, bx);
    this.wallBox[o + 1] = Math.min(ay, by);
    this.wallBox[o + 2] = Math.max(ax, bx);
    this.wallBox[o + 3] = Math.max(ay, by);
  }
}

/** The corner of triangle t that is neither a nor b. */
function thirdVertex(triVertices: Uint32Array, t: number, a: number, b: number): number {
  for (let c = 0; c < 3; c++) {
    const v = triVertices[t * 3 + c]!;
    if (v !== a && v !== b) return v;
  }
  return triVertices[t * 3]!;
}

/** Which side of the line a→b vertex v lies on (the sign of the cross product). */
function side(ax: number, ay: number, bx: number, by: number, p: Float32Array, v: number): number {
  return (bx - ax) * (p[v * 3 + 1]! - ay) - (by - ay) * (p[v * 3]! - ax);
}
