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
  TILE_HEADER_BYTES,
  triangleBytes,
  VERTEX_BYTES,
} from './aswm-layout';
import { readU32s, readU32sInto } from './le-words';

export const ASWM_FORMAT = 'nwn2-aswm';

/**
 * Parses a decompressed ASWM payload of version 0x69–0x6C (spec §3). Every count is checked
 * against the bytes left before anything is allocated from it; offsets in the thrown
 * MalformedInputError are positions in `data` (the caller maps them to the file).
 *
 * Nothing is validated beyond what parsing needs (a bad index is a validation finding, not
 * a read error), except compressed path tables, whose layout nobody knows.
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

  for (let t = 0; t < count; t++) {
    const tile = `tile #${t}`;
    r.need(TILE_HEADER_BYTES, `${tile} header`);
    name.set(data.subarray(r.offset, r.offset + 32), t * 32);
    r.offset += 32;
    ownsData[t] = r.u8(`${tile} owns_data`);
    vertexCount[t] = r.u32(`${tile} vertices_count`);
    edgeCount[t] = r.u32(`${tile} edges_count`);
    triangleCount[t] = r.u32(`${tile} triangles_count`);
    sizeX[t] = r.u32(`${tile} size_x`);
    sizeY[t] = r.u32(`${tile} size_y`);
    triangleOffset[t] = r.u32(`${tile} triangles_offset`);

    let owned = 0;
    if (ownsData[t] !== 0) {
      owned = vertexCount[t]! * 12 + edgeCount[t]! * eBytes;
      ownedAt[t] = r.offset;
      r.need(owned, `${tile} own vertices and edges (owns_data is set)`);
      r.offset += owned;
    }
    ownedDataStart[t + 1] = ownedDataStart[t]! + owned;

    const headerAt = r.offset;
    const pflags = r.u32(`${tile} path_table.flags`);
    if (pflags & (PATH_TABLE_RLE | PATH_TABLE_ZCOMPRESS)) {
      throw r.error(`${tile} path_table.flags`, 'no RLE (0x1) or zcompress (0x2) bit: compressed path tables are not supported', hex(pflags), headerAt);
    }
    pathFlags[t] = pflags;
    const localCount = version === 0x6c ? r.u32(`${tile} path_table.local_count`) : r.u8(`${tile} path_table.local_count`);
    const n = r.u8(`${tile} path_table.node_count`);
    nodeCount[t] = n;
    rleSize[t] = r.u32(`${tile} path_table.rle_table_size`);

    ltnAt[t] = r.offset;
    r.checkCount(localCount, 1, `${tile} path_table.local_count`, headerAt + 4);
    r.offset += localCount;
    localToNodeStart[t + 1] = localToNodeStart[t]! + localCount;

    ntlAt[t] = r.offset;
    r.need(n * ntlBytes, `${tile} path_table.node_to_local (${n} entries)`);
    r.offset += n * ntlBytes;
    nodeToLocalStart[t + 1] = nodeToLocalStart[t]! + (ntlBytes > 0 ? n : 0);

    nodesAt[t] = r.offset;
    r.need(n * n, `${tile} path_table.nodes (${n}² entries)`);
    r.offset += n * n;
    nodesStart[t + 1] = nodesStart[t]! + n * n;

    flags[t] = r.u32(`${tile} path_table.flags (after the tables)`);
  }

  const ownedData = new Uint8Array(ownedDataStart[count]!);
  const localToNode = new Uint8Array(localToNodeStart[count]!);
  const nodeToLocal = new Uint32Array(nodeToLocalStart[count]!);
  const nodes = new Uint8Array(nodesStart[count]!);
  for (let t = 0; t < count; t++) {
    const owned = ownedDataStart[t + 1]! - ownedDataStart[t]!;
    if (owned > 0) ownedData.set(data.subarray(ownedAt[t]!, ownedAt[t]! + owned), ownedDataStart[t]!);
    const l = localToNodeStart[t]!;
    localToNode.set(data.subarray(ltnAt[t]!, ltnAt[t]! + localToNodeStart[t + 1]! - l), l);
    const n = nodeCount[t]!;
    const k = nodeToLocalStart[t]!;
    if (ntlBytes === 4) readU32sInto(data, ntlAt[t]!, n, nodeToLocal, k);
    else if (ntlBytes === 1) for (let i = 0; i < n; i++) nodeToLocal[k + i] = dv.getUint8(ntlAt[t]! + i);
    nodes.set(data.subarray(nodesAt[t]!, nodesAt[t]! + n * n), nodesStart[t]!);
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

  for (let i = 0; i < count; i++) {
    const island = `island #${i}`;
    index[i] = r.u32(`${island} index`);
    tile[i] = r.u32(`${island} tile`);
    r.need(12, `${island} centre`);
    readU32sInto(data, r.offset, 3, centre, i * 3);
    r.offset += 12;
    triangleCount[i] = r.u32(`${island} triangles_count`);

    const nAdj = r.checkCount(r.u32(`${island} adjacent_islands.count`), 4, `${island} adjacent_islands.count`);
    adjAt[i] = r.offset;
    r.offset += nAdj * 4;
    adjacentStart[i + 1] = adjacentStart[i]! + nAdj;

    const nDist = r.checkCount(r.u32(`${island} adjacent_islands_dist.count`), 4, `${island} adjacent_islands_dist.count`);
    distAt[i] = r.offset;
    r.offset += nDist * 4;
    distanceStart[i + 1] = distanceStart[i]! + nDist;

    const nExit = r.checkCount(r.u32(`${island} exit_triangles.count`), 4, `${island} exit_triangles.count`);
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
