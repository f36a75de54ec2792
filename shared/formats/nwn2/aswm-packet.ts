import { BinaryReader } from '../../binary/binary-reader';
import { isMalformedInputError, MalformedInputError } from '../../binary/malformed-input-error';
import { DecompressionBudget } from '../../binary/read-budget';
import type { FormatEnvironment } from '../format-environment';
import type { AswmDocument } from './aswm-document';
import { ASWM_FORMAT, readAswm } from './aswm-reader';
import { hex } from './aswm-layout';

/** `COMP` as a little-endian u32. */
const COMP_MAGIC = 0x504d4f43;
export const COMP_HEADER_BYTES = 12;
/** Skywing's cap on both sizes of a compressed walkmesh. */
export const MAX_ASWM_BYTES = 128 * 1024 * 1024;
/** pako 2.1.0 at this level reproduces the toolset's compressed bytes (spec §3.1). */
export const ASWM_DEFLATE_LEVEL = 6;

export interface DecodedAswm {
  aswm: AswmDocument;
  /** The payload was `COMP`-wrapped (else it was the raw walkmesh). */
  compressed: boolean;
  /** The walkmesh bytes as stored (inflated when compressed). */
  inflated: Uint8Array;
}

/**
 * Reads an ASWM packet payload: a `COMP` wrapper around a zlib stream (spec §3.1) or the
 * raw walkmesh. `payloadOffset` is the payload's position in the file; errors inside the
 * decompressed data give that offset and name the position inside the decompressed
 * bytes in their field (`ASWM(decompressed)+0x1A2B triangle #12 …`).
 *
 * The declared uncompressed size is charged to `budget` (the whole file's decompression
 * budget, see shared/binary/read-budget.ts; this payload's own when none is given) before
 * anything is inflated, and the stream may not inflate past it.
 */
export function decodeAswmPayload(payload: Uint8Array, payloadOffset: number, env: FormatEnvironment, budget = new DecompressionBudget(payload.length, env.limits)): DecodedAswm {
  const compressed = payload.length >= 4 && new DataView(payload.buffer, payload.byteOffset, 4).getUint32(0, true) === COMP_MAGIC;
  if (!compressed) return { aswm: readMapped(payload, payloadOffset, false), compressed, inflated: payload };

  const r = new BinaryReader(payload, ASWM_FORMAT);
  r.skip(4, 'ASWM COMP magic');
  const compSize = r.u32('ASWM COMP compressed size');
  const rawSize = r.u32('ASWM COMP uncompressed size');
  const at = (o: number) => payloadOffset + o;
  if (compSize > payload.length - COMP_HEADER_BYTES) {
    throw new MalformedInputError({
      format: ASWM_FORMAT,
      offset: at(4),
      field: 'ASWM COMP compressed size',
      expected: `at most the ${payload.length - COMP_HEADER_BYTES} byte(s) the packet holds after its COMP header`,
      found: String(compSize),
    });
  }
  if (rawSize > MAX_ASWM_BYTES) {
    throw new MalformedInputError({
      format: ASWM_FORMAT,
      offset: at(8),
      field: 'ASWM COMP uncompressed size',
      expected: `at most ${MAX_ASWM_BYTES} bytes (128 MiB, Skywing's limit)`,
      found: String(rawSize),
    });
  }
  budget.charge(rawSize, ASWM_FORMAT, at(8), 'ASWM COMP uncompressed size');
  let inflated: unknown;
  try {
    inflated = env.zlib.inflate(payload.subarray(COMP_HEADER_BYTES, COMP_HEADER_BYTES + compSize), rawSize);
  } catch (e) {
    throw new MalformedInputError({
      format: ASWM_FORMAT,
      offset: at(COMP_HEADER_BYTES),
      field: 'ASWM COMP zlib stream',
      expected: `a complete zlib stream that inflates to the declared ${rawSize} bytes`,
      found: e instanceof Error ? e.message : String(e),
    });
  }
  if (!(inflated instanceof Uint8Array) || inflated.length !== rawSize) {
    throw new MalformedInputError({
      format: ASWM_FORMAT,
      offset: at(8),
      field: 'ASWM COMP uncompressed size',
      expected: 'the length of the inflated zlib stream',
      found: inflated instanceof Uint8Array ? `${rawSize} declared, ${inflated.length} inflated` : `${rawSize} declared, the stream ended early`,
    });
  }
  return { aswm: readMapped(inflated, payloadOffset, true), compressed, inflated };
}

/** readAswm with its offsets mapped to the file. */
function readMapped(data: Uint8Array, payloadOffset: number, compressed: boolean): AswmDocument {
  try {
    return readAswm(data);
  } catch (e) {
    if (!isMalformedInputError(e)) throw e;
    const d = e.details();
    return rethrow(
      compressed
        ? { ...d, offset: payloadOffset, field: `ASWM(decompressed)+${hex(d.offset)} ${d.field}` }
        : { ...d, offset: payloadOffset + d.offset, field: `ASWM ${d.field}` },
    );
  }
}

function rethrow(details: ConstructorParameters<typeof MalformedInputError>[0]): never {
  throw new MalformedInputError(details);
}

/** A `COMP` payload for the walkmesh bytes, compressed as the toolset does. */
export function encodeAswmPayload(raw: Uint8Array, env: FormatEnvironment): Uint8Array {
  const stream = env.zlib.deflate(raw, ASWM_DEFLATE_LEVEL);
  const out = new Uint8Array(COMP_HEADER_BYTES + stream.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, COMP_MAGIC, true);
  dv.setUint32(4, stream.length, true);
  dv.setUint32(8, raw.length, true);
  out.set(stream, COMP_HEADER_BYTES);
  return out;
}

/** The zlib stream inside a `COMP` payload, or undefined for a raw payload. */
export function compressedStreamOf(payload: Uint8Array): Uint8Array | undefined {
  if (payload.length < COMP_HEADER_BYTES || new DataView(payload.buffer, payload.byteOffset, 4).getUint32(0, true) !== COMP_MAGIC) return undefined;
  const size = new DataView(payload.buffer, payload.byteOffset, payload.byteLength).getUint32(4, true);
  return payload.subarray(COMP_HEADER_BYTES, COMP_HEADER_BYTES + size);
}
