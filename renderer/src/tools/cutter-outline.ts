import type { ScreenProjector } from './face-selection';

/**
 * The rules of drawing an NWN2 walkmesh cutter as a polygon on the ground: where a click
 * lands once snapped, and which outlines are refused. Pure, so the page and the unit tests
 * run the same code.
 */

export type Point3 = [number, number, number];

/** What a drawn corner snapped to; 'none' when the modifier is held or nothing was in reach. */
export type SnapKind = 'cutter-corner' | 'vertex' | 'grid' | 'none';

export interface SnapCandidates {
  /** Corners of the area's cutters (x, y, z triples): a new cutter meeting an old one shares its corner exactly. */
  cutterCorners: ArrayLike<number>;
  /** Walkmesh vertices near the pointer (x, y, z triples): the corners of the face under it. */
  vertices: ArrayLike<number>;
}

export interface SnappedPoint {
  point: Point3;
  kind: SnapKind;
}

/** Pixels within which a corner or vertex takes the pointer. */
export const SNAP_REACH_PX = 10;

function nearestWithin(c: ArrayLike<number>, sx: number, sy: number, project: ScreenProjector, reach: number): Point3 | null {
  let best: Point3 | null = null;
  let bestD = reach;
  for (let i = 0; i + 2 < c.length; i += 3) {
    const s = project(c[i]!, c[i + 1]!, c[i + 2]!);
    if (!s) continue;
    const d = Math.hypot(s[0] - sx, s[1] - sy);
    if (d <= bestD) {
      bestD = d;
      best = [c[i]!, c[i + 1]!, c[i + 2]!];
    }
  }
  return best;
}

/**
 * Where a click at canvas point (sx, sy), whose ray met the ground at `point`, puts a
 * corner. The rule, in order: with `free` (the modifier held) exactly where it is; a
 * cutter corner within reach on screen (nearest); a walkmesh vertex within reach
 * (nearest); the grid, x and y rounded to `gridStep` with the height kept; else the point.
 * Cutter corners come first so that cutters drawn side by side share corners exactly.
 */
export function snapCutterPoint(sx: number, sy: number, point: Point3, candidates: SnapCandidates, project: ScreenProjector, gridStep: number | null, free: boolean, reach = SNAP_REACH_PX): SnappedPoint {
  if (free) return { point: [point[0], point[1], point[2]], kind: 'none' };
  const corner = nearestWithin(candidates.cutterCorners, sx, sy, project, reach);
  if (corner) return { point: corner, kind: 'cutter-corner' };
  const vertex = nearestWithin(candidates.vertices, sx, sy, project, reach);
  if (vertex) return { point: vertex, kind: 'vertex' };
  if (gridStep !== null && gridStep > 0 && Number.isFinite(gridStep)) {
    const r = (v: number) => Math.round(v / gridStep) * gridStep + 0;
    return { point: [r(point[0]), r(point[1]), point[2]], kind: 'grid' };
  }
  return { point: [point[0], point[1], point[2]], kind: 'none' };
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

function onSegment(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);
}

/** Whether segments ab and cd share any point (crossing, touching or overlapping). */
export function segmentsTouch(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = orient(cx, cy, dx, dy, ax, ay), d2 = orient(cx, cy, dx, dy, bx, by);
  const d3 = orient(ax, ay, bx, by, cx, cy), d4 = orient(ax, ay, bx, by, dx, dy);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (d1 === 0 && onSegment(cx, cy, dx, dy, ax, ay)) || (d2 === 0 && onSegment(cx, cy, dx, dy, bx, by))
    || (d3 === 0 && onSegment(ax, ay, bx, by, cx, cy)) || (d4 === 0 && onSegment(ax, ay, bx, by, dx, dy));
}

/** Two edges of an outline that meet where they should not (edge i runs from corner i to corner i + 1). */
export interface OutlineFault {
  edges: [number, number];
  reason: string;
}

/**
 * The first fault of the outline through the corners (x, y pairs), closed back to the first
 * corner when `closed`: a corner repeated, edges crossing or touching other than at their
 * shared corner, or an edge folding back over the one before. Null for a simple outline.
 * Quadratic in the corners: a hand-drawn cutter has a few dozen at most.
 */
export function outlineFault(xy: ArrayLike<number>, closed: boolean): OutlineFault | null {
  const n = xy.length >> 1;
  const x = (i: number) => xy[(i % n) * 2]!, y = (i: number) => xy[(i % n) * 2 + 1]!;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (x(i) === x(j) && y(i) === y(j)) return { edges: [i, j], reason: `corner ${j + 1} is on corner ${i + 1}` };
    }
  }
  const edges = closed ? n : n - 1;
  if (n < 2) return null;
  for (let i = 0; i < edges; i++) {
    for (let j = i + 1; j < edges; j++) {
      const adjacent = j === i + 1 || (closed && i === 0 && j === n - 1);
      if (adjacent) {
        // Edges sharing a corner meet there; they fault only when one folds back along the other.
        const [p, s, q] = j === i + 1 ? [i, i + 1, i + 2] : [1, 0, n - 1];
        const ox = x(s), oy = y(s);
        const ux = x(p) - ox, uy = y(p) - oy, vx = x(q) - ox, vy = y(q) - oy;
        if (ux * vy - uy * vx === 0 && ux * vx + uy * vy > 0) return { edges: [i, j], reason: `edge ${j + 1} folds back over edge ${i + 1}` };
        continue;
      }
      if (segmentsTouch(x(i), y(i), x(i + 1), y(i + 1), x(j), y(j), x(j + 1), y(j + 1))) {
        return { edges: [i, j], reason: `edge ${j + 1} (corners ${j + 1}–${((j + 1) % n) + 1}) crosses edge ${i + 1} (corners ${i + 1}–${i + 2})` };
      }
    }
  }
  return null;
}

/** Why a corner cannot be added at (px, py) after the drawn ones, or null when it can. */
export function refuseCorner(xy: ArrayLike<number>, px: number, py: number): string | null {
  const f = outlineFault([...Array.from(xy), px, py], false);
  return f ? `that corner would make the outline cross itself: ${f.reason}` : null;
}

/** Why the drawn corners cannot be closed into a cutter, or null when they can. */
export function refuseClose(xy: ArrayLike<number>): string | null {
  const n = xy.length >> 1;
  if (n < 3) return `a cutter needs three or more corners; ${n} drawn`;
  const f = outlineFault(xy, true);
  if (f) return `the outline crosses itself: ${f.reason}`;
  let area = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) area += xy[j * 2]! * xy[i * 2 + 1]! - xy[i * 2]! * xy[j * 2 + 1]!;
  if (area === 0) return 'the corners are on one line: the cutter would cut nothing';
  return null;
}
