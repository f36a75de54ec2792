import type { RgbaImage } from '../images/rgba-image';
import type { BlendMap } from './blend-map';
import type { TrrnPayload } from './trrn-packet';

/** Pixels per side of a megatile's composed image: 128 × 128 × 4 = 64 KiB per 40 m megatile. */
export const MEGATILE_TEXTURE_SIDE = 128;
/**
 * How often each texture repeats across a megatile when the packet's vertex UVs do not say:
 * once per 10 m tile. Neither the spec nor the sources read (xoreos skips the vertex UVs as
 * "some texture coordinates?") give the toolset's rule, so this is a choice.
 */
export const DEFAULT_TEXTURE_REPEATS = 4;
const MIN_REPEATS = 0.25;
const MAX_REPEATS = 64;

/**
 * The repeat count across the megatile: the span of the stored vertex u over the packet,
 * taken as the texture coordinate (spec §2.3's "float2 uv"; the generated exteriors store
 * 0–10 across a megatile), when it is finite and between 0.25 and 64; else the default.
 * Checked on no real exterior (0 files: no public TRX has TRRN packets small enough for the
 * fixtures), only on packets generated to the spec.
 */
export function textureRepeats(t: TrrnPayload): number {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < t.uvs.length; i += 2) {
    const u = t.uvs[i]!;
    if (!Number.isFinite(u)) return DEFAULT_TEXTURE_REPEATS;
    if (u < lo) lo = u;
    if (u > hi) hi = u;
  }
  const span = hi - lo;
  return span >= MIN_REPEATS && span <= MAX_REPEATS ? span : DEFAULT_TEXTURE_REPEATS;
}

/** `image` averaged down (box filter) to `side` × `side`, so a 1024-pixel texture repeated in 32 pixels does not alias. */
export function shrinkTexture(image: RgbaImage, side: number): RgbaImage {
  const out = new Uint8Array(side * side * 4);
  const sum = new Float64Array(4);
  for (let y = 0; y < side; y++) {
    const y0 = Math.floor((y * image.height) / side);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * image.height) / side));
    for (let x = 0; x < side; x++) {
      const x0 = Math.floor((x * image.width) / side);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * image.width) / side));
      sum.fill(0);
      for (let sy = y0; sy < y1; sy++) {
        for (let sx = x0; sx < x1; sx++) {
          const o = (sy * image.width + sx) * 4;
          for (let c = 0; c < 4; c++) sum[c]! += image.rgba[o + c]!;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      for (let c = 0; c < 4; c++) out[(y * side + x) * 4 + c] = Math.round(sum[c]! / n);
    }
  }
  return { width: side, height: side, rgba: out };
}

/**
 * Where each of `n` output pixels (centres at (i + 0.5) / n) falls between a blend map's
 * `size` pixel centres: u = 0 at the first centre, 1 at the last (as sampleBlendMap), the
 * lower index, the upper and the weight of the upper. Blending is separable, so a row and a
 * column of these serve the whole image.
 */
function axis(n: number, size: number): { lo: Int32Array; hi: Int32Array; t: Float64Array } {
  const lo = new Int32Array(n), hi = new Int32Array(n), t = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const f = ((i + 0.5) / n) * (size - 1);
    lo[i] = Math.floor(f);
    hi[i] = Math.min(lo[i]! + 1, size - 1);
    t[i] = f - lo[i]!;
  }
  return { lo, hi, t };
}

/** Channels `from`..`from + count - 1` of `map` at output pixel (x, y), bilinear, into `w` from `at`. */
function blendInto(map: BlendMap, ax: ReturnType<typeof axis>, ay: ReturnType<typeof axis>, x: number, y: number, count: number, w: Float64Array, at: number): void {
  const W = map.width;
  const tx = ax.t[x]!, ty = ay.t[y]!;
  const o00 = (ay.lo[y]! * W + ax.lo[x]!) * 4, o01 = (ay.lo[y]! * W + ax.hi[x]!) * 4;
  const o10 = (ay.hi[y]! * W + ax.lo[x]!) * 4, o11 = (ay.hi[y]! * W + ax.hi[x]!) * 4;
  const m = map.rgba;
  for (let c = 0; c < count; c++) {
    const top = m[o00 + c]! * (1 - tx) + m[o01 + c]! * tx;
    const bottom = m[o10 + c]! * (1 - tx) + m[o11 + c]! * tx;
    w[at + c] = top * (1 - ty) + bottom * ty;
  }
}

/** The side a texture is shrunk to when it repeats `repeats` times across `side` pixels. */
export function tileSideFor(repeats: number, side = MEGATILE_TEXTURE_SIDE): number {
  return Math.max(4, Math.min(side, Math.round(side / repeats)));
}

export interface MegatileTextureInput {
  /**
   * The six textures of the packet, in its order, each shrunk to a square of
   * tileSideFor(repeats, side) (shrinkTexture; callers keep one per texture and size, since
   * megatiles share textures); undefined where a name is empty or its texture missing.
   */
  tiles: readonly (RgbaImage | undefined)[];
  /** DDS A (textures 0–3) and DDS B (4–5) of the packet, decoded; without A every present texture weighs the same. */
  blendA: BlendMap | undefined;
  blendB: BlendMap | undefined;
  repeats: number;
  side?: number;
}

/**
 * One RGBA image for a megatile: at each pixel, its textures (each repeated `repeats` times
 * across the megatile) weighted by the blend maps at that place (spec §2.3: DDS A's R, G,
 * B, A for textures 0–3, DDS B's R, G for 4–5), normalised over the textures present. The
 * image spans the megatile's x/y box as the blend maps do (row 0 at the box's low y, the
 * orientation nwn2-level-context.ts samples the blend maps in); a pixel whose weights are
 * all zero takes the present textures equally. Opaque (alpha 255): texture alpha is not a
 * terrain's transparency. Cost: side² × textures.
 */
export function composeMegatileTexture(input: MegatileTextureInput): RgbaImage {
  const side = input.side ?? MEGATILE_TEXTURE_SIDE;
  const tiles = input.tiles;
  const tileSide = tileSideFor(input.repeats, side);
  for (const t of tiles) if (t && (t.width !== tileSide || t.height !== tileSide)) throw new RangeError(`composeMegatileTexture: a tile of ${t.width} × ${t.height}, expected ${tileSide} × ${tileSide}`);
  const present: number[] = tiles.map((t) => (t ? 1 : 0));
  const presentCount = present.reduce((a, b) => a + b, 0);
  const out = new Uint8Array(side * side * 4);
  const w = new Float64Array(6);
  const { blendA, blendB } = input;
  const axA = blendA && axis(side, blendA.width), ayA = blendA && axis(side, blendA.height);
  const axB = blendB && axis(side, blendB.width), ayB = blendB && axis(side, blendB.height);
  const tileAt = new Int32Array(side);
  for (let i = 0; i < side; i++) {
    const f = (((i + 0.5) / side) * input.repeats) % 1;
    tileAt[i] = Math.min(tileSide - 1, Math.floor(f * tileSide));
  }
  for (let y = 0; y < side; y++) {
    const ty = tileAt[y]!;
    for (let x = 0; x < side; x++) {
      const tx = tileAt[x]!;
      if (!blendA) w.fill(1);
      else {
        blendInto(blendA, axA!, ayA!, x, y, 4, w, 0);
        if (blendB) blendInto(blendB, axB!, ayB!, x, y, 2, w, 4);
        else w[4] = w[5] = 0;
      }
      let sum = 0;
      for (let k = 0; k < 6; k++) {
        if (!present[k]) w[k] = 0;
        sum += w[k]!;
      }
      if (sum <= 0) {
        for (let k = 0; k < 6; k++) w[k] = present[k]!;
        sum = presentCount;
      }
      const o = (y * side + x) * 4;
      let r = 0, g = 0, b = 0;
      if (sum > 0) {
        const p = (ty * tileSide + tx) * 4;
        for (let k = 0; k < 6; k++) {
          if (w[k] === 0) continue;
          const f = w[k]! / sum;
          const t = tiles[k]!.rgba;
          r += f * t[p]!;
          g += f * t[p + 1]!;
          b += f * t[p + 2]!;
        }
      }
      out[o] = Math.round(r);
      out[o + 1] = Math.round(g);
      out[o + 2] = Math.round(b);
      out[o + 3] = 255;
    }
  }
  return { width: side, height: side, rgba: out };
}
