import pako from 'pako';
import type { ZlibCodec } from './zlib-codec';

type DeflateLevel = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

function asLevel(level: number): DeflateLevel {
  if (!Number.isInteger(level) || level < 0 || level > 9) throw new RangeError(`zlib level ${level} is not 0–9`);
  return level as DeflateLevel;
}

/** The portable codec: pako 2.1.0 for both directions. */
export const pakoZlibCodec: ZlibCodec = {
  inflate: (data, maxOutputLength) => (maxOutputLength === undefined ? pako.inflate(data) : inflateLimited(data, maxOutputLength)),
  inflateRaw: (data, maxOutputLength) => (maxOutputLength === undefined ? pako.inflateRaw(data) : inflateLimited(data, maxOutputLength, true)),
  deflate: (data, level) => pako.deflate(data, { level: asLevel(level) }),
};

/** pako.inflate that stops once the output passes `limit` bytes. */
function inflateLimited(data: Uint8Array, limit: number, raw = false): Uint8Array {
  const inflator = new pako.Inflate({ chunkSize: 64 * 1024, raw });
  const chunks: Uint8Array[] = [];
  let total = 0;
  inflator.onData = (chunk: Uint8Array) => {
    total += chunk.length;
    if (total > limit) throw new RangeError(`inflated data exceeds ${limit} bytes`);
    chunks.push(chunk);
  };
  let ended = false;
  const onEnd = inflator.onEnd.bind(inflator);
  inflator.onEnd = (status: number) => {
    ended = true;
    onEnd(status);
  };
  inflator.push(data, true);
  if (inflator.err) throw new Error(inflator.msg || `zlib error ${inflator.err}`);
  if (!ended) throw new Error('unexpected end of the zlib stream');
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}
