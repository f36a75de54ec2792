import {
  edgeReservedWords,
  triangleCountOf,
  triangleReservedWords,
  type AswmDocument,
} from './aswm-document';
import {
  ASWM_HEADER_BYTES,
  edgeBytes,
  ISLAND_HEADER_BYTES,
  ISLAND_PATH_NODE_BYTES,
  maxLocalCount,
  nodeToLocalEntryBytes,
  pathHeaderBytes,
  TILE_FLAGS_BYTES,
  TILE_HEADER_BYTES,
  TILES_HEADER_BYTES,
  triangleBytes,
  VERTEX_BYTES,
} from './aswm-layout';
import { writeU32s } from './le-words';

/**
 * The decompressed ASWM payload of a document, in the document's own version (spec §3).
 * The size is computed first so the output is one allocation. Throws RangeError when the
 * document holds something its version cannot store (a u8 count over 255, node_to_local
 * of the wrong length); readAswm never produces such a document.
 */
export function writeAswm(a: AswmDocument): Uint8Array {
  checkWritable(a);
  const v = a.version;
  const T = triangleCountOf(a);
  const V = a.vertices.length / 3;
  const E = a.edges.length / 4;
  const tiles = a.tiles;
  const islands = a.islands;
  const ntlBytes = nodeToLocalEntryBytes(v);

  let size = ASWM_HEADER_BYTES + V * VERTEX_BYTES + E * edgeBytes(v) + T * triangleBytes(v) + TILES_HEADER_BYTES;
  size +=
    tiles.count * (TILE_HEADER_BYTES + pathHeaderBytes(v) + TILE_FLAGS_BYTES) +
    tiles.ownedData.length +
    tiles.localToNode.length +
    tiles.nodeToLocal.length * ntlBytes +
    tiles.nodes.length;
  size += 4 + 4 + islands.count * (ISLAND_HEADER_BYTES + 12);
  size += (islands.adjacent.length + islands.distance.length + islands.exit.length) * 4;
  size += a.islandPaths.next.length * ISLAND_PATH_NODE_BYTES + a.trailing.length;

  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  let o = 0;
  dv.setUint32(o, v, true);
  out.set(a.name.subarray(0, 32), 4);
  dv.setUint8(36, a.ownsData);
  dv.setUint32(37, V, true);
  dv.setUint32(41, E, true);
  dv.setUint32(45, T, true);
  dv.setUint32(49, a.faceOffset, true);
  o = ASWM_HEADER_BYTES;

  writeU32s(out, o, a.vertices);
  o += V * VERTEX_BYTES;

  const eRes = edgeReservedWords(v);
  if (eRes === 0) {
    writeU32s(out, o, a.edges);
    o += E * 16;
  } else {
    for (let e = 0; e < E; e++) {
      writeU32s(out, o, a.edges, e * 4, 4);
      writeU32s(out, o + 16, a.edgeReserved, e * eRes, eRes);
      o += edgeBytes(v);
    }
  }

  o = writeTriangles(a, out, dv, o);

  dv.setUint32(o, a.tilesFlags, true);
  dv.setUint32(o + 4, a.tileWidth, true);
  dv.setUint32(o + 8, a.gridHeight, true);
  dv.setUint32(o + 12, a.gridWidth, true);
  o += TILES_HEADER_BYTES;

  for (let t = 0; t < tiles.count; t++) {
    out.set(tiles.name.subarray(t * 32, t * 32 + 32), o);
    dv.setUint8(o + 32, tiles.ownsData[t]!);
    dv.setUint32(o + 33, tiles.vertexCount[t]!, true);
    dv.setUint32(o + 37, tiles.edgeCount[t]!, true);
    dv.setUint32(o + 41, tiles.triangleCount[t]!, true);
    dv.setUint32(o + 45, tiles.sizeX[t]!, true);
    dv.setUint32(o + 49, tiles.sizeY[t]!, true);
    dv.setUint32(o + 53, tiles.triangleOffset[t]!, true);
    o += TILE_HEADER_BYTES;
    const owned = tiles.ownedData.subarray(tiles.ownedDataStart[t]!, tiles.ownedDataStart[t + 1]!);
    out.set(owned, o);
    o += owned.length;

    const ltn = tiles.localToNode.subarray(tiles.localToNodeStart[t]!, tiles.localToNodeStart[t + 1]!);
    const n = tiles.nodeCount[t]!;
    dv.setUint32(o, tiles.pathFlags[t]!, true);
    if (v === 0x6c) {
      dv.setUint32(o + 4, ltn.length, true);
      dv.setUint8(o + 8, n);
      dv.setUint32(o + 9, tiles.rleSize[t]!, true);
    } else {
      dv.setUint8(o + 4, ltn.length);
      dv.setUint8(o + 5, n);
      dv.setUint32(o + 6, tiles.rleSize[t]!, true);
    }
    o += pathHeaderBytes(v);
    out.set(ltn, o);
    o += ltn.length;
    const k = tiles.nodeToLocalStart[t]!;
    if (ntlBytes === 4) {
      writeU32s(out, o, tiles.nodeToLocal, k, n);
      o += n * 4;
    } else if (ntlBytes === 1) {
      for (let i = 0; i < n; i++) dv.setUint8(o + i, tiles.nodeToLocal[k + i]!);
      o += n;
    }
    out.set(tiles.nodes.subarray(tiles.nodesStart[t]!, tiles.nodesStart[t + 1]!), o);
    o += n * n;
    dv.setUint32(o, tiles.flags[t]!, true);
    o += TILE_FLAGS_BYTES;
  }

  dv.setUint32(o, a.borderSize, true);
  dv.setUint32(o + 4, islands.count, true);
  o += 8;
  for (let i = 0; i < islands.count; i++) {
    dv.setUint32(o, islands.index[i]!, true);
    dv.setUint32(o + 4, islands.tile[i]!, true);
    writeU32s(out, o + 8, islands.centre, i * 3, 3);
    dv.setUint32(o + 20, islands.triangleCount[i]!, true);
    o += ISLAND_HEADER_BYTES;
    o = writeList(out, dv, o, islands.adjacent, islands.adjacentStart[i]!, islands.adjacentStart[i + 1]!);
    o = writeList(out, dv, o, islands.distance, islands.distanceStart[i]!, islands.distanceStart[i + 1]!);
    o = writeList(out, dv, o, islands.exit, islands.exitStart[i]!, islands.exitStart[i + 1]!);
  }

  const p = a.islandPaths;
  for (let i = 0; i < p.next.length; i++, o += 8) {
    dv.setUint16(o, p.next[i]!, true);
    dv.setUint16(o + 2, p.padding[i]!, true);
    dv.setUint32(o + 4, p.weight[i]!, true);
  }
  out.set(a.trailing, o);
  return out;
}

function writeList(out: Uint8Array, dv: DataView, o: number, values: Uint32Array, start: number, end: number): number {
  dv.setUint32(o, end - start, true);
  writeU32s(out, o + 4, values, start, end - start);
  return o + 4 + (end - start) * 4;
}

function writeTriangles(a: AswmDocument, out: Uint8Array, dv: DataView, start: number): number {
  const v = a.version;
  const T = triangleCountOf(a);
  const size = triangleBytes(v);
  let o = start;
  for (let t = 0; t < T; t++, o += size) {
    if (v === 0x69) {
      const k = t * 7;
      const res = a.triReserved;
      dv.setUint32(o, res[k]!, true);
      dv.setUint32(o + 4, (a.triFlags[t]! | (res[k + 1]! << 16)) >>> 0, true);
      writeU32s(out, o + 8, a.triVertices, t * 3, 3);
      writeU32s(out, o + 20, a.triEdges, t * 3, 3);
      writeU32s(out, o + 32, a.triLinks, t * 3, 3);
      writeU32s(out, o + 44, res, k + 2, 3);
      writeU32s(out, o + 56, a.triCentre, t * 2, 2);
      dv.setUint32(o + 64, res[k + 5]!, true);
      writeU32s(out, o + 68, a.triNormal, t * 3, 3);
      dv.setUint32(o + 80, a.triDot[t]!, true);
      dv.setUint16(o + 84, res[k + 6]!, true);
      dv.setUint16(o + 86, a.triIsland[t]!, true);
      continue;
    }
    let p = o;
    if (v === 0x6a) {
      dv.setUint32(o, a.triReserved[t]!, true);
      p += 4;
    }
    writeU32s(out, p, a.triVertices, t * 3, 3);
    writeU32s(out, p + 12, a.triEdges, t * 3, 3);
    writeU32s(out, p + 24, a.triLinks, t * 3, 3);
    writeU32s(out, p + 36, a.triCentre, t * 2, 2);
    writeU32s(out, p + 44, a.triNormal, t * 3, 3);
    dv.setUint32(p + 56, a.triDot[t]!, true);
    dv.setUint16(p + 60, a.triIsland[t]!, true);
    dv.setUint16(p + 62, a.triFlags[t]!, true);
  }
  return o;
}

/** Array lengths that the layout ties together, and values that must fit their fields. */
function checkWritable(a: AswmDocument): void {
  const v = a.version;
  const T = triangleCountOf(a);
  const fail = (what: string) => {
    throw new RangeError(`ASWM version 0x${v.toString(16)} cannot be written: ${what}`);
  };
  if (a.name.length !== 32) fail(`the name is ${a.name.length} bytes, not 32`);
  if (a.vertices.length % 3 !== 0) fail('the vertex array is not x, y, z triples');
  if (a.edges.length % 4 !== 0) fail('the edge array is not groups of 4');
  if (a.edgeReserved.length !== (a.edges.length / 4) * edgeReservedWords(v)) fail('the reserved edge words do not match the edge count');
  for (const [name, arr, per] of [
    ['triVertices', a.triVertices, 3],
    ['triEdges', a.triEdges, 3],
    ['triLinks', a.triLinks, 3],
    ['triCentre', a.triCentre, 2],
    ['triNormal', a.triNormal, 3],
    ['triDot', a.triDot, 1],
    ['triIsland', a.triIsland, 1],
    ['triReserved', a.triReserved, triangleReservedWords(v)],
  ] as const) {
    if (arr.length !== T * per) fail(`${name} has ${arr.length} entries for ${T} triangles`);
  }
  const tiles = a.tiles;
  if (tiles.count !== a.gridWidth * a.gridHeight) fail(`${tiles.count} tiles for a ${a.gridWidth} × ${a.gridHeight} grid`);
  const ntl = nodeToLocalEntryBytes(v);
  for (let t = 0; t < tiles.count; t++) {
    const local = tiles.localToNodeStart[t + 1]! - tiles.localToNodeStart[t]!;
    const n = tiles.nodeCount[t]!;
    if (local > maxLocalCount(v)) fail(`tile ${t} has ${local} local_to_node entries; this version stores at most ${maxLocalCount(v)}`);
    const ntlLength = tiles.nodeToLocalStart[t + 1]! - tiles.nodeToLocalStart[t]!;
    if (ntlLength !== (ntl > 0 ? n : 0)) fail(`tile ${t} has ${ntlLength} node_to_local entries for ${n} nodes`);
    if (ntl === 1) {
      for (let i = 0; i < n; i++) if (tiles.nodeToLocal[tiles.nodeToLocalStart[t]! + i]! > 0xff) fail(`tile ${t} node_to_local[${i}] does not fit a byte`);
    }
    if (tiles.nodesStart[t + 1]! - tiles.nodesStart[t]! !== n * n) fail(`tile ${t} has ${tiles.nodesStart[t + 1]! - tiles.nodesStart[t]!} nodes for ${n}² entries`);
  }
  const isl = a.islands;
  if (a.islandPaths.next.length !== isl.count * isl.count) fail(`${a.islandPaths.next.length} island path nodes for ${isl.count} islands`);
  if (a.islandPaths.padding.length !== a.islandPaths.next.length || a.islandPaths.weight.length !== a.islandPaths.next.length) fail('the island path columns differ in length');
}
