import type { ReadMemoryBound } from '../../binary/read-budget';
import { BinaryReader } from '../../binary/binary-reader';
import { readU32s, fixedString } from './le-words';
import { readNwn2Container } from './nwn2-container';
import { MDB_FORMAT, WALK_FACE_BYTES, WALK_HEADER_BYTES, WALK_VERTEX_BYTES, type MdbDocument, type MdbWalkmesh } from './mdb-document';

/** readMdb's memory bound (see ReadMemoryBound). */
export const MDB_READ_MEMORY: ReadMemoryBound = { perInputByte: 32, perDecompressedByte: 0 };

/**
 * Reads an MDB model: the container, with WALK packets parsed (header with name, ui_flags
 * and counts; float3 vertices; faces of three u16 indices and a u32 flag set) and every
 * other packet kept as bytes. Throws MalformedInputError with file offsets.
 *
 * Memory bound (MDB_READ_MEMORY): the container's (nwn2-container.ts: packets may not
 * overlap, at most 24 bytes per input byte), plus each WALK packet's columns, which take
 * its vertex and face bytes once more (12 bytes per vertex, 10 per face, as stored): at
 * most 32 bytes per input byte, nothing decompressed.
 */
export function readMdb(bytes: Uint8Array): MdbDocument {
  const c = readNwn2Container(bytes, MDB_FORMAT);
  return {
    versionMajor: c.versionMajor,
    versionMinor: c.versionMinor,
    irregularLayout: c.irregularLayout,
    packets: c.packets.map((p) => ({ type: p.type, payload: p.payload, walk: p.type === 'WALK' ? readWalk(bytes, p.payloadOffset, p.payload.length) : null })),
  };
}

/** The walkmeshes (WALK packets) of an MDB file, in packet order. */
export function readMdbWalkmeshes(bytes: Uint8Array): MdbWalkmesh[] {
  return readMdb(bytes).packets.flatMap((p) => (p.walk ? [p.walk] : []));
}

function readWalk(bytes: Uint8Array, start: number, size: number): MdbWalkmesh {
  const r = new BinaryReader(bytes, MDB_FORMAT, start, start + size);
  r.need(WALK_HEADER_BYTES, 'WALK header');
  const nameBytes = r.bytesCopy(32, 'WALK name');
  const uiFlags = r.u32('WALK ui_flags');
  const vertexCount = r.u32('WALK vertex count');
  const faceCount = r.u32('WALK face count');
  r.checkCount(vertexCount, WALK_VERTEX_BYTES, 'WALK vertex count', start + 36);
  const positions = new Float32Array(readU32s(bytes, r.offset, vertexCount * 3).buffer);
  r.offset += vertexCount * WALK_VERTEX_BYTES;
  r.checkCount(faceCount, WALK_FACE_BYTES, 'WALK face count', start + 40);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const faces = new Uint16Array(faceCount * 3);
  const faceFlags = new Uint32Array(faceCount);
  for (let f = 0, o = r.offset; f < faceCount; f++, o += WALK_FACE_BYTES) {
    faces[f * 3] = dv.getUint16(o, true);
    faces[f * 3 + 1] = dv.getUint16(o + 2, true);
    faces[f * 3 + 2] = dv.getUint16(o + 4, true);
    faceFlags[f] = dv.getUint32(o + 6, true);
  }
  r.offset += faceCount * WALK_FACE_BYTES;
  const trailing = r.bytesCopy(r.remaining, 'WALK trailing bytes');
  return { name: fixedString(nameBytes), nameBytes, uiFlags, positions, faces, faceFlags, trailing };
}
