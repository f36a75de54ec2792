import { BinaryReader } from '../../binary/binary-reader';
import { isMalformedInputError, MalformedInputError } from '../../binary/malformed-input-error';
import { fixedString } from './le-words';

export const TRRN_FORMAT = 'nwn2-trrn';
const TRRN_VERTEX_BYTES = 44;
const TRRN_BLADE_BYTES = 36;
const TRRN_GRASS_HEADER_BYTES = 68;

export interface TrrnGrass {
  name: string;
  texture: string;
  /** position xyz, direction xyz, dimension xyz per blade. */
  blades: Float32Array;
}

/**
 * One exterior megatile's terrain (spec §2.3). Read for display and inspection only: the
 * packet's bytes are always written back as read, since Walkbench edits only the walkmesh.
 */
export interface TrrnPayload {
  /** 128 bytes (a name followed by garbage). */
  name: Uint8Array;
  textureNames: string[];
  /** r, g, b per texture (6 textures). */
  textureColours: Float32Array;
  positions: Float32Array;
  normals: Float32Array;
  /** B, G, R, A per vertex (A unused). */
  tints: Uint8Array;
  uvs: Float32Array;
  weights: Float32Array;
  /** Three u16 vertex indices per triangle. */
  triangles: Uint16Array;
  /** DDS image: RGBA = blend intensity of textures 0–3. */
  ddsA: Uint8Array;
  /** DDS image: RG = blend intensity of textures 4–5. */
  ddsB: Uint8Array;
  grass: TrrnGrass[];
  /** Bytes after the grass (none expected). */
  trailingBytes: number;
}

/**
 * Parses a TRRN payload; `payloadOffset` makes error offsets file offsets. Memory bound
 * (part of TRX_READ_MEMORY): every count is checked against the bytes left, vertices and
 * blades become columns of their own size (44 and 36 bytes), triangles and DDS images
 * copies: about one byte per payload byte, and an object per grass entry of at least 68.
 */
export function readTrrn(payload: Uint8Array, payloadOffset = 0): TrrnPayload {
  const r = new BinaryReader(payload, TRRN_FORMAT);
  const dv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  try {
    const name = r.bytesCopy(128, 'TRRN name');
    const textureNames: string[] = [];
    for (let i = 0; i < 6; i++) textureNames.push(fixedString(r.bytesView(32, `TRRN texture #${i} name`)));
    const textureColours = new Float32Array(18);
    for (let i = 0; i < 18; i++) textureColours[i] = r.f32(`TRRN texture #${(i / 3) | 0} colour`);
    const nv = r.u32('TRRN vertex count');
    const nt = r.u32('TRRN triangle count');
    r.checkCount(nv, TRRN_VERTEX_BYTES, 'TRRN vertex count', r.offset - 8);
    const positions = new Float32Array(nv * 3);
    const normals = new Float32Array(nv * 3);
    const tints = new Uint8Array(nv * 4);
    const uvs = new Float32Array(nv * 2);
    const weights = new Float32Array(nv * 2);
    for (let v = 0, o = r.offset; v < nv; v++, o += TRRN_VERTEX_BYTES) {
      for (let k = 0; k < 3; k++) {
        positions[v * 3 + k] = dv.getFloat32(o + k * 4, true);
        normals[v * 3 + k] = dv.getFloat32(o + 12 + k * 4, true);
      }
      tints.set(payload.subarray(o + 24, o + 28), v * 4);
      uvs[v * 2] = dv.getFloat32(o + 28, true);
      uvs[v * 2 + 1] = dv.getFloat32(o + 32, true);
      weights[v * 2] = dv.getFloat32(o + 36, true);
      weights[v * 2 + 1] = dv.getFloat32(o + 40, true);
    }
    r.offset += nv * TRRN_VERTEX_BYTES;
    r.checkCount(nt, 6, 'TRRN triangle count', r.offset - nv * TRRN_VERTEX_BYTES - 4);
    const triangles = new Uint16Array(nt * 3);
    for (let i = 0; i < nt * 3; i++) triangles[i] = dv.getUint16(r.offset + i * 2, true);
    r.offset += nt * 6;
    const ddsA = r.bytesCopy(r.checkCount(r.u32('TRRN DDS A size'), 1, 'TRRN DDS A size'), 'TRRN DDS A');
    const ddsB = r.bytesCopy(r.checkCount(r.u32('TRRN DDS B size'), 1, 'TRRN DDS B size'), 'TRRN DDS B');
    const grassCount = r.checkCount(r.u32('TRRN grass count'), TRRN_GRASS_HEADER_BYTES, 'TRRN grass count');
    const grass: TrrnGrass[] = [];
    for (let g = 0; g < grassCount; g++) {
      const gname = fixedString(r.bytesView(32, `TRRN grass #${g} name`));
      const texture = fixedString(r.bytesView(32, `TRRN grass #${g} texture`));
      const blades = r.checkCount(r.u32(`TRRN grass #${g} blade count`), TRRN_BLADE_BYTES, `TRRN grass #${g} blade count`);
      const b = new Float32Array(blades * 9);
      for (let i = 0; i < blades * 9; i++) b[i] = dv.getFloat32(r.offset + i * 4, true);
      r.offset += blades * TRRN_BLADE_BYTES;
      grass.push({ name: gname, texture, blades: b });
    }
    return { name, textureNames, textureColours, positions, normals, tints, uvs, weights, triangles, ddsA, ddsB, grass, trailingBytes: r.remaining };
  } catch (e) {
    throw shiftOffset(e, payloadOffset);
  }
}

/** The same MalformedInputError with its offset moved from the payload to the file. */
export function shiftOffset(e: unknown, by: number): unknown {
  if (by === 0 || !isMalformedInputError(e)) return e;
  return new MalformedInputError({ ...e.details(), offset: e.offset + by });
}
