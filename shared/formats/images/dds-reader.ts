import { MalformedInputError } from '../../binary/malformed-input-error';
import type { ReadMemoryBound } from '../../binary/read-budget';
import { MAX_IMAGE_PIXELS, type RgbaImage } from './rgba-image';

export const DDS_FORMAT = 'dds';

/**
 * Memory bound of readDds: the RGBA of the top level only. A header's sizes are checked
 * against the file length before the output is allocated, so the output is at most 8 bytes
 * per input byte (DXT1: 8 bytes give 16 pixels of 4 bytes), 4/3 per byte for 24-bit.
 */
export const DDS_READ_MEMORY: ReadMemoryBound = { perInputByte: 9, perDecompressedByte: 0 };

const MAGIC = 0x20534444; // "DDS "
const HEADER_BYTES = 128;
const DDPF_ALPHAPIXELS = 0x1;
const DDPF_FOURCC = 0x4;
const DDPF_RGB = 0x40;
const DXT1 = 0x31545844;
const DXT3 = 0x33545844;
const DXT5 = 0x35545844;

function fourCCText(v: number): string {
  return JSON.stringify(String.fromCharCode(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff));
}

/**
 * Decodes the top mip level of a DDS texture (Microsoft's "DDS file layout": a 124-byte
 * DDS_HEADER after the magic, DDS_PIXELFORMAT at offset 76) to RGBA: DXT1, DXT3 and DXT5
 * blocks (BC1–BC3), and uncompressed 16/24/32-bit RGB(A) with channel masks, the kinds NWN2
 * ships its textures in (the NWN2 custom-content guides convert diffuse maps to DXT5 with
 * nvdxt, neverwintervault.org "DDS Utilities by Nvidia for NWN2 models"). Anything else
 * (DX10 headers, luminance, cube maps' other faces are simply not read) is a clear error.
 */
export function readDds(bytes: Uint8Array, file?: string): RgbaImage {
  const fail = (offset: number, field: string, expected: string, found: string): never => {
    throw new MalformedInputError({ format: DDS_FORMAT, offset, field, expected, found, ...(file !== undefined ? { file } : {}) });
  };
  if (bytes.length < HEADER_BYTES) fail(0, 'header', `${HEADER_BYTES} bytes`, `${bytes.length} byte(s)`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (dv.getUint32(0, true) !== MAGIC) fail(0, 'magic', '"DDS "', fourCCText(dv.getUint32(0, true)));
  if (dv.getUint32(4, true) !== 124) fail(4, 'dwSize', '124', String(dv.getUint32(4, true)));
  const height = dv.getUint32(12, true);
  const width = dv.getUint32(16, true);
  if (width === 0 || height === 0) fail(width === 0 ? 16 : 12, width === 0 ? 'dwWidth' : 'dwHeight', 'at least 1', '0');
  if (width * height > MAX_IMAGE_PIXELS) fail(12, 'dwHeight × dwWidth', `at most ${MAX_IMAGE_PIXELS} pixels`, `${height} × ${width}`);
  const pfFlags = dv.getUint32(80, true);
  const available = bytes.length - HEADER_BYTES;
  if ((pfFlags & DDPF_FOURCC) !== 0) {
    const fourCC = dv.getUint32(84, true);
    const blockBytes = fourCC === DXT1 ? 8 : fourCC === DXT3 || fourCC === DXT5 ? 16 : 0;
    if (blockBytes === 0) fail(84, 'ddspf.dwFourCC', '"DXT1", "DXT3" or "DXT5"', fourCCText(fourCC));
    const bw = Math.ceil(width / 4);
    const bh = Math.ceil(height / 4);
    const need = bw * bh * blockBytes;
    if (need > available) fail(HEADER_BYTES, 'top mip level', `${need} bytes of ${fourCCText(fourCC)} blocks for ${width} × ${height}`, `${available} byte(s) after the header`);
    const rgba = new Uint8Array(width * height * 4);
    const block = new Uint8Array(64);
    for (let by = 0; by < bh; by++) {
      for (let bx = 0; bx < bw; bx++) {
        const at = HEADER_BYTES + (by * bw + bx) * blockBytes;
        if (fourCC === DXT1) decodeColourBlock(dv, at, block, true);
        else {
          decodeColourBlock(dv, at + 8, block, false);
          if (fourCC === DXT3) decodeExplicitAlpha(dv, at, block);
          else decodeInterpolatedAlpha(bytes, at, block);
        }
        for (let py = 0; py < 4; py++) {
          const y = by * 4 + py;
          if (y >= height) break;
          for (let px = 0; px < 4; px++) {
            const x = bx * 4 + px;
            if (x >= width) break;
            const s = (py * 4 + px) * 4, d = (y * width + x) * 4;
            rgba[d] = block[s]!;
            rgba[d + 1] = block[s + 1]!;
            rgba[d + 2] = block[s + 2]!;
            rgba[d + 3] = block[s + 3]!;
          }
        }
      }
    }
    return { width, height, rgba };
  }
  if ((pfFlags & DDPF_RGB) === 0) fail(80, 'ddspf.dwFlags', 'DDPF_FOURCC (DXT1/3/5) or DDPF_RGB', `0x${pfFlags.toString(16)}`);
  const bits = dv.getUint32(88, true);
  if (bits !== 16 && bits !== 24 && bits !== 32) fail(88, 'ddspf.dwRGBBitCount', '16, 24 or 32', String(bits));
  const bpp = bits / 8;
  const need = width * height * bpp;
  if (need > available) fail(HEADER_BYTES, 'top mip level', `${need} bytes of ${bits}-bit pixels for ${width} × ${height}`, `${available} byte(s) after the header`);
  const hasAlpha = (pfFlags & DDPF_ALPHAPIXELS) !== 0;
  const masks = [92, 96, 100, 104].map((o, c) => maskShift(c === 3 && !hasAlpha ? 0 : dv.getUint32(o, true)));
  const rgba = new Uint8Array(width * height * 4);
  for (let p = 0, o = HEADER_BYTES; p < width * height; p++, o += bpp) {
    const word = bpp === 4 ? dv.getUint32(o, true) : bpp === 3 ? bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16) : dv.getUint16(o, true);
    for (let c = 0; c < 4; c++) {
      const m = masks[c]!;
      rgba[p * 4 + c] = m.max === 0 ? (c === 3 ? 255 : 0) : Math.round((((word >>> m.shift) & m.max) * 255) / m.max);
    }
  }
  return { width, height, rgba };
}

function maskShift(mask: number): { shift: number; max: number } {
  if (mask === 0) return { shift: 0, max: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  return { shift, max: mask >>> shift };
}

/** R5G6B5 to 8-bit channels by bit replication (the D3D rule: 31 → 255, 63 → 255). */
export function expand565(c: number): [number, number, number] {
  const r = (c >>> 11) & 31, g = (c >>> 5) & 63, b = c & 31;
  return [(r << 3) | (r >>> 2), (g << 2) | (g >>> 4), (b << 3) | (b >>> 2)];
}

const PALETTE = new Uint8Array(16);

/**
 * A BC1 colour block: two R5G6B5 end points and 2-bit indices (pixel i at bits 2i, rows
 * top to bottom). With c0 > c1 (or always, for DXT3/5) the two middle colours are at 1/3
 * and 2/3; with c0 ≤ c1 in DXT1, the middle is the average and index 3 transparent black.
 * Interpolated channels are rounded to the nearest integer.
 */
function decodeColourBlock(dv: DataView, at: number, out: Uint8Array, dxt1: boolean): void {
  const c0 = dv.getUint16(at, true);
  const c1 = dv.getUint16(at + 2, true);
  const a = expand565(c0), b = expand565(c1);
  const palette = PALETTE;
  for (let k = 0; k < 3; k++) {
    palette[k] = a[k]!;
    palette[4 + k] = b[k]!;
    if (!dxt1 || c0 > c1) {
      palette[8 + k] = Math.round((2 * a[k]! + b[k]!) / 3);
      palette[12 + k] = Math.round((a[k]! + 2 * b[k]!) / 3);
    } else {
      palette[8 + k] = Math.round((a[k]! + b[k]!) / 2);
      palette[12 + k] = 0;
    }
  }
  palette[3] = palette[7] = palette[11] = 255;
  palette[15] = dxt1 && c0 <= c1 ? 0 : 255;
  const idx = dv.getUint32(at + 4, true);
  for (let i = 0; i < 16; i++) {
    const s = ((idx >>> (2 * i)) & 3) * 4;
    out[i * 4] = palette[s]!;
    out[i * 4 + 1] = palette[s + 1]!;
    out[i * 4 + 2] = palette[s + 2]!;
    out[i * 4 + 3] = palette[s + 3]!;
  }
}

/** DXT3 alpha: 4 bits per pixel (pixel i at bits 4i of the 64-bit word), times 17. */
function decodeExplicitAlpha(dv: DataView, at: number, out: Uint8Array): void {
  for (let i = 0; i < 16; i++) {
    const byte = dv.getUint8(at + (i >>> 1));
    out[i * 4 + 3] = ((i & 1) === 0 ? byte & 15 : byte >>> 4) * 17;
  }
}

const ALPHAS: number[] = [];

/**
 * DXT5 alpha: two 8-bit end points and 3-bit indices (pixel i at bits 3i of the 48 bits
 * after them). a0 > a1: six values between them at k/7; else four at k/5, then 0 and 255.
 */
function decodeInterpolatedAlpha(bytes: Uint8Array, at: number, out: Uint8Array): void {
  const a0 = bytes[at]!, a1 = bytes[at + 1]!;
  const alphas = ALPHAS;
  alphas.length = 0;
  alphas.push(a0, a1);
  if (a0 > a1) for (let k = 1; k <= 6; k++) alphas.push(Math.round(((7 - k) * a0 + k * a1) / 7));
  else {
    for (let k = 1; k <= 4; k++) alphas.push(Math.round(((5 - k) * a0 + k * a1) / 5));
    alphas.push(0, 255);
  }
  // 48 bits do not fit a 32-bit word: read them as two 24-bit halves of 8 indices each.
  const lo = bytes[at + 2]! | (bytes[at + 3]! << 8) | (bytes[at + 4]! << 16);
  const hi = bytes[at + 5]! | (bytes[at + 6]! << 8) | (bytes[at + 7]! << 16);
  for (let i = 0; i < 16; i++) out[i * 4 + 3] = alphas[((i < 8 ? lo >>> (3 * i) : hi >>> (3 * (i - 8))) & 7)]!;
}
