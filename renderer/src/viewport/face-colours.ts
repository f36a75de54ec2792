import { NO_OWNER, type Walkmesh } from '../../../shared/model/walkmesh';
import { NO_ISLAND } from '../../../shared/views/face-islands';

export type ColourMode = 'walkable' | 'material' | 'island' | 'owner';

export type Rgb = readonly [number, number, number];

export interface LegendEntry {
  label: string;
  colour: Rgb;
  faces: number;
}

export interface FaceColouring {
  /** Per walkmesh, RGB per face (0..1). */
  faceRgb: Float32Array[];
  legend: LegendEntry[];
}

export const WALKABLE_RGB: Rgb = [0.33, 0.72, 0.38];
export const NON_WALKABLE_RGB: Rgb = [0.85, 0.3, 0.26];
export const OTHER_RGB: Rgb = [0.55, 0.57, 0.6];

/** Distinct, readable on the dark background; values beyond it share OTHER_RGB. */
const PALETTE: readonly Rgb[] = [
  [0.3, 0.62, 0.95],
  [0.96, 0.66, 0.23],
  [0.42, 0.8, 0.45],
  [0.88, 0.35, 0.55],
  [0.62, 0.48, 0.9],
  [0.25, 0.8, 0.8],
  [0.9, 0.85, 0.3],
  [0.85, 0.45, 0.3],
  [0.55, 0.75, 0.25],
  [0.95, 0.55, 0.8],
  [0.45, 0.55, 0.75],
  [0.75, 0.6, 0.45],
];

/**
 * Faces of one area, room or tile look alike in the walkable view; a small brightness
 * step per owner (hashed, ±12%) lets adjacent areas be told apart without an edge overlay.
 */
export function ownerShade(owner: number): number {
  let h = Math.imul(owner ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return 0.88 + ((h & 0xff) / 255) * 0.24;
}

function formatMaterial(value: number): string {
  return value === 0 ? '0 (none)' : `${value} (0x${value.toString(16)})`;
}

/**
 * Per-face colours for every walkmesh and the legend that explains them, in either mode:
 * walkable/non-walkable, or one colour per material/flags value (the most used values
 * first; the twelfth and later share one colour).
 */
export function colourFaces(meshes: readonly Walkmesh[], mode: ColourMode, faceIsland: readonly Int32Array[] = []): FaceColouring {
  const faceRgb = meshes.map((m) => new Float32Array(m.faceWalkable.length * 3));
  if (mode === 'island') return colourByKey(meshes, faceRgb, (i) => faceIsland[i], NO_ISLAND, (k) => `island ${k}`, 'not walkable', true);
  if (mode === 'owner') return colourByKey(meshes, faceRgb, (i) => meshes[i]!.faceOwner, NO_OWNER, ownerLabel(meshes), 'no owner', false);
  if (mode === 'walkable') {
    let walkable = 0;
    let blocked = 0;
    meshes.forEach((mesh, i) => {
      const out = faceRgb[i]!;
      for (let f = 0; f < mesh.faceWalkable.length; f++) {
        const isWalkable = mesh.faceWalkable[f] !== 0;
        if (isWalkable) walkable++;
        else blocked++;
        const base = isWalkable ? WALKABLE_RGB : NON_WALKABLE_RGB;
        const s = ownerShade(mesh.faceOwner[f]!);
        out[f * 3] = Math.min(1, base[0] * s);
        out[f * 3 + 1] = Math.min(1, base[1] * s);
        out[f * 3 + 2] = Math.min(1, base[2] * s);
      }
    });
    return {
      faceRgb,
      legend: [
        { label: 'walkable', colour: WALKABLE_RGB, faces: walkable },
        { label: 'not walkable', colour: NON_WALKABLE_RGB, faces: blocked },
      ],
    };
  }

  const counts = new Map<number, number>();
  for (const mesh of meshes) for (const v of mesh.faceMaterial) counts.set(v, (counts.get(v) ?? 0) + 1);
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const colourOf = new Map<number, Rgb>();
  ranked.slice(0, PALETTE.length).forEach(([value], i) => colourOf.set(value, PALETTE[i]!));
  meshes.forEach((mesh, i) => {
    const out = faceRgb[i]!;
    for (let f = 0; f < mesh.faceMaterial.length; f++) {
      const c = colourOf.get(mesh.faceMaterial[f]!) ?? OTHER_RGB;
      out[f * 3] = c[0];
      out[f * 3 + 1] = c[1];
      out[f * 3 + 2] = c[2];
    }
  });
  const legend: LegendEntry[] = ranked
    .slice(0, PALETTE.length)
    .map(([value, faces], i) => ({ label: formatMaterial(value), colour: PALETTE[i]!, faces }));
  const rest = ranked.slice(PALETTE.length);
  if (rest.length > 0) {
    legend.push({ label: `${rest.length} other values`, colour: OTHER_RGB, faces: rest.reduce((n, [, c]) => n + c, 0) });
  }
  return { faceRgb, legend };
}

function ownerLabel(meshes: readonly Walkmesh[]): (owner: number) => string {
  const game = meshes[0]?.game;
  const noun = game === 'nwn2' ? 'tile' : game === 'source' ? 'area' : game === 'skyrim' ? 'navmesh' : 'room';
  return (owner) => `${noun} ${owner}`;
}

/** Golden-angle hues: neighbouring keys get far-apart colours, any number of keys stays distinct. */
export function keyColour(key: number): Rgb {
  const h = ((key * 137.508) % 360) / 60;
  const s = 0.62;
  const v = key % 2 === 0 ? 0.92 : 0.74;
  const c = v * s;
  const x = c * (1 - Math.abs((h % 2) - 1));
  const m = v - c;
  const [r, g, b] = h < 1 ? [c, x, 0] : h < 2 ? [x, c, 0] : h < 3 ? [0, c, x] : h < 4 ? [0, x, c] : h < 5 ? [x, 0, c] : [c, 0, x];
  return [r + m, g + m, b + m];
}

/** The legend lists the largest keys; a map with 900 areas would not fit the panel. */
const LEGEND_KEYS = 12;

/**
 * One distinct colour per key (island, tile, area, room); faces without one are grey. The
 * legend names the largest keys and sums the rest.
 */
function colourByKey(
  meshes: readonly Walkmesh[],
  faceRgb: Float32Array[],
  keysOf: (mesh: number) => ArrayLike<number> | undefined,
  none: number,
  label: (key: number) => string,
  noneLabel: string,
  byRank: boolean,
): FaceColouring {
  const counts = new Map<number, number>();
  let without = 0;
  meshes.forEach((mesh, i) => {
    const keys = keysOf(i);
    for (let f = 0; f < mesh.faceWalkable.length; f++) {
      const k = keys ? keys[f]! : none;
      if (k === none) without++;
      else counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  });
  // Islands are numbered by size already; other keys keep their own number for the colour.
  const colourOf = (k: number): Rgb => keyColour(byRank ? k : k + 1);
  meshes.forEach((mesh, i) => {
    const keys = keysOf(i);
    const out = faceRgb[i]!;
    for (let f = 0; f < mesh.faceWalkable.length; f++) {
      const k = keys ? keys[f]! : none;
      const c = k === none ? OTHER_RGB : colourOf(k);
      // Non-walkable faces keep their owner's hue, darker, so walls still read as walls.
      const s = mesh.faceWalkable[f] === 0 && k !== none ? 0.45 : 1;
      out[f * 3] = c[0] * s;
      out[f * 3 + 1] = c[1] * s;
      out[f * 3 + 2] = c[2] * s;
    }
  });
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const legend: LegendEntry[] = ranked.slice(0, LEGEND_KEYS).map(([k, faces]) => ({ label: label(k), colour: colourOf(k), faces }));
  const rest = ranked.slice(LEGEND_KEYS);
  if (rest.length > 0) legend.push({ label: `${rest.length} more`, colour: OTHER_RGB, faces: rest.reduce((n, [, c]) => n + c, 0) });
  if (without > 0) legend.push({ label: noneLabel, colour: OTHER_RGB, faces: without });
  return { faceRgb, legend };
}

export function rgbToCss([r, g, b]: Rgb): string {
  return `rgb(${Math.round(r * 255)}, ${Math.round(g * 255)}, ${Math.round(b * 255)})`;
}
