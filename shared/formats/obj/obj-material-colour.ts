import type { FaceAttributes } from './obj-material-name';

/**
 * A diffuse colour for the `.mtl` so the mesh reads at a glance in Blender: walkable
 * faces in greens, the rest in reds, with the hue and lightness varied by the material
 * value so neighbouring surfaces of different kinds stand apart.
 */
export function materialColour(attrs: FaceAttributes): [number, number, number] {
  const h = mix(attrs.material);
  const spread = (h & 0xff) / 255;
  const light = 0.4 + ((h >>> 8) & 0xff) / 255 * 0.25;
  const hue = attrs.walkable ? 85 + spread * 70 : (345 + spread * 35) % 360;
  return hslToRgb(hue, attrs.walkable ? 0.55 : 0.6, light);
}

function mix(v: number): number {
  let x = Math.imul(v ^ (v >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const sector = Math.floor(h / 60) % 6;
  const [r, g, b] =
    sector === 0 ? [c, x, 0] : sector === 1 ? [x, c, 0] : sector === 2 ? [0, c, x] : sector === 3 ? [0, x, c] : sector === 4 ? [x, 0, c] : [c, 0, x];
  return [r + m, g + m, b + m];
}
