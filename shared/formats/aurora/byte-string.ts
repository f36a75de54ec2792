/**
 * Aurora files store text as bytes in an unstated code page (Windows-1252 in NWN1/KotOR,
 * UTF-8 in some NWN2 tools). Walkbench keeps such text as "byte strings": one character per
 * byte, character code = byte value (the ISO-8859-1 mapping). The mapping is a bijection,
 * so every stored string is written back unchanged whatever its real encoding; labels,
 * resrefs, tags and 2DA cells that matter for baking are ASCII anyway.
 */

const CHUNK = 8192;
/** Reused for short strings (resrefs, tags), so decoding one allocates only the string. */
const SHORT_CODES: number[] = [];

/** Decodes bytes as a byte string (one char per byte). */
export function bytesToByteString(bytes: Uint8Array, start = 0, end = bytes.length): string {
  if (end - start <= 64) {
    // One flat string: `s +=` per byte would leave a chain of cons strings (about 30 bytes
    // per character) behind every short resref, which a table of thousands multiplies.
    const codes = SHORT_CODES;
    codes.length = end - start;
    for (let i = start; i < end; i++) codes[i - start] = bytes[i]!;
    return String.fromCharCode.apply(null, codes);
  }
  const parts: string[] = [];
  for (let i = start; i < end; i += CHUNK) {
    const sub = bytes.subarray(i, Math.min(end, i + CHUNK));
    parts.push(String.fromCharCode.apply(null, sub as unknown as number[]));
  }
  return parts.join('');
}

/** Bytes up to the first NUL (or the end), as a byte string. */
export function bytesToByteStringZ(bytes: Uint8Array, start: number, end: number): string {
  let stop = start;
  while (stop < end && bytes[stop] !== 0) stop++;
  return bytesToByteString(bytes, start, stop);
}

/** The index of the first character that is not a byte (code > 255), or -1. */
export function firstNonByteChar(s: string): number {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 255) return i;
  return -1;
}

/** Encodes a byte string; throws RangeError naming `what` if a character is not a byte. */
export function byteStringToBytes(s: string, what: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 255) {
      throw new RangeError(`${what}: character ${i} (U+${c.toString(16).padStart(4, '0')}) is not a byte; Aurora text is stored one byte per character`);
    }
    out[i] = c;
  }
  return out;
}

/** Writes a byte string into `target` at `offset` (the caller has checked the characters). */
export function putByteString(target: Uint8Array, offset: number, s: string): void {
  for (let i = 0; i < s.length; i++) target[offset + i] = s.charCodeAt(i);
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** True for a 4-character file type tag made of printable ASCII (e.g. `GIT `, `MOD `). */
export function isPrintableTag(bytes: Uint8Array, start: number, length: number): boolean {
  for (let i = start; i < start + length; i++) {
    const c = bytes[i];
    if (c === undefined || c < 0x20 || c > 0x7e) return false;
  }
  return true;
}
