import { MalformedInputError } from '../../binary/malformed-input-error';
import type { ReadMemoryBound } from '../../binary/read-budget';
import { MAX_IMAGE_PIXELS, type RgbaImage } from './rgba-image';

export const TGA_FORMAT = 'tga';

const HEADER_BYTES = 18;
/** An RLE packet of one pixel stands for at most 128 pixels. */
const MAX_RUN = 128;

/**
 * Memory bound of readTga: the RGBA output. For an uncompressed image the pixels must be in
 * the file (4/3 output bytes per input byte); an RLE image is refused unless the file could
 * hold it (every packet at most 128 pixels from 1 + 3 bytes): 32 pixels of 4 bytes per
 * input byte. Rows stored bottom first (the common case) are turned in place.
 */
export const TGA_READ_MEMORY: ReadMemoryBound = { perInputByte: 140, perDecompressedByte: 0 };

/**
 * Decodes a truecolour Targa (Truevision TGA 2.0: type 2 uncompressed, type 10 run-length)
 * of 24 or 32 bits, BGR(A) per pixel, to RGBA rows top first (the descriptor's bit 5 says
 * whether the file stores them top first; bit 4 whether right to left). Colour-mapped and
 * grey images are refused with an error naming the field.
 */
export function readTga(bytes: Uint8Array, file?: string): RgbaImage {
  const fail = (offset: number, field: string, expected: string, found: string): never => {
    throw new MalformedInputError({ format: TGA_FORMAT, offset, field, expected, found, ...(file !== undefined ? { file } : {}) });
  };
  if (bytes.length < HEADER_BYTES) fail(0, 'header', `${HEADER_BYTES} bytes`, `${bytes.length} byte(s)`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const idLength = bytes[0]!;
  const colourMapType = bytes[1]!;
  const type = bytes[2]!;
  if (type !== 2 && type !== 10) fail(2, 'image type', '2 (truecolour) or 10 (run-length truecolour)', String(type));
  if (colourMapType > 1) fail(1, 'colour map type', '0 or 1', String(colourMapType));
  // A truecolour image may still carry a colour map (unused): skip it.
  const mapLength = colourMapType === 1 ? dv.getUint16(5, true) : 0;
  const mapEntryBits = colourMapType === 1 ? bytes[7]! : 0;
  const width = dv.getUint16(12, true);
  const height = dv.getUint16(14, true);
  const depth = bytes[16]!;
  const descriptor = bytes[17]!;
  if (width === 0 || height === 0) fail(width === 0 ? 12 : 14, width === 0 ? 'width' : 'height', 'at least 1', '0');
  if (width * height > MAX_IMAGE_PIXELS) fail(12, 'width × height', `at most ${MAX_IMAGE_PIXELS} pixels`, `${width} × ${height}`);
  if (depth !== 24 && depth !== 32) fail(16, 'pixel depth', '24 or 32', String(depth));
  const bpp = depth / 8;
  const start = HEADER_BYTES + idLength + mapLength * Math.ceil(mapEntryBits / 8);
  if (start > bytes.length) fail(HEADER_BYTES, 'image ID and colour map', `${start - HEADER_BYTES} bytes`, `${bytes.length - HEADER_BYTES} byte(s)`);
  const available = bytes.length - start;
  const pixels = width * height;
  if (type === 2 && pixels * bpp > available) fail(start, 'pixel data', `${pixels * bpp} bytes for ${width} × ${height}`, `${available} byte(s)`);
  if (type === 10 && pixels > Math.ceil(available / (1 + bpp)) * MAX_RUN) fail(start, 'run-length pixel data', `enough packets for ${width} × ${height}`, `${available} byte(s)`);
  const stored = new Uint8Array(pixels * 4);
  const put = (p: number, o: number) => {
    stored[p * 4] = bytes[o + 2]!;
    stored[p * 4 + 1] = bytes[o + 1]!;
    stored[p * 4 + 2] = bytes[o]!;
    stored[p * 4 + 3] = bpp === 4 ? bytes[o + 3]! : 255;
  };
  if (type === 2) for (let p = 0; p < pixels; p++) put(p, start + p * bpp);
  else {
    let o = start;
    for (let p = 0; p < pixels; ) {
      if (o >= bytes.length) fail(o, `run-length packet at pixel ${p}`, 'a packet header', 'the end of the file');
      const head = bytes[o++]!;
      const n = (head & 0x7f) + 1;
      if (p + n > pixels) fail(o - 1, `run-length packet at pixel ${p}`, `at most ${pixels - p} pixel(s)`, `${n}`);
      if (head & 0x80) {
        if (o + bpp > bytes.length) fail(o, `run-length packet at pixel ${p}`, `${bpp} bytes`, `${bytes.length - o} byte(s)`);
        for (let k = 0; k < n; k++) put(p + k, o);
        o += bpp;
      } else {
        if (o + n * bpp > bytes.length) fail(o, `raw packet at pixel ${p}`, `${n * bpp} bytes`, `${bytes.length - o} byte(s)`);
        for (let k = 0; k < n; k++) put(p + k, o + k * bpp);
        o += n * bpp;
      }
      p += n;
    }
  }
  // Turned in place (rows swapped, then each row mirrored), so no second image is held.
  if ((descriptor & 0x20) === 0) {
    const row = new Uint8Array(width * 4);
    for (let y = 0, z = height - 1; y < z; y++, z--) {
      row.set(stored.subarray(y * width * 4, (y + 1) * width * 4));
      stored.copyWithin(y * width * 4, z * width * 4, (z + 1) * width * 4);
      stored.set(row, z * width * 4);
    }
  }
  if ((descriptor & 0x10) !== 0) {
    const dv32 = new Uint32Array(stored.buffer, stored.byteOffset, pixels);
    for (let y = 0; y < height; y++) dv32.subarray(y * width, (y + 1) * width).reverse();
  }
  return { width, height, rgba: stored };
}
