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
    const { x, y, vertex } = this;
    for (let u = 0; u < graph.nodeCount; u++) {
      const t = graph.triangle[u]!;
      const o = u * 3;
      const v0 = triVertices[t * 3]!;
      const v1 = triVertices[t * 3 + 1]!;
      const v2 = triVertices[t * 3 + 2]!;
      vertex[o] = v0;
      vertex[o + 1] = v1;
      vertex[o + 2] = v2;
      const x0 = p[v0 * 3]!;
      const y0 = p[v0 * 3 + 1]!;
      const x1 = p[v1 * 3]!;
      const y1 = p[v1 * 3 + 1]!;
      const x2 = p[v2 * 3]!;
      const y2 = p[v2 * 3 + 1]!;
      x[o] = x0;
      y[o] = y0;
      x[o + 1] = x1;
      y[o + 1] = y1;
      x[o + 2] = x2;
      y[o + 2] = y2;
      // The same values as comparing corner by corner (finite coordinates) but for the sign of
      // a zero, which only ever meets comparisons; without branches that go either way at random.
      this.minX[u] = Math.min(x0, x1, x2);
      this.minY[u] = Math.min(y0, y1, y2);
      this.maxX[u] = Math.max(x0, x1, x2);
      this.maxY[u] = Math.max(y0, y1, y2);
      const area2 = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0);
      this.solid[u] = +(Math.abs(area2) > MIN_AREA2);
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
        if ((+(by0 >= ay1) | +(by1 <= ay0)) !== 0) continue;
        const b = order[q]!;
        const bx1 = sortedMaxX[q]!;
        // The box test with the lower node's box shrunk, both ways round and the right one
        // kept, branch-free (which node is lower goes either way at random).
        const aShrunk = +(bx0 >= reach - EPSILON) | +(bx1 <= ax0 + EPSILON) | +(by0 >= ay1 - EPSILON) | +(by1 <= ay0 + EPSILON);
        const bShrunk = +(ax0 >= bx1 - EPSILON) | +(reach <= bx0 + EPSILON) | +(ay0 >= by1 - EPSILON) | +(ay1 <= by0 + EPSILON);
        const aLower = +(a < b);
        if (((aShrunk & aLower) | (bShrunk & (aLower ^ 1))) !== 0) continue;
        // separated() both ways: the order of the two calls does not change the answer.
        if (!this.separated(a, b) && !this.separated(b, a)) {
          this.overlapped[a] = 1;
          this.overlapped[b] = 1;
        }
      }
    }
  }

  /** True when the line of a side of triangle u has all of v's corners on its outer side (or within EPSILON of it). */
  private separated(u: number, v: number): boolean {
    const { x, y } = this;
    const q = v * 3;
    const x0 = x[q]!;
    const y0 = y[q]!;
    const x1 = x[q + 1]!;
    const y1 = y[q + 1]!;
    const x2 = x[q + 2]!;
    const y2 = y[q + 2]!;
    // Every side and corner, branch-free (whether a corner is inside goes either way at random).
    return (this.inside(u * 3, x0, y0, x1, y1, x2, y2) & this.inside(u * 3 + 1, x0, y0, x1, y1, x2, y2) & this.inside(u * 3 + 2, x0, y0, x1, y1, x2, y2)) === 0;
  }

  /** 1 when one of the three points is inside side `a`'s line (beyond its tolerance), else 0. */
  private inside(a: number, x0: number, y0: number, x1: number, y1: number, x2: number, y2: number): number {
    const ex = this.sideX[a]!;
    const ey = this.sideY[a]!;
    const limit = this.sideLimit[a]!;
    const inner = this.sideInner[a]!;
    const ax = this.x[a]!;
    const ay = this.y[a]!;
    return (
      +(inner * (ex * (y0 - ay) - ey * (x0 - ax)) > limit) |
      +(inner * (ex * (y1 - ay) - ey * (x1 - ax)) > limit) |
      +(inner * (ex * (y2 - ay) - ey * (x2 - ax)) > limit)
    );
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
        // Branch-free: 1 or −1 (the winding goes either way at random).
        sideInner[a] = 2 * +(ex * (y[o]! - y[a]!) - ey * (x[o]! - x[a]!) > 0) - 1;
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
            // Branch-free: the signs depend on the edge's direction, which goes either way at random.
            if (((+(sm > 0) & +(st < 0)) | (+(sm < 0) & +(st > 0))) !== 0) continue;
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
      const len = stamp.length;
      this.onWall[u] = (+(v0 < len) & +(stamp[v0 < len ? v0 : 0] === round)) | (+(v1 < len) & +(stamp[v1 < len ? v1 : 0] === round)) | (+(v2 < len) & +(stamp[v2 < len ? v2 : 0] === round));
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
  const v0 = vertex[u * 3]!;
  const v1 = vertex[u * 3 + 1]!;
  const v2 = vertex[u * 3 + 2]!;
  // Branch-free (which corner it is goes either way at random): 0 if corner 0 qualifies, else 1 if corner 1 does, else 2 if corner 2 does, else 0.
  const m0 = +(v0 !== a) & +(v0 !== b);
  const m1 = +(v1 !== a) & +(v1 !== b);
  const m2 = +(v2 !== a) & +(v2 !== b);
  return (1 - m0) * (m1 + (1 - m1) * 2 * m2);
}
