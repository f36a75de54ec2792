import { NO_NODE, NODE_INDEX_MASK, NONE16, NONE32, TriangleFlag, type AswmDocument } from '../formats/nwn2/aswm-document';
import { aswmToWalkmesh, tileOwners } from '../formats/nwn2/trx-walkmesh';
import { NO_OWNER } from '../model/walkmesh';
import type { Corridor } from './corridor-search';
import { triangleGraphBuilder } from './nav-graph';
import { emptyResult, type PathResult, type Point3 } from './path-result';
import { PathSurface, round, type PathQueryOptions } from './path-surface';

/**
 * Paths on a NWN2 ASWM walked the way the game server walks them (nwn2-trn-trx.md §4.4, §6):
 * the island path nodes give the route from island to island, each island is left by its
 * exit triangle towards the next island, and inside a tile the per-tile next-hop tables
 * lead from triangle to triangle. The triangles visited form the corridor the polyline is
 * string-pulled through. Where the island path nodes say two islands cannot reach each
 * other there is no path, whatever the geometry. A walkmesh with no islands (a TRN, or
 * geometry edited since the bake) falls back to A* over linked_triangles.
 */
export class Nwn2PathSurface extends PathSurface {
  private readonly owner: Uint32Array;
  readonly baked: boolean;

  constructor(readonly aswm: AswmDocument, name: string) {
    const mesh = aswmToWalkmesh(aswm, name);
    const T = aswm.triFlags.length;
    const neighbours = new Int32Array(T * 3).fill(-1);
    const tv = mesh.triangles;
    for (let t = 0; t < T; t++) {
      for (let k = 0; k < 3; k++) {
        const g = aswm.triLinks[t * 3 + k]!;
        const edge = aswm.triEdges[t * 3 + k]!;
        if (g === NONE32 || g >= T || edge * 4 + 1 >= aswm.edges.length) continue;
        // Link slots follow the edge indices, not the corners (spec §4.2): find the corner pair.
        const v0 = aswm.edges[edge * 4]!, v1 = aswm.edges[edge * 4 + 1]!;
        for (let e = 0; e < 3; e++) {
          const a = tv[t * 3 + e]!, b = tv[t * 3 + (e === 2 ? 0 : e + 1)]!;
          if ((a === v0 && b === v1) || (a === v1 && b === v0)) neighbours[t * 3 + e] = g;
        }
      }
    }
    const owner = tileOwners(aswm);
    const gw = aswm.gridWidth;
    const label = (t: number): string => {
      const tile = owner[t]!;
      const where = tile === NO_OWNER || gw === 0 ? '' : ` (tile ${tile % gw},${Math.floor(tile / gw)}`;
      const island = aswm.triIsland[t]!;
      return `triangle ${t}${where}${where && island !== NONE16 ? `, baked island ${island})` : where ? ')' : ''}`;
    };
    const graph = triangleGraphBuilder(mesh.positions, mesh.triangles, mesh.faceWalkable, neighbours).finish(label, 'faces');
    const baked = aswm.islands.count > 0 && !aswm.bakeStale && aswm.islandPaths.next.length === aswm.islands.count * aswm.islands.count;
    super(graph, mesh.positions, mesh.triangles, mesh.faceWalkable, null, baked ? 'nwn2-baked-tables' : 'a-star');
    this.owner = owner;
    this.baked = baked;
  }

  override findPath(from: Point3, to: Point3, options: PathQueryOptions = {}): PathResult {
    if (!this.baked) return super.findPath(from, to, options);
    const result = emptyResult(this.method, this.graph.nodeNoun);
    const [s, e] = this.locateEnds(from, to, options);
    if (!this.placeEnds(result, s, e, from, to, options)) return result;
    return this.pathBetween(result, result.start!.node, result.end!.node);
  }

  /** The baked walk from triangle s to triangle e (both located and walkable). */
  pathBetween(result: PathResult, s: number, e: number): PathResult {
    const a = this.aswm;
    const n = a.islands.count;
    const is = a.triIsland[s]!, ie = a.triIsland[e]!;
    if (is === NONE16 || ie === NONE16 || is >= n || ie >= n) {
      return this.broken(result, `${this.graph.label(is === NONE16 || is >= n ? s : e)} is walkable but has no island in the baked tables`);
    }
    const route = [is];
    for (let cur = is; cur !== ie; ) {
      const next = a.islandPaths.next[cur * n + ie]!;
      if (next === NONE16) {
        if (cur === is) return this.unreachable(result, s, e, is, ie);
        return this.broken(result, `the island path nodes lead from baked island ${is} to baked island ${cur} and then no further towards baked island ${ie}`);
      }
      if (next >= n || route.length > n) return this.broken(result, `the island path nodes from baked island ${is} to baked island ${ie} loop or name baked island ${next}`);
      route.push(next);
      cur = next;
    }
    result.islands = { start: is, end: ie, route };
    const triangles = [s];
    let t = s;
    for (let i = 0; i + 1 < route.length; i++) {
      const cur = route[i]!, next = route[i + 1]!;
      const exit = this.exitTowards(cur, next);
      if (exit < 0) return this.broken(result, `baked island ${cur} has no exit triangle towards baked island ${next}`);
      if (!this.walkTile(t, exit, triangles)) return this.broken(result, `the tile table of ${this.graph.label(t)} has no way to exit ${this.graph.label(exit)}`);
      let entry = -1;
      for (let k = 0; k < 3; k++) {
        const g = a.triLinks[exit * 3 + k]!;
        if (g !== NONE32 && g < a.triIsland.length && a.triIsland[g] === next) entry = g;
      }
      if (entry < 0) return this.broken(result, `exit ${this.graph.label(exit)} of baked island ${cur} touches no triangle of baked island ${next}`);
      triangles.push(entry);
      t = entry;
    }
    if (!this.walkTile(t, e, triangles)) return this.broken(result, `the tile table of ${this.graph.label(t)} has no way to ${this.graph.label(e)} in the same island`);
    const corridor: Corridor = { nodes: triangles, links: [] };
    for (let i = 0; i + 1 < triangles.length; i++) {
      const l = this.linkBetween(triangles[i]!, triangles[i + 1]!);
      if (l < 0) return this.broken(result, `the baked tables step from ${this.graph.label(triangles[i]!)} to ${this.graph.label(triangles[i + 1]!)}, which are not linked`);
      corridor.links.push(l);
    }
    // The corridor is the one the baked tables give; the polyline is pulled inside it only.
    return this.finishPath(result, corridor, false);
  }

  /** Whether the baked island path nodes join the islands of two walkable triangles. */
  bakedReachable(s: number, e: number): boolean {
    const a = this.aswm;
    const is = a.triIsland[s]!, ie = a.triIsland[e]!;
    if (is === NONE16 || ie === NONE16) return false;
    return is === ie || a.islandPaths.next[is * a.islands.count + ie] !== NONE16;
  }

  /** Appends the tile-table walk from `from` (exclusive) to `dest` (inclusive); false when the table has no way. */
  private walkTile(from: number, dest: number, out: number[]): boolean {
    if (from === dest) return true;
    const tile = this.owner[from]!;
    if (tile === NO_OWNER || this.owner[dest] !== tile) return false;
    const T = this.aswm.tiles;
    const offset = T.triangleOffset[tile]!;
    const l2n = T.localToNodeStart[tile]!, l2nEnd = T.localToNodeStart[tile + 1]!;
    const N = T.nodeCount[tile]!;
    const nodes = T.nodesStart[tile]!;
    const n2l = T.nodeToLocalStart[tile]!, n2lEnd = T.nodeToLocalStart[tile + 1]!;
    const destLocal = dest - offset;
    if (l2n + destLocal >= l2nEnd) return false;
    const destNode = T.localToNode[l2n + destLocal]!;
    let cur = from;
    for (let steps = 0; steps <= N; steps++) {
      const local = cur - offset;
      if (l2n + local >= l2nEnd) return false;
      const node = T.localToNode[l2n + local]!;
      if (node === NO_NODE || destNode === NO_NODE || node >= N || destNode >= N) return false;
      const v = T.nodes[nodes + node * N + destNode]!;
      if (v === NO_NODE) return false;
      const at = n2l + (v & NODE_INDEX_MASK);
      if (at >= n2lEnd) return false;
      cur = T.nodeToLocal[at]! + offset;
      out.push(cur);
      if (cur === dest) return true;
    }
    return false;
  }

  private exitTowards(island: number, next: number): number {
    const I = this.aswm.islands;
    const s = I.adjacentStart[island]!, end = I.adjacentStart[island + 1]!;
    for (let k = s; k < end; k++) {
      if (I.adjacent[k] !== next) continue;
      const at = I.exitStart[island]! + (k - s);
      return at < I.exitStart[island + 1]! ? I.exit[at]! : -1;
    }
    return -1;
  }

  private linkBetween(u: number, v: number): number {
    const G = this.graph;
    for (let l = G.linkStart[u]!; l < G.linkStart[u + 1]!; l++) if (G.linkTarget[l] === v) return l;
    return -1;
  }

  private broken(result: PathResult, why: string): PathResult {
    result.code = 'baked-tables-broken';
    result.reason = `the baked path tables are inconsistent: ${why}; bake the area again`;
    return result;
  }

  private unreachable(result: PathResult, s: number, e: number, is: number, ie: number): PathResult {
    const a = this.aswm;
    const n = a.islands.count;
    // The region the start can reach by the baked tables: its island and every island with a route.
    const inRegion = new Uint8Array(n);
    for (let j = 0; j < n; j++) if (j === is || a.islandPaths.next[is * n + j] !== NONE16) inRegion[j] = 1;
    const region: number[] = [];
    for (let t = 0; t < a.triIsland.length; t++) if (a.triFlags[t]! & TriangleFlag.walkable && a.triIsland[t]! < n && inRegion[a.triIsland[t]!]) region.push(t);
    result.islands = { start: is, end: ie, route: [] };
    result.code = 'islands-unreachable';
    result.reason = `the island path nodes say baked island ${is} (start, ${this.graph.label(s)}) cannot reach baked island ${ie} (end, ${this.graph.label(e)})`;
    result.breaks = this.diagnostics.breaksNear(region, (t) => a.triIsland[t]! < n && inRegion[a.triIsland[t]!] === 1, result.end!.point);
    const comp = this.diagnostics.components();
    if (comp[s] !== comp[e]) {
      result.components = { start: comp[s]!, end: comp[e]! };
      result.unlinked = this.diagnostics.unlinkedBetween(comp[s]!, comp[e]!);
      if (result.unlinked.length > 0) {
        const u = result.unlinked[0]!;
        result.reason += `; the regions meet at an unlinked edge between ${u.fromLabel} and ${u.toLabel} near (${u.a.map(round).join(', ')})`;
      }
    } else {
      result.reason += `, although the triangles are linked: the bake is stale or the tables disagree with the geometry`;
    }
    return result;
  }
}
