import { ModelMappingError } from '../../model/model-mapping-error';
import { floatsOfBits, requireFinite, requireFiniteVertices } from '../non-finite-geometry';
import { ASWM_CURRENT_VERSION, type AswmDocument, type AswmTiles } from '../../formats/nwn2/aswm-document';
import { aswmPacketOf, type TrxDocument } from '../../formats/nwn2/trx-document';
import { convertAswmVersion } from '../../formats/nwn2/aswm-version';
import { bakeEdges } from './bake-edges';
import { bakeIslandPaths } from './bake-island-paths';
import { bakeIslands } from './bake-islands';
import { bakeMeshOf } from './bake-mesh';
import { bakeTilePaths } from './bake-tile-paths';
import { markLineOfSight } from './line-of-sight';
import { cacheOf, copyReusedTables, reusableTiles, tileSignatures, type TileTableCache } from './tile-table-reuse';
import { triangleCentres } from './triangle-centres';

/** performance.now where the platform has it (every runtime Walkbench runs in does). */
const platformClock = (globalThis as { performance?: { now(): number } }).performance;
const defaultClock = platformClock ? () => platformClock.now() : () => Date.now();

/** Milliseconds spent in each step of a bake. */
export interface BakeTimings {
  edges: number;
  tilePaths: number;
  lineOfSight: number;
  islands: number;
  islandPaths: number;
  total: number;
}

export interface BakeCounts {
  triangles: number;
  walkableTriangles: number;
  edges: number;
  tiles: number;
  /** Ordered (from, to) node pairs of all path tables, from ≠ to. */
  tilePairs: number;
  reachableTilePairs: number;
  lineOfSightPairs: number;
  islands: number;
  reachableIslandPairs: number;
  /** Vertex pairs shared by three or more triangles, and how many kept the file's pairing. */
  crowdedEdgePairs: number;
  crowdedEdgePairsKept: number;
  /** Tiles whose path table came from `BakeOptions.tileCache` instead of being computed. */
  reusedTiles: number;
}

export interface BakeOptions {
  /** Set the line-of-sight bits (default true); false leaves them all 0, which is always safe. */
  lineOfSight?: boolean;
  /** A clock in milliseconds (default performance.now). */
  now?: () => number;
  /**
   * The tables of an earlier bake of the same area: tiles whose inputs are unchanged take
   * their path table and line-of-sight bits from it (tile-table-reuse.ts) instead of being
   * baked again. The result is the same bytes either way.
   */
  tileCache?: TileTableCache;
  /** Also return this bake's tables as a cache for the next one. */
  keepTileCache?: boolean;
}

export interface BakeResult {
  aswm: AswmDocument;
  /** With `keepTileCache`: this bake's tables, for the next bake of the area. */
  tileCache?: TileTableCache;
  timings: BakeTimings;
  counts: BakeCounts;
}

/**
 * Re-bakes an ASWM walkmesh from its own mesh (spec §5.6–§5.9): edges and links
 * (bake-edges.ts), centres, the per-tile path tables (bake-tile-paths.ts) with
 * line-of-sight bits (line-of-sight.ts), the islands (bake-islands.ts) and the island
 * path nodes (bake-island-paths.ts). The vertices, the triangles (order, corners, flags,
 * normals, dot values), the tile grouping and headers and every garbage field are kept,
 * so a re-bake of an unedited toolset TRX reproduces it byte for byte except for the
 * line-of-sight bits and the garbage of self and unreachable island pairs (checked on
 * every fixture). The result is ASWM version 0x6C with `bakeStale` clear; it shares the
 * arrays it keeps with the input (documents are never edited in place: edits clone).
 *
 * Every step is linear in the triangles, except the island path table, which has one
 * entry per pair of islands (its Dijkstra runs are O(I · A log I)).
 *
 * Throws ModelMappingError when the mesh cannot be baked: a vertex, triangle normal or plane
 * offset that is not a finite number (non-finite-geometry.ts), a triangle using a vertex twice
 * or one that does not exist, tiles claiming the same triangle, a tile with more than 127
 * walkable triangles, or more than 4,096 islands (their table would pass the 128 MiB a
 * walkmesh may take).
 */
export function rebakeAswm(input: AswmDocument, options: BakeOptions = {}): BakeResult {
  const now = options.now ?? defaultClock;
  const t0 = now();
  const a = input.version === ASWM_CURRENT_VERSION ? input : convertAswmVersion(input, ASWM_CURRENT_VERSION);
  const V = a.vertices.length / 3;
  requireFiniteVertices(floatsOfBits(a.vertices), 'the walkmesh');
  requireFinite(floatsOfBits(a.triNormal), 3, 'the walkmesh', 'triangle', 'has the stored normal');
  requireFinite(floatsOfBits(a.triDot), 1, 'the walkmesh', 'triangle', 'has the stored plane offset');
  for (let i = 0; i < a.triVertices.length; i++) {
    if (a.triVertices[i]! >= V) throw new ModelMappingError(`triangle ${(i / 3) | 0} uses vertex ${a.triVertices[i]} but there are ${V} vertices`);
  }
  const e = bakeEdges(a.triVertices, V, a.edges);
  const triCentre = triangleCentres(a.vertices, a.triVertices);
  const mesh = bakeMeshOf(a, e.triLinks, triCentre);
  const lineOfSight = options.lineOfSight !== false;
  const grid = { gridWidth: a.gridWidth, gridHeight: a.gridHeight, lineOfSight };
  const signed = options.tileCache || options.keepTileCache ? tileSignatures(mesh, a.vertices, a.triVertices, e.triEdges, e.edges) : undefined;
  const reuse = signed && options.tileCache ? reusableTiles(options.tileCache, grid, signed.signatureStart, signed.signatures) : undefined;
  const t1 = now();
  const paths = bakeTilePaths(mesh, a, reuse);
  const reused = reuse && options.tileCache ? copyReusedTables(reuse, options.tileCache, paths) : { reachablePairs: 0, lineOfSightPairs: 0 };
  paths.reachablePairs += reused.reachablePairs;
  const t2 = now();
  const lineOfSightPairs = (lineOfSight ? markLineOfSight(mesh, paths, a.vertices, a.triVertices, e.triEdges, e.edges, reuse) : 0) + reused.lineOfSightPairs;
  const t3 = now();
  const isl = bakeIslands(mesh, a.islands.tile);
  const t4 = now();
  const islandPaths = bakeIslandPaths(isl.islands, a.islandPaths.padding);
  const t5 = now();

  const tiles: AswmTiles = {
    ...a.tiles,
    pathFlags: new Uint32Array(a.tiles.count),
    rleSize: new Uint32Array(a.tiles.count),
    nodeCount: paths.nodeCount,
    localToNodeStart: paths.localToNodeStart,
    localToNode: paths.localToNode,
    nodeToLocalStart: paths.nodeToLocalStart,
    nodeToLocal: paths.nodeToLocal,
    nodesStart: paths.nodesStart,
    nodes: paths.nodes,
  };
  const aswm: AswmDocument = {
    ...a,
    edges: e.edges,
    edgeReserved: new Uint32Array(0),
    triEdges: e.triEdges,
    triLinks: e.triLinks,
    triCentre,
    triIsland: isl.triIsland,
    tiles,
    islands: isl.islands,
    islandPaths: { next: islandPaths.next, padding: islandPaths.padding, weight: islandPaths.weight },
    bakeStale: false,
  };

  let tilePairs = 0;
  for (let k = 0; k < tiles.count; k++) {
    const n = paths.nodeCount[k]!;
    tilePairs += n * (n - 1);
  }
  let walkableTriangles = 0;
  for (let t = 0; t < mesh.triangleCount; t++) walkableTriangles += mesh.walkable[t]!;
  let reusedTiles = 0;
  if (reuse) for (let k = 0; k < reuse.length; k++) reusedTiles += reuse[k]!;
  return {
    aswm,
    ...(options.keepTileCache && signed ? { tileCache: cacheOf(grid, signed.signatureStart, signed.signatures, paths) } : {}),
    timings: { edges: t1 - t0, tilePaths: t2 - t1, lineOfSight: t3 - t2, islands: t4 - t3, islandPaths: t5 - t4, total: t5 - t0 },
    counts: {
      triangles: mesh.triangleCount,
      walkableTriangles,
      edges: e.edges.length / 4,
      tiles: tiles.count,
      tilePairs,
      reachableTilePairs: paths.reachablePairs,
      lineOfSightPairs,
      islands: isl.islands.count,
      reachableIslandPairs: islandPaths.reachablePairs,
      crowdedEdgePairs: e.crowdedPairs,
      crowdedEdgePairsKept: e.crowdedPairsKept,
      reusedTiles,
    },
  };
}

/**
 * Re-bakes the walkmesh of a TRN/TRX document (rebakeAswm); every other packet is kept.
 * Throws ModelMappingError when the document has no walkmesh or it cannot be baked.
 */
export function rebakeTrx(doc: TrxDocument, options: BakeOptions = {}): BakeResult & { document: TrxDocument } {
  const packet = aswmPacketOf(doc);
  if (!packet) throw new ModelMappingError('the file has no ASWM walkmesh packet to bake');
  const result = rebakeAswm(packet.aswm, options);
  const document: TrxDocument = { ...doc, packets: doc.packets.map((p) => (p === packet ? { ...packet, aswm: result.aswm } : p)) };
  return { ...result, document };
}
