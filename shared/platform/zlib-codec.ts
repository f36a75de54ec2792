/**
 * zlib streams (RFC 1950) behind one small interface, so `shared/` code stays platform-free:
 * the renderer uses pako everywhere; the main process and workers may inflate with
 * node:zlib, which is about three times faster. Compression must reproduce the games' own
 * bytes: classic zlib's, as pako 2.1.0 and classicDeflate (zlib 1.2.13 as WebAssembly,
 * classic-deflate.ts) give them; never node:zlib's deflate, Chromium's fork, whose bytes differ.
 */
export interface ZlibCodec {
  /**
   * Inflates a zlib stream; throws on a corrupt stream, and (when `maxOutputLength` is
   * given) as soon as the output would grow past it, so a small file cannot expand into
   * gigabytes.
   */
  inflate(data: Uint8Array, maxOutputLength?: number): Uint8Array;
  /**
   * Inflates a raw deflate stream (RFC 1951, no zlib header or checksum: zip entries), with
   * the same limit. Optional so that older codecs still fit; callers fall back to pako.
   */
  inflateRaw?(data: Uint8Array, maxOutputLength?: number): Uint8Array;
  /** Deflates into a zlib stream at `level` (0–9; the games use 6 or 9). */
  deflate(data: Uint8Array, level: number): Uint8Array;
}
