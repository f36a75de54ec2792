/**
 * Bulk copies between little-endian file bytes and typed arrays. On a little-endian host
 * (every platform Walkbench runs on) a copy is one `set`; otherwise it falls back to a
 * DataView loop, so the result never depends on the host's byte order.
 */
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** `count` u32 from `bytes` at `offset` (the caller has checked the range). */
export function readU32s(bytes: Uint8Array, offset: number, count: number): Uint32Array {
  const out = new Uint32Array(count);
  if (LITTLE_ENDIAN_HOST) {
    new Uint8Array(out.buffer).set(bytes.subarray(offset, offset + count * 4));
  } else {
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < count; i++) out[i] = v.getUint32(offset + i * 4, true);
  }
  return out;
}

/** Below this many words a copy assembles them from bytes: no view is allocated per call. */
const SMALL_COPY_WORDS = 32;

/**
 * Copies `count` u32 from `bytes` at `offset` into `target` at `targetIndex`. Short copies
 * (a triangle's corners, an edge) allocate nothing: readers call this once per record, and
 * two typed-array views per call would cost ten times the record's bytes.
 */
export function readU32sInto(bytes: Uint8Array, offset: number, count: number, target: Uint32Array, targetIndex: number): void {
  if (count < SMALL_COPY_WORDS) {
    for (let i = 0, o = offset; i < count; i++, o += 4) {
      target[targetIndex + i] = (bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16) | (bytes[o + 3]! << 24)) >>> 0;
    }
    return;
  }
  if (LITTLE_ENDIAN_HOST) {
    new Uint8Array(target.buffer, target.byteOffset + targetIndex * 4, count * 4).set(bytes.subarray(offset, offset + count * 4));
  } else {
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < count; i++) target[targetIndex + i] = v.getUint32(offset + i * 4, true);
  }
}

/** Writes `words` (u32) into `out` at `offset`. */
export function writeU32s(out: Uint8Array, offset: number, words: Uint32Array, start = 0, count = words.length - start): void {
  if (LITTLE_ENDIAN_HOST) {
    out.set(new Uint8Array(words.buffer, words.byteOffset + start * 4, count * 4), offset);
  } else {
    const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
    for (let i = 0; i < count; i++) v.setUint32(offset + i * 4, words[start + i]!, true);
  }
}

/**
 * Byte-for-byte equality. Compares 32-bit words where both views start on a word boundary
 * (whole walkmeshes are compared on every write and round trip: a quarter of the steps).
 */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  const n = a.length;
  if (n !== b.length) return false;
  if (a.buffer === b.buffer && a.byteOffset === b.byteOffset) return true;
  let i = 0;
  if (n >= 64 && (a.byteOffset & 3) === 0 && (b.byteOffset & 3) === 0) {
    const words = n >>> 2;
    const wa = new Uint32Array(a.buffer, a.byteOffset, words);
    const wb = new Uint32Array(b.buffer, b.byteOffset, words);
    for (let w = 0; w < words; w++) if (wa[w] !== wb[w]) return false;
    i = words << 2;
  }
  for (; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Text of a fixed-size char field: up to the first NUL, bytes as Latin-1. */
export function fixedString(bytes: Uint8Array): string {
  let end = bytes.indexOf(0);
  if (end < 0) end = bytes.length;
  let s = '';
  for (let i = 0; i < end; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

/** A four-character packet type as written (Latin-1, so any byte survives). */
export function fourCC(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(bytes[offset]!, bytes[offset + 1]!, bytes[offset + 2]!, bytes[offset + 3]!);
}
