/**
 * The uncompressed DDS images a TRRN packet stores as its texture blend maps (spec §2.3:
 * DDS A's R, G, B, A = intensity of textures 0–3, DDS B's R, G = textures 4–5). nwn-lib-d
 * reads them as "32 bit DDS bitmaps" and samples pixels directly (its Dds.getPixel refuses
 * compressed images), so only uncompressed RGB(A) images with channel masks are decoded
 * here; a compressed (FourCC) or malformed image gives undefined and the caller falls back.
 */
export interface BlendMap {
  width: number;
  height: number;
  /** r, g, b, a (0–255) per pixel of the top mip level, row by row as stored. */
  rgba: Uint8Array;
}

const DDS_MAGIC = 0x20534444; // "DDS "
const HEADER_BYTES = 4 + 124;
const DDPF_FOURCC = 0x4;
/** Blend maps are small (the toolset's are megatile-sized); this bounds a garbage header's allocation. */
const MAX_SIDE = 4096;

function maskShift(mask: number): { shift: number; max: number } {
  if (mask === 0) return { shift: 0, max: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  return { shift, max: mask >>> shift };
}

/** Decodes the top level of an uncompressed 16/24/32-bit DDS; undefined for anything else. */
export function readBlendMap(bytes: Uint8Array): BlendMap | undefined {
  if (bytes.length < HEADER_BYTES) return undefined;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (dv.getUint32(0, true) !== DDS_MAGIC || dv.getUint32(4, true) !== 124) return undefined;
  const height = dv.getUint32(12, true);
  const width = dv.getUint32(16, true);
  const pfFlags = dv.getUint32(80, true);
  const bits = dv.getUint32(88, true);
  if ((pfFlags & DDPF_FOURCC) !== 0) return undefined;
  if (width === 0 || height === 0 || width > MAX_SIDE || height > MAX_SIDE) return undefined;
  if (bits !== 16 && bits !== 24 && bits !== 32) return undefined;
  const bpp = bits / 8;
  if (bytes.length - HEADER_BYTES < width * height * bpp) return undefined;
  const masks = [dv.getUint32(92, true), dv.getUint32(96, true), dv.getUint32(100, true), dv.getUint32(104, true)].map(maskShift);
  const rgba = new Uint8Array(width * height * 4);
  for (let p = 0, o = HEADER_BYTES; p < width * height; p++, o += bpp) {
    const word = bpp === 4 ? dv.getUint32(o, true) : bpp === 3 ? bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16) : dv.getUint16(o, true);
    for (let c = 0; c < 4; c++) {
      const m = masks[c]!;
      rgba[p * 4 + c] = m.max === 0 ? 0 : Math.round((((word >>> m.shift) & m.max) * 255) / m.max);
    }
  }
  return { width, height, rgba };
}

/** The pixel nearest (u, v) in 0..1 (u along a row, v down the rows), channel c. */
export function sampleBlendMap(map: BlendMap, u: number, v: number, c: number): number {
  const x = Math.min(map.width - 1, Math.max(0, Math.round(u * (map.width - 1))));
  const y = Math.min(map.height - 1, Math.max(0, Math.round(v * (map.height - 1))));
  return map.rgba[(y * map.width + x) * 4 + c]!;
}

/** A 32-bit A8R8G8B8 DDS (the layout nwn-lib-d reads), for writers of test packets and for round trips. */
export function writeBlendMap(map: BlendMap): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES + map.width * map.height * 4);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, DDS_MAGIC, true);
  dv.setUint32(4, 124, true);
  dv.setUint32(8, 0x1 | 0x2 | 0x4 | 0x8 | 0x1000, true);
  dv.setUint32(12, map.height, true);
  dv.setUint32(16, map.width, true);
  dv.setUint32(20, map.width * 4, true);
  dv.setUint32(76, 32, true);
  dv.setUint32(80, 0x40 | 0x1, true);
  dv.setUint32(88, 32, true);
  dv.setUint32(92, 0x00ff0000, true);
  dv.setUint32(96, 0x0000ff00, true);
  dv.setUint32(100, 0x000000ff, true);
  dv.setUint32(104, 0xff000000, true);
  dv.setUint32(108, 0x1000, true);
  for (let p = 0; p < map.width * map.height; p++) {
    const o = HEADER_BYTES + p * 4;
    out[o] = map.rgba[p * 4 + 2]!;
    out[o + 1] = map.rgba[p * 4 + 1]!;
    out[o + 2] = map.rgba[p * 4]!;
    out[o + 3] = map.rgba[p * 4 + 3]!;
  }
  return out;
}
