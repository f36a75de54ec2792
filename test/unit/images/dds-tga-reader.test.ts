import { describe, expect, it } from 'vitest';
import { isMalformedInputError, type MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { expand565, readDds } from '../../../shared/formats/images/dds-reader';
import { readTga } from '../../../shared/formats/images/tga-reader';
import { dxt1Block, dxt3Block, dxt5Block, writeDxtDds, writeRgbDds } from '../../support/dds-writer';

function px(img: { width: number; rgba: Uint8Array }, x: number, y: number): number[] {
  return Array.from(img.rgba.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4));
}

function refused(f: () => unknown): MalformedInputError {
  try {
    f();
  } catch (e) {
    if (isMalformedInputError(e)) return e;
    throw e;
  }
  throw new Error('expected a MalformedInputError');
}

// R5G6B5 end points used below, with their 8-bit expansions worked out by hand:
// 0xF800 = (31, 0, 0) → (255, 0, 0); 0x001F = (0, 0, 31) → (0, 0, 255);
// 0x8410 = (16, 32, 16) → (16<<3|16>>2, 32<<2|32>>4, 16<<3|16>>2) = (132, 130, 132).
const RED = 0xf800;
const BLUE = 0x001f;
const GREY = 0x8410;

describe('DDS reader (top mip level)', () => {
  it('expands R5G6B5 by bit replication', () => {
    expect(expand565(RED)).toEqual([255, 0, 0]);
    expect(expand565(BLUE)).toEqual([0, 0, 255]);
    expect(expand565(GREY)).toEqual([132, 130, 132]);
    expect(expand565(0xffff)).toEqual([255, 255, 255]);
  });

  it('DXT1, four-colour mode (c0 > c1): indices 2 and 3 are 2/3 c0 + 1/3 c1 and 1/3 c0 + 2/3 c1', () => {
    // Pixel i gets index i % 4: row by row 0, 1, 2, 3.
    const img = readDds(writeDxtDds('DXT1', 4, 4, [dxt1Block(RED, BLUE, Array.from({ length: 16 }, (_, i) => i % 4))]));
    expect([img.width, img.height]).toEqual([4, 4]);
    expect(px(img, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(px(img, 1, 0)).toEqual([0, 0, 255, 255]);
    // round((2·255 + 0) / 3) = 170, round((255 + 0) / 3) = 85.
    expect(px(img, 2, 0)).toEqual([170, 0, 85, 255]);
    expect(px(img, 3, 0)).toEqual([85, 0, 170, 255]);
    expect(px(img, 3, 3)).toEqual([85, 0, 170, 255]);
  });

  it('DXT1, three-colour mode (c0 ≤ c1): index 2 is the average, index 3 transparent black', () => {
    const img = readDds(writeDxtDds('DXT1', 4, 4, [dxt1Block(BLUE, RED, Array.from({ length: 16 }, (_, i) => i % 4))]));
    expect(px(img, 0, 0)).toEqual([0, 0, 255, 255]);
    expect(px(img, 1, 0)).toEqual([255, 0, 0, 255]);
    // round((0 + 255) / 2) = 128 (127.5 rounds up).
    expect(px(img, 2, 0)).toEqual([128, 0, 128, 255]);
    expect(px(img, 3, 0)).toEqual([0, 0, 0, 0]);
  });

  it('DXT5: eight-alpha mode (a0 > a1) and six-alpha mode with 0 and 255', () => {
    const colour = dxt1Block(GREY, GREY, new Array<number>(16).fill(0));
    const idx = Array.from({ length: 16 }, (_, i) => i % 8);
    const eight = readDds(writeDxtDds('DXT5', 4, 4, [dxt5Block(200, 60, idx, colour)]));
    // a_k = round(((7 − (k−1))·a0 + (k−1)·a1) / 7) for indices 2..7: 180, 160, 140, 120, 100, 80.
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((i) => px(eight, i % 4, i >> 2)[3])).toEqual([200, 60, 180, 160, 140, 120, 100, 80]);
    expect([8, 15].map((i) => px(eight, i % 4, i >> 2)[3])).toEqual([200, 80]);
    expect(px(eight, 0, 0).slice(0, 3)).toEqual([132, 130, 132]);
    const six = readDds(writeDxtDds('DXT5', 4, 4, [dxt5Block(50, 150, idx, colour)]));
    // a0 ≤ a1: indices 2..5 at k/5 (70, 90, 110, 130), 6 → 0, 7 → 255.
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((i) => px(six, i % 4, i >> 2)[3])).toEqual([50, 150, 70, 90, 110, 130, 0, 255]);
  });

  it('DXT3: explicit 4-bit alpha times 17; its colour block is always four-colour', () => {
    // c0 ≤ c1 would be three-colour in DXT1; in DXT3 index 3 is still 1/3 c0 + 2/3 c1.
    const img = readDds(writeDxtDds('DXT3', 4, 4, [dxt3Block(Array.from({ length: 16 }, (_, i) => i), dxt1Block(BLUE, RED, new Array<number>(16).fill(3)))]));
    expect(Array.from({ length: 16 }, (_, i) => px(img, i % 4, i >> 2)[3])).toEqual(Array.from({ length: 16 }, (_, i) => i * 17));
    expect(px(img, 0, 0).slice(0, 3)).toEqual([170, 0, 85]);
  });

  it('crops blocks at an edge that is not a multiple of 4 and lays blocks out row by row', () => {
    const blocks = [RED, BLUE, GREY, 0xffff].map((c) => dxt1Block(c, 0, new Array<number>(16).fill(0)));
    const img = readDds(writeDxtDds('DXT1', 6, 5, blocks));
    expect([img.width, img.height, img.rgba.length]).toEqual([6, 5, 6 * 5 * 4]);
    expect(px(img, 3, 3)).toEqual([255, 0, 0, 255]);
    expect(px(img, 4, 0)).toEqual([0, 0, 255, 255]);
    expect(px(img, 0, 4)).toEqual([132, 130, 132, 255]);
    expect(px(img, 5, 4)).toEqual([255, 255, 255, 255]);
  });

  it('uncompressed 24-bit and 32-bit RGB(A) by their channel masks', () => {
    const rgba = new Uint8Array([10, 20, 30, 40, 250, 128, 0, 255, 1, 2, 3, 0, 99, 98, 97, 96]);
    const a = readDds(writeRgbDds(2, 2, rgba, 32));
    expect(Array.from(a.rgba)).toEqual(Array.from(rgba));
    const b = readDds(writeRgbDds(2, 2, rgba, 24));
    expect(px(b, 0, 0)).toEqual([10, 20, 30, 255]);
    expect(px(b, 1, 1)).toEqual([99, 98, 97, 255]);
  });

  it('refuses bad input with an error naming the file and the field', () => {
    const good = writeDxtDds('DXT1', 8, 8, Array.from({ length: 4 }, () => dxt1Block(RED, 0, new Array<number>(16).fill(0))));
    const truncated = refused(() => readDds(good.subarray(0, good.length - 1), 'tt_grass01.dds'));
    expect(truncated.file).toBe('tt_grass01.dds');
    expect(truncated.field).toBe('top mip level');
    expect(truncated.message).toContain('tt_grass01.dds');
    expect(refused(() => readDds(good.subarray(0, 100))).field).toBe('header');
    const huge = good.slice();
    new DataView(huge.buffer).setUint32(12, 0x7fffffff, true);
    new DataView(huge.buffer).setUint32(16, 0x7fffffff, true);
    expect(refused(() => readDds(huge)).field).toBe('dwHeight × dwWidth');
    // Large but under the pixel cap: refused because the file cannot hold the blocks, before the RGBA is allocated.
    const big = good.slice();
    new DataView(big.buffer).setUint32(12, 4096, true);
    new DataView(big.buffer).setUint32(16, 4096, true);
    expect(refused(() => readDds(big)).field).toBe('top mip level');
    const dx10 = good.slice();
    dx10.set([0x44, 0x58, 0x31, 0x30], 84);
    expect(refused(() => readDds(dx10)).field).toBe('ddspf.dwFourCC');
    const magic = good.slice();
    magic[0] = 0;
    expect(refused(() => readDds(magic)).field).toBe('magic');
    const zero = good.slice();
    new DataView(zero.buffer).setUint32(16, 0, true);
    expect(refused(() => readDds(zero)).field).toBe('dwWidth');
  });
});

function tga(type: 2 | 10, width: number, height: number, depth: 24 | 32, topFirst: boolean, body: number[]): Uint8Array {
  const out = new Uint8Array(18 + body.length);
  out[2] = type;
  new DataView(out.buffer).setUint16(12, width, true);
  new DataView(out.buffer).setUint16(14, height, true);
  out[16] = depth;
  out[17] = (topFirst ? 0x20 : 0) | (depth === 32 ? 8 : 0);
  out.set(body, 18);
  return out;
}

describe('TGA reader (truecolour, uncompressed and run-length)', () => {
  it('turns bottom-first rows and swaps BGR(A) to RGBA', () => {
    // Stored bottom row first: (B, G, R) = blue pixel, then red; the top row green, white.
    const img = readTga(tga(2, 2, 2, 24, false, [255, 0, 0, 0, 0, 255, 0, 255, 0, 255, 255, 255]));
    expect(px(img, 0, 1)).toEqual([0, 0, 255, 255]);
    expect(px(img, 1, 1)).toEqual([255, 0, 0, 255]);
    expect(px(img, 0, 0)).toEqual([0, 255, 0, 255]);
    expect(px(img, 1, 0)).toEqual([255, 255, 255, 255]);
  });

  it('mirrors rows stored right to left (descriptor bit 4)', () => {
    const file = tga(2, 2, 1, 24, true, [255, 0, 0, 0, 0, 255]);
    file[17]! |= 0x10;
    const img = readTga(file);
    expect(px(img, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(px(img, 1, 0)).toEqual([0, 0, 255, 255]);
  });

  it('reads run-length packets (a run of 3 and a raw packet of 1)', () => {
    const img = readTga(tga(10, 4, 1, 32, true, [0x82, 10, 20, 30, 40, 0x00, 1, 2, 3, 4]));
    expect(px(img, 0, 0)).toEqual([30, 20, 10, 40]);
    expect(px(img, 2, 0)).toEqual([30, 20, 10, 40]);
    expect(px(img, 3, 0)).toEqual([3, 2, 1, 4]);
  });

  it('refuses truncated data, runs past the image, colour-mapped images and huge sizes, naming the field', () => {
    expect(refused(() => readTga(tga(2, 2, 2, 24, true, [1, 2, 3]), 'tt_rock01.tga')).field).toBe('pixel data');
    expect(refused(() => readTga(tga(10, 2, 1, 24, true, [0x85, 1, 2, 3]))).field).toBe('run-length packet at pixel 0');
    expect(refused(() => readTga(tga(10, 2, 1, 24, true, [0x00, 1]))).field).toBe('raw packet at pixel 0');
    const mapped = tga(2, 1, 1, 24, true, [1, 2, 3]);
    mapped[2] = 1;
    expect(refused(() => readTga(mapped)).field).toBe('image type');
    // 65535 × 65535 is over the pixel cap; 4000 × 4000 RLE from 3 bytes cannot be held by the file.
    expect(refused(() => readTga(tga(2, 65535, 65535, 24, true, [1, 2, 3]))).field).toBe('width × height');
    expect(refused(() => readTga(tga(10, 4000, 4000, 24, true, [0xff, 1, 2, 3]))).field).toBe('run-length pixel data');
  });
});
