import { DDS_FORMAT, DDS_READ_MEMORY, readDds } from '../../../shared/formats/images/dds-reader';
import type { RgbaImage } from '../../../shared/formats/images/rgba-image';
import { readTga, TGA_FORMAT, TGA_READ_MEMORY } from '../../../shared/formats/images/tga-reader';
import { dxt1Block, dxt3Block, dxt5Block, writeDxtDds, writeRgbDds } from '../../support/dds-writer';
import type { CountField, FuzzTarget } from '../fuzz-target';

/**
 * The terrain-texture readers (issue 19): DDS (DXT1/3/5, uncompressed RGB(A)) and TGA
 * (truecolour, raw and run-length). No texture is among the fixtures (the game's are not
 * redistributable), so the seeds are built: blocks of every mode, odd sizes, both row
 * orders. An accepted image must have exactly width × height RGBA pixels.
 */
function checkImage(img: RgbaImage): void {
  if (img.rgba.length !== img.width * img.height * 4) throw new Error(`${img.width} × ${img.height} image with ${img.rgba.length} bytes`);
}

function ramp(n: number, seed: number): number[] {
  return Array.from({ length: n }, (_, i) => (i * 37 + seed * 11) & 0xff);
}

function ddsSeeds() {
  const colour = (a: number, b: number) => dxt1Block(a, b, ramp(16, a).map((v) => v & 3));
  const rgba = new Uint8Array(ramp(5 * 3 * 4, 3));
  return [
    { name: 'DXT1 8x8 (both colour modes)', bytes: writeDxtDds('DXT1', 8, 8, [colour(0xf800, 0x001f), colour(0x001f, 0xf800), colour(0x8410, 0x07e0), colour(0, 0xffff)]) },
    { name: 'DXT3 6x5', bytes: writeDxtDds('DXT3', 6, 5, [0, 1, 2, 3].map((k) => dxt3Block(ramp(16, k).map((v) => v & 15), colour(0x1234 + k, 0x4321)))) },
    { name: 'DXT5 4x4 (both alpha modes)', bytes: writeDxtDds('DXT5', 4, 8, [dxt5Block(200, 60, ramp(16, 1).map((v) => v & 7), colour(0xf800, 0x07e0)), dxt5Block(60, 200, ramp(16, 2).map((v) => v & 7), colour(0x07e0, 0xf800))]) },
    { name: '32-bit A8R8G8B8 5x3', bytes: writeRgbDds(5, 3, rgba, 32) },
    { name: '24-bit R8G8B8 5x3', bytes: writeRgbDds(5, 3, rgba, 24) },
  ];
}

function tgaSeed(type: 2 | 10, width: number, height: number, depth: 24 | 32, topFirst: boolean, body: number[]): Uint8Array {
  const out = new Uint8Array(18 + body.length);
  out[2] = type;
  new DataView(out.buffer).setUint16(12, width, true);
  new DataView(out.buffer).setUint16(14, height, true);
  out[16] = depth;
  out[17] = topFirst ? 0x20 : 0;
  out.set(body, 18);
  return out;
}

/** Width, height and (DDS) the pitch and mip count: what a mutation should make huge. */
const ddsCounts = (): CountField[] => [
  { offset: 12, byteWidth: 4, kind: 'dwHeight' },
  { offset: 16, byteWidth: 4, kind: 'dwWidth' },
  { offset: 88, byteWidth: 4, kind: 'dwRGBBitCount' },
];

export const ddsTarget: FuzzTarget<unknown> = {
  name: 'dds',
  description: 'DDS texture reader (DXT1/3/5, uncompressed RGB(A), top mip level)',
  format: DDS_FORMAT,
  memoryFactor: DDS_READ_MEMORY.perInputByte,
  loadCorpus: () => ddsSeeds(),
  countFields: ddsCounts,
  parse: (bytes) => readDds(bytes, 'fuzz.dds'),
  check: (img) => checkImage(img as RgbaImage),
};

export const tgaTarget: FuzzTarget<unknown> = {
  name: 'tga',
  description: 'TGA texture reader (truecolour 24/32-bit, raw and run-length)',
  format: TGA_FORMAT,
  memoryFactor: TGA_READ_MEMORY.perInputByte,
  loadCorpus: () => [
    { name: 'raw 24-bit 3x2 bottom first', bytes: tgaSeed(2, 3, 2, 24, false, ramp(18, 1)) },
    { name: 'run-length 32-bit 8x2 top first', bytes: tgaSeed(10, 8, 2, 32, true, [0x83, ...ramp(4, 2), 0x03, ...ramp(16, 3), 0x87, ...ramp(4, 4)]) },
  ],
  countFields: () => [
    { offset: 12, byteWidth: 2, kind: 'width' },
    { offset: 14, byteWidth: 2, kind: 'height' },
    { offset: 0, byteWidth: 1, kind: 'idLength' },
  ],
  parse: (bytes) => readTga(bytes, 'fuzz.tga'),
  check: (img) => checkImage(img as RgbaImage),
};
