import { BoxGrid } from '../geometry/box-grid';
import { segmentDistanceSquared } from '../geometry/segment';
import type { NavGraph } from './nav-graph';
import type { BreakEdge, Point3, UnlinkedEdge } from './path-result';

/** Horizontal distance under which two border edges count as lying on each other (metres). */
export const COINCIDENT_TOLERANCE = 0.02;
/** Height difference under which coinciding border edges are one seam rather than a ledge. */
export const SEAM_HEIGHT_TOLERANCE = 0.5;
/** The shortest overlap that makes two border edges a seam (metres). */
const MIN_OVERLAP = 0.05;

/**
 * "Why is there no path" facts about a NavGraph, built on first use and kept: weakly
 * connected components (links taken both ways), the border edges (outline edges no link
 * crosses) in a box grid, and the unlinked seams: border edges of different components
 * that lie on each other (the missing transition, edge link or connection).
 */
export class PathDiagnostics {
  private componentOf: Int32Array | null = null;
  private componentNodes: { start: Uint32Array; nodes: Uint32Array } | null = null;
  private seams: { pairs: UnlinkedEdge[]; byComponent: Map<number, number[]> } | null = null;

  constructor(readonly graph: NavGraph) {}

  /** Weak component of each walkable node (-1 for unwalkable ones). */
  components(): Int32Array {
    if (this.componentOf) return this.componentOf;
    const G = this.graph;
    const n = G.nodeCount;
    const parent = new Int32Array(n);
    for (let i = 0; i < n; i++) parent[i] = i;
    const find = (x: number): number => {
      while (parent[x] !== x) {
        parent[x] = parent[parent[x]!]!;
        x = parent[x]!;
      }
      return x;
    };
    for (let u = 0; u < n; u++) {
      if (!G.walkable[u]) continue;
      for (let l = G.linkStart[u]!; l < G.linkStart[u + 1]!; l++) {
        const v = G.linkTarget[l]!;
        if (!G.walkable[v]) continue;
        const a = find(u), b = find(v);
        if (a !== b) parent[a < b ? b : a] = a < b ? a : b;
      }
    }
    // Numbered by lowest member, in node order, so ids are stable for a file.
    const comp = new Int32Array(n).fill(-1);
    const idOfRoot = new Int32Array(n).fill(-1);
    let next = 0;
    for (let u = 0; u < n; u++) {
      if (!G.walkable[u]) continue;
      const r = find(u);
      if (idOfRoot[r] === -1) idOfRoot[r] = next++;
      comp[u] = idOfRoot[r]!;
    }
    this.componentOf = comp;
    return comp;
  }

  /** The nodes of component c. */
  nodesOf(c: number): Uint32Array {
    if (!this.componentNodes) {
      const comp = this.components();
      let count = 0;
      for (const x of comp) if (x + 1 > count) count = x + 1;
      const start = new Uint32Array(count + 1);
      for (const x of comp) if (x >= 0) start[x + 1]!++;
      for (let i = 0; i < count; i++) start[i + 1]! += start[i]!;
      const fill = start.slice(0, count);
      const nodes = new Uint32Array(start[count]!);
      comp.forEach((x, u) => {
        if (x >= 0) nodes[fill[x]!++] = u;
      });
      this.componentNodes = { start, nodes };
    }
    const { start, nodes } = this.componentNodes;
    return c + 1 < start.length ? nodes.subarray(start[c]!, start[c + 1]!) : new Uint32Array(0);
  }

  /**
   * The border edges of a region nearest the goal (at most `limit`): outline edges of the
   * region's nodes that no link crosses, or whose links all lead out of the region.
   */
  breaksNear(nodes: ArrayLike<number>, inRegion: (node: number) => boolean, goal: Point3, limit = 8): BreakEdge[] {
    const G = this.graph;
    const found: BreakEdge[] = [];
    for (let i = 0; i < nodes.length; i++) {
      const u = nodes[i]!;
      const s = G.polyStart[u]!, m = G.polyStart[u + 1]! - s;
      for (let e = 0; e < m; e++) {
        if (G.polyEdgeLinked[s + e]) {
          let inside = false;
          for (let l = G.linkStart[u]!; l < G.linkStart[u + 1]!; l++) if (G.linkOutlineEdge[l] === e && inRegion(G.linkTarget[l]!)) inside = true;
          if (inside) continue;
        }
        const a = point(G.polyPoints, s + e), b = point(G.polyPoints, s + (e + 1 === m ? 0 : e + 1));
        const distance = Math.sqrt(segmentDistanceSquared(goal[0], goal[1], a[0], a[1], b[0], b[1]));
        found.push({ node: u, label: G.label(u), a, b, distance });
      }
    }
    found.sort((x, y) => x.distance - y.distance || x.node - y.node);
    return found.slice(0, limit);
  }

  /**
   * Unlinked seams leading from component `from` to component `to`, possibly through other
   * components (a breadth-first search over components joined by seams); empty when even
   * the seams do not join them.
   */
  unlinkedBetween(from: number, to: number): UnlinkedEdge[] {
    const { pairs, byComponent } = this.buildSeams();
    const comp = this.components();
    const cameBy = new Map<number, number>([[from, -1]]);
    const queue = [from];
    while (queue.length > 0) {
      const c = queue.shift()!;
      if (c === to) break;
      for (const p of byComponent.get(c) ?? []) {
        const pair = pairs[p]!;
        const other = comp[pair.from] === c ? comp[pair.to]! : comp[pair.from]!;
        if (cameBy.has(other)) continue;
        cameBy.set(other, p);
        queue.push(other);
      }
    }
    if (!cameBy.has(to)) return [];
    const chain: UnlinkedEdge[] = [];
    for (let c = to; cameBy.get(c)! >= 0; ) {
      const pair = pairs[cameBy.get(c)!]!;
      const oriented = comp[pair.to] === c ? pair : { ...pair, from: pair.to, to: pair.from, fromLabel: pair.toLabel, toLabel: pair.fromLabel };
      chain.push(oriented);
      c = comp[oriented.from]!;
    }
    return chain.reverse();
  }

  /** Every unlinked seam between two different components. */
  allUnlinked(): UnlinkedEdge[] {
    return this.buildSeams().pairs;
  }

  private buildSeams(): { pairs: UnlinkedEdge[]; byComponent: Map<number, number[]> } {
    if (this.seams) return this.seams;
    const G = this.graph;
    const comp = this.components();
    // Border edges: (node, outline point index of the edge's first point).
    const owner: number[] = [];
    const first: number[] = [];
    const second: number[] = [];
    for (let u = 0; u < G.nodeCount; u++) {
      if (!G.walkable[u]) continue;
      const s = G.polyStart[u]!, m = G.polyStart[u + 1]! - s;
      for (let e = 0; e < m; e++) {
        if (G.polyEdgeLinked[s + e]) continue;
        owner.push(u);
        first.push(s + e);
        second.push(s + (e + 1 === m ? 0 : e + 1));
      }
    }
    const P = G.polyPoints;
    const boxes = new Float64Array(owner.length * 4);
    for (let i = 0; i < owner.length; i++) {
      const a = first[i]! * 3, b = second[i]! * 3;
      boxes[i * 4] = Math.min(P[a]!, P[b]!) - COINCIDENT_TOLERANCE;
      boxes[i * 4 + 1] = Math.min(P[a + 1]!, P[b + 1]!) - COINCIDENT_TOLERANCE;
      boxes[i * 4 + 2] = Math.max(P[a]!, P[b]!) + COINCIDENT_TOLERANCE;
      boxes[i * 4 + 3] = Math.max(P[a + 1]!, P[b + 1]!) + COINCIDENT_TOLERANCE;
    }
    const grid = new BoxGrid(boxes);
    const pairs: UnlinkedEdge[] = [];
    const byComponent = new Map<number, number[]>();
    const seen = new Set<number>();
    for (let i = 0; i < owner.length; i++) {
      const ci = comp[owner[i]!]!;
      grid.forEachInBox(boxes[i * 4]!, boxes[i * 4 + 1]!, boxes[i * 4 + 2]!, boxes[i * 4 + 3]!, (j) => {
        if (j <= i) return;
        const cj = comp[owner[j]!]!;
        if (cj === ci) return;
        const key = ci < cj ? ci * 0x100000 + cj : cj * 0x100000 + ci;
        const overlap = seamOverlap(P, first[i]!, second[i]!, first[j]!, second[j]!);
        if (!overlap) return;
        // One seam per pair of components is enough to explain the break.
        if (seen.has(key)) return;
        seen.add(key);
        const index = pairs.length;
        pairs.push({ from: owner[i]!, to: owner[j]!, fromLabel: G.label(owner[i]!), toLabel: G.label(owner[j]!), a: overlap[0], b: overlap[1] });
        for (const c of [ci, cj]) {
          const list = byComponent.get(c);
          if (list) list.push(index);
          else byComponent.set(c, [index]);
        }
      });
    }
    this.seams = { pairs, byComponent };
    return this.seams;
  }
}

function point(p: Float64Array, i: number): Point3 {
  return [p[i * 3]!, p[i * 3 + 1]!, p[i * 3 + 2]!];
}

/** The shared stretch of two border edges when they lie on each other within the tolerances, else null. */
function seamOverlap(P: Float64Array, a0: number, a1: number, b0: number, b1: number): [Point3, Point3] | null {
  const ax = P[a0 * 3]!, ay = P[a0 * 3 + 1]!, az = P[a0 * 3 + 2]!;
  const dx = P[a1 * 3]! - ax, dy = P[a1 * 3 + 1]! - ay, dz = P[a1 * 3 + 2]! - az;
  const len = Math.hypot(dx, dy);
  if (len < MIN_OVERLAP) return null;
  const ux = dx / len, uy = dy / len;
  const param = (i: number) => (P[i * 3]! - ax) * ux + (P[i * 3 + 1]! - ay) * uy;
  const off = (i: number) => Math.abs((P[i * 3]! - ax) * uy - (P[i * 3 + 1]! - ay) * ux);
  if (off(b0) > COINCIDENT_TOLERANCE || off(b1) > COINCIDENT_TOLERANCE) return null;
  const t0 = param(b0), t1 = param(b1);
  const lo = Math.max(0, Math.min(t0, t1)), hi = Math.min(len, Math.max(t0, t1));
  if (hi - lo < MIN_OVERLAP) return null;
  // Heights of both edges at the middle of the shared stretch.
  const mid = (lo + hi) / 2;
  const zA = az + (dz * mid) / len;
  const bz0 = P[b0 * 3 + 2]!, bz1 = P[b1 * 3 + 2]!;
  const zB = t1 === t0 ? bz0 : bz0 + ((bz1 - bz0) * (mid - t0)) / (t1 - t0);
  if (Math.abs(zA - zB) > SEAM_HEIGHT_TOLERANCE) return null;
  const at = (t: number): Point3 => [ax + ux * t, ay + uy * t, az + (dz * t) / len];
  return [at(lo), at(hi)];
}
