import { orient } from '../geometry/segment';
import { planeHeight } from '../geometry/triangle-grid';
import type { NavGraph } from './nav-graph';
import { straightWalk } from './straight-walk';

/**
 * Drops polyline corners that a straight walk can cut: A* picks the corridor by
 * estimated costs, and the shortest line inside a corridor may bend where the shortest
 * line on the surface does not. Greedy from the start: from each kept point, the
 * farthest later point reachable in a straight line. Returns the points and the nodes
 * crossed (walked nodes for cut stretches, the corridor's for the rest).
 */
export function cutCorners(G: NavGraph, flat: number[], portals: number[], corridorNodes: number[]): [number[], number[]] {
  const count = flat.length / 3;
  if (count < 3) return [flat, corridorNodes];
  const keptPoints: number[] = [flat[0]!, flat[1]!, flat[2]!];
  const nodes: number[] = [];
  const append = (list: readonly number[]) => {
    for (const v of list) {
      const last = nodes[nodes.length - 1];
      if (last === v) continue;
      // Two stretches meet at a corner, where their faces may touch only at a vertex:
      // the faces round it join them, so the corridor still steps through links (none
      // between two linked nodes, the usual case, where bridge's search would end at once).
      if (last !== undefined && !linksTo(G, last, v)) nodes.push(...bridge(G, last, v, keptPoints[keptPoints.length - 3]!, keptPoints[keptPoints.length - 2]!));
      nodes.push(v);
    }
  };
  const walked: number[] = [];
  for (let i = 0; i < count - 1; ) {
    let next = i + 1;
    let path: number[] | null = null;
    // A corner lies on the portal between corridor nodes k-1 and k: the walk starts on
    // either side (the side the last stretch ended on first) and must end on either
    // side of the target corner's portal, so it stays on the corridor's floor.
    const k = portals[i]!;
    const last = nodes[nodes.length - 1];
    let start0 = corridorNodes[k > 0 ? Math.min(k, corridorNodes.length - 1) : 0]!;
    let start1 = k > 0 ? corridorNodes[k - 1]! : -1;
    if (k > 0 && last !== undefined && start1 === last) {
      start1 = start0;
      start0 = last;
    }
    for (let j = count - 1; j > i + 1 && !path; j--) {
      const kj = portals[j]!;
      const end0 = corridorNodes[Math.min(kj, corridorNodes.length - 1)]!;
      const end1 = corridorNodes[Math.max(0, kj - 1)]!;
      for (let s = 0; s < (k > 0 ? 2 : 1); s++) {
        walked.length = 0;
        if (straightWalk(G, s === 0 ? start0 : start1, flat[i * 3]!, flat[i * 3 + 1]!, flat[j * 3]!, flat[j * 3 + 1]!, walked) && endsOnFloor(G, walked[walked.length - 1]!, end0, end1, flat, j)) {
          path = walked.slice();
          next = j;
          break;
        }
      }
    }
    append(path ?? corridorNodes.slice(Math.min(portals[i]!, corridorNodes.length - 1), Math.max(portals[next]!, portals[i]! + 1)));
    keptPoints.push(flat[next * 3]!, flat[next * 3 + 1]!, flat[next * 3 + 2]!);
    i = next;
  }
  return [keptPoints, nodes];
}

/**
 * Whether a straight walk that ended in `node` reached corner j on the corridor's floor:
 * the node is one of the corner's corridor nodes, or a node round the corner joined to
 * one by a few links whose surface is at the corner's height (not a floor above or below).
 */
function endsOnFloor(G: NavGraph, node: number, end0: number, end1: number, flat: readonly number[], j: number): boolean {
  if (node === end0 || node === end1) return true;
  const s = G.polyStart[node]!;
  const P = G.polyPoints;
  const h = planeHeight(P, [s, s + 1, s + 2], 0, flat[j * 3]!, flat[j * 3 + 1]!);
  if (!(Math.abs(h - flat[j * 3 + 2]!) <= 0.05)) return false;
  const x = flat[j * 3]!, y = flat[j * 3 + 1]!;
  return linksTo(G, node, end0) || bridge(G, node, end0, x, y).length > 0 || linksTo(G, node, end1) || bridge(G, node, end1, x, y).length > 0;
}

/** Whether node u has a link to node v. */
function linksTo(G: NavGraph, u: number, v: number): boolean {
  for (let l = G.linkStart[u]!, end = G.linkStart[u + 1]!; l < end; l++) if (G.linkTarget[l] === v) return true;
  return false;
}

/**
 * The nodes strictly between u and v on a shortest chain of links through nodes that
 * touch the corner (x, y): the faces of the fan round a vertex the path turns at.
 * Empty when there is none.
 */
function bridge(G: NavGraph, u: number, v: number, x: number, y: number): number[] {
  const cameFrom = new Map<number, number>([[u, -1]]);
  let frontier = [u];
  while (frontier.length > 0 && cameFrom.size < 64) {
    const next: number[] = [];
    for (const a of frontier) {
      for (let l = G.linkStart[a]!; l < G.linkStart[a + 1]!; l++) {
        const b = G.linkTarget[l]!;
        if (cameFrom.has(b)) continue;
        if (b !== v && !touches(G, b, x, y)) continue;
        cameFrom.set(b, a);
        if (b === v) {
          const chain: number[] = [];
          for (let z = cameFrom.get(v)!; z !== u; z = cameFrom.get(z)!) chain.push(z);
          return chain.reverse();
        }
        next.push(b);
      }
    }
    frontier = next;
  }
  return [];
}

/** Whether the point lies in or on the outline of a node (convex, either winding). */
function touches(G: NavGraph, node: number, x: number, y: number): boolean {
  const P = G.polyPoints;
  const s = G.polyStart[node]!, m = G.polyStart[node + 1]! - s;
  const tol = 1e-4 + 1e-6 * (Math.abs(x) + Math.abs(y));
  let pos = false, neg = false;
  for (let k = 0; k < m; k++) {
    const a = (s + k) * 3, b = (s + (k + 1 === m ? 0 : k + 1)) * 3;
    const ex = P[b]! - P[a]!, ey = P[b + 1]! - P[a + 1]!;
    const len = Math.hypot(ex, ey);
    if (len === 0) continue;
    const side = orient(P[a]!, P[a + 1]!, P[b]!, P[b + 1]!, x, y) / len;
    if (side > tol) pos = true;
    else if (side < -tol) neg = true;
  }
  return !(pos && neg);
}
