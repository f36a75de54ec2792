/**
 * A decoder for raw LZMA (LZMA1) streams of known output size, as Source stores its
 * compressed map lumps (Valve's `lzma_header_t`: `LZMA`, actual size, compressed size,
 * 5 property bytes, then the stream). Written from the LZMA specification (Igor Pavlov's
 * lzma-specification.txt): a range decoder, adaptive bit models, literal, length and
 * distance coders. The whole output is the dictionary, so no window is kept; every
 * distance is checked against what was decoded. Each step emits at least one byte or
 * fails, so a stream cannot loop; reading past the input fails too.
 */

export class LzmaError extends Error {
  constructor(
    message: string,
    /** Bytes of the stream consumed when it failed. */
    readonly at: number,
  ) {
    super(message);
    this.name = 'LzmaError';
  }
}

/** lc + lp above this is refused (LZMA2's own limit; the SDK default is lc 3, lp 0). */
const MAX_LC_PLUS_LP = 4;
const PROB_INIT = 1024;
const STATES = 12;
const POS_BITS_MAX = 4;
const END_POS_MODEL = 14;
const FULL_DISTANCES = 128;
const ALIGN_BITS = 4;
const LEN_TO_POS_STATES = 4;
const MATCH_MIN_LEN = 2;

export interface LzmaProperties {
  lc: number;
  lp: number;
  pb: number;
  dictionarySize: number;
}

/** The 5 property bytes: (pb · 5 + lp) · 9 + lc, then the dictionary size (u32 LE). */
export function lzmaProperties(props: Uint8Array): LzmaProperties {
  if (props.length < 5) throw new LzmaError('the properties need 5 bytes', 0);
  let d = props[0]!;
  if (d >= 9 * 5 * 5) throw new LzmaError(`property byte ${d} is above 224`, 0);
  const lc = d % 9;
  d = (d - lc) / 9;
  const lp = d % 5;
  const pb = (d - lp) / 5;
  if (lc + lp > MAX_LC_PLUS_LP) throw new LzmaError(`lc ${lc} + lp ${lp} is above ${MAX_LC_PLUS_LP}`, 0);
  const dictionarySize = (props[1]! | (props[2]! << 8) | (props[3]! << 16) | (props[4]! << 24)) >>> 0;
  return { lc, lp, pb, dictionarySize };
}

/** Decodes `stream` to exactly `outSize` bytes. Throws LzmaError on a corrupt or short stream. */
export function lzmaDecode(stream: Uint8Array, props: Uint8Array, outSize: number): Uint8Array {
  const { lc, lp, pb, dictionarySize } = lzmaProperties(props);
  // The output grows as it is decoded (doubling, up to outSize), so a header that declares
  // far more than its stream holds costs only what the stream really decodes to.
  let out = new Uint8Array(Math.min(outSize, 65536));
  const room = (n: number): void => {
    if (pos + n <= out.length) return;
    const grown = new Uint8Array(Math.min(outSize, Math.max(out.length * 2, pos + n)));
    grown.set(out.subarray(0, pos));
    out = grown;
  };
  let pos = 0;
  let inPos = 0;
  const next = (): number => {
    if (inPos >= stream.length) throw new LzmaError(`the stream ends after ${stream.length} bytes with ${outSize - pos} bytes still to decode`, inPos);
    return stream[inPos++]!;
  };
  // Range decoder.
  if (next() !== 0) throw new LzmaError('the first stream byte is not 0', 0);
  let range = 0xffffffff;
  let code = ((next() << 24) | (next() << 16) | (next() << 8) | next()) >>> 0;
  if (code === range) throw new LzmaError('the range coder starts corrupt', inPos);
  const bit = (probs: Uint16Array, i: number): number => {
    const p = probs[i]!;
    const bound = (range >>> 11) * p;
    let b: number;
    if (code < bound) {
      range = bound;
      probs[i] = p + ((2048 - p) >>> 5);
      b = 0;
    } else {
      range -= bound;
      code -= bound;
      probs[i] = p - (p >>> 5);
      b = 1;
    }
    if (range < 0x1000000) {
      range = (range * 256) >>> 0;
      code = ((code * 256) >>> 0) + next();
    }
    return b;
  };
  const direct = (count: number): number => {
    let res = 0;
    for (let i = 0; i < count; i++) {
      range >>>= 1;
      let b = 0;
      if (code >= range) {
        code -= range;
        b = 1;
      }
      if (range < 0x1000000) {
        range = (range * 256) >>> 0;
        code = ((code * 256) >>> 0) + next();
      }
      res = res * 2 + b;
    }
    return res;
  };
  const tree = (probs: Uint16Array, base: number, bits: number): number => {
    let m = 1;
    for (let i = 0; i < bits; i++) m = (m << 1) + bit(probs, base + m);
    return m - (1 << bits);
  };
  const reverse = (probs: Uint16Array, base: number, bits: number): number => {
    let m = 1;
    let sym = 0;
    for (let i = 0; i < bits; i++) {
      const b = bit(probs, base + m);
      m = (m << 1) + b;
      sym |= b << i;
    }
    return sym;
  };

  const literal = new Uint16Array(0x300 << (lc + lp)).fill(PROB_INIT);
  const isMatch = new Uint16Array(STATES << POS_BITS_MAX).fill(PROB_INIT);
  const isRep = new Uint16Array(STATES).fill(PROB_INIT);
  const isRepG0 = new Uint16Array(STATES).fill(PROB_INIT);
  const isRepG1 = new Uint16Array(STATES).fill(PROB_INIT);
  const isRepG2 = new Uint16Array(STATES).fill(PROB_INIT);
  const isRep0Long = new Uint16Array(STATES << POS_BITS_MAX).fill(PROB_INIT);
  const posSlot = new Uint16Array(LEN_TO_POS_STATES << 6).fill(PROB_INIT);
  const posDecoders = new Uint16Array(1 + FULL_DISTANCES - END_POS_MODEL).fill(PROB_INIT);
  const align = new Uint16Array(1 << ALIGN_BITS).fill(PROB_INIT);
  const lenCoder = () => ({ choice: new Uint16Array(2).fill(PROB_INIT), low: new Uint16Array(16 << 3).fill(PROB_INIT), mid: new Uint16Array(16 << 3).fill(PROB_INIT), high: new Uint16Array(256).fill(PROB_INIT) });
  const matchLen = lenCoder();
  const repLen = lenCoder();
  const decodeLen = (c: ReturnType<typeof lenCoder>, posState: number): number => {
    if (bit(c.choice, 0) === 0) return tree(c.low, posState << 3, 3);
    if (bit(c.choice, 1) === 0) return 8 + tree(c.mid, posState << 3, 3);
    return 16 + tree(c.high, 0, 8);
  };

  const pbMask = (1 << pb) - 1;
  const lpMask = (1 << lp) - 1;
  let state = 0;
  let rep0 = 0, rep1 = 0, rep2 = 0, rep3 = 0;
  while (pos < outSize) {
    const posState = pos & pbMask;
    if (bit(isMatch, (state << POS_BITS_MAX) + posState) === 0) {
      const prev = pos > 0 ? out[pos - 1]! : 0;
      const base = 0x300 * (((pos & lpMask) << lc) + (prev >>> (8 - lc)));
      let symbol = 1;
      if (state >= 7) {
        let matchByte = out[pos - rep0 - 1]!;
        do {
          const matchBit = (matchByte >>> 7) & 1;
          matchByte <<= 1;
          const b = bit(literal, base + ((1 + matchBit) << 8) + symbol);
          symbol = (symbol << 1) | b;
          if (matchBit !== b) break;
        } while (symbol < 0x100);
      }
      while (symbol < 0x100) symbol = (symbol << 1) | bit(literal, base + symbol);
      room(1);
      out[pos++] = symbol - 0x100;
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    let len: number;
    if (bit(isRep, state) !== 0) {
      if (pos === 0) throw new LzmaError('a repeated match before any output', inPos);
      if (bit(isRepG0, state) === 0) {
        if (bit(isRep0Long, (state << POS_BITS_MAX) + posState) === 0) {
          state = state < 7 ? 9 : 11;
          room(1);
          out[pos] = out[pos - rep0 - 1]!;
          pos++;
          continue;
        }
      } else {
        let dist: number;
        if (bit(isRepG1, state) === 0) dist = rep1;
        else {
          if (bit(isRepG2, state) === 0) dist = rep2;
          else {
            dist = rep3;
            rep3 = rep2;
          }
          rep2 = rep1;
        }
        rep1 = rep0;
        rep0 = dist;
      }
      len = decodeLen(repLen, posState);
      state = state < 7 ? 8 : 11;
    } else {
      rep3 = rep2;
      rep2 = rep1;
      rep1 = rep0;
      len = decodeLen(matchLen, posState);
      state = state < 7 ? 7 : 10;
      const lenState = Math.min(len, LEN_TO_POS_STATES - 1);
      const slot = tree(posSlot, lenState << 6, 6);
      if (slot < 4) rep0 = slot;
      else {
        const directBits = (slot >>> 1) - 1;
        let dist = (2 | (slot & 1)) * 2 ** directBits;
        if (slot < END_POS_MODEL) dist += reverse(posDecoders, dist - slot, directBits);
        else dist += direct(directBits - ALIGN_BITS) * 2 ** ALIGN_BITS + reverse(align, 0, ALIGN_BITS);
        rep0 = dist;
      }
      if (rep0 === 0xffffffff) throw new LzmaError(`the end marker after ${pos} of ${outSize} bytes`, inPos);
      if (rep0 >= pos || rep0 >= Math.max(dictionarySize, 4096)) throw new LzmaError(`a match distance ${rep0 + 1} beyond the ${pos} bytes decoded`, inPos);
    }
    len += MATCH_MIN_LEN;
    if (len > outSize - pos) throw new LzmaError(`a match of ${len} bytes runs past the ${outSize}-byte output`, inPos);
    const from = pos - rep0 - 1;
    room(len);
    for (let k = 0; k < len; k++) out[pos + k] = out[from + k]!;
    pos += len;
  }
  return out;
}
