/**
 * Small DDS files for tests, from blocks or pixels given by the test (no encoder: the test
 * states each block's bytes, so the decoded values can be worked out by hand from the DXT
 * formulas). Layout: Microsoft's DDS_HEADER (124 bytes after "DDS "), DDS_PIXELFORMAT at 76.
 */
export type DxtKind = 'DXT1' | 'DXT3' | 'DXT5';

function header(width: number, height: number, body: number): { out: Uint8Array; dv: DataView } {
  const out = new Uint8Array(128 + body);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x20534444, true);
  dv.setUint32(4, 124, true);
  dv.setUint32(8, 0x1 | 0x2 | 0x4 | 0x1000, true);
  dv.setUint32(12, height, true);
  dv.setUint32(16, width, true);
  dv.setUint32(28, 1, true);
  dv.setUint32(76, 32, true);
  dv.setUint32(108, 0x1000, true);
  return { out, dv };
}

/** A DXT image of `width` × `height` whose blocks (row by row) are given as bytes (8 or 16 each). */
export function writeDxtDds(kind: DxtKind, width: number, height: number, blocks: readonly Uint8Array[]): Uint8Array {
  const body = blocks.reduce((n, b) => n + b.length, 0);
  const { out, dv } = header(width, height, body);
  dv.setUint32(80, 0x4, true);
  for (let i = 0; i < 4; i++) out[84 + i] = kind.charCodeAt(i);
  let o = 128;
  for (const b of blocks) {
    out.set(b, o);
    o += b.length;
  }
  return out;
}

/** One DXT1 block: end points c0, c1 (R5G6B5) and 16 two-bit indices (pixel 0 first). */
export function dxt1Block(c0: number, c1: number, indices: readonly number[]): Uint8Array {
  const b = new Uint8Array(8);
  const dv = new DataView(b.buffer);
  dv.setUint16(0, c0, true);
  dv.setUint16(2, c1, true);
  let bits = 0;
  for (let i = 0; i < 16; i++) bits |= (indices[i]! & 3) << (2 * i);
  dv.setUint32(4, bits >>> 0, true);
  return b;
}

/** One DXT5 block: alpha end points, 16 three-bit alpha indices, then a colour block. */
export function dxt5Block(a0: number, a1: number, alphaIndices: readonly number[], colour: Uint8Array): Uint8Array {
  const b = new Uint8Array(16);
  b[0] = a0;
  b[1] = a1;
  let lo = 0, hi = 0;
  for (let i = 0; i < 8; i++) lo |= (alphaIndices[i]! & 7) << (3 * i);
  for (let i = 0; i < 8; i++) hi |= (alphaIndices[8 + i]! & 7) << (3 * i);
  b[2] = lo & 0xff; b[3] = (lo >>> 8) & 0xff; b[4] = (lo >>> 16) & 0xff;
  b[5] = hi & 0xff; b[6] = (hi >>> 8) & 0xff; b[7] = (hi >>> 16) & 0xff;
  b.set(colour, 8);
  return b;
}

/** One DXT3 block: 16 four-bit alphas, then a colour block. */
export function dxt3Block(alphas: readonly number[], colour: Uint8Array): Uint8Array {
  const b = new Uint8Array(16);
  for (let i = 0; i < 16; i++) b[i >>> 1]! |= (alphas[i]! & 15) << ((i & 1) * 4);
  b.set(colour, 8);
  return b;
}

/** An uncompressed DDS: 24-bit B, G, R or 32-bit B, G, R, A per pixel (the D3D X8R8G8B8/A8R8G8B8 masks). */
export function writeRgbDds(width: number, height: number, rgba: Uint8Array, bits: 24 | 32): Uint8Array {
  const bpp = bits / 8;
  const { out, dv } = header(width, height, width * height * bpp);
  dv.setUint32(80, 0x40 | (bits === 32 ? 0x1 : 0), true);
  dv.setUint32(88, bits, true);
  dv.setUint32(92, 0x00ff0000, true);
  dv.setUint32(96, 0x0000ff00, true);
  dv.setUint32(100, 0x000000ff, true);
  dv.setUint32(104, bits === 32 ? 0xff000000 : 0, true);
  for (let p = 0; p < width * height; p++) {
    const o = 128 + p * bpp;
    out[o] = rgba[p * 4 + 2]!;
    out[o + 1] = rgba[p * 4 + 1]!;
    out[o + 2] = rgba[p * 4]!;
    if (bpp === 4) out[o + 3] = rgba[p * 4 + 3]!;
  }
  return out;
}

/** A DXT1 texture of one colour (R5G6B5 `c`, every index 0), `side` × `side` (a multiple of 4). */
export function solidDxt1(side: number, c: number): Uint8Array {
  const blocks = Array.from({ length: (side / 4) * (side / 4) }, () => dxt1Block(c, 0, new Array<number>(16).fill(0)));
  return writeDxtDds('DXT1', side, side, blocks);
}
