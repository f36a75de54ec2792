import type { FormatEnvironment } from '../format-environment';
import { ASWM_DEFLATE_LEVEL, compressedStreamOf, MAX_ASWM_BYTES } from './aswm-packet';
import { writeAswm } from './aswm-writer';
import { hex } from './aswm-layout';
import { bytesEqual } from './le-words';
import { readNwn2Container } from './nwn2-container';
import { TRX_FORMAT, type TrxDocument } from './trx-document';
import { packetPayload } from './trx-writer';

export interface TrxRoundtripDetails {
  aswmVersion: string | null;
  aswmCompressed: boolean | null;
  /** The walkmesh serialised from the document equals the original's decompressed walkmesh. */
  aswmPayloadIdentical: boolean | null;
  /** Compressing that with pako at level 6 gives the original's zlib stream byte for byte (null: stored uncompressed). */
  aswmRecompressedIdentical: boolean | null;
  /** Every other packet is written back as it was read. */
  packetsIdentical: boolean;
}

/**
 * The facts `walkbench roundtrip` adds for a TRN/TRX, checked against the original bytes
 * (re-read here, not taken from the document): whether the walkmesh re-serialises to the
 * same decompressed bytes, whether re-compressing those reproduces the original compressed
 * stream, and whether the other packets come back unchanged.
 */
export function trxRoundtripDetails(original: Uint8Array, doc: TrxDocument, env: FormatEnvironment): TrxRoundtripDetails {
  const c = readNwn2Container(original, TRX_FORMAT);
  const result: TrxRoundtripDetails = { aswmVersion: null, aswmCompressed: null, aswmPayloadIdentical: null, aswmRecompressedIdentical: null, packetsIdentical: c.packets.length === doc.packets.length };
  doc.packets.forEach((p, i) => {
    const o = c.packets[i];
    if (!o || o.type !== p.type) {
      result.packetsIdentical = false;
      return;
    }
    if (p.kind !== 'aswm') {
      if (!bytesEqual(packetPayload(p, env), o.payload)) result.packetsIdentical = false;
      return;
    }
    if (result.aswmVersion !== null) return;
    const raw = writeAswm(p.aswm);
    const stream = compressedStreamOf(o.payload);
    result.aswmVersion = hex(p.aswm.version);
    result.aswmCompressed = stream !== undefined;
    if (stream) {
      // The document's packet carries its payload inflated (trx-reader.ts): when that payload
      // is the original's (as read, not replaced), those are the original's walkmesh bytes
      // and the stream is not inflated a second time.
      const original = p.payload.length > 0 && bytesEqual(p.payload, o.payload) ? p.inflated : inflateOriginal(o.payload, stream, env);
      result.aswmPayloadIdentical = bytesEqual(raw, original);
      result.aswmRecompressedIdentical = bytesEqual(env.zlib.deflate(raw, ASWM_DEFLATE_LEVEL), stream);
    } else {
      result.aswmPayloadIdentical = bytesEqual(raw, o.payload);
    }
  });
  return result;
}

/** The original walkmesh bytes (empty when the stream does not inflate to its declared size). */
function inflateOriginal(payload: Uint8Array, stream: Uint8Array, env: FormatEnvironment): Uint8Array {
  const declared = new DataView(payload.buffer, payload.byteOffset, payload.byteLength).getUint32(8, true);
  try {
    return env.zlib.inflate(stream, Math.min(declared, MAX_ASWM_BYTES));
  } catch {
    return new Uint8Array(0);
  }
}
