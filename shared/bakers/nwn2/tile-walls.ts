import { MAX_TILE_NODES, NONE32 } from '../../formats/nwn2/aswm-document';
import type { BakeMesh } from './bake-mesh';
import type { TileLinks } from './tile-links';

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
  /** The vertex index of each of those corners (equal indices, equal coordinates). */
  readonly vertex = new Int32Array(MAX_TILE_NODES * 3);
  readonly minX = new Float64Array(MAX_TILE_NODES);
  readonly minY = new Float64Array(MAX_TILE_NODES);
  readonly maxX = new Float64Array(MAX_TILE_NODES);
  readonly maxY = new Float64Array(MAX_TILE_NODES);
  /** 1 when the node's triangle has a non-zero area. */
  readonly solid = new Uint8Array(MAX_TILE_NODES);
  /** 1 when its interior overlaps another walkable triangle of the tile. */
  readonly overlapped = new Uint8Array(MAX_TILE_NODES);
  /**
   * 1 when the node has a corner on a wall of the walkable area: a side of one of the
   * tile's walkable triangles with no link, or linked to an unwalkable triangle (a border
   * the floor continues over into another tile is no wall). See line-of-sight.ts.
   */
  readonly onWall = new Uint8Array(MAX_TILE_NODES);
  /** Per vertex, `round` when it is on such a wall in the tile being loaded. */
  private stamp = new Int32Array(0);
  private round = 0;
  /** Per node side (3 per node, side c from corner c to the next): direction x, y, tolerance, ±1 towards the third corner. */
  private readonly sideX = new Float64Array(MAX_TILE_NODES * 3);
  private readonly sideY = new Float64Array(MAX_TILE_NODES * 3);
  private readonly sideLimit = new Float64Array(MAX_TILE_NODES * 3);
  private readonly sideInner = new Float64Array(MAX_TILE_NODES * 3);
  /** The solid nodes by ascending minX (findOverlaps). */
  private readonly order = new Int32Array(MAX_TILE_NODES);
  private readonly bucketStart = new Int32Array(MAX_TILE_NODES + 1);
  /** The boxes of the nodes in `order`, in that order. */
  private readonly sortedMinX = new Float64Array(MAX_TILE_NODES);
  private readonly sortedMaxX = new Float64Array(MAX_TILE_NODES);
  private readonly sortedMinY = new Float64Array(MAX_TILE_NODES);
  private readonly sortedMaxY = new Float64Array(MAX_TILE_NODES);
  wallCount = 0;
  /** x1, y1, x2, y2 per wall. */
  readonly wall = new Float64Array(MAX_WALLS * 4);
  /** minX, minY, maxX, maxY per wall. */
  readonly wallBox = new Float64Array(MAX_WALLS * 4);

  /** Loads the loaded tile of `graph`. */
  load(m: BakeMesh, graph: TileLinks, p: Float32Array, triVertices: Uint32Array, triEdges: Uint32Array, edges: Uint32Array): void {
    this.loadTriangles(graph, p, triVertices);
    this.loadSides(graph.nodeCount);
    this.findOverlaps(graph.nodeCount);
    this.findWalls(m, graph, p, triVertices, triEdges, edges);
  }

  private loadTriangles(graph: TileLinks, p: Float32Array, triVertices: Uint32Array): void {
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
        this.vertex[u * 3 + c] = v / 3;
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
   * tested exactly as before, lower node index as u, so the marks are the same. The order
   * comes from buckets by minX plus an insertion pass (any order by minX enumerates the
   * same pairs: solid triangles have maxX > minX), and the sweep reads the boxes copied
   * into that order; pairs whose y intervals do not overlap (touching included) are
   * skipped before the box test, which rejects them whichever node is u.
   */
  private findOverlaps(n: number): void {
    const { minX, minY, maxX, maxY, solid, order, bucketStart, sortedMinX, sortedMaxX, sortedMinY, sortedMaxY } = this;
    // Bucket the solid nodes by minX, then insertion-sort the nearly sorted result.
    let k = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (let u = 0; u < n; u++) {
      if (solid[u] === 0) continue;
      k++;
      const x = minX[u]!;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    const scale = hi > lo ? (k - 1) / (hi - lo) : 0;
    bucketStart.fill(0, 0, k + 1);
    for (let u = 0; u < n; u++) if (solid[u] === 1) bucketStart[bucketOf(minX[u]!, lo, scale, k) + 1]!++;
    for (let b = 0; b < k; b++) bucketStart[b + 1]! += bucketStart[b]!;
    for (let u = 0; u < n; u++) if (solid[u] === 1) order[bucketStart[bucketOf(minX[u]!, lo, scale, k)]!++] = u;
    for (let p = 1; p < k; p++) {
      const u = order[p]!;
      const x = minX[u]!;
      let at = p;
      while (at > 0 && minX[order[at - 1]!]! > x) {
        order[at] = order[at - 1]!;
        at--;
      }
      order[at] = u;
    }
    for (let p = 0; p < k; p++) {
      const u = order[p]!;
      sortedMinX[p] = minX[u]!;
      sortedMaxX[p] = maxX[u]!;
      sortedMinY[p] = minY[u]!;
      sortedMaxY[p] = maxY[u]!;
    }
    for (let p = 0; p < k; p++) {
      const a = order[p]!;
      const reach = sortedMaxX[p]!;
      const ax0 = sortedMinX[p]!;
      const ay0 = sortedMinY[p]!;
      const ay1 = sortedMaxY[p]!;
      for (let q = p + 1; q < k; q++) {
        const bx0 = sortedMinX[q]!;
        if (bx0 >= reach) break;
        // y intervals apart (touching included): the box test below rejects the pair whichever node is u.
        const by0 = sortedMinY[q]!;
        const by1 = sortedMaxY[q]!;
        if (by0 >= ay1 || by1 <= ay0) continue;
        const b = order[q]!;
        let u: number;
        let v: number;
        let vx0: number;
        let vx1: number;
        let vy0: number;
        let vy1: number;
        let ux0: number;
        let uy0: number;
        let ux1: number;
        let uy1: number;
        if (a < b) {
          u = a;
          v = b;
          ux0 = ax0 + EPSILON;
          uy0 = ay0 + EPSILON;
          ux1 = reach - EPSILON;
          uy1 = ay1 - EPSILON;
          vx0 = bx0;
          vx1 = sortedMaxX[q]!;
          vy0 = by0;
          vy1 = by1;
        } else {
          u = b;
          v = a;
          ux0 = bx0 + EPSILON;
          uy0 = by0 + EPSILON;
          ux1 = sortedMaxX[q]! - EPSILON;
          uy1 = by1 - EPSILON;
          vx0 = ax0;
          vx1 = reach;
          vy0 = ay0;
          vy1 = ay1;
        }
        if (vx0 >= ux1 || vx1 <= ux0 || vy0 >= uy1 || vy1 <= uy0) continue;
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

  private findWalls(m: BakeMesh, graph: TileLinks, p: Float32Array, triVertices: Uint32Array, triEdges: Uint32Array, edges: Uint32Array): void {
    this.wallCount = 0;
    const { solid, overlapped, x, y, vertex } = this;
    const { links, walkable } = m;
    const { nodeOf, triangle } = graph;
    if (this.stamp.length < p.length / 3) this.stamp = new Int32Array(p.length / 3);
    if (++this.round === 0x7fffffff) {
      this.round = 1;
      this.stamp.fill(0);
    }
    const { stamp, round } = this;
    for (let u = 0; u < graph.nodeCount; u++) {
      const t = triangle[u]!;
      const sound = overlapped[u] === 0 && solid[u] === 1;
      for (let j = 0; j < 3; j++) {
        const e = triEdges[t * 3 + j]!;
        const a = edges[e * 4]!;
        const b = edges[e * 4 + 1]!;
        // The edge of the walkable area for onWall: no link, or a link to an unwalkable triangle.
        const link = links[t * 3 + j]!;
        if ((link === NONE32 || (!(nodeOf[link]! >= 0) && walkable[link] !== 1)) && e !== NONE32 && e * 4 + 1 < edges.length) {
          if (a < stamp.length) stamp[a] = round;
          if (b < stamp.length) stamp[b] = round;
        }
        const ax = p[a * 3]!;
        const ay = p[a * 3 + 1]!;
        const bx = p[b * 3]!;
        const by = p[b * 3 + 1]!;
        if (sound) {
          const o = links[t * 3 + j]!;
          const w = o === NONE32 ? -1 : nodeOf[o]!;
          if (w >= 0 && overlapped[w] === 0 && solid[w] === 1) {
            // The third corners from the loaded corners (the same float32 values as p's).
            const mine = u * 3 + thirdCorner(vertex, u, a, b);
            const theirs = w * 3 + thirdCorner(vertex, w, a, b);
            const ex = bx - ax;
            const ey = by - ay;
            const sm = ex * (y[mine]! - ay) - ey * (x[mine]! - ax);
            const st = ex * (y[theirs]! - ay) - ey * (x[theirs]! - ax);
            if ((sm > 0 && st < 0) || (sm < 0 && st > 0)) continue;
          }
        }
        this.addWall(ax, ay, bx, by);
      }
    }
    for (let u = 0; u < graph.nodeCount; u++) {
      const c = u * 3;
      const v0 = vertex[c]!;
      const v1 = vertex[c + 1]!;
      const v2 = vertex[c + 2]!;
      this.onWall[u] = (v0 < stamp.length && stamp[v0] === round) || (v1 < stamp.length && stamp[v1] === round) || (v2 < stamp.length && stamp[v2] === round) ? 1 : 0;
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

/** The bucket (0 .. k − 1, monotone in x) of a node whose minX is x, for findOverlaps' sort. */
function bucketOf(x: number, lo: number, scale: number, k: number): number {
  const b = Math.floor((x - lo) * scale);
  return b < 0 ? 0 : b >= k ? k - 1 : b;
}

/**
 * The corner (0–2) of node u whose vertex is neither a nor b, as thirdVertex did on the
 * triangle's vertices (the first such corner, else corner 0).
 */
function thirdCorner(vertex: Int32Array, u: number, a: number, b: number): number {
  for (let c = 0; c < 3; c++) {
    const v = vertex[u * 3 + c]!;
    if (v !== a && v !== b) return c;
  }
  return 0;
}
