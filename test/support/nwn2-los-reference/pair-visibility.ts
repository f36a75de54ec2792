// The line-of-sight step as it was before issue 18 (all-pairs tests), kept unchanged as the
// reference the faster shared/bakers/nwn2/ version must reproduce bit for bit
// (test/unit/nwn2-bake/line-of-sight-reference.test.ts).
import { MAX_TILE_NODES, NO_NODE, NODE_LOS_BIT } from '../../../shared/formats/nwn2/aswm-document';
import { convexHull, segmentCrossesInterior, type Polygon } from '../../../shared/bakers/nwn2/convex-geometry';
import { EPSILON, type TileWalls } from './tile-walls';
import type { TileGraph } from '../../../shared/bakers/nwn2/tile-graph';

/** Whether node u links to node v within the tile. */
function linked(links: Pick<TileGraph, 'start' | 'target'>, u: number, v: number): boolean {
  for (let a = links.start[u]!, end = links.start[u + 1]!; a < end; a++) if (links.target[a] === v) return true;
  return false;
}

const MAX_POINTS = MAX_TILE_NODES * 3;
/** Bit masks per member and word (see `masks`). */
const MASKS = 8;

/**
 * Sets the line-of-sight bit on the pairs of one connected component whose convex hull no
 * wall enters (see line-of-sight.ts).
 *
 * First the walls that enter the component's own hull are found; no other wall can enter
 * the hull of a pair of its triangles. When there are none (an open or convex floor),
 * every pair gets the bit. Otherwise each triangle's corners are classified once against
 * each of those walls' lines (left, right or on it, and their positions along it), kept
 * as bit masks. A wall can only block pair (A, B) when its line has corners of A ∪ B on
 * both sides, its box meets the pair's box and its ends are not both beyond the pair's
 * corners along it: all conditions that hold for the pair when they hold for A or for B,
 * so they are ORs and ANDs of the masks, 32 walls at a time. Only for the walls left, the
 * line's stretch inside the pair's hull (between the points where it crosses the
 * segments joining corners on opposite sides) is compared with the wall itself.
 */
export class PairVisibility {
  private readonly points = new Float64Array(MAX_POINTS * 2);
  private readonly hull: Polygon = { count: 0, x: new Float64Array(MAX_POINTS + 1), y: new Float64Array(MAX_POINTS + 1) };
  private readonly relevant = new Int32Array(MAX_POINTS);
  /** Per relevant wall: start x, y, direction x, y, squared length, tolerance. */
  private readonly wallX = new Float64Array(MAX_POINTS);
  private readonly wallY = new Float64Array(MAX_POINTS);
  private readonly wallDX = new Float64Array(MAX_POINTS);
  private readonly wallDY = new Float64Array(MAX_POINTS);
  private readonly wallLength2 = new Float64Array(MAX_POINTS);
  private readonly wallLimit = new Float64Array(MAX_POINTS);
  /** Per relevant wall: its box (minX, minY, maxX, maxY). */
  private readonly wallBox = new Float64Array(MAX_POINTS * 4);
  /**
   * Per member, bit masks over the relevant walls (`words` 32-bit words each), every one
   * a condition that holds for a pair when it holds for either member, so that a pair's
   * candidate walls are an AND of ORs:
   * 0: a corner left of the wall's line; 1: a corner right of it; 2–5: the wall's box
   * meets the pair's box on that side (wall minX < member maxX, wall maxX > member minX,
   * same in y); 6, 7: a corner projects past the wall's start / before its end.
   */
  private masks = new Int32Array(0);
  private side = new Float64Array(0);
  private along = new Float64Array(0);
  private minAlong = new Float64Array(0);
  private maxAlong = new Float64Array(0);
  /** A pair's corners left and right of one wall's line. */
  private readonly leftSide = new Float64Array(6);
  private readonly leftAlong = new Float64Array(6);
  private readonly rightSide = new Float64Array(6);
  private readonly rightAlong = new Float64Array(6);

  /**
   * Marks the qualifying pairs among `members` (node indices of non-degenerate triangles
   * of one component) in the tile's `nodes` table at `base` (N = n); returns the number
   * of ordered pairs that got the bit. A pair with a node marked in `onWall` qualifies only
   * when the two are linked (`links`: the tile graph's arcs).
   */
  mark(walls: TileWalls, members: Int32Array, count: number, nodes: Uint8Array, base: number, n: number, onWall: Uint8Array, links: Pick<TileGraph, 'start' | 'target'>): number {
    const r = this.findRelevantWalls(walls, members, count);
    if (r > 0) this.classify(walls, members, count, r);
    const words = (r + 31) >>> 5;
    let marked = 0;
    for (let i = 0; i < count; i++) {
      const u = members[i]!;
      for (let j = i + 1; j < count; j++) {
        const v = members[j]!;
        // The toolset's restriction (line-of-sight.ts): a triangle with a corner on a wall sees its linked neighbours only.
        if ((onWall[u] === 1 || onWall[v] === 1) && !linked(links, u, v)) continue;
        if (r > 0 && this.blocked(i, j, r, words)) continue;
        const uv = base + u * n + v;
        const vu = base + v * n + u;
        if (nodes[uv] === NO_NODE || nodes[vu] === NO_NODE) continue;
        nodes[uv] = nodes[uv]! | NODE_LOS_BIT;
        nodes[vu] = nodes[vu]! | NODE_LOS_BIT;
        marked += 2;
      }
    }
    return marked;
  }

  /** The walls entering the interior of the component's hull, into `relevant`; returns their number. */
  private findRelevantWalls(walls: TileWalls, members: Int32Array, count: number): number {
    for (let i = 0; i < count; i++) {
      const u = members[i]!;
      for (let c = 0; c < 3; c++) {
        this.points[(i * 3 + c) * 2] = walls.x[u * 3 + c]!;
        this.points[(i * 3 + c) * 2 + 1] = walls.y[u * 3 + c]!;
      }
    }
    convexHull(this.points, count * 3, this.hull);
    let r = 0;
    for (let w = 0; w < walls.wallCount; w++) {
      const o = w * 4;
      if (!segmentCrossesInterior(walls.wall[o]!, walls.wall[o + 1]!, walls.wall[o + 2]!, walls.wall[o + 3]!, this.hull, EPSILON)) continue;
      const ex = walls.wall[o + 2]! - walls.wall[o]!;
      const ey = walls.wall[o + 3]! - walls.wall[o + 1]!;
      this.relevant[r] = w;
      this.wallX[r] = walls.wall[o]!;
      this.wallY[r] = walls.wall[o + 1]!;
      this.wallDX[r] = ex;
      this.wallDY[r] = ey;
      this.wallLength2[r] = ex * ex + ey * ey;
      this.wallLimit[r] = EPSILON * Math.sqrt(ex * ex + ey * ey);
      for (let c = 0; c < 4; c++) this.wallBox[r * 4 + c] = walls.wallBox[o + c]!;
      r++;
    }
    return r;
  }

  private classify(walls: TileWalls, members: Int32Array, count: number, r: number): void {
    const words = (r + 31) >>> 5;
    if (this.masks.length < count * words * MASKS) this.masks = new Int32Array(MAX_TILE_NODES * words * MASKS);
    if (this.minAlong.length < count * r) {
      this.side = new Float64Array(MAX_TILE_NODES * r * 3);
      this.along = new Float64Array(MAX_TILE_NODES * r * 3);
      this.minAlong = new Float64Array(MAX_TILE_NODES * r);
      this.maxAlong = new Float64Array(MAX_TILE_NODES * r);
    }
    const { masks, side, along, minAlong, maxAlong, wallBox } = this;
    masks.fill(0, 0, count * words * MASKS);
    for (let i = 0; i < count; i++) {
      const u = members[i]!;
      const ux0 = walls.minX[u]! + EPSILON;
      const uy0 = walls.minY[u]! + EPSILON;
      const ux1 = walls.maxX[u]! - EPSILON;
      const uy1 = walls.maxY[u]! - EPSILON;
      for (let w = 0; w < r; w++) {
        const ax = this.wallX[w]!;
        const ay = this.wallY[w]!;
        const ex = this.wallDX[w]!;
        const ey = this.wallDY[w]!;
        const limit = this.wallLimit[w]!;
        const k = i * r + w;
        let lo = Infinity;
        let hi = -Infinity;
        let left = false;
        let right = false;
        for (let c = 0; c < 3; c++) {
          const dx = walls.x[u * 3 + c]! - ax;
          const dy = walls.y[u * 3 + c]! - ay;
          const s = ex * dy - ey * dx;
          const a = ex * dx + ey * dy;
          side[k * 3 + c] = s;
          along[k * 3 + c] = a;
          if (s > limit) left = true;
          else if (s < -limit) right = true;
          if (a < lo) lo = a;
          if (a > hi) hi = a;
        }
        minAlong[k] = lo;
        maxAlong[k] = hi;
        const bit = 1 << (w & 31);
        const at = (i * words + (w >>> 5)) * MASKS;
        const margin = limit * Math.sqrt(this.wallLength2[w]!);
        if (left) masks[at]! |= bit;
        if (right) masks[at + 1]! |= bit;
        if (wallBox[w * 4]! < ux1) masks[at + 2]! |= bit;
        if (wallBox[w * 4 + 2]! > ux0) masks[at + 3]! |= bit;
        if (wallBox[w * 4 + 1]! < uy1) masks[at + 4]! |= bit;
        if (wallBox[w * 4 + 3]! > uy0) masks[at + 5]! |= bit;
        if (hi > margin) masks[at + 6]! |= bit;
        if (lo < this.wallLength2[w]! - margin) masks[at + 7]! |= bit;
      }
    }
  }

  /** True when a relevant wall enters the interior of the hull of members i and j. */
  private blocked(i: number, j: number, r: number, words: number): boolean {
    const m = this.masks;
    for (let q = 0; q < words; q++) {
      const a = (i * words + q) * MASKS;
      const b = (j * words + q) * MASKS;
      let cut =
        (m[a]! | m[b]!) &
        (m[a + 1]! | m[b + 1]!) &
        (m[a + 2]! | m[b + 2]!) &
        (m[a + 3]! | m[b + 3]!) &
        (m[a + 4]! | m[b + 4]!) &
        (m[a + 5]! | m[b + 5]!) &
        (m[a + 6]! | m[b + 6]!) &
        (m[a + 7]! | m[b + 7]!);
      while (cut !== 0) {
        const low = cut & -cut;
        cut ^= low;
        if (this.wallEnters(i, j, (q << 5) + (31 - Math.clz32(low)), r)) return true;
      }
    }
    return false;
  }

  /**
   * Whether wall w (whose line has corners of both triangles' union on both sides) enters
   * the hull: the line's stretch inside the hull runs between the points where it crosses
   * the segments joining a left and a right corner (plus corners on the line); measured
   * along the wall (0 .. length²), it must overlap the wall by more than the tolerance.
   */
  private wallEnters(i: number, j: number, w: number, r: number): boolean {
    const length2 = this.wallLength2[w]!;
    const limit = this.wallLimit[w]!;
    const margin = limit * Math.sqrt(length2);
    const ki = i * r + w;
    const kj = j * r + w;
    const { side, along, leftSide, leftAlong, rightSide, rightAlong } = this;
    let lo = Infinity;
    let hi = -Infinity;
    let nl = 0;
    let nr = 0;
    for (let c = 0; c < 6; c++) {
      const kc = c < 3 ? ki * 3 + c : kj * 3 + c - 3;
      const sc = side[kc]!;
      const ac = along[kc]!;
      if (sc > limit) {
        leftSide[nl] = sc;
        leftAlong[nl++] = ac;
      } else if (sc < -limit) {
        rightSide[nr] = sc;
        rightAlong[nr++] = ac;
      } else {
        if (ac < lo) lo = ac;
        if (ac > hi) hi = ac;
      }
    }
    for (let a = 0; a < nl; a++) {
      const sa = leftSide[a]!;
      const aa = leftAlong[a]!;
      for (let b = 0; b < nr; b++) {
        const t = aa + (sa / (sa - rightSide[b]!)) * (rightAlong[b]! - aa);
        if (t < lo) lo = t;
        if (t > hi) hi = t;
      }
    }
    return Math.min(hi, length2) - Math.max(lo, 0) > margin;
  }
}
