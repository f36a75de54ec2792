import { BinaryReader } from '../../binary/binary-reader';
import { isMalformedInputError, MalformedInputError } from '../../binary/malformed-input-error';
import type { ReadMemoryBound } from '../../binary/read-budget';
import { fixedString } from './le-words';
import { MDB_FORMAT } from './mdb-document';
import { readNwn2Container } from './nwn2-container';

/**
 * The display geometry of an NWN2 model (MDB): rigid meshes (RIGD), skinned meshes (SKIN,
 * in their bind pose) and the collision meshes (COL2 coarse, COL3 fine), for the level
 * context (issue 19). Layout from nwn2mdk `mdb_file.h` (Arbos/nwn2mdk, whose static
 * asserts give every size), checked on the 4 fixture MDBs (11 packets: 5 RIGD, 4 COL2,
 * 3 COL3; each payload is exactly header + vertices + faces):
 *
 * - RIGD / COL2 / COL3: char[32] name, material (char[32] × 4 maps: diffuse, normal,
 *   tint, glow; float3 diffuse colour, float3 specular colour, float specular power,
 *   float specular value, u32 flags: 164 bytes), u32 vertex count, u32 face count; then
 *   vertices (RIGD: position, normal, tangent, binormal, uvw = 60 bytes; COL2/COL3:
 *   position, normal, uvw = 36 bytes) and faces (three u16 = 6 bytes).
 * - SKIN: char[32] name, char[32] skeleton, the material, the counts; vertices of 84
 *   bytes (position, normal, 4 bone weights, 4 u8 bone indices, tangent, binormal, uvw,
 *   float bone count); faces as above. No SKIN sample is public; the layout is nwn2mdk's.
 *
 * Read-only: MDB files are written by mdb-writer from their packets' bytes, untouched here.
 */
export type MdbMeshKind = 'RIGD' | 'SKIN' | 'COL2' | 'COL3';

export interface MdbMesh {
  kind: MdbMeshKind;
  name: string;
  /** The material's diffuse map name (a texture resref), '' when none. */
  diffuseMap: string;
  /** Material diffuse colour r, g, b (0..1 as stored). */
  diffuseColour: [number, number, number];
  /** x, y, z per vertex, model space (Z up, metres). */
  positions: Float32Array;
  /** Three vertex indices per face (u16 in the file). */
  faces: Uint32Array;
  /** Index of the packet in the file's packet table (for reports). */
  packet: number;
}

const MATERIAL_BYTES = 164;
const FACE_BYTES = 6;
const LAYOUT: Record<MdbMeshKind, { names: number; vertex: number }> = {
  RIGD: { names: 1, vertex: 60 },
  COL2: { names: 1, vertex: 36 },
  COL3: { names: 1, vertex: 36 },
  SKIN: { names: 2, vertex: 84 },
};

/**
 * mdbMeshes's memory bound: the container's 24 bytes per input byte, plus 12 bytes per
 * vertex (at least 36 stored) and 12 per face (6 stored): under 26 per input byte.
 */
export const MDB_MESH_READ_MEMORY: ReadMemoryBound = { perInputByte: 26, perDecompressedByte: 0 };

export function isMdbMeshKind(type: string): type is MdbMeshKind {
  return type === 'RIGD' || type === 'SKIN' || type === 'COL2' || type === 'COL3';
}

/**
 * The meshes of an MDB file (the packets of `kinds`, default all four), in packet order.
 * Throws MalformedInputError (offsets in the file) for a packet whose counts overrun it or
 * whose faces use a vertex it does not have.
 */
export function mdbMeshes(bytes: Uint8Array, kinds: readonly MdbMeshKind[] = ['RIGD', 'SKIN', 'COL2', 'COL3']): MdbMesh[] {
  const c = readNwn2Container(bytes, MDB_FORMAT);
  const out: MdbMesh[] = [];
  c.packets.forEach((p, i) => {
    if (!isMdbMeshKind(p.type) || !kinds.includes(p.type)) return;
    try {
      out.push(readMeshPacket(p.type, p.payload, i));
    } catch (e) {
      if (!isMalformedInputError(e)) throw e;
      throw new MalformedInputError({ ...e.details(), offset: e.offset + p.payloadOffset });
    }
  });
  return out;
}

function readMeshPacket(kind: MdbMeshKind, payload: Uint8Array, packet: number): MdbMesh {
  const layout = LAYOUT[kind];
  const r = new BinaryReader(payload, MDB_FORMAT);
  const what = `${kind} packet #${packet}`;
  const name = fixedString(r.bytesView(32, `${what} name`));
  if (layout.names > 1) r.skip(32, `${what} skeleton name`);
  const diffuseMap = fixedString(r.bytesView(32, `${what} diffuse map`));
  r.skip(96, `${what} normal, tint and glow maps`);
  const diffuseColour: [number, number, number] = [r.f32(`${what} diffuse colour`), r.f32(`${what} diffuse colour`), r.f32(`${what} diffuse colour`)];
  r.skip(MATERIAL_BYTES - 128 - 12, `${what} material`);
  const vertexCount = r.u32(`${what} vertex count`);
  const faceCount = r.u32(`${what} face count`);
  r.checkCount(vertexCount, layout.vertex, `${what} vertex count`, r.offset - 8);
  const dv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const positions = new Float32Array(vertexCount * 3);
  for (let v = 0, o = r.offset; v < vertexCount; v++, o += layout.vertex) {
    positions[v * 3] = dv.getFloat32(o, true);
    positions[v * 3 + 1] = dv.getFloat32(o + 4, true);
    positions[v * 3 + 2] = dv.getFloat32(o + 8, true);
  }
  r.offset += vertexCount * layout.vertex;
  r.checkCount(faceCount, FACE_BYTES, `${what} face count`, r.offset - vertexCount * layout.vertex - 4);
  const faces = new Uint32Array(faceCount * 3);
  for (let i = 0; i < faceCount * 3; i++) {
    const v = dv.getUint16(r.offset + i * 2, true);
    if (v >= vertexCount) throw r.error(`${what} face ${(i / 3) | 0}`, `vertex indices below ${vertexCount}`, String(v), r.offset + i * 2);
    faces[i] = v;
  }
  return { kind, name, diffuseMap, diffuseColour, positions, faces, packet };
}
