import { BinaryReader } from '../../binary/binary-reader';
import { fixedString } from './le-words';
import { shiftOffset } from './trrn-packet';

export const WATR_FORMAT = 'nwn2-watr';
const WATR_HEADER_BYTES = 328;
const WATR_VERTEX_BYTES = 28;

export interface WatrTexture {
  name: string;
  direction: [number, number];
  rate: number;
  angle: number;
}

/**
 * One water megatile (spec §2.4). Read for display and inspection only: the packet's bytes
 * are always written back as read.
 */
export interface WatrPayload {
  /** 32 bytes (garbage after the name). */
  name: Uint8Array;
  /** 96 bytes of unknown meaning. */
  unknown: Uint8Array;
  colour: [number, number, number];
  ripple: [number, number];
  smoothness: number;
  reflectBias: number;
  reflectPower: number;
  specularPower: number;
  specularCoefficient: number;
  textures: WatrTexture[];
  uvOffset: [number, number];
  positions: Float32Array;
  /** uv × 5 per vertex. */
  uv5: Float32Array;
  uv: Float32Array;
  triangles: Uint16Array;
  /** One per triangle: 0 = water, 1 = no water. */
  triangleFlags: Uint32Array;
  dds: Uint8Array;
  megatile: [number, number];
  trailingBytes: number;
}

/**
 * Parses a WATR payload (`payloadOffset` makes error offsets file offsets). Memory bound
 * (part of TRX_READ_MEMORY): counts checked against the bytes left, columns of the size of
 * what they come from: about one byte per payload byte.
 */
export function readWatr(payload: Uint8Array, payloadOffset = 0): WatrPayload {
  const r = new BinaryReader(payload, WATR_FORMAT);
  const dv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  try {
    r.need(WATR_HEADER_BYTES, 'WATR header');
    const name = r.bytesCopy(32, 'WATR name');
    const unknown = r.bytesCopy(96, 'WATR unknown');
    const f = (field: string) => r.f32(`WATR ${field}`);
    const colour: [number, number, number] = [f('colour'), f('colour'), f('colour')];
    const ripple: [number, number] = [f('ripple'), f('ripple')];
    const smoothness = f('smoothness');
    const reflectBias = f('reflect bias');
    const reflectPower = f('reflect power');
    const specularPower = f('specular power');
    const specularCoefficient = f('specular coefficient');
    const textures: WatrTexture[] = [];
    for (let i = 0; i < 3; i++) {
      const tname = fixedString(r.bytesView(32, `WATR texture #${i} name`));
      textures.push({ name: tname, direction: [f('texture direction'), f('texture direction')], rate: f('texture rate'), angle: f('texture angle') });
    }
    const uvOffset: [number, number] = [f('uv offset'), f('uv offset')];
    const nv = r.u32('WATR vertex count');
    const nt = r.u32('WATR triangle count');
    r.checkCount(nv, WATR_VERTEX_BYTES, 'WATR vertex count', r.offset - 8);
    const positions = new Float32Array(nv * 3);
    const uv5 = new Float32Array(nv * 2);
    const uv = new Float32Array(nv * 2);
    for (let v = 0, o = r.offset; v < nv; v++, o += WATR_VERTEX_BYTES) {
      for (let k = 0; k < 3; k++) positions[v * 3 + k] = dv.getFloat32(o + k * 4, true);
      uv5[v * 2] = dv.getFloat32(o + 12, true);
      uv5[v * 2 + 1] = dv.getFloat32(o + 16, true);
      uv[v * 2] = dv.getFloat32(o + 20, true);
      uv[v * 2 + 1] = dv.getFloat32(o + 24, true);
    }
    r.offset += nv * WATR_VERTEX_BYTES;
    // Each triangle is three u16 indices plus, after all of them, one u32 flag.
    r.checkCount(nt, 10, 'WATR triangle count', WATR_HEADER_BYTES - 4);
    const triangles = new Uint16Array(nt * 3);
    for (let i = 0; i < nt * 3; i++) triangles[i] = dv.getUint16(r.offset + i * 2, true);
    r.offset += nt * 6;
    const triangleFlags = new Uint32Array(nt);
    for (let i = 0; i < nt; i++) triangleFlags[i] = dv.getUint32(r.offset + i * 4, true);
    r.offset += nt * 4;
    const dds = r.bytesCopy(r.checkCount(r.u32('WATR DDS size'), 1, 'WATR DDS size'), 'WATR DDS');
    const megatile: [number, number] = [r.u32('WATR megatile x'), r.u32('WATR megatile y')];
    return {
      name,
      unknown,
      colour,
      ripple,
      smoothness,
      reflectBias,
      reflectPower,
      specularPower,
      specularCoefficient,
      textures,
      uvOffset,
      positions,
      uv5,
      uv,
      triangles,
      triangleFlags,
      dds,
      megatile,
      trailingBytes: r.remaining,
    };
  } catch (e) {
    throw shiftOffset(e, payloadOffset);
  }
}
