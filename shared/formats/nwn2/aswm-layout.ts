import type { AswmVersion } from './aswm-document';

/** Record sizes of each ASWM version (spec §3.2, §3.3), in bytes. */
export const ASWM_HEADER_BYTES = 53;
export const VERTEX_BYTES = 12;
export const TILES_HEADER_BYTES = 16;
export const TILE_HEADER_BYTES = 57;
export const TILE_FLAGS_BYTES = 4;
export const ISLAND_HEADER_BYTES = 24;
/** Island header plus its three list counts. */
export const MIN_ISLAND_BYTES = ISLAND_HEADER_BYTES + 12;
export const ISLAND_PATH_NODE_BYTES = 8;

export function edgeBytes(v: AswmVersion): number {
  return v === 0x69 ? 52 : 16;
}

export function triangleBytes(v: AswmVersion): number {
  return v === 0x69 ? 88 : v === 0x6a ? 68 : 64;
}

/** 13 bytes with a u32 local count in 0x6C, 10 with a u8 local count before. */
export function pathHeaderBytes(v: AswmVersion): number {
  return v === 0x6c ? 13 : 10;
}

/** Width of one node_to_local entry: u32 in 0x6C, u8 in 0x6B, absent before. */
export function nodeToLocalEntryBytes(v: AswmVersion): number {
  return v === 0x6c ? 4 : v === 0x6b ? 1 : 0;
}

/** Largest local count the version's path-table header can hold. */
export function maxLocalCount(v: AswmVersion): number {
  return v === 0x6c ? 0xffffffff : 0xff;
}

/** The smallest a tile can be on disk (header, path-table header, trailing flags). */
export function minTileBytes(v: AswmVersion): number {
  return TILE_HEADER_BYTES + pathHeaderBytes(v) + TILE_FLAGS_BYTES;
}

export function hex(v: number, digits = 0): string {
  return `0x${(v >>> 0).toString(16).toUpperCase().padStart(digits, '0')}`;
}
