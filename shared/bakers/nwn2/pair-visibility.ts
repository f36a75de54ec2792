import { MAX_TILE_NODES, NO_NODE, NODE_LOS_BIT } from '../../formats/nwn2/aswm-document';
import type { Polygon } from './convex-geometry';
import { CornerHull, HullEdges } from './corner-hull';
import { EPSILON, type TileWalls } from './tile-walls';
import type { TileLinks } from './tile-links';

const MAX_POINTS = MAX_TILE_NODES * 3;
/** Bit masks per member and word (see `masks`). */
const MASKS = 12;
/**
 * Slack (metres) of the diagonal-extent masks 8–11: they only skip walls lying wholly more
 * than this beyond the pair along x + y or x − y, which wallEnters (a stretch inside the
 * hull, computed to about 1e-12 m) rejects anyway, so they change no result.
 */
const DIAGONAL_SLACK = 1e-5;
/**
 * Columns (and rows) the component's box is cut into for linkedPairBlocked: per span of
 * columns, the relevant walls whose x extent meets it; same for rows.
 */
const GRID = 16;
const SPANS = GRID * GRID;
/** At most this many relevant walls (one mask word), linkedPairBlocked box-tests them all instead of using the spans. */
const FEW_WALLS = 8;
const WORDS = (MAX_POINTS + 31) >>> 5;
/**
 * Metres the open members' hull is grown by when choosing the walls their pairs need: a
 * wall wallEnters finds entering a pair's hull (by more than its tolerance, computed to about
 * 1e-12 m) is inside it, so keeping every wall within this of the open hull drops none.
 */
const OPEN_SLACK = 1e-5;

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
 *
 * Only the pairs the rule can set are visited (issue 18): every pair of members with no
 * corner on a wall, and the linked pairs (through the tile graph's arcs) where one has.
 * The other pairs never get the bit, so visiting all N² of them (as before) was wasted:
 * on the 24 toolset TRX fixtures 41 % of the members have no corner on a wall, so this
 * visits about a sixth of the pairs. The masks are built in registers 32 walls at a time.
 *
 * A second round (issue 18, 1.1× on the 24 fixtures) keeps every decision and only does
 * less work for it: each classified member keeps its corners' values per wall and the
 * stretch its own corners give (so a pair's test computes only the crossings between its
 * two members), a linked pair computes its corners' positions along a wall only when the
 * wall's line separates them, the hulls gift-wrap each vertex once (corner-hull.ts), and a
 * linked pair's candidate walls come from per-span masks (columns and rows) rather than a
 * union of grid cells. The bits set are exactly those of the all-pairs version
 * (test/unit/nwn2-bake/line-of-sight-reference.test.ts compares them on every fixture).
 *
 * A third round (issue 18, about 1.25× on the 24 fixtures) removes the branches whose
 * outcome is a coin toss (which side of a wall's line a corner lies on, whether two boxes
 * meet, which corner is shared): conditions become 0/1 values combined with | and & (the
 * same comparisons, so the same answers), a linked pair computes all six corners instead
 * of branching on which ones it shares (equal vertices, equal coordinates, equal values),
 * classify keeps which corners lie left and right of each wall so that openWallEnters
 * visits only the left–right pairs, and "the highest corner past the margin" is tested as
 * "some corner past it" instead of through Math.max (the same truth value). V8's Math.min /
 * max are slower than compares; where a value is needed, compares stand in for them (the
 * same value but for the sign of a zero, which only ever meets comparisons here).
 */
export class PairVisibility {
  private readonly cornerHull = new CornerHull(MAX_POINTS);
  private readonly hullEdges = new HullEdges(MAX_POINTS + 1);
  private readonly hull: Polygon = { count: 0, x: new Float64Array(MAX_POINTS + 1), y: new Float64Array(MAX_POINTS + 1) };
  /** Per relevant wall: start x, y, direction x, y, squared length, tolerance. */
  private readonly wallX = new Float64Array(MAX_POINTS);
  private readonly wallY = new Float64Array(MAX_POINTS);
  private readonly wallDX = new Float64Array(MAX_POINTS);
  private readonly wallDY = new Float64Array(MAX_POINTS);
  private readonly wallLength2 = new Float64Array(MAX_POINTS);
  private readonly wallLimit = new Float64Array(MAX_POINTS);
  /** Per relevant wall: the tolerance along it (wallLimit · length). */
  private readonly wallMargin = new Float64Array(MAX_POINTS);
  /** Per relevant wall: its box (minX, minY, maxX, maxY). */
  private readonly wallBox = new Float64Array(MAX_POINTS * 4);
  /** Per relevant wall: its extent along the diagonals (min x + y, max x + y, min x − y, max x − y). */
  private readonly wallDiagonal = new Float64Array(MAX_POINTS * 4);
  /**
   * Per member, bit masks over the relevant walls (`words` 32-bit words each), every one
   * a condition that holds for a pair when it holds for either member, so that a pair's
   * candidate walls are an AND of ORs:
   * 0: a corner left of the wall's line; 1: a corner right of it; 2–5: the wall's box
   * meets the pair's box on that side (wall minX < member maxX, wall maxX > member minX,
   * same in y); 6, 7: a corner projects past the wall's start / before its end; 8–11:
   * the same as 2–5 along the diagonals x + y and x − y (with DIAGONAL_SLACK), which
   * removes about half of the walls that pass 0–7 and still miss the pair's hull (194 k of
   * 335 k calls to wallEnters that returned false, on the 24 toolset TRX fixtures).
   */
  private masks = new Int32Array(0);
  /**
   * Per classified member, relevant wall and corner (at (i · openWalls + w) · 3 + c): the
   * corner's signed distance to the wall's line (times its length) and its position along
   * it (times its length), as classify computes them; wallEnters reads them back instead of
   * recomputing them (the same float64 values).
   */
  private cornerSide = new Float64Array(0);
  private cornerAlong = new Float64Array(0);
  /**
   * Per classified member and relevant wall (at i · openWalls + w): the lowest and highest
   * of the along values wallEnters takes from the member's own corners (on the line) and
   * own pairs of a left and a right corner; min and max are exact, so a pair's values are
   * the min and max of both members' and of the pairs across them (openWallEnters).
   */
  private ownLow = new Float64Array(0);
  private ownHigh = new Float64Array(0);
  /**
   * Per classified member and relevant wall (same slots): which corners are left of the
   * wall's line (bits 0–2) and right of it (bits 3–5), so that openWallEnters visits only the
   * pairs of a left and a right corner instead of testing all nine.
   */
  private cornerSides = new Uint8Array(0);
  /** The six corners' values for one wallEnters call of a linked pair (corners of i, then j). */
  private readonly pairSide = new Float64Array(6);
  private readonly pairAlong = new Float64Array(6);
  /**
   * Per span of columns [a, b] (at a · GRID + b, `words` masks each), the relevant walls
   * whose x extent meets the columns' (columnSpans), and the same for rows (rowSpans). A
   * wall whose box meets a pair's box meets it in x and in y, so it is in the AND of the
   * pair's column span and row span (the same monotone cell function maps both). Built
   * for a component when its first linked pair needs them (spansReady).
   */
  private columnSpans = new Int32Array(SPANS * WORDS);
  private rowSpans = new Int32Array(SPANS * WORDS);
  private spansReady = false;
  private spanWords = 0;
  private gridX = 0;
  private gridY = 0;
  private gridScaleX = 0;
  private gridScaleY = 0;
  /** Tile walls entering the component's hull, and 1 for those near the open members' hull (findRelevantWalls). */
  private readonly found = new Int32Array(MAX_POINTS);
  private readonly nearOpen = new Uint8Array(MAX_POINTS);
  /** How many of the relevant walls (the first ones) can block a pair of open members. */
  private openWalls = 0;
  /** Member position of each node of the component, −1 for the others. */
  private readonly memberOf = new Int32Array(MAX_TILE_NODES).fill(-1);
  /** Members with no corner on a wall. */
  private readonly open = new Int32Array(MAX_TILE_NODES);
  /** Per open member: its node, and where its row of the tile's table starts (base + node · n). */
  private readonly openNode = new Int32Array(MAX_TILE_NODES);
  private readonly openRow = new Int32Array(MAX_TILE_NODES);
  /** A pair's corners left and right of one wall's line. */
  private readonly leftSide = new Float64Array(6);
  private readonly leftAlong = new Float64Array(6);
  private readonly rightSide = new Float64Array(6);
  private readonly rightAlong = new Float64Array(6);
  /** The corner coordinates of the tile being marked (TileWalls.x, .y). */
  private cornerX: Float64Array = new Float64Array(0);
  private cornerY: Float64Array = new Float64Array(0);
  /** The members being marked. */
  private memberList: Int32Array = new Int32Array(0);

  /**
   * Marks the qualifying pairs among `members` (node indices of non-degenerate triangles
   * of one component) in the tile's `nodes` table at `base` (N = n); returns the number
   * of ordered pairs that got the bit. A pair with a node marked in `onWall` qualifies only
   * when the two are linked (`links`: the tile graph's arcs).
   */
  mark(walls: TileWalls, members: Int32Array, count: number, nodes: Uint8Array, base: number, n: number, onWall: Uint8Array, links: Pick<TileLinks, 'start' | 'target'>): number {
    this.cornerX = walls.x;
    this.cornerY = walls.y;
    this.memberList = members;
    const { memberOf, open } = this;
    let opened = 0;
    for (let i = 0; i < count; i++) {
      memberOf[members[i]!] = i;
      if (onWall[members[i]!] === 0) open[opened++] = i;
    }
    const r = this.findRelevantWalls(walls, members, count, opened);
    // The pairs of open members need only the first openWalls of the relevant walls.
    const ro = this.openWalls;
    const words = (ro + 31) >>> 5;
    if (ro > 0) this.classify(walls, members, open, opened, ro);
    let marked = 0;
    const { openNode, openRow } = this;
    for (let a = 0; a < opened; a++) {
      const u = members[open[a]!]!;
      openNode[a] = u;
      openRow[a] = base + u * n;
    }
    // Pairs of members with no corner on a wall: every one qualifies unless a wall blocks it.
    if (words === 1) marked += this.markOpenPairs(nodes, opened);
    else {
      for (let a = 0; a < opened; a++) {
        const u = openNode[a]!;
        const row = openRow[a]!;
        for (let b = a + 1; b < opened; b++) {
          if (ro > 0 && this.blocked(a, b, ro, words)) continue;
          marked += setEntries(nodes, row + openNode[b]!, openRow[b]! + u);
        }
      }
    }
    // The toolset's restriction (line-of-sight.ts): a triangle with a corner on a wall sees its linked neighbours only.
    const { start, target } = links;
    for (let i = 0; i < count; i++) {
      const u = members[i]!;
      const uOnWall = onWall[u] === 1;
      arcs: for (let arc = start[u]!, end = start[u + 1]!; arc < end; arc++) {
        const v = target[arc]!;
        const j = memberOf[v]!;
        if (j <= i || (!uOnWall && onWall[v] === 0)) continue;
        for (let before = start[u]!; before < arc; before++) if (target[before] === v) continue arcs;
        if (r > 0 && this.linkedPairBlocked(walls, i, j, r)) continue;
        marked += setPair(nodes, base, n, u, v);
      }
    }
    for (let i = 0; i < count; i++) memberOf[members[i]!] = -1;
    return marked;
  }

  /**
   * The open pairs when there are at most 32 relevant walls (one mask word, nearly every
   * component): blocked() with the first member's masks held in locals.
   */
  private markOpenPairs(nodes: Uint8Array, opened: number): number {
    const { openNode, openRow, masks: m } = this;
    const ro = this.openWalls;
    let marked = 0;
    for (let a = 0; a < opened; a++) {
      const u = openNode[a]!;
      const row = openRow[a]!;
      const at = a * MASKS;
      const m0 = m[at]!;
      const m1 = m[at + 1]!;
      const m2 = m[at + 2]!;
      const m3 = m[at + 3]!;
      const m4 = m[at + 4]!;
      const m5 = m[at + 5]!;
      const m6 = m[at + 6]!;
      const m7 = m[at + 7]!;
      const m8 = m[at + 8]!;
      const m9 = m[at + 9]!;
      const m10 = m[at + 10]!;
      const m11 = m[at + 11]!;
      pairs: for (let b = a + 1; b < opened; b++) {
        const bt = b * MASKS;
        let cut =
          (m0 | m[bt]!) &
          (m1 | m[bt + 1]!) &
          (m2 | m[bt + 2]!) &
          (m3 | m[bt + 3]!) &
          (m4 | m[bt + 4]!) &
          (m5 | m[bt + 5]!) &
          (m6 | m[bt + 6]!) &
          (m7 | m[bt + 7]!) &
          (m8 | m[bt + 8]!) &
          (m9 | m[bt + 9]!) &
          (m10 | m[bt + 10]!) &
          (m11 | m[bt + 11]!);
        while (cut !== 0) {
          const low = cut & -cut;
          cut ^= low;
          const w = 31 - Math.clz32(low);
          if (this.openWallEnters(a * ro + w, b * ro + w, w)) continue pairs;
        }
        marked += setEntries(nodes, row + openNode[b]!, openRow[b]! + u);
      }
    }
    return marked;
  }

  /**
   * The walls entering the interior of the component's hull, into the wall arrays; returns
   * their number. Those that also come within OPEN_SLACK of the hull of the open members
   * (`opened` of them, in `open`) go first, and `openWalls` says how many: no other wall can
   * enter the hull of a pair of open members (it lies inside that hull), so only they are
   * classified for the open pairs. The open members lie inside the floor, away from its
   * walls, so their hull is usually crossed by far fewer walls than the component's.
   */
  private findRelevantWalls(walls: TileWalls, members: Int32Array, count: number, opened: number): number {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (let i = 0; i < count; i++) {
      const u = members[i]!;
      if (walls.minX[u]! < x0) x0 = walls.minX[u]!;
      if (walls.minY[u]! < y0) y0 = walls.minY[u]!;
      if (walls.maxX[u]! > x1) x1 = walls.maxX[u]!;
      if (walls.maxY[u]! > y1) y1 = walls.maxY[u]!;
    }
    this.cornerHull.build(walls.x, walls.y, walls.vertex, members, null, count, this.hull);
    const found = this.found;
    let candidates = 0;
    const edges = this.hullEdges;
    edges.load(this.hull, EPSILON);
    for (let w = 0; w < walls.wallCount; w++) {
      const o = w * 4;
      if (edges.crosses(walls.wall[o]!, walls.wall[o + 1]!, walls.wall[o + 2]!, walls.wall[o + 3]!)) found[candidates++] = w;
    }
    // The open members' hull, grown by OPEN_SLACK (a negative shrink), when they have one.
    let openHull = false;
    // When every member is open, the open hull is the component's, which every candidate
    // crosses; crossing it shrunk by EPSILON implies crossing it grown by OPEN_SLACK (each
    // clipping bound only loosens), so all are near without building it again.
    if (opened >= 2 && opened < count && candidates > 0) {
      this.cornerHull.build(walls.x, walls.y, walls.vertex, members, this.open, opened, this.hull);
      openHull = this.hull.count >= 3;
      if (openHull) edges.load(this.hull, -OPEN_SLACK);
    }
    const near = this.nearOpen;
    let ro = 0;
    for (let k = 0; k < candidates; k++) {
      const o = found[k]! * 4;
      near[k] = !openHull || edges.crosses(walls.wall[o]!, walls.wall[o + 1]!, walls.wall[o + 2]!, walls.wall[o + 3]!) ? 1 : 0;
      ro += near[k]!;
    }
    this.openWalls = opened >= 2 ? ro : 0;
    let r = 0;
    for (let pass = 1; pass >= 0; pass--) {
      for (let k = 0; k < candidates; k++) {
        if (near[k] !== pass) continue;
        this.addRelevantWall(walls, found[k]!, r++);
      }
    }
    this.gridX = x0;
    this.gridY = y0;
    this.gridScaleX = x1 > x0 ? GRID / (x1 - x0) : 0;
    this.gridScaleY = y1 > y0 ? GRID / (y1 - y0) : 0;
    this.spansReady = false;
    this.spanWords = (r + 31) >>> 5;
    return r;
  }

  /** Copies tile wall w into relevant slot r. */
  private addRelevantWall(walls: TileWalls, w: number, r: number): void {
    const o = w * 4;
    const ex = walls.wall[o + 2]! - walls.wall[o]!;
    const ey = walls.wall[o + 3]! - walls.wall[o + 1]!;
    this.wallX[r] = walls.wall[o]!;
    this.wallY[r] = walls.wall[o + 1]!;
    this.wallDX[r] = ex;
    this.wallDY[r] = ey;
    const length = Math.sqrt(ex * ex + ey * ey);
    this.wallLength2[r] = ex * ex + ey * ey;
    this.wallLimit[r] = EPSILON * length;
    this.wallMargin[r] = this.wallLimit[r]! * length;
    for (let c = 0; c < 4; c++) this.wallBox[r * 4 + c] = walls.wallBox[o + c]!;
    const s0 = walls.wall[o]! + walls.wall[o + 1]!;
    const s1 = walls.wall[o + 2]! + walls.wall[o + 3]!;
    const d0 = walls.wall[o]! - walls.wall[o + 1]!;
    const d1 = walls.wall[o + 2]! - walls.wall[o + 3]!;
    this.wallDiagonal[r * 4] = Math.min(s0, s1);
    this.wallDiagonal[r * 4 + 1] = Math.max(s0, s1);
    this.wallDiagonal[r * 4 + 2] = Math.min(d0, d1);
    this.wallDiagonal[r * 4 + 3] = Math.max(d0, d1);
  }

  /** columnSpans and rowSpans for the current component's `r` relevant walls. */
  private buildSpans(r: number): void {
    const words = this.spanWords;
    if (this.columnSpans.length < SPANS * words) {
      this.columnSpans = new Int32Array(SPANS * words);
      this.rowSpans = new Int32Array(SPANS * words);
    }
    const { columnSpans: cols, rowSpans: rows, wallBox } = this;
    // The single columns (a = b) first, then every span as its shorter span plus one column.
    for (let c = 0; c < GRID; c++) {
      for (let q = 0, at = (c * GRID + c) * words; q < words; q++) {
        cols[at + q] = 0;
        rows[at + q] = 0;
      }
    }
    for (let w = 0; w < r; w++) {
      const bit = 1 << (w & 31);
      const q = w >>> 5;
      for (let c = this.cellX(wallBox[w * 4]!), c1 = this.cellX(wallBox[w * 4 + 2]!); c <= c1; c++) cols[(c * GRID + c) * words + q]! |= bit;
      for (let c = this.cellY(wallBox[w * 4 + 1]!), c1 = this.cellY(wallBox[w * 4 + 3]!); c <= c1; c++) rows[(c * GRID + c) * words + q]! |= bit;
    }
    for (let a = 0; a < GRID; a++) {
      for (let b = a + 1; b < GRID; b++) {
        const at = (a * GRID + b) * words;
        const prev = (a * GRID + b - 1) * words;
        const single = (b * GRID + b) * words;
        for (let q = 0; q < words; q++) {
          cols[at + q] = cols[prev + q]! | cols[single + q]!;
          rows[at + q] = rows[prev + q]! | rows[single + q]!;
        }
      }
    }
    this.spansReady = true;
  }

  /** The grid column of x (clamped: monotone in x). */
  private cellX(x: number): number {
    const c = Math.floor((x - this.gridX) * this.gridScaleX);
    return c < 0 ? 0 : c >= GRID ? GRID - 1 : c;
  }

  private cellY(y: number): number {
    const c = Math.floor((y - this.gridY) * this.gridScaleY);
    return c < 0 ? 0 : c >= GRID ? GRID - 1 : c;
  }

  /** Builds the masks of the members at positions `which[0 .. count)` (those with no corner on a wall). */
  private classify(walls: TileWalls, members: Int32Array, which: Int32Array, count: number, r: number): void {
    const words = (r + 31) >>> 5;
    // Grown to twice the walls needed, so a bake reallocates them a few times, not per new maximum.
    if (this.masks.length < MAX_TILE_NODES * words * MASKS) this.masks = new Int32Array(MAX_TILE_NODES * Math.min(WORDS, words * 2) * MASKS);
    if (this.ownLow.length < MAX_TILE_NODES * r) {
      const slots = MAX_TILE_NODES * Math.min(MAX_POINTS, r * 2);
      this.cornerSide = new Float64Array(slots * 3);
      this.cornerAlong = new Float64Array(slots * 3);
      this.ownLow = new Float64Array(slots);
      this.ownHigh = new Float64Array(slots);
      this.cornerSides = new Uint8Array(slots);
    }
    const { cornerSide, cornerAlong, ownLow, ownHigh, cornerSides } = this;
    const { masks, wallBox, wallDiagonal, wallX, wallY, wallDX, wallDY, wallLimit, wallLength2, wallMargin } = this;
    const { x, y } = walls;
    for (let p = 0; p < count; p++) {
      const u = members[which[p]!]!;
      const ux0 = walls.minX[u]! + EPSILON;
      const uy0 = walls.minY[u]! + EPSILON;
      const ux1 = walls.maxX[u]! - EPSILON;
      const uy1 = walls.maxY[u]! - EPSILON;
      const x0 = x[u * 3]!;
      const y0 = y[u * 3]!;
      const x1 = x[u * 3 + 1]!;
      const y1 = y[u * 3 + 1]!;
      const x2 = x[u * 3 + 2]!;
      const y2 = y[u * 3 + 2]!;
      const sMax = Math.max(x0 + y0, x1 + y1, x2 + y2) + DIAGONAL_SLACK;
      const sMin = Math.min(x0 + y0, x1 + y1, x2 + y2) - DIAGONAL_SLACK;
      const dMax = Math.max(x0 - y0, x1 - y1, x2 - y2) + DIAGONAL_SLACK;
      const dMin = Math.min(x0 - y0, x1 - y1, x2 - y2) - DIAGONAL_SLACK;
      for (let q = 0; q < words; q++) {
        let left = 0;
        let right = 0;
        let box0 = 0;
        let box1 = 0;
        let box2 = 0;
        let box3 = 0;
        let past = 0;
        let before = 0;
        let diagonal0 = 0;
        let diagonal1 = 0;
        let diagonal2 = 0;
        let diagonal3 = 0;
        for (let w = q << 5, last = Math.min(r, w + 32); w < last; w++) {
          const ax = wallX[w]!;
          const ay = wallY[w]!;
          const ex = wallDX[w]!;
          const ey = wallDY[w]!;
          const limit = wallLimit[w]!;
          const length2 = wallLength2[w]!;
          const shift = w & 31;
          const at = (p * r + w) * 3;
          const s0 = ex * (y0 - ay) - ey * (x0 - ax);
          const a0 = ex * (x0 - ax) + ey * (y0 - ay);
          const s1 = ex * (y1 - ay) - ey * (x1 - ax);
          const a1 = ex * (x1 - ax) + ey * (y1 - ay);
          const s2 = ex * (y2 - ay) - ey * (x2 - ax);
          const a2 = ex * (x2 - ax) + ey * (y2 - ay);
          cornerSide[at] = s0;
          cornerAlong[at] = a0;
          cornerSide[at + 1] = s1;
          cornerAlong[at + 1] = a1;
          cornerSide[at + 2] = s2;
          cornerAlong[at + 2] = a2;
          const nl = -limit;
          const l0 = s0 > limit;
          const l1 = s1 > limit;
          const l2 = s2 > limit;
          const r0 = s0 < nl;
          const r1 = s1 < nl;
          const r2 = s2 < nl;
          // Branch-free (the comparisons go either way at random): +(condition) << shift is the bit or 0.
          left |= (+l0 | +l1 | +l2) << shift;
          right |= (+r0 | +r1 | +r2) << shift;
          cornerSides[p * r + w] = +l0 | (+l1 << 1) | (+l2 << 2) | (+r0 << 3) | (+r1 << 4) | (+r2 << 5);
          // ownLow / ownHigh: the crossings of each left corner p with each right corner q, and
          // each corner on the line, in that order (min and max, so the order does not matter).
          let own0 = Infinity;
          let own1 = -Infinity;
          if (l0) {
            if (r1) {
              const t = a0 + (s0 / (s0 - s1)) * (a1 - a0);
              if (t < own0) own0 = t;
              if (t > own1) own1 = t;
            }
            if (r2) {
              const t = a0 + (s0 / (s0 - s2)) * (a2 - a0);
              if (t < own0) own0 = t;
              if (t > own1) own1 = t;
            }
          } else if (!r0) {
            if (a0 < own0) own0 = a0;
            if (a0 > own1) own1 = a0;
          }
          if (l1) {
            if (r0) {
              const t = a1 + (s1 / (s1 - s0)) * (a0 - a1);
              if (t < own0) own0 = t;
              if (t > own1) own1 = t;
            }
            if (r2) {
              const t = a1 + (s1 / (s1 - s2)) * (a2 - a1);
              if (t < own0) own0 = t;
              if (t > own1) own1 = t;
            }
          } else if (!r1) {
            if (a1 < own0) own0 = a1;
            if (a1 > own1) own1 = a1;
          }
          if (l2) {
            if (r0) {
              const t = a2 + (s2 / (s2 - s0)) * (a0 - a2);
              if (t < own0) own0 = t;
              if (t > own1) own1 = t;
            }
            if (r1) {
              const t = a2 + (s2 / (s2 - s1)) * (a1 - a2);
              if (t < own0) own0 = t;
              if (t > own1) own1 = t;
            }
          } else if (!r2) {
            if (a2 < own0) own0 = a2;
            if (a2 > own1) own1 = a2;
          }
          ownLow[p * r + w] = own0;
          ownHigh[p * r + w] = own1;
          const margin = wallMargin[w]!;
          box0 |= +(wallBox[w * 4]! < ux1) << shift;
          box1 |= +(wallBox[w * 4 + 2]! > ux0) << shift;
          box2 |= +(wallBox[w * 4 + 1]! < uy1) << shift;
          box3 |= +(wallBox[w * 4 + 3]! > uy0) << shift;
          // The highest corner past the margin, the lowest before the far end: any corner.
          const end = length2 - margin;
          past |= (+(a0 > margin) | +(a1 > margin) | +(a2 > margin)) << shift;
          before |= (+(a0 < end) | +(a1 < end) | +(a2 < end)) << shift;
          diagonal0 |= +(wallDiagonal[w * 4]! <= sMax) << shift;
          diagonal1 |= +(wallDiagonal[w * 4 + 1]! >= sMin) << shift;
          diagonal2 |= +(wallDiagonal[w * 4 + 2]! <= dMax) << shift;
          diagonal3 |= +(wallDiagonal[w * 4 + 3]! >= dMin) << shift;
        }
        const at = (p * words + q) * MASKS;
        masks[at] = left;
        masks[at + 1] = right;
        masks[at + 2] = box0;
        masks[at + 3] = box1;
        masks[at + 4] = box2;
        masks[at + 5] = box3;
        masks[at + 6] = past;
        masks[at + 7] = before;
        masks[at + 8] = diagonal0;
        masks[at + 9] = diagonal1;
        masks[at + 10] = diagonal2;
        masks[at + 11] = diagonal3;
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
        (m[a + 7]! | m[b + 7]!) &
        (m[a + 8]! | m[b + 8]!) &
        (m[a + 9]! | m[b + 9]!) &
        (m[a + 10]! | m[b + 10]!) &
        (m[a + 11]! | m[b + 11]!);
      while (cut !== 0) {
        const low = cut & -cut;
        cut ^= low;
        const w = (q << 5) + (31 - Math.clz32(low));
        if (this.openWallEnters(i * r + w, j * r + w, w)) return true;
      }
    }
    return false;
  }

  /**
   * blocked() for a linked pair one of whose members has a corner on a wall (and so no
   * masks): the same eight conditions evaluated per wall for the pair directly, box first
   * (most walls fail it), then wallEnters. Linked pairs are at most three per member, so
   * this costs less than classifying those members against every wall; and only the walls
   * the grid lists near the pair are looked at.
   */
  private linkedPairBlocked(walls: TileWalls, i: number, j: number, r: number): boolean {
    const { wallBox, wallX, wallY, wallDX, wallDY, wallLimit, wallLength2, wallMargin, pairSide, pairAlong } = this;
    const u = this.memberList[i]!;
    const v = this.memberList[j]!;
    // A wall passes the box test when its box meets either member's shrunk box on each side:
    // (bx0 < ux1 || bx0 < vx1) is bx0 < max(ux1, vx1), and so on.
    // (Compares rather than Math.max / min, which are slower; finite values, the same results.)
    const uMinX = walls.minX[u]!;
    const uMinY = walls.minY[u]!;
    const uMaxX = walls.maxX[u]!;
    const uMaxY = walls.maxY[u]!;
    const vMinX = walls.minX[v]!;
    const vMinY = walls.minY[v]!;
    const vMaxX = walls.maxX[v]!;
    const vMaxY = walls.maxY[v]!;
    const x1 = larger(uMaxX - EPSILON, vMaxX - EPSILON);
    const x0 = smaller(uMinX + EPSILON, vMinX + EPSILON);
    const y1 = larger(uMaxY - EPSILON, vMaxY - EPSILON);
    const y0 = smaller(uMinY + EPSILON, vMinY + EPSILON);
    // The six corners (a corner of v at a vertex of u has the same coordinates, so the same
    // float64 results: computing it again is cheaper than branching on which it is).
    const { x, y } = walls;
    const px0 = x[u * 3]!;
    const py0 = y[u * 3]!;
    const px1 = x[u * 3 + 1]!;
    const py1 = y[u * 3 + 1]!;
    const px2 = x[u * 3 + 2]!;
    const py2 = y[u * 3 + 2]!;
    const px3 = x[v * 3]!;
    const py3 = y[v * 3]!;
    const px4 = x[v * 3 + 1]!;
    const py4 = y[v * 3 + 1]!;
    const px5 = x[v * 3 + 2]!;
    const py5 = y[v * 3 + 2]!;
    const words = (r + 31) >>> 5;
    // Few walls: all of them (the box test is cheaper than the spans); otherwise only those
    // in the pair's column span and row span.
    const few = r <= FEW_WALLS;
    let columns = 0;
    let rows = 0;
    if (!few) {
      if (!this.spansReady) this.buildSpans(r);
      columns = (this.cellX(smaller(uMinX, vMinX)) * GRID + this.cellX(larger(uMaxX, vMaxX))) * words;
      rows = (this.cellY(smaller(uMinY, vMinY)) * GRID + this.cellY(larger(uMaxY, vMaxY))) * words;
    }
    const { columnSpans, rowSpans } = this;
    for (let q = 0; q < words; q++) {
      let near = few ? (1 << r) - 1 : columnSpans[columns + q]! & rowSpans[rows + q]!;
      while (near !== 0) {
        const low = near & -near;
        near ^= low;
        const w = (q << 5) + (31 - Math.clz32(low));
        const bx0 = wallBox[w * 4]!;
        const by0 = wallBox[w * 4 + 1]!;
        const bx1 = wallBox[w * 4 + 2]!;
        const by1 = wallBox[w * 4 + 3]!;
        if ((+(bx0 >= x1) | +(bx1 <= x0) | +(by0 >= y1) | +(by1 <= y0)) !== 0) continue;
        const ax = wallX[w]!;
        const ay = wallY[w]!;
        const ex = wallDX[w]!;
        const ey = wallDY[w]!;
        const limit = wallLimit[w]!;
        // Sides first (most walls have the pair on one side), branch-free.
        const s0 = ex * (py0 - ay) - ey * (px0 - ax);
        const s1 = ex * (py1 - ay) - ey * (px1 - ax);
        const s2 = ex * (py2 - ay) - ey * (px2 - ax);
        const s3 = ex * (py3 - ay) - ey * (px3 - ax);
        const s4 = ex * (py4 - ay) - ey * (px4 - ax);
        const s5 = ex * (py5 - ay) - ey * (px5 - ax);
        const nl = -limit;
        const left = +(s0 > limit) | +(s1 > limit) | +(s2 > limit) | +(s3 > limit) | +(s4 > limit) | +(s5 > limit);
        const right = +(s0 < nl) | +(s1 < nl) | +(s2 < nl) | +(s3 < nl) | +(s4 < nl) | +(s5 < nl);
        if ((left & right) === 0) continue;
        const a0 = ex * (px0 - ax) + ey * (py0 - ay);
        const a1 = ex * (px1 - ax) + ey * (py1 - ay);
        const a2 = ex * (px2 - ax) + ey * (py2 - ay);
        const a3 = ex * (px3 - ax) + ey * (py3 - ay);
        const a4 = ex * (px4 - ax) + ey * (py4 - ay);
        const a5 = ex * (px5 - ax) + ey * (py5 - ay);
        pairSide[0] = s0;
        pairSide[1] = s1;
        pairSide[2] = s2;
        pairSide[3] = s3;
        pairSide[4] = s4;
        pairSide[5] = s5;
        pairAlong[0] = a0;
        pairAlong[1] = a1;
        pairAlong[2] = a2;
        pairAlong[3] = a3;
        pairAlong[4] = a4;
        pairAlong[5] = a5;
        // The highest corner past the margin and the lowest before the far end (any corner, branch-free).
        const margin = wallMargin[w]!;
        const end = wallLength2[w]! - margin;
        const past = +(a0 > margin) | +(a1 > margin) | +(a2 > margin) | +(a3 > margin) | +(a4 > margin) | +(a5 > margin);
        const before = +(a0 < end) | +(a1 < end) | +(a2 < end) | +(a3 < end) | +(a4 < end) | +(a5 < end);
        if ((past & before) !== 0 && this.wallEnters(pairSide, pairAlong, 0, 3, w)) return true;
      }
    }
    return false;
  }

  /**
   * wallEnters for two classified members (slots `a` and `b` of wall w): the same along
   * values, each member's own ones taken from ownLow / ownHigh and only the pairs of a left
   * corner of one and a right corner of the other computed here.
   */
  private openWallEnters(a: number, b: number, w: number): boolean {
    const length2 = this.wallLength2[w]!;
    const margin = this.wallMargin[w]!;
    const { cornerSide: side, cornerAlong: along, ownLow, ownHigh, cornerSides } = this;
    let lo = ownLow[a]! < ownLow[b]! ? ownLow[a]! : ownLow[b]!;
    let hi = ownHigh[a]! > ownHigh[b]! ? ownHigh[a]! : ownHigh[b]!;
    if (overlapsWall(lo, hi, length2, margin)) return true;
    const sidesA = cornerSides[a]!;
    const sidesB = cornerSides[b]!;
    for (let round = 0; round < 2; round++) {
      const l = (round === 0 ? a : b) * 3;
      const r = (round === 0 ? b : a) * 3;
      const rights = (round === 0 ? sidesB : sidesA) >>> 3;
      if (rights === 0) continue;
      // The left corners p and right corners q in ascending order, as the loops over all nine did.
      for (let lefts = (round === 0 ? sidesA : sidesB) & 7; lefts !== 0; lefts &= lefts - 1) {
        const p = l + 31 - Math.clz32(lefts & -lefts);
        const sp = side[p]!;
        const ap = along[p]!;
        for (let qs = rights; qs !== 0; qs &= qs - 1) {
          const q = r + 31 - Math.clz32(qs & -qs);
          const t = ap + (sp / (sp - side[q]!)) * (along[q]! - ap);
          if (t < lo) lo = t;
          if (t > hi) hi = t;
        }
        // lo only falls and hi only rises, so once the overlap passes the margin it stays past
        // it: checked after each left corner rather than each round, the answer is the same.
        if (overlapsWall(lo, hi, length2, margin)) return true;
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
  private wallEnters(side: Float64Array, along: Float64Array, first: number, second: number, w: number): boolean {
    const length2 = this.wallLength2[w]!;
    const limit = this.wallLimit[w]!;
    const margin = this.wallMargin[w]!;
    const { leftSide, leftAlong, rightSide, rightAlong } = this;
    let lo = Infinity;
    let hi = -Infinity;
    let nl = 0;
    let nr = 0;
    for (let c = 0; c < 6; c++) {
      const k = c < 3 ? first + c : second + c - 3;
      const sc = side[k]!;
      const ac = along[k]!;
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
    // lo only falls and hi only rises, so once the overlap passes the margin it stays past it.
    for (let a = 0; a < nl; a++) {
      const sa = leftSide[a]!;
      const aa = leftAlong[a]!;
      for (let b = 0; b < nr; b++) {
        const t = aa + (sa / (sa - rightSide[b]!)) * (rightAlong[b]! - aa);
        if (t < lo) lo = t;
        if (t > hi) hi = t;
      }
      if (overlapsWall(lo, hi, length2, margin)) return true;
    }
    return overlapsWall(lo, hi, length2, margin);
  }
}

/** Math.min / max of two finite numbers, but for the sign of a zero (which no caller sees). */
function smaller(a: number, b: number): number {
  return a < b ? a : b;
}

function larger(a: number, b: number): number {
  return a > b ? a : b;
}

/**
 * Math.min(hi, length2) − Math.max(lo, 0) > margin, with compares instead of Math.min / max
 * (slower): the same values but for the sign of a zero, which the comparison does not see.
 */
function overlapsWall(lo: number, hi: number, length2: number, margin: number): boolean {
  return (hi < length2 ? hi : length2) - (lo > 0 ? lo : 0) > margin;
}

/** Sets the bit both ways on a pair both of whose entries hold a path; returns the entries set. */
function setPair(nodes: Uint8Array, base: number, n: number, u: number, v: number): number {
  return setEntries(nodes, base + u * n + v, base + v * n + u);
}

/** setPair on the pair's two entries (u → v at uv, v → u at vu). */
function setEntries(nodes: Uint8Array, uv: number, vu: number): number {
  if (nodes[uv] === NO_NODE || nodes[vu] === NO_NODE) return 0;
  nodes[uv] = nodes[uv]! | NODE_LOS_BIT;
  nodes[vu] = nodes[vu]! | NODE_LOS_BIT;
  return 2;
}
