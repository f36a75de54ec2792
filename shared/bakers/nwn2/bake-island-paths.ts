import { floatView, NONE16, type AswmIslandPaths, type AswmIslands } from '../../formats/nwn2/aswm-document';
import { MAX_ASWM_BYTES } from '../../formats/nwn2/aswm-packet';
import { ISLAND_PATH_NODE_BYTES } from '../../formats/nwn2/aswm-layout';
import { ModelMappingError } from '../../model/model-mapping-error';
import { MinHeap } from './min-heap';
import { shortestPathsFrom, type SparseGraph } from './shortest-paths';

/** The island graph: islands, their adjacency lists, lengths = the stored distances. */
export function islandGraph(islands: AswmIslands): SparseGraph {
  const I = islands.count;
  const start = new Int32Array(I + 1);
  for (let i = 0; i <= I; i++) start[i] = islands.adjacentStart[i]!;
  const target = new Int32Array(islands.adjacent);
  const weight = new Float64Array(floatView(islands.distance));
  return { nodeCount: I, start, target, weight };
}

/**
 * The island path nodes as the toolset bakes them (spec §5.9): for every ordered pair
 * (from, to), `next` = the first hop of a shortest path over the island graph weighted by
 * the centre distances, and `weight` = the distance from `from` to `next` (the length of
 * that first arc, not the total). Self and unreachable pairs: next 0xFFFF, weight 0.
 * Padding is garbage in toolset files: `previousPadding` is kept when it has the same
 * shape (the island count did not change), else 0; self and unreachable entries get 0.
 *
 * One Dijkstra per island (binary heap over the sparse adjacency): O(I · A log I) for I
 * islands and A adjacency entries, plus the I² table itself. Throws ModelMappingError when
 * that table would not fit the 128 MiB a walkmesh may take (Skywing's limit), i.e. beyond
 * 4,096 islands.
 */
export function bakeIslandPaths(islands: AswmIslands, previousPadding: Uint16Array): AswmIslandPaths & { reachablePairs: number } {
  const I = islands.count;
  if (I * I * ISLAND_PATH_NODE_BYTES > MAX_ASWM_BYTES) {
    throw new ModelMappingError(
      `the walkmesh has ${I} islands; their path table (8 bytes per pair of islands) would be larger than the 128 MiB the game reads: paint unreachable ground unwalkable or join islands`,
    );
  }
  let reachablePairs = 0;
  const g = islandGraph(islands);
  const next = new Uint16Array(I * I).fill(NONE16);
  const padding = new Uint16Array(I * I);
  const weight = new Uint32Array(I * I);
  const keepPadding = previousPadding.length === I * I;
  const heap = new MinHeap(Math.max(16, g.target.length + 1));
  const dist = new Float64Array(I);
  const first = new Int32Array(I);
  const firstArc = new Int32Array(I);
  const distanceBits = islands.distance;
  for (let i = 0; i < I; i++) {
    shortestPathsFrom(g, i, heap, dist, first, firstArc);
    const row = i * I;
    for (let j = 0; j < I; j++) {
      const hop = first[j]!;
      if (hop < 0) continue;
      reachablePairs++;
      next[row + j] = hop;
      weight[row + j] = distanceBits[firstArc[j]!]!;
      if (keepPadding) padding[row + j] = previousPadding[row + j]!;
    }
  }
  return { next, padding, weight, reachablePairs };
}
