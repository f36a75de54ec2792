// shared/pathing/corridor-search.ts as it was before issue 18, kept unchanged as the reference the
// faster version must reproduce (test/unit/pathing/path-reference.test.ts).
import { MinHeap } from '../../../shared/bakers/nwn2/min-heap';
import type { NavGraph } from '../../../shared/pathing/nav-graph';

/** The nodes a path crosses and the link taken into each node after the first. */
export interface Corridor {
  nodes: number[];
  /** links[i] is the link from nodes[i] to nodes[i + 1]. */
  links: number[];
}

/**
 * A* over the nodes of a NavGraph. A node's position is the point of the portal it was entered
 * through nearest the straight line to the goal (the start point for the start node), the cost of a step the 3-D
 * distance between those positions, and the heuristic the straight distance to the goal,
 * which never overestimates that cost. Scratch arrays are kept between queries and reset
 * through a query stamp, so a query touches only the nodes it reaches.
 */
export class CorridorSearch {
  private readonly g: Float64Array;
  private readonly pos: Float64Array;
  private readonly parentLink: Int32Array;
  private readonly parent: Int32Array;
  private readonly stamp: Uint32Array;
  private readonly closed: Uint32Array;
  private readonly heap = new MinHeap(256);
  private query = 0;
  /** Nodes settled by the last search (for the benchmark and diagnostics). */
  settled = 0;

  constructor(readonly graph: NavGraph) {
    const n = graph.nodeCount;
    this.g = new Float64Array(n);
    this.pos = new Float64Array(n * 3);
    this.parentLink = new Int32Array(n);
    this.parent = new Int32Array(n);
    this.stamp = new Uint32Array(n);
    this.closed = new Uint32Array(n);
  }

  find(start: number, sx: number, sy: number, sz: number, goal: number, gx: number, gy: number, gz: number): Corridor | null {
    const G = this.graph;
    if (++this.query === 0xffffffff) {
      this.stamp.fill(0);
      this.closed.fill(0);
      this.query = 1;
    }
    const q = this.query;
    const { g, pos, parent, parentLink, stamp, closed, heap } = this;
    heap.clear();
    this.settled = 0;
    stamp[start] = q;
    g[start] = 0;
    pos[start * 3] = sx;
    pos[start * 3 + 1] = sy;
    pos[start * 3 + 2] = sz;
    parent[start] = -1;
    parentLink[start] = -1;
    heap.push(Math.hypot(gx - sx, gy - sy, gz - sz), start);
    while (heap.size > 0) {
      const key = heap.topKey();
      const u = heap.pop();
      if (closed[u] === q) continue;
      const hu = Math.hypot(gx - pos[u * 3]!, gy - pos[u * 3 + 1]!, gz - pos[u * 3 + 2]!);
      if (key > g[u]! + hu + 1e-9) continue; // stale entry
      closed[u] = q;
      this.settled++;
      if (u === goal) return this.corridorTo(goal);
      const ux = pos[u * 3]!, uy = pos[u * 3 + 1]!, uz = pos[u * 3 + 2]!;
      for (let l = G.linkStart[u]!, end = G.linkStart[u + 1]!; l < end; l++) {
        const v = G.linkTarget[l]!;
        if (closed[v] === q || !G.walkable[v]) continue;
        const P = G.linkPortal;
        // Entry point: where the straight line from u's position to the goal crosses the
        // portal, clamped to it (the midpoint would zigzag, and the corridor it picks may
        // miss the straight line across an open floor).
        const ax = P[l * 6]!, ay = P[l * 6 + 1]!, az = P[l * 6 + 2]!;
        const ex = P[l * 6 + 3]! - ax, ey = P[l * 6 + 4]! - ay, ez = P[l * 6 + 5]! - az;
        const dx = gx - ux, dy = gy - uy;
        const den = dx * ey - dy * ex;
        let t = den !== 0 ? (dx * (uy - ay) - dy * (ux - ax)) / den : 0.5;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const mx = ax + t * ex, my = ay + t * ey, mz = az + t * ez;
        let cost = g[u]! + Math.hypot(mx - ux, my - uy, mz - uz);
        if (v === goal) cost += Math.hypot(gx - mx, gy - my, gz - mz);
        if (stamp[v] === q && cost >= g[v]!) continue;
        stamp[v] = q;
        g[v] = cost;
        parent[v] = u;
        parentLink[v] = l;
        if (v === goal) {
          pos[v * 3] = gx;
          pos[v * 3 + 1] = gy;
          pos[v * 3 + 2] = gz;
          heap.push(cost, v);
        } else {
          pos[v * 3] = mx;
          pos[v * 3 + 1] = my;
          pos[v * 3 + 2] = mz;
          heap.push(cost + Math.hypot(gx - mx, gy - my, gz - mz), v);
        }
      }
    }
    return null;
  }

  private corridorTo(goal: number): Corridor {
    const nodes: number[] = [];
    const links: number[] = [];
    for (let v = goal; v !== -1; v = this.parent[v]!) {
      nodes.push(v);
      if (this.parentLink[v]! >= 0) links.push(this.parentLink[v]!);
    }
    nodes.reverse();
    links.reverse();
    return { nodes, links };
  }
}
