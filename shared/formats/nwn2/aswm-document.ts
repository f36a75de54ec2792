/**
 * The ASWM walkmesh packet of a NWN2 TRN/TRX file (spec §3), decompressed, as typed-array
 * columns: one array per field, indexed by vertex, edge, triangle, tile or island, so a
 * 165,888-triangle exterior is a few dozen allocations and never an object per triangle.
 *
 * Floats are kept as their 32-bit patterns (Uint32Array) so that NaN payloads, negative
 * zeros and the toolset's garbage values survive a round trip; `floatView` reads them.
 * Fields the spec calls garbage (names, island `tile`, island-path padding) are kept too,
 * because an unedited file is written back byte for byte.
 */

/** The versions the reader knows (spec §3.2); the toolset writes 0x6C. */
export const ASWM_VERSIONS = [0x69, 0x6a, 0x6b, 0x6c] as const;
export type AswmVersion = (typeof ASWM_VERSIONS)[number];
export const ASWM_CURRENT_VERSION: AswmVersion = 0x6c;

/** "No triangle" / "no edge" in 32-bit index fields. */
export const NONE32 = 0xffffffff;
/** "No island" in the triangle's u16 island field and "unreachable" in island paths. */
export const NONE16 = 0xffff;
/** `local_to_node` value of a triangle that has no node (unwalkable), and the path-table "self or unreachable". */
export const NO_NODE = 0xff;
/** Low 7 bits of a path-table node value: the next node; bit 0x80 is line of sight. */
export const NODE_INDEX_MASK = 0x7f;
export const NODE_LOS_BIT = 0x80;
/** The most walkable triangles a tile can have (the toolset maximum; 0x7F is never a node). */
export const MAX_TILE_NODES = 127;

/** Triangle flag bits (spec §3.5). */
export const TriangleFlag = {
  walkable: 0x01,
  clockwise: 0x04,
  dirt: 0x08,
  grass: 0x10,
  stone: 0x20,
  wood: 0x40,
  carpet: 0x80,
  metal: 0x100,
  swamp: 0x200,
  mud: 0x400,
  leaves: 0x800,
  water: 0x1000,
  puddles: 0x2000,
} as const;
/** Every bit the spec gives a meaning. */
export const KNOWN_TRIANGLE_FLAGS = 0x3ffd;
export const SURFACE_FLAGS = 0x3ff8;

/** Tiles flags the toolset writes (meaning of the bits unknown, spec §4.3). */
export const TILES_FLAGS_TRN = 15;
export const TILES_FLAGS_TRX = 31;

/** Path-table header flag bits (spec §3.6); both readers refuse them. */
export const PATH_TABLE_RLE = 0x1;
export const PATH_TABLE_ZCOMPRESS = 0x2;

export interface AswmTiles {
  /** grid_width · grid_height. */
  count: number;
  /** 32 garbage bytes per tile. */
  name: Uint8Array;
  ownsData: Uint8Array;
  /** Header counts: only approximately the unique counts unless the tile owns data (spec §4.7). */
  vertexCount: Uint32Array;
  edgeCount: Uint32Array;
  triangleCount: Uint32Array;
  /** size_x, size_y as float bits. */
  sizeX: Uint32Array;
  sizeY: Uint32Array;
  triangleOffset: Uint32Array;
  /**
   * The raw vertices and edges stored after the header of a tile whose owns_data is set
   * (in the document's version's edge layout); `ownedDataStart[t]..ownedDataStart[t+1]`.
   */
  ownedDataStart: Uint32Array;
  ownedData: Uint8Array;
  /** Path-table header. */
  pathFlags: Uint32Array;
  rleSize: Uint32Array;
  /** Node count N of the header; nodes[] has N² entries. For v ≥ 0x6B also node_to_local's length. */
  nodeCount: Uint8Array;
  /** local_to_node of tile t: localToNode[localToNodeStart[t] .. localToNodeStart[t+1]]. */
  localToNodeStart: Uint32Array;
  localToNode: Uint8Array;
  /** node_to_local (absent before 0x6B: every tile's range is empty). */
  nodeToLocalStart: Uint32Array;
  nodeToLocal: Uint32Array;
  /** nodes (N² per tile, row = from node, column = destination node). */
  nodesStart: Uint32Array;
  nodes: Uint8Array;
  /** The u32 after each path table (repeats the tiles-header flags in toolset files). */
  flags: Uint32Array;
}

export interface AswmIslands {
  count: number;
  index: Uint32Array;
  /** Garbage (uninitialised memory in toolset files), kept for the round trip. */
  tile: Uint32Array;
  /** x, y, z float bits per island. */
  centre: Uint32Array;
  triangleCount: Uint32Array;
  adjacentStart: Uint32Array;
  adjacent: Uint32Array;
  distanceStart: Uint32Array;
  /** Float bits. */
  distance: Uint32Array;
  exitStart: Uint32Array;
  exit: Uint32Array;
}

export interface AswmIslandPaths {
  /** count² entries, (from, to) at from · count + to. */
  next: Uint16Array;
  /** Garbage, kept. */
  padding: Uint16Array;
  /** Float bits (garbage for self and unreachable pairs). */
  weight: Uint32Array;
}

export interface AswmDocument {
  version: AswmVersion;
  /** 32 garbage bytes. */
  name: Uint8Array;
  ownsData: number;
  /** The header's last u32 (Skywing "FaceOffset", nwn-lib-d `unknownB`); 0 in every toolset file. */
  faceOffset: number;

  /** x, y, z float bits per vertex. */
  vertices: Uint32Array;
  /** v0, v1, t0, t1 per edge. */
  edges: Uint32Array;
  /** Version 0x69 only: the 9 reserved u32 of each edge; empty otherwise. */
  edgeReserved: Uint32Array;

  triVertices: Uint32Array;
  triEdges: Uint32Array;
  triLinks: Uint32Array;
  /** x, y float bits. */
  triCentre: Uint32Array;
  /** x, y, z float bits. */
  triNormal: Uint32Array;
  /** Float bits. */
  triDot: Uint32Array;
  triIsland: Uint16Array;
  triFlags: Uint16Array;
  /**
   * Reserved words of the older triangle layouts (empty for 0x6B and 0x6C): 0x6A keeps 1 per
   * triangle; 0x69 keeps 7: reserved0, the flags' high 16 bits, reserved1[3], reserved2,
   * reserved3 (a u16).
   */
  triReserved: Uint32Array;

  tilesFlags: number;
  /** Float bits. */
  tileWidth: number;
  gridWidth: number;
  gridHeight: number;
  tiles: AswmTiles;
  borderSize: number;
  islands: AswmIslands;
  islandPaths: AswmIslandPaths;
  /** Bytes after the island path nodes (none in any toolset file). */
  trailing: Uint8Array;
  /**
   * True when the geometry was edited and the baked tables (tile path tables, islands,
   * island paths) were emptied: the area must be baked again. Not stored in the file.
   */
  bakeStale: boolean;
}

/** Reserved u32 per triangle in each version. */
export function triangleReservedWords(version: AswmVersion): number {
  return version === 0x69 ? 7 : version === 0x6a ? 1 : 0;
}

export function edgeReservedWords(version: AswmVersion): number {
  return version === 0x69 ? 9 : 0;
}

export function isAswmVersion(v: number): v is AswmVersion {
  return v === 0x69 || v === 0x6a || v === 0x6b || v === 0x6c;
}

export function vertexCountOf(a: AswmDocument): number {
  return a.vertices.length / 3;
}

export function edgeCountOf(a: AswmDocument): number {
  return a.edges.length / 4;
}

export function triangleCountOf(a: AswmDocument): number {
  return a.triFlags.length;
}

/** A Float32Array over the same bits (no copy). */
export function floatView(words: Uint32Array): Float32Array {
  return new Float32Array(words.buffer, words.byteOffset, words.length);
}

const bitsScratch = new Float32Array(1);
const bitsScratchWords = new Uint32Array(bitsScratch.buffer);

export function floatOfBits(bits: number): number {
  bitsScratchWords[0] = bits;
  return bitsScratch[0]!;
}

export function bitsOfFloat(value: number): number {
  bitsScratch[0] = value;
  return bitsScratchWords[0]!;
}

/** Tiles with empty path tables and no owned data: the shape of an unbaked tile grid. */
export function emptyTiles(count: number): AswmTiles {
  return {
    count,
    name: new Uint8Array(count * 32),
    ownsData: new Uint8Array(count),
    vertexCount: new Uint32Array(count),
    edgeCount: new Uint32Array(count),
    triangleCount: new Uint32Array(count),
    sizeX: new Uint32Array(count),
    sizeY: new Uint32Array(count),
    triangleOffset: new Uint32Array(count),
    ownedDataStart: new Uint32Array(count + 1),
    ownedData: new Uint8Array(0),
    pathFlags: new Uint32Array(count),
    rleSize: new Uint32Array(count),
    nodeCount: new Uint8Array(count),
    localToNodeStart: new Uint32Array(count + 1),
    localToNode: new Uint8Array(0),
    nodeToLocalStart: new Uint32Array(count + 1),
    nodeToLocal: new Uint32Array(0),
    nodesStart: new Uint32Array(count + 1),
    nodes: new Uint8Array(0),
    flags: new Uint32Array(count),
  };
}

export function emptyIslands(): AswmIslands {
  return {
    count: 0,
    index: new Uint32Array(0),
    tile: new Uint32Array(0),
    centre: new Uint32Array(0),
    triangleCount: new Uint32Array(0),
    adjacentStart: new Uint32Array(1),
    adjacent: new Uint32Array(0),
    distanceStart: new Uint32Array(1),
    distance: new Uint32Array(0),
    exitStart: new Uint32Array(1),
    exit: new Uint32Array(0),
  };
}

export function emptyIslandPaths(): AswmIslandPaths {
  return { next: new Uint16Array(0), padding: new Uint16Array(0), weight: new Uint32Array(0) };
}

/** A deep copy (every typed array copied), so an edit never reaches the document it came from. */
export function cloneAswm(a: AswmDocument): AswmDocument {
  const t = a.tiles;
  const i = a.islands;
  return {
    ...a,
    name: a.name.slice(),
    vertices: a.vertices.slice(),
    edges: a.edges.slice(),
    edgeReserved: a.edgeReserved.slice(),
    triVertices: a.triVertices.slice(),
    triEdges: a.triEdges.slice(),
    triLinks: a.triLinks.slice(),
    triCentre: a.triCentre.slice(),
    triNormal: a.triNormal.slice(),
    triDot: a.triDot.slice(),
    triIsland: a.triIsland.slice(),
    triFlags: a.triFlags.slice(),
    triReserved: a.triReserved.slice(),
    tiles: {
      count: t.count,
      name: t.name.slice(),
      ownsData: t.ownsData.slice(),
      vertexCount: t.vertexCount.slice(),
      edgeCount: t.edgeCount.slice(),
      triangleCount: t.triangleCount.slice(),
      sizeX: t.sizeX.slice(),
      sizeY: t.sizeY.slice(),
      triangleOffset: t.triangleOffset.slice(),
      ownedDataStart: t.ownedDataStart.slice(),
      ownedData: t.ownedData.slice(),
      pathFlags: t.pathFlags.slice(),
      rleSize: t.rleSize.slice(),
      nodeCount: t.nodeCount.slice(),
      localToNodeStart: t.localToNodeStart.slice(),
      localToNode: t.localToNode.slice(),
      nodeToLocalStart: t.nodeToLocalStart.slice(),
      nodeToLocal: t.nodeToLocal.slice(),
      nodesStart: t.nodesStart.slice(),
      nodes: t.nodes.slice(),
      flags: t.flags.slice(),
    },
    islands: {
      count: i.count,
      index: i.index.slice(),
      tile: i.tile.slice(),
      centre: i.centre.slice(),
      triangleCount: i.triangleCount.slice(),
      adjacentStart: i.adjacentStart.slice(),
      adjacent: i.adjacent.slice(),
      distanceStart: i.distanceStart.slice(),
      distance: i.distance.slice(),
      exitStart: i.exitStart.slice(),
      exit: i.exit.slice(),
    },
    islandPaths: { next: a.islandPaths.next.slice(), padding: a.islandPaths.padding.slice(), weight: a.islandPaths.weight.slice() },
    trailing: a.trailing.slice(),
  };
}

export interface UnbakedAswmInit {
  /** x, y, z float bits per vertex. */
  vertices: Uint32Array;
  triVertices: Uint32Array;
  triFlags: Uint16Array;
  tilesFlags: number;
  tileWidth: number;
  gridWidth: number;
  gridHeight: number;
  borderSize: number;
}

/**
 * A version-0x6C walkmesh holding only geometry and flags: edges, links, centres, normals,
 * tiles and every baked table empty (`bakeStale`), for `rebuildTopology` and the bakers.
 */
export function unbakedAswm(init: UnbakedAswmInit): AswmDocument {
  const T = init.triFlags.length;
  return {
    version: ASWM_CURRENT_VERSION,
    name: new Uint8Array(32),
    ownsData: 1,
    faceOffset: 0,
    vertices: init.vertices,
    edges: new Uint32Array(0),
    edgeReserved: new Uint32Array(0),
    triVertices: init.triVertices,
    triEdges: new Uint32Array(T * 3),
    triLinks: new Uint32Array(T * 3),
    triCentre: new Uint32Array(T * 2),
    triNormal: new Uint32Array(T * 3),
    triDot: new Uint32Array(T),
    triIsland: new Uint16Array(T),
    triFlags: init.triFlags,
    triReserved: new Uint32Array(0),
    tilesFlags: init.tilesFlags,
    tileWidth: bitsOfFloat(init.tileWidth),
    gridWidth: init.gridWidth,
    gridHeight: init.gridHeight,
    tiles: emptyTiles(init.gridWidth * init.gridHeight),
    borderSize: init.borderSize,
    islands: emptyIslands(),
    islandPaths: emptyIslandPaths(),
    trailing: new Uint8Array(0),
    bakeStale: true,
  };
}
