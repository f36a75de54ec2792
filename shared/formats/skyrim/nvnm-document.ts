/**
 * The NVNM subrecord of a Skyrim NAVM (version 12, identical for LE and SE) as typed-array
 * columns. Floats are kept as their u32 bit patterns so they are written back exactly.
 */
export const NVNM_VERSION = 12;
export const PATHING_CELL_HASH = 0xa5e9a03c;
export const PATHING_DOOR_HASH = 0xe48b73f3;

/** Triangle flags (spec §5). */
export const TRI_EDGE_LINK_BITS = [0x1, 0x2, 0x4] as const;
export const TRI_DELETED = 0x8;
export const TRI_PREFERRED = 0x40;
export const TRI_WATER = 0x200;
export const TRI_DOOR = 0x400;
export const TRI_FOUND = 0x800;
/** Cover bits that put a triangle on the cover-triangle list (0x4000 alone does not). */
export const COVER_MASK = 0x3fff;

export interface NvnmDocument {
  version: number;
  pathingCellHash: number;
  /** Parent worldspace FormID; 0 for an interior. */
  worldspace: number;
  /** Cell FormID for an interior, else i16 grid Y in the low half and i16 grid X in the high half. */
  parent: number;
  /** x, y, z bit patterns per vertex. */
  vertices: Uint32Array;
  /** Three vertex indices per triangle. */
  triVertices: Uint16Array;
  /** Per edge (0-1, 1-2, 2-0): neighbour triangle, -1, or an edge-link index when the flag bit is set. */
  triEdges: Int16Array;
  triFlags: Uint16Array;
  triCover: Uint16Array;
  edgeLinkType: Uint32Array;
  edgeLinkNavmesh: Uint32Array;
  edgeLinkTriangle: Int16Array;
  doorTriangle: Int16Array;
  doorHash: Uint32Array;
  doorRef: Uint32Array;
  coverTriangles: Int16Array;
  gridDivisor: number;
  /** max-distance x, y; min x, y, z; max x, y, z (bit patterns). */
  gridBounds: Uint32Array;
  /** Entries per grid cell, divisor² cells in row-major (Y-major) order. */
  gridCellCounts: Uint32Array;
  /** The cells' triangle indices, concatenated. */
  gridTriangles: Int16Array;
  /** Bytes after the grid (none in CK output), kept so they survive a round trip. */
  trailing: Uint8Array;
}

export function vertexCountOf(n: NvnmDocument): number {
  return n.vertices.length / 3;
}

export function triangleCountOf(n: NvnmDocument): number {
  return n.triFlags.length;
}

export function isExterior(n: NvnmDocument): boolean {
  return n.worldspace !== 0;
}

/** Grid position of an exterior navmesh (stored Y first, then X). */
export function gridOf(n: NvnmDocument): { x: number; y: number } | undefined {
  if (n.worldspace === 0) return undefined;
  const y = (n.parent << 16) >> 16;
  const x = n.parent >> 16;
  return { x, y };
}
