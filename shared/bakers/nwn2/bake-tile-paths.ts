import { ModelMappingError } from '../../model/model-mapping-error';
import { MAX_TILE_NODES, NO_NODE } from '../../formats/nwn2/aswm-document';
import { tileName, type BakeMesh } from './bake-mesh';
import { MinHeap } from './min-heap';
import { shortestPathsFrom } from './shortest-paths';
import { TileGraph, walkableCount } from './tile-graph';

/** The path-table columns of AswmTiles (spec §3.6, §4.4). */
export interface TilePathTables {
  nodeCount: Uint8Array;
  localToNodeStart: Uint32Array;
  localToNode: Uint8Array;
  nodeToLocalStart: Uint32Array;
  nodeToLocal: Uint32Array;
  nodesStart: Uint32Array;
  nodes: Uint8Array;
  /** Ordered (from, to) pairs, from ≠ to, with a path. */
  reachablePairs: number;
}

/**
 * Every tile's path table as the toolset bakes it (spec §5.6): nodes are the tile's
 * walkable triangles in ascending order (node_to_local), local_to_node maps each local
 * triangle to its node or 0xFF, and nodes[from · N + to] is the node of the first hop on
 * a shortest path from `from` to `to` by 2-D centre-to-centre distance over the tile's
 * walkable triangles linked within the tile; 0xFF on the diagonal and for unreachable
 * pairs. Line-of-sight bits are not set here (line-of-sight.ts adds them).
 *
 * Tiles marked in `skip` get their start columns but empty rows (their tables come from
 * an earlier bake: tile-table-reuse.ts).
 *
 * One Dijkstra per node (binary heap, N ≤ 127, at most 3 arcs per node): O(N² log N) per
 * tile, linear in the number of tiles. Throws ModelMappingError for a tile with more than
 * 127 walkable triangles (node indices are 7 bits; the toolset's maximum).
 */
export function bakeTilePaths(m: BakeMesh, name: { gridWidth: number }, skip?: Uint8Array): TilePathTables {
  const K = m.tileCount;
  const nodeCount = new Uint8Array(K);
  const localToNodeStart = new Uint32Array(K + 1);
  const nodeToLocalStart = new Uint32Array(K + 1);
  const nodesStart = new Uint32Array(K + 1);
  for (let k = 0; k < K; k++) {
    const n = walkableCount(m, k);
    if (n > MAX_TILE_NODES) {
      throw new ModelMappingError(`${tileName(name, k)} has ${n} walkable triangles; a NWN2 tile's path table holds at most ${MAX_TILE_NODES}`);
    }
    nodeCount[k] = n;
    localToNodeStart[k + 1] = localToNodeStart[k]! + (m.tileEnd[k]! - m.tileStart[k]!);
    nodeToLocalStart[k + 1] = nodeToLocalStart[k]! + n;
    nodesStart[k + 1] = nodesStart[k]! + n * n;
  }
  const localToNode = new Uint8Array(localToNodeStart[K]!).fill(NO_NODE);
  const nodeToLocal = new Uint32Array(nodeToLocalStart[K]!);
  const nodes = new Uint8Array(nodesStart[K]!).fill(NO_NODE);

  let reachablePairs = 0;
  const graph = new TileGraph(m);
  const heap = new MinHeap(MAX_TILE_NODES * 4);
  const dist = new Float64Array(MAX_TILE_NODES);
  const first = new Int32Array(MAX_TILE_NODES);
  const firstArc = new Int32Array(MAX_TILE_NODES);
  for (let k = 0; k < K; k++) {
    const n = nodeCount[k]!;
    // A skipped tile's rows are filled by the caller (tile-table-reuse.ts).
    if (n === 0 || skip?.[k]) continue;
    graph.load(k);
    const s = m.tileStart[k]!;
    const ltn = localToNodeStart[k]!;
    const ntl = nodeToLocalStart[k]!;
    for (let u = 0; u < n; u++) {
      const local = graph.triangle[u]! - s;
      localToNode[ltn + local] = u;
      nodeToLocal[ntl + u] = local;
    }
    const base = nodesStart[k]!;
    for (let u = 0; u < n; u++) {
      shortestPathsFrom(graph, u, heap, dist, first, firstArc);
      const row = base + u * n;
      for (let v = 0; v < n; v++) {
        const hop = first[v]!;
        if (hop >= 0) {
          nodes[row + v] = hop;
          reachablePairs++;
        }
      }
    }
  }
  return { nodeCount, localToNodeStart, localToNode, nodeToLocalStart, nodeToLocal, nodesStart, nodes, reachablePairs };
}
