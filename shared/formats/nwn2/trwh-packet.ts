import { BinaryReader } from '../../binary/binary-reader';

export const TRWH_BYTES = 12;

/** The TRWH packet: the area size (spec §2.2). */
export interface Trwh {
  /** Tiles (interior) or 40 m megatiles (exterior) across. */
  width: number;
  height: number;
  /** Meaning unknown; nwn-trn `optimize` zeroes it. */
  id: number;
}

/** Reads a TRWH payload; xoreos requires exactly 12 bytes, so anything else is refused. */
export function readTrwh(payload: Uint8Array, payloadOffset: number, format: string): Trwh {
  if (payload.length !== TRWH_BYTES) {
    throw new BinaryReader(payload, format).error('TRWH payload size', `${TRWH_BYTES} bytes`, `${payload.length} bytes`, payloadOffset - 4);
  }
  const dv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  return { width: dv.getUint32(0, true), height: dv.getUint32(4, true), id: dv.getUint32(8, true) };
}

export function writeTrwh(t: Trwh): Uint8Array {
  const out = new Uint8Array(TRWH_BYTES);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, t.width, true);
  dv.setUint32(4, t.height, true);
  dv.setUint32(8, t.id, true);
  return out;
}
