/** A decoded picture: r, g, b, a (0–255) per pixel, row 0 at the top, rows left to right. */
export interface RgbaImage {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/**
 * The most pixels an image reader decodes (4096 × 4096, 64 MiB of RGBA). Game textures are
 * 512–2048 on a side; a header asking for more is refused before anything is allocated.
 */
export const MAX_IMAGE_PIXELS = 4096 * 4096;
