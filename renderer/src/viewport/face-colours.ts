import { NO_OWNER, type Walkmesh } from '../../../shared/model/walkmesh';
import { NO_ISLAND } from '../../../shared/views/face-islands';
import { projectValueNames, rawValue, valueColour, valueName, type GameValueNames, type ProjectNameTables } from '../../../shared/views/game-attribute-names';
import { islandName, ownerName } from '../../../shared/views/game-place-names';

export type ColourMode = 'walkable' | 'material' | 'island' | 'owner';

export type Rgb = readonly [number, number, number];

export interface LegendEntry {
  label: string;
  colour: Rgb;
  faces: number;
  /** The stored value behind a material/flags entry, for experts (a tooltip). */
  raw?: string;
}

export interface FaceColouring {
  /** Per walkmesh, RGB per face (0..1). */
  faceRgb: Float32Array[];
  legend: LegendEntry[];
}

/**
 * Okabe–Ito (2008) colours, told apart with protanopia and deuteranopia too: walkable is
 * their bluish green, blocked their vermilion (still green- and red-dominant, as designers
 * expect). Overlays (overlay-colours.ts) are checked for contrast against every colour here.
 */
export const WALKABLE_RGB: Rgb = [0, 0.62, 0.45];
export const NON_WALKABLE_RGB: Rgb = [0.84, 0.37, 0];
export const OTHER_RGB: Rgb = [0.55, 0.57, 0.6];

/**
 * Material / flags colours: the seven Okabe–Ito colours (without black), then lighter and
 * darker steps of them, so the first seven values are safe for colour-blind designers and
 * the rest still differ in lightness. Values beyond them share OTHER_RGB.
 */
const PALETTE: readonly Rgb[] = [
  [0.34, 0.71, 0.91],
  [0.9, 0.62, 0],
  [0, 0.62, 0.45],
  [0.8, 0.47, 0.65],
  [0.94, 0.89, 0.26],
  [0, 0.45, 0.7],
  [0.84, 0.37, 0],
  [0.62, 0.84, 0.96],
  [0.5, 0.33, 0],
  [0.55, 0.86, 0.74],
  [0.45, 0.2, 0.36],
  [0.98, 0.8, 0.55],
];

/** Every colour the material / flags colouring can give a face (for the contrast rule). */
export const MATERIAL_COLOURS: readonly Rgb[] = [...PALETTE, OTHER_RGB];

/**
 * Faces of one area, room or tile look alike in the walkable view; a small brightness
 * step per owner (hashed, ±12%) lets adjacent areas be told apart without an edge overlay.
 */
export function ownerShade(owner: number): number {
  let h = Math.imul(owner ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return OWNER_SHADE_MIN + ((h & 0xff) / 255) * OWNER_SHADE_SPAN;
}

const OWNER_SHADE_MIN = 0.88;
const OWNER_SHADE_SPAN = 0.24;

/**
 * Per-face colours for every walkmesh and the legend that explains them, in either mode:
 * walkable/non-walkable, or one colour per material/flags value, named and coloured as the
 * game names it (shared/views/game-attribute-names.ts; the most used values first; the
 * thirteenth and later share one grey).
 */
export function colourFaces(meshes: readonly Walkmesh[], mode: ColourMode, faceIsland: readonly Int32Array[] = [], tables?: ProjectNameTables): FaceColouring {
  const faceRgb = meshes.map((m) => new Float32Array(m.faceWalkable.length * 3));
  if (mode === 'island') return colourByKey(meshes, faceRgb, (i) => faceIsland[i], NO_ISLAND, islandName, 'not walkable', true);
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

  const names: GameValueNames | null = meshes[0] ? projectValueNames(meshes[0].game, tables) : null;
  const counts = new Map<number, number>();
  for (const mesh of meshes) for (const v of mesh.faceMaterial) counts.set(v, (counts.get(v) ?? 0) + 1);
  // Values that differ only in bits the format manages (winding, edge links) read alike: one entry.
  const groups = new Map<string, { values: number[]; faces: number }>();
  for (const [value, faces] of [...counts.entries()].sort((a, b) => a[0] - b[0])) {
    const label = names ? valueName(names, value) : String(value);
    const g = groups.get(label);
    if (g) {
      g.values.push(value);
      g.faces += faces;
    } else groups.set(label, { values: [value], faces });
  }
  const ranked = [...groups.entries()].sort((a, b) => b[1].faces - a[1].faces || a[1].values[0]! - b[1].values[0]!);
  const colourOf = new Map<number, Rgb>();
  ranked.slice(0, PALETTE.length).forEach(([, g], i) => {
    const c = names ? valueColour(names, g.values[0]!) : PALETTE[i]!;
    for (const v of g.values) colourOf.set(v, c);
  });
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
    .map(([label, g]) => ({ label, colour: colourOf.get(g.values[0]!)!, faces: g.faces, raw: g.values.map((v) => (names ? rawValue(names, v) : String(v))).join(', ') }));
  const rest = ranked.slice(PALETTE.length);
  if (rest.length > 0) {
    legend.push({ label: `${rest.length} other values`, colour: OTHER_RGB, faces: rest.reduce((n, [, g]) => n + g.faces, 0) });
  }
  return { faceRgb, legend };
}

/** How the legend, hover and inspector name an owner of these walkmeshes (one naming everywhere). */
export function ownerLabel(meshes: readonly Walkmesh[]): (owner: number) => string {
  const first = meshes[0];
  // A KotOR layout opened as its area: each walkmesh is one room, named by the LYT (kotor-layout-view.ts).
  const rooms = new Map<number, string>();
  if (first?.game === 'kotor' && meshes.length > 1) for (const m of meshes) if (m.faceOwner.length > 0) rooms.set(m.faceOwner[0]!, m.name);
  return (owner) => rooms.get(owner) ?? (first ? ownerName(first, owner) : String(owner));
}

/**
 * A viridis-like ramp (dark blue, teal, green, yellow; its darkest fifth left out so faces
 * stay off the background): lightness rises along it, so colour-blind designers tell its
 * steps apart too.
 */
const RAMP: readonly Rgb[] = [
  [0.23, 0.32, 0.55],
  [0.17, 0.44, 0.56],
  [0.13, 0.57, 0.55],
  [0.21, 0.69, 0.47],
  [0.48, 0.82, 0.32],
  [0.99, 0.91, 0.14],
];

/** The ramp at t in 0..1. */
export function rampColour(t: number): Rgb {
  const x = Math.min(1, Math.max(0, t)) * (RAMP.length - 1);
  const i = Math.min(RAMP.length - 2, Math.floor(x));
  const f = x - i;
  const a = RAMP[i]!;
  const b = RAMP[i + 1]!;
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

/**
 * Keys step along the ramp by the golden ratio: neighbouring keys land far apart on it,
 * and any number of keys stays spread over it.
 */
export function keyColour(key: number): Rgb {
  const t = (key * 0.6180339887498949) % 1;
  return rampColour(t < 0 ? t + 1 : t);
}

/** Non-walkable faces in the island and owner colourings keep their key's hue at this lightness. */
export const BLOCKED_SHADE = 0.45;

/**
 * Every colour a colouring can give a face, for the contrast rule of the overlays: keyed
 * colourings sample the whole ramp (keys fall anywhere on it), bright and as blocked faces.
 */
export function colouringColours(mode: ColourMode): Rgb[] {
  if (mode === 'material') return [...MATERIAL_COLOURS];
  if (mode === 'walkable') {
    const out: Rgb[] = [];
    for (const base of [WALKABLE_RGB, NON_WALKABLE_RGB]) {
      for (const s of [OWNER_SHADE_MIN, 1, OWNER_SHADE_MIN + OWNER_SHADE_SPAN]) out.push([Math.min(1, base[0] * s), Math.min(1, base[1] * s), Math.min(1, base[2] * s)]);
    }
    return out;
  }
  const out: Rgb[] = [OTHER_RGB];
  for (let i = 0; i <= 200; i++) {
    const c = rampColour(i / 200);
    out.push(c, [c[0] * BLOCKED_SHADE, c[1] * BLOCKED_SHADE, c[2] * BLOCKED_SHADE]);
  }
  return out;
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
      const s = mesh.faceWalkable[f] === 0 && k !== none ? BLOCKED_SHADE : 1;
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
