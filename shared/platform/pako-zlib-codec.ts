import pako from 'pako';
import type { ZlibCodec } from './zlib-codec';

type DeflateLevel = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

function asLevel(level: number): DeflateLevel {
  if (!Number.isInteger(level) || level < 0 || level > 9) throw new RangeError(`zlib level ${level} is not 0–9`);
  return level as DeflateLevel;
}

/** The portable codec: pako 2.1.0 for both directions. */
export const pakoZlibCodec: ZlibCodec = {
  inflate: (data) => pako.inflate(data),
  deflate: (data, level) => pako.deflate(data, { level: asLevel(level) }),
};
