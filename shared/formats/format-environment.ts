import type { ReadLimits } from '../binary/read-budget';
import { classicDeflate } from '../platform/classic-deflate';
import { pakoZlibCodec } from '../platform/pako-zlib-codec';
import type { ZlibCodec } from '../platform/zlib-codec';

/** What a format reader or writer needs from the platform it runs on. */
export interface FormatEnvironment {
  zlib: ZlibCodec;
  /**
   * The readers' decompression budget per file (shared/binary/read-budget.ts): by default a
   * file may inflate to max(256 MiB, 8 × its size) in all; pass
   * `{ ...env, limits: { maxDecompressedBytes } }` to read larger files (a whole
   * Skyrim.esm, an exterior beyond Skywing's limits).
   */
  limits?: ReadLimits;
}

/**
 * Works everywhere (renderer, workers, Node); Node callers may pass a faster one. Deflates
 * with classic zlib as WebAssembly where it may run, else pako: the same bytes either way.
 */
export const portableEnvironment: FormatEnvironment = { zlib: { ...pakoZlibCodec, deflate: classicDeflate } };
