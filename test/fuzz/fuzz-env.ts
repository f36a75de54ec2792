import { nodeFormatEnvironment } from '../../electron/services/node-format-environment';
import type { FormatEnvironment } from '../../shared/formats/format-environment';
import type { ZlibCodec } from '../../shared/platform/zlib-codec';

/**
 * The fuzz targets' format environment: node's inflater, counted, and a decompression
 * budget of FUZZ_DECOMPRESSED_BYTES per input (low, so that the zlib bombs the fuzzer
 * builds are refused quickly and a worker's memory stays small). The engine reads the
 * bytes inflated during one parse to bound its memory: a reader may take
 * `memoryFactor` bytes per input byte plus `inflatedFactor` per inflated byte.
 */
export const FUZZ_DECOMPRESSED_BYTES = 32 * 1024 * 1024;

let inflated = 0;

const countingZlib: ZlibCodec = {
  inflate(data, maxOutputLength) {
    const out = nodeFormatEnvironment.zlib.inflate(data, maxOutputLength);
    inflated += out.length;
    return out;
  },
  inflateRaw(data, maxOutputLength) {
    const out = nodeFormatEnvironment.zlib.inflateRaw!(data, maxOutputLength);
    inflated += out.length;
    return out;
  },
  deflate: (data, level) => nodeFormatEnvironment.zlib.deflate(data, level),
};

export const fuzzEnvironment: FormatEnvironment = {
  zlib: countingZlib,
  limits: { maxDecompressedBytes: FUZZ_DECOMPRESSED_BYTES, maxDecompressedPerInputByte: 8 },
};

/** Bytes inflated through fuzzEnvironment since the last call (and resets the count). */
export function takeInflatedBytes(): number {
  const n = inflated;
  inflated = 0;
  return n;
}
