// shared/pathing/straight-walk.ts as it was before issue 18, kept unchanged as the reference the
// faster version must reproduce (test/unit/pathing/path-reference.test.ts).
import type { NavGraph } from '../../../shared/pathing/nav-graph';

const EPS = 1e-9;

/**
 * Walks the straight segment p → q in the plane across the graph's convex polygons,
 * starting in node `start`, leaving each polygon through the edge the segment exits by and
 * entering the node whose portal holds the crossing point. True when q is reached; the
 * nodes crossed are appended to `out` (start included). A segment that leaves the walkable
 * region, or slips exactly through a polygon corner into a polygon that is not linked,
 * returns false: callers keep the path they had, so the walk only ever shortens a path
 * that is known to be walkable.
 */
export function straightWalk(G: NavGraph, start: number, px: number, py: number, qx: number, qy: number, out: number[]): boolean {
  const dx = qx - px, dy = qy - py;
  let node = start;
  let tIn = 0;
  let stalled = 0;
  let previous = -1;
  const P = G.polyPoints;
  out.push(node);
  for (let steps = 0; steps < G.nodeCount; steps++) {
    const s = G.polyStart[node]!, m = G.polyStart[node + 1]! - s;
    // A node with no area in the plan (a Source ladder) is climbed, never walked across.
    if (m < 3) return false;
    // Orientation of the outline, so "leaving" is known for either winding.
    let area = 0;
    for (let k = 0; k < m; k++) {
      const a = (s + k) * 3, b = (s + (k + 1 === m ? 0 : k + 1)) * 3;
      area += P[a]! * P[b + 1]! - P[b]! * P[a + 1]!;
    }
    const sign = area >= 0 ? 1 : -1;
    let tExit = Infinity, exitEdge = -1;
    for (let k = 0; k < m; k++) {
      const a = (s + k) * 3, b = (s + (k + 1 === m ? 0 : k + 1)) * 3;
      const ex = P[b]! - P[a]!, ey = P[b + 1]! - P[a + 1]!;
      // Outward normal of the edge is (ey, -ex)·sign; the segment leaves through it when moving along it.
      const nx = ey * sign, ny = -ex * sign;
      const along = dx * nx + dy * ny;
      if (along <= EPS) continue;
      const t = ((P[a]! - px) * nx + (P[a + 1]! - py) * ny) / along;
      if (t < tExit) [tExit, exitEdge] = [t, k];
    }
    if (exitEdge < 0 || tExit >= 1 - EPS) return true;
    if (tExit < tIn - 1e-6) return false; // the segment does not pass through this polygon
    // Slipping along a vertex from face to face without moving on: give up after a fan's worth.
    stalled = tExit - tIn < 1e-9 ? stalled + 1 : 0;
    if (stalled > 32) return false;
    tIn = Math.max(tIn, tExit);
    const cx = px + dx * tExit, cy = py + dy * tExit;
    let next = -1;
    for (let l = G.linkStart[node]!; l < G.linkStart[node + 1]!; l++) {
      if (G.linkOutlineEdge[l] !== exitEdge || !G.walkable[G.linkTarget[l]!] || G.linkTarget[l] === previous) continue;
      const L = G.linkPortal;
      const ax = L[l * 6]!, ay = L[l * 6 + 1]!, bx = L[l * 6 + 3]!, by = L[l * 6 + 4]!;
      const len2 = (bx - ax) ** 2 + (by - ay) ** 2;
      const u = len2 > 0 ? ((cx - ax) * (bx - ax) + (cy - ay) * (by - ay)) / len2 : 0;
      if (u >= -1e-6 && u <= 1 + 1e-6) {
        next = G.linkTarget[l]!;
        break;
      }
    }
    if (next < 0) return false;
    previous = node;
    node = next;
    out.push(node);
  }
  return false;
}
