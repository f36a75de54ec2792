import {
  floatView,
  MAX_TILE_NODES,
  NODE_INDEX_MASK,
  NODE_LOS_BIT,
  NO_NODE,
  NONE16,
  type AswmDocument,
} from '../../formats/nwn2/aswm-document';
import { bakeMeshOf, type BakeMesh } from './bake-mesh';
import { islandGraph } from './bake-island-paths';
import { MinHeap } from './min-heap';
import { pathLengthsFrom, type SparseGraph } from './shortest-paths';
import { TileGraph, walkableCount } from './tile-graph';

/**
 * How far a stored next hop's path may be longer than the shortest one and still count
 * as lying on a shortest path: the bake sums in float32 as the toolset does, the check
 * in float64, so equal paths can differ by rounding (metres: absolute + relative).
 */
const PATH_TOLERANCE_ABS = 1e-4;
const PATH_TOLERANCE_REL = 1e-5;
/** Island centres closer than this (metres, per axis) are equal. */
const CENTRE_TOLERANCE = 1e-4;

/** Fractions from 0 to 1 (1 when there is nothing to compare). */
export interface BakeAgreement {
  /**
   * Over every ordered pair (from, to), from ≠ to, of walkable triangles of one tile (the
   * union of both files' nodes, tile by tile): both tables say reachable, or both say
   * unreachable (0xFF). A triangle that is a node in only one file makes all its pairs
   * disagree.
   */
  reachability: number;
  /**
   * Over the pairs our table says are reachable: our stored next hop is linked to `from`
   * within the tile and lies on a shortest path from `from` to `to` by 2-D centre
   * distance over our mesh (the hop's length plus the shortest distance from the hop
   * equals the shortest distance, within 0.1 mm + 1e-5 relative). Ties count as agreement.
   */
  nextHopOnShortestPath: number;
  /**
   * Over max(our island count, theirs) island positions: island i exists in both and
   * matches in membership (the same triangles carry i), centre (x, y, z within 0.1 mm),
   * triangle count, adjacent islands (same list, same order) and exit triangles (same
   * list). Island order is implied: a different order mismatches membership.
   */
  islands: number;
  /** Over ordered island pairs (from ≠ to) of max(I_ours, I_ref)² − max(…): both say reachable (next ≠ 0xFFFF) or both do not. */
  islandReachability: number;
  /**
   * Over the island pairs our table says are reachable: our `next` is adjacent to `from`
   * and lies on a shortest path over our island graph weighted by the stored distances.
   */
  islandNextHopOnShortestPath: number;
  /** Over the tile pairs reachable in both tables: the line-of-sight bits are equal. */
  lineOfSight: number;
}

export interface BakeComparison {
  agreement: BakeAgreement;
  counts: {
    tilePairs: number;
    reachableTilePairs: { ours: number; reference: number };
    lineOfSight: { comparedPairs: number; ours: number; reference: number; both: number };
    islands: { ours: number; reference: number; matching: number };
    islandPairs: number;
    reachableIslandPairs: { ours: number; reference: number };
  };
  /**
   * The same next-hop checks applied to the reference's own tables over its own mesh: a
   * sanity figure (1 for a toolset file: spec §5.6, §5.9).
   */
  reference: { nextHopOnShortestPath: number; islandNextHopOnShortestPath: number };
}

/**
 * Compares a baked walkmesh (`ours`) with a reference bake of the same mesh (`ref`, e.g.
 * the toolset's TRX it was re-baked from). Garbage fields (names, island `tile`, island
 * path padding and the weights of self or unreachable pairs) are never compared. Linear in
 * the table sizes plus one Dijkstra per tile node and per island for the shortest-path
 * checks.
 */
export function compareBakes(ours: AswmDocument, ref: AswmDocument): BakeComparison {
  const tiles = compareTilePaths(ours, ref);
  const oursHops = tileNextHopsOnShortestPaths(ours);
  const refHops = tileNextHopsOnShortestPaths(ref);
  const islands = compareIslands(ours, ref);
  const islandPairs = compareIslandReachability(ours, ref);
  const oursIslandHops = islandNextHopsOnShortestPaths(ours);
  const refIslandHops = islandNextHopsOnShortestPaths(ref);
  return {
    agreement: {
      reachability: fraction(tiles.reachMatch, tiles.pairs),
      nextHopOnShortestPath: fraction(oursHops.good, oursHops.checked),
      islands: fraction(islands.matching, islands.positions),
      islandReachability: fraction(islandPairs.match, islandPairs.pairs),
      islandNextHopOnShortestPath: fraction(oursIslandHops.good, oursIslandHops.checked),
      lineOfSight: fraction(tiles.losMatch, tiles.losPairs),
    },
    counts: {
      tilePairs: tiles.pairs,
      reachableTilePairs: { ours: tiles.reachableOurs, reference: tiles.reachableRef },
      lineOfSight: { comparedPairs: tiles.losPairs, ours: tiles.losOurs, reference: tiles.losRef, both: tiles.losBoth },
      islands: { ours: ours.islands.count, reference: ref.islands.count, matching: islands.matching },
      islandPairs: islandPairs.pairs,
      reachableIslandPairs: { ours: islandPairs.reachableOurs, reference: islandPairs.reachableRef },
    },
    reference: {
      nextHopOnShortestPath: fraction(refHops.good, refHops.checked),
      islandNextHopOnShortestPath: fraction(refIslandHops.good, refIslandHops.checked),
    },
  };
}

function fraction(n: number, d: number): number {
  return d === 0 ? 1 : n / d;
}

interface TilePathCounts {
  pairs: number;
  reachMatch: number;
  reachableOurs: number;
  reachableRef: number;
  losPairs: number;
  losMatch: number;
  losOurs: number;
  losRef: number;
  losBoth: number;
}

/** Reachability and line of sight, pair by pair, keyed by local triangle indices. */
function compareTilePaths(ours: AswmDocument, ref: AswmDocument): TilePathCounts {
  const c: TilePathCounts = { pairs: 0, reachMatch: 0, reachableOurs: 0, reachableRef: 0, losPairs: 0, losMatch: 0, losOurs: 0, losRef: 0, losBoth: 0 };
  const K = Math.max(ours.tiles.count, ref.tiles.count);
  const a = ours.tiles;
  const b = ref.tiles;
  for (let k = 0; k < K; k++) {
    const la = k < a.count ? a.localToNodeStart[k + 1]! - a.localToNodeStart[k]! : 0;
    const lb = k < b.count ? b.localToNodeStart[k + 1]! - b.localToNodeStart[k]! : 0;
    const na = k < a.count ? a.nodeCount[k]! : 0;
    const nb = k < b.count ? b.nodeCount[k]! : 0;
    if (la !== lb) {
      // The tiles hold different triangles: no pair corresponds.
      const n = Math.max(na, nb);
      c.pairs += n * (n - 1);
      continue;
    }
    const ltnA = a.localToNodeStart[k] ?? 0;
    const ltnB = b.localToNodeStart[k] ?? 0;
    for (let x = 0; x < la; x++) {
      const ax = a.localToNode[ltnA + x]!;
      const bx = b.localToNode[ltnB + x]!;
      const xa = ax !== NO_NODE && ax < na;
      const xb = bx !== NO_NODE && bx < nb;
      if (!xa && !xb) continue;
      for (let y = 0; y < la; y++) {
        if (y === x) continue;
        const ay = a.localToNode[ltnA + y]!;
        const by = b.localToNode[ltnB + y]!;
        const ya = ay !== NO_NODE && ay < na;
        const yb = by !== NO_NODE && by < nb;
        if (!ya && !yb) continue;
        c.pairs++;
        const va = xa && ya ? a.nodes[a.nodesStart[k]! + ax * na + ay]! : NO_NODE;
        const vb = xb && yb ? b.nodes[b.nodesStart[k]! + bx * nb + by]! : NO_NODE;
        const ra = va !== NO_NODE;
        const rb = vb !== NO_NODE;
        if (ra) c.reachableOurs++;
        if (rb) c.reachableRef++;
        if (ra === rb) c.reachMatch++;
        if (ra && rb) {
          c.losPairs++;
          const sa = (va & NODE_LOS_BIT) !== 0;
          const sb = (vb & NODE_LOS_BIT) !== 0;
          if (sa) c.losOurs++;
          if (sb) c.losRef++;
          if (sa && sb) c.losBoth++;
          if (sa === sb) c.losMatch++;
        }
      }
    }
  }
  return c;
}

/** The document's stored tile next hops checked against shortest paths over its own mesh. */
function tileNextHopsOnShortestPaths(doc: AswmDocument): { checked: number; good: number } {
  let checked = 0;
  let good = 0;
  let mesh: BakeMesh;
  try {
    mesh = bakeMeshOf(doc, doc.triLinks, doc.triCentre);
  } catch {
    return { checked: 1, good: 0 };
  }
  const t = doc.tiles;
  const graph = new TileGraph(mesh);
  const heap = new MinHeap(MAX_TILE_NODES * 4);
  const dist = new Float64Array(MAX_TILE_NODES * MAX_TILE_NODES);
  const row = new Float64Array(MAX_TILE_NODES);
  /** Stored node → graph node (−1 if the stored node is no walkable triangle of the tile). */
  const graphNode = new Int32Array(256);
  for (let k = 0; k < t.count; k++) {
    const n = t.nodeCount[k]!;
    if (n < 2) continue;
    const base = t.nodesStart[k]!;
    let reachable = 0;
    for (let i = 0; i < n * n; i++) if (t.nodes[base + i] !== NO_NODE) reachable++;
    checked += reachable;
    if (reachable === 0 || walkableCount(mesh, k) > MAX_TILE_NODES) continue;
    graph.load(k);
    const g = graph.nodeCount;
    const ntl = t.nodeToLocal.subarray(t.nodeToLocalStart[k]!, t.nodeToLocalStart[k + 1]!);
    for (let s = 0; s < n; s++) {
      const tri = ntl.length === n ? mesh.tileStart[k]! + ntl[s]! : -1;
      graphNode[s] = tri >= 0 && tri < mesh.triangleCount ? graph.nodeOf[tri]! : -1;
    }
    for (let s = 0; s < g; s++) {
      pathLengthsFrom(graph, s, heap, row);
      dist.set(row.subarray(0, g), s * g);
    }
    for (let s = 0; s < n; s++) {
      const from = graphNode[s]!;
      for (let d = 0; d < n; d++) {
        const v = t.nodes[base + s * n + d]!;
        if (v === NO_NODE) continue;
        const to = graphNode[d]!;
        const hop = (v & NODE_INDEX_MASK) < n ? graphNode[v & NODE_INDEX_MASK]! : -1;
        if (from < 0 || to < 0 || hop < 0) continue;
        const step = arcLength(graph, from, hop);
        if (onShortestPath(step, dist[hop * g + to]!, dist[from * g + to]!)) good++;
      }
    }
  }
  return { checked, good };
}

/** The length of the arc from → to, or NaN when they are not linked. */
function arcLength(g: SparseGraph, from: number, to: number): number {
  let best = NaN;
  for (let a = g.start[from]!, end = g.start[from + 1]!; a < end; a++) {
    if (g.target[a] === to && !(g.weight[a]! >= best)) best = g.weight[a]!;
  }
  return best;
}

function onShortestPath(step: number, rest: number, shortest: number): boolean {
  return Number.isFinite(shortest) && Math.abs(step + rest - shortest) <= PATH_TOLERANCE_ABS + PATH_TOLERANCE_REL * shortest;
}

/** Islands position by position (see BakeAgreement.islands). */
function compareIslands(ours: AswmDocument, ref: AswmDocument): { positions: number; matching: number } {
  const a = ours.islands;
  const b = ref.islands;
  const positions = Math.max(a.count, b.count);
  const common = Math.min(a.count, b.count);
  const bad = new Uint8Array(positions);
  for (let i = common; i < positions; i++) bad[i] = 1;
  // Membership: wherever the triangles' islands differ, both islands involved differ.
  const T = Math.max(ours.triIsland.length, ref.triIsland.length);
  for (let t = 0; t < T; t++) {
    const x = ours.triIsland[t] ?? NONE16;
    const y = ref.triIsland[t] ?? NONE16;
    if (x === y) continue;
    if (x < positions) bad[x] = 1;
    if (y < positions) bad[y] = 1;
  }
  const ca = floatView(a.centre);
  const cb = floatView(b.centre);
  let matching = 0;
  for (let i = 0; i < common; i++) {
    if (bad[i]) continue;
    let ok = a.triangleCount[i] === b.triangleCount[i];
    for (let c = 0; c < 3 && ok; c++) ok = Math.abs(ca[i * 3 + c]! - cb[i * 3 + c]!) <= CENTRE_TOLERANCE;
    ok = ok && sameList(a.adjacent, a.adjacentStart, b.adjacent, b.adjacentStart, i) && sameList(a.exit, a.exitStart, b.exit, b.exitStart, i);
    if (ok) matching++;
  }
  return { positions, matching };
}

function sameList(xs: Uint32Array, xStart: Uint32Array, ys: Uint32Array, yStart: Uint32Array, i: number): boolean {
  const xa = xStart[i]!;
  const ya = yStart[i]!;
  const n = xStart[i + 1]! - xa;
  if (yStart[i + 1]! - ya !== n) return false;
  for (let k = 0; k < n; k++) if (xs[xa + k] !== ys[ya + k]) return false;
  return true;
}

function compareIslandReachability(ours: AswmDocument, ref: AswmDocument): { pairs: number; match: number; reachableOurs: number; reachableRef: number } {
  const Ia = ours.islands.count;
  const Ib = ref.islands.count;
  const I = Math.max(Ia, Ib);
  const pairs = I * (I - 1);
  let match = 0;
  let reachableOurs = 0;
  let reachableRef = 0;
  for (let i = 0; i < I; i++) {
    for (let j = 0; j < I; j++) {
      if (i === j) continue;
      const ra = i < Ia && j < Ia && ours.islandPaths.next[i * Ia + j] !== NONE16;
      const rb = i < Ib && j < Ib && ref.islandPaths.next[i * Ib + j] !== NONE16;
      if (ra) reachableOurs++;
      if (rb) reachableRef++;
      if (ra === rb && i < Ia && j < Ia && i < Ib && j < Ib) match++;
    }
  }
  return { pairs, match, reachableOurs, reachableRef };
}

/** The document's island next hops checked against shortest paths over its own island graph. */
function islandNextHopsOnShortestPaths(doc: AswmDocument): { checked: number; good: number } {
  const I = doc.islands.count;
  const g = islandGraph(doc.islands);
  // A reference file's adjacency may point past the islands; such arcs join nothing.
  for (let k = 0; k < g.target.length; k++) {
    if (g.target[k]! >= I) {
      g.target[k] = 0;
      g.weight[k] = Infinity;
    }
  }
  const heap = new MinHeap(Math.max(16, g.target.length + 1));
  const row = new Float64Array(I);
  const dist = new Float64Array(I * I);
  for (let i = 0; i < I; i++) {
    pathLengthsFrom(g, i, heap, row);
    dist.set(row, i * I);
  }
  let checked = 0;
  let good = 0;
  const next = doc.islandPaths.next;
  for (let i = 0; i < I; i++) {
    for (let j = 0; j < I; j++) {
      const h = next[i * I + j]!;
      if (i === j || h === NONE16) continue;
      checked++;
      if (h >= I) continue;
      if (onShortestPath(arcLength(g, i, h), dist[h * I + j]!, dist[i * I + j]!)) good++;
    }
  }
  return { checked, good };
}
