import type { ReadMemoryBound } from '../../binary/read-budget';
import { BinaryReader } from '../../binary/binary-reader';
import {
  edgeReservedWords,
  isAswmVersion,
  PATH_TABLE_RLE,
  PATH_TABLE_ZCOMPRESS,
  triangleReservedWords,
  type AswmDocument,
  type AswmIslandPaths,
  type AswmIslands,
  type AswmTiles,
  type AswmVersion,
} from './aswm-document';
import {
  ASWM_HEADER_BYTES,
  edgeBytes,
  hex,
  ISLAND_PATH_NODE_BYTES,
  MIN_ISLAND_BYTES,
  minTileBytes,
  nodeToLocalEntryBytes,
  pathHeaderBytes,
  TILE_HEADER_BYTES,
  triangleBytes,
  VERTEX_BYTES,
} from './aswm-layout';
import { readU32s, readU32sInto } from './le-words';

export const ASWM_FORMAT = 'nwn2-aswm';

/** readAswm's memory bound (see ReadMemoryBound). */
export const ASWM_READ_MEMORY: ReadMemoryBound = { perInputByte: 4, perDecompressedByte: 0 };

/**
 * Parses a decompressed ASWM payload of version 0x69–0x6C (spec §3). Every count is checked
 * against the bytes left before anything is allocated from it; offsets in the thrown
 * MalformedInputError are positions in `data` (the caller maps them to the file).
 *
 * Nothing is validated beyond what parsing needs (a bad index is a validation finding, not
 * a read error), except compressed path tables, whose layout nobody knows.
 *
 * Memory bound (ASWM_READ_MEMORY): every column is sized by a count whose records were
 * checked to be in `data`, and each record's columns take at most the record's bytes,
 * except tiles (about 1.5× their 71-byte minimum) and 0x6B node-to-local entries (a byte
 * each, kept as u32); no field name or view is made per record: at most 4 bytes per input
 * byte, the copy of the trailing bytes included (about 1.1 measured).
 */
export function readAswm(data: Uint8Array): AswmDocument {
  const r = new BinaryReader(data, ASWM_FORMAT);
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);

  const version = r.u32('header.version');
  if (!isAswmVersion(version)) throw r.error('header.version', '0x69, 0x6A, 0x6B or 0x6C', hex(version), 0);
  r.need(ASWM_HEADER_BYTES - 4, 'header');
  const name = r.bytesCopy(32, 'header.name');
  const ownsData = r.u8('header.owns_data');
  const vertexCount = r.u32('header.vertices_count');
  const edgeCount = r.u32('header.edges_count');
  const triangleCount = r.u32('header.triangles_count');
  const faceOffset = r.u32('header.face_offset');

  r.checkCount(vertexCount, VERTEX_BYTES, 'header.vertices_count', 37);
  const vertices = readU32s(data, r.offset, vertexCount * 3);
  r.offset += vertexCount * VERTEX_BYTES;

  const eBytes = edgeBytes(version);
  r.checkCount(edgeCount, eBytes, 'header.edges_count', 41);
  const eReserved = edgeReservedWords(version);
  const edges = new Uint32Array(edgeCount * 4);
  const edgeReserved = new Uint32Array(edgeCount * eReserved);
  for (let e = 0, o = r.offset; e < edgeCount; e++, o += eBytes) {
    readU32sInto(data, o, 4, edges, e * 4);
    if (eReserved > 0) readU32sInto(data, o + 16, eReserved, edgeReserved, e * eReserved);
  }
  r.offset += edgeCount * eBytes;

  const tBytes = triangleBytes(version);
  r.checkCount(triangleCount, tBytes, 'header.triangles_count', 45);
  const tri = readTriangles(data, dv, r.offset, triangleCount, version);
  r.offset += triangleCount * tBytes;

  const tilesFlags = r.u32('tiles_header.flags');
  const tileWidth = r.u32('tiles_header.tile_width');
  const gridHeight = r.u32('tiles_header.grid_height');
  const gridWidth = r.u32('tiles_header.grid_width');
  const tileCount = gridWidth * gridHeight;
  r.checkCount(tileCount, minTileBytes(version), 'tiles_header.grid_width × grid_height', r.offset - 8);
  const tiles = readTiles(r, dv, tileCount, version);

  const borderSize = r.u32('border_size');
  const islandCount = r.u32('islands.count');
  r.checkCount(islandCount, MIN_ISLAND_BYTES, 'islands.count');
  const islands = readIslands(r, islandCount);

  const pathCount = islandCount * islandCount;
  r.checkCount(pathCount, ISLAND_PATH_NODE_BYTES, `island_path_nodes (islands.count² = ${pathCount})`, r.offset);
  const islandPaths: AswmIslandPaths = {
    next: new Uint16Array(pathCount),
    padding: new Uint16Array(pathCount),
    weight: new Uint32Array(pathCount),
  };
  for (let i = 0, o = r.offset; i < pathCount; i++, o += 8) {
    islandPaths.next[i] = dv.getUint16(o, true);
    islandPaths.padding[i] = dv.getUint16(o + 2, true);
    islandPaths.weight[i] = dv.getUint32(o + 4, true);
  }
  r.offset += pathCount * ISLAND_PATH_NODE_BYTES;
  const trailing = r.bytesCopy(r.remaining, 'trailing bytes');

  return {
    version,
    name,
    ownsData,
    faceOffset,
    vertices,
    edges,
    edgeReserved,
    ...tri,
    tilesFlags,
    tileWidth,
    gridWidth,
    gridHeight,
    tiles,
    borderSize,
    islands,
    islandPaths,
    trailing,
    bakeStale: false,
  };
}

type TriangleColumns = Pick<
  AswmDocument,
  'triVertices' | 'triEdges' | 'triLinks' | 'triCentre' | 'triNormal' | 'triDot' | 'triIsland' | 'triFlags' | 'triReserved'
>;

function readTriangles(data: Uint8Array, dv: DataView, start: number, n: number, version: AswmVersion): TriangleColumns {
  const c: TriangleColumns = {
    triVertices: new Uint32Array(n * 3),
    triEdges: new Uint32Array(n * 3),
    triLinks: new Uint32Array(n * 3),
    triCentre: new Uint32Array(n * 2),
    triNormal: new Uint32Array(n * 3),
    triDot: new Uint32Array(n),
    triIsland: new Uint16Array(n),
    triFlags: new Uint16Array(n),
    triReserved: new Uint32Array(n * triangleReservedWords(version)),
  };
  const size = triangleBytes(version);
  for (let t = 0, o = start; t < n; t++, o += size) {
    if (version === 0x69) {
      // reserved0, flags (u32), vertices, edges, links, reserved1[3], centre, reserved2,
      // normal, dot, reserved3 (u16), island (u16)
      const res = c.triReserved;
      const k = t * 7;
      res[k] = dv.getUint32(o, true);
      const flags = dv.getUint32(o + 4, true);
      c.triFlags[t] = flags & 0xffff;
      res[k + 1] = flags >>> 16;
      readU32sInto(data, o + 8, 3, c.triVertices, t * 3);
      readU32sInto(data, o + 20, 3, c.triEdges, t * 3);
      readU32sInto(data, o + 32, 3, c.triLinks, t * 3);
      readU32sInto(data, o + 44, 3, res, k + 2);
      readU32sInto(data, o + 56, 2, c.triCentre, t * 2);
      res[k + 5] = dv.getUint32(o + 64, true);
      readU32sInto(data, o + 68, 3, c.triNormal, t * 3);
      c.triDot[t] = dv.getUint32(o + 80, true);
      res[k + 6] = dv.getUint16(o + 84, true);
      c.triIsland[t] = dv.getUint16(o + 86, true);
      continue;
    }
    let p = o;
    if (version === 0x6a) {
      c.triReserved[t] = dv.getUint32(o, true);
      p += 4;
    }
    readU32sInto(data, p, 3, c.triVertices, t * 3);
    readU32sInto(data, p + 12, 3, c.triEdges, t * 3);
    readU32sInto(data, p + 24, 3, c.triLinks, t * 3);
    readU32sInto(data, p + 36, 2, c.triCentre, t * 2);
    readU32sInto(data, p + 44, 3, c.triNormal, t * 3);
    c.triDot[t] = dv.getUint32(p + 56, true);
    c.triIsland[t] = dv.getUint16(p + 60, true);
    c.triFlags[t] = dv.getUint16(p + 62, true);
  }
  return c;
}

/**
 * Two passes: the first walks every tile with bounds checks and records where its
 * variable parts are; the second copies them into arrays allocated at their final size.
 */
function readTiles(r: BinaryReader, dv: DataView, count: number, version: AswmVersion): AswmTiles {
  const data = r.bytes;
  const name = new Uint8Array(count * 32);
  const ownsData = new Uint8Array(count);
  const vertexCount = new Uint32Array(count);
  const edgeCount = new Uint32Array(count);
  const triangleCount = new Uint32Array(count);
  const sizeX = new Uint32Array(count);
  const sizeY = new Uint32Array(count);
  const triangleOffset = new Uint32Array(count);
  const pathFlags = new Uint32Array(count);
  const rleSize = new Uint32Array(count);
  const nodeCount = new Uint8Array(count);
  const flags = new Uint32Array(count);
  const ownedDataStart = new Uint32Array(count + 1);
  const localToNodeStart = new Uint32Array(count + 1);
  const nodeToLocalStart = new Uint32Array(count + 1);
  const nodesStart = new Uint32Array(count + 1);
  // Where each tile's owned data and tables start in `data`.
  const ownedAt = new Uint32Array(count);
  const ltnAt = new Uint32Array(count);
  const ntlAt = new Uint32Array(count);
  const nodesAt = new Uint32Array(count);
  const ntlBytes = nodeToLocalEntryBytes(version);
  const eBytes = edgeBytes(version);

  // Field names are built only when a field is cut short or wrong: a walkmesh has up to
  // thousands of tiles, and ten names per tile would allocate five times the tile's bytes.
  const phb = pathHeaderBytes(version);
  const v6c = version === 0x6c;
  for (let t = 0; t < count; t++) {
    if (r.end - r.offset < TILE_HEADER_BYTES) r.need(TILE_HEADER_BYTES, `tile #${t} header`);
    const o = r.offset;
    for (let i = 0; i < 32; i++) name[t * 32 + i] = data[o + i]!;
    ownsData[t] = data[o + 32]!;
    vertexCount[t] = dv.getUint32(o + 33, true);
    edgeCount[t] = dv.getUint32(o + 37, true);
    triangleCount[t] = dv.getUint32(o + 41, true);
    sizeX[t] = dv.getUint32(o + 45, true);
    sizeY[t] = dv.getUint32(o + 49, true);
    triangleOffset[t] = dv.getUint32(o + 53, true);
    r.offset = o + TILE_HEADER_BYTES;

    let owned = 0;
    if (ownsData[t] !== 0) {
      owned = vertexCount[t]! * 12 + edgeCount[t]! * eBytes;
      ownedAt[t] = r.offset;
      if (owned > r.end - r.offset) r.need(owned, `tile #${t} own vertices and edges (owns_data is set)`);
      r.offset += owned;
    }
    ownedDataStart[t + 1] = ownedDataStart[t]! + owned;

    const headerAt = r.offset;
    let pflags: number, localCount: number, n: number;
    if (r.end - headerAt >= phb) {
      pflags = dv.getUint32(headerAt, true);
      localCount = v6c ? dv.getUint32(headerAt + 4, true) : data[headerAt + 4]!;
      n = data[headerAt + (v6c ? 8 : 5)]!;
      rleSize[t] = dv.getUint32(headerAt + (v6c ? 9 : 6), true);
      r.offset = headerAt + phb;
    } else {
      // Cut short: read field by field, so that the error names the field that is missing.
      const tile = `tile #${t}`;
      pflags = r.u32(`${tile} path_table.flags`);
      localCount = v6c ? r.u32(`${tile} path_table.local_count`) : r.u8(`${tile} path_table.local_count`);
      n = r.u8(`${tile} path_table.node_count`);
      rleSize[t] = r.u32(`${tile} path_table.rle_table_size`);
    }
    if (pflags & (PATH_TABLE_RLE | PATH_TABLE_ZCOMPRESS)) {
      throw r.error(`tile #${t} path_table.flags`, 'no RLE (0x1) or zcompress (0x2) bit: compressed path tables are not supported', hex(pflags), headerAt);
    }
    pathFlags[t] = pflags;
    nodeCount[t] = n;

    ltnAt[t] = r.offset;
    if (localCount > r.end - r.offset) r.checkCount(localCount, 1, `tile #${t} path_table.local_count`, headerAt + 4);
    r.offset += localCount;
    localToNodeStart[t + 1] = localToNodeStart[t]! + localCount;

    ntlAt[t] = r.offset;
    if (n * ntlBytes > r.end - r.offset) r.need(n * ntlBytes, `tile #${t} path_table.node_to_local (${n} entries)`);
    r.offset += n * ntlBytes;
    nodeToLocalStart[t + 1] = nodeToLocalStart[t]! + (ntlBytes > 0 ? n : 0);

    nodesAt[t] = r.offset;
    if (n * n > r.end - r.offset) r.need(n * n, `tile #${t} path_table.nodes (${n}² entries)`);
    r.offset += n * n;
    nodesStart[t + 1] = nodesStart[t]! + n * n;

    if (r.end - r.offset < 4) r.need(4, `tile #${t} path_table.flags (after the tables)`);
    flags[t] = dv.getUint32(r.offset, true);
    r.offset += 4;
  }

  const ownedData = new Uint8Array(ownedDataStart[count]!);
  const localToNode = new Uint8Array(localToNodeStart[count]!);
  const nodeToLocal = new Uint32Array(nodeToLocalStart[count]!);
  const nodes = new Uint8Array(nodesStart[count]!);
  for (let t = 0; t < count; t++) {
    const owned = ownedDataStart[t + 1]! - ownedDataStart[t]!;
    if (owned > 0) copyBytes(ownedData, ownedDataStart[t]!, data, ownedAt[t]!, owned);
    const l = localToNodeStart[t]!;
    copyBytes(localToNode, l, data, ltnAt[t]!, localToNodeStart[t + 1]! - l);
    const n = nodeCount[t]!;
    const k = nodeToLocalStart[t]!;
    if (ntlBytes === 4) readU32sInto(data, ntlAt[t]!, n, nodeToLocal, k);
    else if (ntlBytes === 1) for (let i = 0; i < n; i++) nodeToLocal[k + i] = dv.getUint8(ntlAt[t]! + i);
    copyBytes(nodes, nodesStart[t]!, data, nodesAt[t]!, n * n);
  }

  return {
    count,
    name,
    ownsData,
    vertexCount,
    edgeCount,
    triangleCount,
    sizeX,
    sizeY,
    triangleOffset,
    ownedDataStart,
    ownedData,
    pathFlags,
    rleSize,
    nodeCount,
    localToNodeStart,
    localToNode,
    nodeToLocalStart,
    nodeToLocal,
    nodesStart,
    nodes,
    flags,
  };
}

function readIslands(r: BinaryReader, count: number): AswmIslands {
  const data = r.bytes;
  const index = new Uint32Array(count);
  const tile = new Uint32Array(count);
  const centre = new Uint32Array(count * 3);
  const triangleCount = new Uint32Array(count);
  const adjacentStart = new Uint32Array(count + 1);
  const distanceStart = new Uint32Array(count + 1);
  const exitStart = new Uint32Array(count + 1);
  const adjAt = new Uint32Array(count);
  const distAt = new Uint32Array(count);
  const exitAt = new Uint32Array(count);

  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  // As for tiles: names only for errors. An island's fixed part is 28 bytes (index, tile,
  // centre, triangle count, adjacent count), each list then has its count in front.
  const list = (i: number, name: string): number => {
    if (r.end - r.offset < 4) r.need(4, `baked island ${i} ${name}.count`);
    const n = dv.getUint32(r.offset, true);
    r.offset += 4;
    if (n * 4 > r.end - r.offset) r.checkCount(n, 4, `baked island ${i} ${name}.count`);
    return n;
  };
  for (let i = 0; i < count; i++) {
    if (r.end - r.offset < 24) {
      const island = `baked island ${i}`;
      r.u32(`${island} index`);
      r.u32(`${island} tile`);
      r.need(12, `${island} centre`);
      r.offset += 12;
      r.u32(`${island} triangles_count`);
    }
    const o = r.offset;
    index[i] = dv.getUint32(o, true);
    tile[i] = dv.getUint32(o + 4, true);
    readU32sInto(data, o + 8, 3, centre, i * 3);
    triangleCount[i] = dv.getUint32(o + 20, true);
    r.offset = o + 24;

    const nAdj = list(i, 'adjacent_islands');
    adjAt[i] = r.offset;
    r.offset += nAdj * 4;
    adjacentStart[i + 1] = adjacentStart[i]! + nAdj;

    const nDist = list(i, 'adjacent_islands_dist');
    distAt[i] = r.offset;
    r.offset += nDist * 4;
    distanceStart[i + 1] = distanceStart[i]! + nDist;

    const nExit = list(i, 'exit_triangles');
    exitAt[i] = r.offset;
    r.offset += nExit * 4;
    exitStart[i + 1] = exitStart[i]! + nExit;
  }

  const adjacent = new Uint32Array(adjacentStart[count]!);
  const distance = new Uint32Array(distanceStart[count]!);
  const exit = new Uint32Array(exitStart[count]!);
  for (let i = 0; i < count; i++) {
    readU32sInto(data, adjAt[i]!, adjacentStart[i + 1]! - adjacentStart[i]!, adjacent, adjacentStart[i]!);
    readU32sInto(data, distAt[i]!, distanceStart[i + 1]! - distanceStart[i]!, distance, distanceStart[i]!);
    readU32sInto(data, exitAt[i]!, exitStart[i + 1]! - exitStart[i]!, exit, exitStart[i]!);
  }
  return { count, index, tile, centre, triangleCount, adjacentStart, adjacent, distanceStart, distance, exitStart, exit };
}

/** Copies `n` bytes; short runs byte by byte (no view is allocated per tile). */
function copyBytes(to: Uint8Array, toAt: number, from: Uint8Array, fromAt: number, n: number): void {
  if (n >= 256) {
    to.set(from.subarray(fromAt, fromAt + n), toAt);
    return;
  }
  for (let i = 0; i < n; i++) to[toAt + i] = from[fromAt + i]!;
}
