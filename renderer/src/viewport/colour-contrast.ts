import type { Rgb } from './face-colours';

/**
 * How readable a line is over a face, measured as WCAG 2 contrast ratios (1..21) on sRGB
 * colours in 0..1, for normal vision and simulated protanopia and deuteranopia. WCAG 2.1
 * SC 1.4.11 asks 3:1 for graphical objects; the overlays are held to it.
 */
export type Vision = 'normal' | 'protanopia' | 'deuteranopia';

export const VISIONS: readonly Vision[] = ['normal', 'protanopia', 'deuteranopia'];

function toLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function toSrgb(c: number): number {
  const v = Math.min(1, Math.max(0, c));
  return v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055;
}

/**
 * Machado, Oliveira & Fernandes (2009) matrices at severity 1.0, applied to linear RGB: the
 * colour a dichromat sees, as the sRGB colour a trichromat would need to see the same.
 */
const CVD: Record<Exclude<Vision, 'normal'>, readonly number[]> = {
  protanopia: [0.152286, 1.052583, -0.204868, 0.114503, 0.786281, 0.099216, -0.003882, -0.048116, 1.051998],
  deuteranopia: [0.367322, 0.860646, -0.227968, 0.280085, 0.672501, 0.047413, -0.01182, 0.04294, 0.968881],
};

export function simulate(rgb: Rgb, vision: Vision): Rgb {
  if (vision === 'normal') return rgb;
  const m = CVD[vision];
  const l = rgb.map(toLinear);
  const out = [0, 1, 2].map((r) => toSrgb(m[r * 3]! * l[0]! + m[r * 3 + 1]! * l[1]! + m[r * 3 + 2]! * l[2]!));
  return [out[0]!, out[1]!, out[2]!];
}

/** WCAG 2 relative luminance (0 black .. 1 white). */
export function relativeLuminance(rgb: Rgb): number {
  return 0.2126 * toLinear(rgb[0]) + 0.7152 * toLinear(rgb[1]) + 0.0722 * toLinear(rgb[2]);
}

/** WCAG 2 contrast ratio between two colours, as seen with `vision`. */
export function contrastRatio(a: Rgb, b: Rgb, vision: Vision = 'normal'): number {
  const la = relativeLuminance(simulate(a, vision));
  const lb = relativeLuminance(simulate(b, vision));
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * A line drawn over a wider casing line: its edge is seen where either the line itself
 * stands out from the face, or the casing stands out from the face and the line from the
 * casing (the casing then outlines it). The smaller of those two is what carries it.
 */
export function casedContrast(line: Rgb, casing: Rgb, face: Rgb, vision: Vision = 'normal'): number {
  const direct = contrastRatio(line, face, vision);
  const outlined = Math.min(contrastRatio(casing, face, vision), contrastRatio(line, casing, vision));
  return Math.max(direct, outlined);
}

/** CIE L*a*b* (D65) of an sRGB colour. */
export function toLab(rgb: Rgb): [number, number, number] {
  const [r, g, b] = rgb.map(toLinear) as [number, number, number];
  const x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const y = 0.2126729 * r + 0.7151522 * g + 0.072175 * b;
  const z = (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  const [fx, fy, fz] = [f(x), f(y), f(z)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** CIEDE2000 colour difference (Sharma, Wu & Dalal 2005), as seen with `vision`. */
export function deltaE2000(c1: Rgb, c2: Rgb, vision: Vision = 'normal'): number {
  const [L1, a1, b1] = toLab(simulate(c1, vision));
  const [L2, a2, b2] = toLab(simulate(c2, vision));
  const rad = Math.PI / 180;
  const C1 = Math.hypot(a1, b1);
  const C2 = Math.hypot(a2, b2);
  const Cm = (C1 + C2) / 2;
  const G = 0.5 * (1 - Math.sqrt(Cm ** 7 / (Cm ** 7 + 25 ** 7)));
  const a1p = (1 + G) * a1;
  const a2p = (1 + G) * a2;
  const C1p = Math.hypot(a1p, b1);
  const C2p = Math.hypot(a2p, b2);
  const hue = (b: number, a: number) => (b === 0 && a === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360);
  const h1p = hue(b1, a1p);
  const h2p = hue(b2, a2p);
  const dL = L2 - L1;
  const dC = C2p - C1p;
  let dh = 0;
  if (C1p * C2p !== 0) {
    dh = h2p - h1p;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dH = 2 * Math.sqrt(C1p * C2p) * Math.sin((dh / 2) * rad);
  const Lm = (L1 + L2) / 2;
  const Cmp = (C1p + C2p) / 2;
  let hm = h1p + h2p;
  if (C1p * C2p !== 0) {
    if (Math.abs(h1p - h2p) > 180) hm = h1p + h2p < 360 ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2;
    else hm = (h1p + h2p) / 2;
  }
  const T = 1 - 0.17 * Math.cos((hm - 30) * rad) + 0.24 * Math.cos(2 * hm * rad) + 0.32 * Math.cos((3 * hm + 6) * rad) - 0.2 * Math.cos((4 * hm - 63) * rad);
  const dTheta = 30 * Math.exp(-(((hm - 275) / 25) ** 2));
  const Rc = 2 * Math.sqrt(Cmp ** 7 / (Cmp ** 7 + 25 ** 7));
  const Sl = 1 + (0.015 * (Lm - 50) ** 2) / Math.sqrt(20 + (Lm - 50) ** 2);
  const Sc = 1 + 0.045 * Cmp;
  const Sh = 1 + 0.015 * Cmp * T;
  const Rt = -Math.sin(2 * dTheta * rad) * Rc;
  return Math.sqrt((dL / Sl) ** 2 + (dC / Sc) ** 2 + (dH / Sh) ** 2 + Rt * (dC / Sc) * (dH / Sh));
}

/**
 * Faces are lit (walkmesh-scene.ts: a hemispheric light, sky 1, ground 0.35): a floor is
 * drawn at about 0.98 of its colour, a wall at about 0.68, an overhang down to 0.35. The
 * contrast rule is checked at these shades.
 */
export const FACE_SHADES: readonly number[] = [1, 0.68, 0.35];

/** The smallest cased contrast of a line over a set of face colours, at every shade and vision. */
export function worstCasedContrast(line: Rgb, casing: Rgb, faces: readonly Rgb[]): { ratio: number; face: Rgb; vision: Vision } {
  let worst = { ratio: Infinity, face: faces[0] ?? ([0, 0, 0] as Rgb), vision: 'normal' as Vision };
  for (const face of faces) {
    for (const s of FACE_SHADES) {
      const shaded: Rgb = [face[0] * s, face[1] * s, face[2] * s];
      for (const vision of VISIONS) {
        const ratio = casedContrast(line, casing, shaded, vision);
        if (ratio < worst.ratio) worst = { ratio, face: shaded, vision };
      }
    }
  }
  return worst;
}
