import { MinHeap } from '../bakers/nwn2/min-heap';
import { hypot3 } from '../geometry/exact-hypot';
import type { NavGraph } from './nav-graph';

/** The nodes a path crosses and the link taken into each node after the first. */
export interface Corridor {
  nodes: number[];
  /** links[i] is the link from nodes[i] to nodes[i + 1]. */
  links: number[];
}

/** Doubles per link record: portal start a (x, y, z), a→b (x, y, z), target node, link index. */
const LINK = 8;
/** Doubles per node record: g, heuristic, position (x, y, z), stamp, closed stamp, parent link. */
const NODE = 8;

/**
 * A* over the nodes of a NavGraph. A node's position is the point of the portal it was entered
 * through nearest the straight line to the goal (the start point for the start node), the cost of a step the 3-D
 * distance between those positions, and the heuristic the straight distance to the goal,
 * which never overestimates that cost. Scratch arrays are kept between queries and reset
 * through a query stamp, so a query touches only the nodes it reaches.
 *
 * Issue 18 made a query cheaper without changing a single decision. The search is bound by
 * memory, not arithmetic (a 20,000-face mesh's links and scratch arrays do not fit in the
 * cache, and a relaxation touched about eight arrays), so each link is one 64-byte record
 * (its portal, with the direction a→b computed once, its target and its index in the graph)
 * holding only links to walkable nodes (the others were always skipped), and each node's
 * scratch state is one 64-byte record. The distances come from hypot3 (Math.hypot's exact
 * result), and each node keeps the heuristic it was pushed with instead of computing it again
 * when it surfaces (the same value: its position has not changed since). The corridors are
 * those of the earlier search, link for link (test/unit/pathing/path-reference.test.ts).
 */
export class CorridorSearch {
  /** Links to walkable nodes, per node: records linkStart[n] .. linkStart[n + 1] of `links`, in the graph's order. */
  private readonly linkStart: Int32Array;
  private readonly links: Float64Array;
  /** The source node of each graph link. */
  private readonly linkSource: Int32Array;
  private readonly state: Float64Array;
  private readonly heap = new MinHeap(256);
  private query = 0;
  /** Nodes settled by the last search (for the benchmark and diagnostics). */
  settled = 0;

  constructor(readonly graph: NavGraph) {
    const n = graph.nodeCount;
    const { linkStart, linkTarget, linkPortal: P, walkable } = graph;
    const L = linkStart[n]!;
    this.linkStart = new Int32Array(n + 1);
    this.linkSource = new Int32Array(L);
    let kept = 0;
    for (let u = 0; u < n; u++) {
      for (let l = linkStart[u]!; l < linkStart[u + 1]!; l++) {
        this.linkSource[l] = u;
        if (walkable[linkTarget[l]!]) kept++;
      }
    }
    this.links = new Float64Array(kept * LINK);
    let r = 0;
    for (let u = 0; u < n; u++) {
      this.linkStart[u] = r;
      for (let l = linkStart[u]!; l < linkStart[u + 1]!; l++) {
        if (!walkable[linkTarget[l]!]) continue;
        const o = r * LINK;
        const ax = P[l * 6]!, ay = P[l * 6 + 1]!, az = P[l * 6 + 2]!;
        this.links[o] = ax;
        this.links[o + 1] = ay;
        this.links[o + 2] = az;
        this.links[o + 3] = P[l * 6 + 3]! - ax;
        this.links[o + 4] = P[l * 6 + 4]! - ay;
        this.links[o + 5] = P[l * 6 + 5]! - az;
        this.links[o + 6] = linkTarget[l]!;
        this.links[o + 7] = l;
        r++;
      }
    }
    this.linkStart[n] = r;
    this.state = new Float64Array(n * NODE);
  }

  find(start: number, sx: number, sy: number, sz: number, goal: number, gx: number, gy: number, gz: number): Corridor | null {
    if (++this.query === 0xffffffff) {
      for (let o = 5; o < this.state.length; o += NODE) {
        this.state[o] = 0;
        this.state[o + 1] = 0;
      }
      this.query = 1;
    }
    const q = this.query;
    const { state: S, heap, linkStart, links: R } = this;
    heap.clear();
    let settled = 0;
    const s0 = start * NODE;
    S[s0 + 5] = q;
    S[s0] = 0;
    S[s0 + 2] = sx;
    S[s0 + 3] = sy;
    S[s0 + 4] = sz;
    S[s0 + 7] = -1;
    S[s0 + 1] = hypot3(gx - sx, gy - sy, gz - sz);
    heap.push(S[s0 + 1]!, start);
    while (heap.size > 0) {
      const key = heap.topKey();
      const u = heap.pop();
      const o = u * NODE;
      if (S[o + 6] === q) continue;
      const gu = S[o]!;
      if (key > gu + S[o + 1]! + 1e-9) continue; // stale entry
      S[o + 6] = q;
      settled++;
      if (u === goal) {
        this.settled = settled;
        return this.corridorTo(goal);
      }
      const ux = S[o + 2]!, uy = S[o + 3]!, uz = S[o + 4]!;
      const dx = gx - ux, dy = gy - uy;
      for (let r = linkStart[u]!, end = linkStart[u + 1]!; r < end; r++) {
        const lo = r * LINK;
        const v = R[lo + 6]!;
        const vo = v * NODE;
        if (S[vo + 6] === q) continue;
        // Entry point: where the straight line from u's position to the goal crosses the
        // portal, clamped to it (the midpoint would zigzag, and the corridor it picks may
        // miss the straight line across an open floor).
        const ax = R[lo]!, ay = R[lo + 1]!, az = R[lo + 2]!;
        const ex = R[lo + 3]!, ey = R[lo + 4]!, ez = R[lo + 5]!;
        const den = dx * ey - dy * ex;
        let t = den !== 0 ? (dx * (uy - ay) - dy * (ux - ax)) / den : 0.5;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const mx = ax + t * ex, my = ay + t * ey, mz = az + t * ez;
        let cost = gu + hypot3(mx - ux, my - uy, mz - uz);
        if (v === goal) cost += hypot3(gx - mx, gy - my, gz - mz);
        if (S[vo + 5] === q && cost >= S[vo]!) continue;
        S[vo + 5] = q;
        S[vo] = cost;
        S[vo + 7] = R[lo + 7]!;
        if (v === goal) {
          S[vo + 2] = gx;
          S[vo + 3] = gy;
          S[vo + 4] = gz;
          S[vo + 1] = 0;
          heap.push(cost, v);
        } else {
          S[vo + 2] = mx;
          S[vo + 3] = my;
          S[vo + 4] = mz;
          const hv = hypot3(gx - mx, gy - my, gz - mz);
          S[vo + 1] = hv;
          heap.push(cost + hv, v);
        }
      }
    }
    this.settled = settled;
    return null;
  }

  private corridorTo(goal: number): Corridor {
    const S = this.state;
    let length = 1;
    for (let l = S[goal * NODE + 7]!; l >= 0; l = S[this.linkSource[l]! * NODE + 7]!) length++;
    const nodes = new Array<number>(length);
    const links = new Array<number>(length - 1);
    let v = goal;
    for (let k = length - 1; k > 0; k--) {
      const l = S[v * NODE + 7]!;
      nodes[k] = v;
      links[k - 1] = l;
      v = this.linkSource[l]!;
    }
    nodes[0] = v;
    return { nodes, links };
  }
}
