import { SURFACE_MATERIAL_LABELS } from '../formats/kotor/surface-materials';
import { TriangleFlag } from '../formats/nwn2/aswm-document';
import { TRI_DELETED, TRI_DOOR, TRI_FOUND, TRI_PREFERRED, TRI_WATER } from '../formats/skyrim/nvnm-document';
import type { GameId } from '../model/walkmesh';

/**
 * The names the games give to a face's material, flags or attributes (the model's
 * `faceMaterial`), each with a colour, so the legend, hover, inspector, paint pickers and
 * command line speak the game's words instead of hex masks. Pure data: the renderer and
 * the CLI both read it.
 */
export type Rgb = readonly [number, number, number];

export interface NamedValue {
  value: number;
  name: string;
  colour: Rgb;
  /** What the game's table says beside the name, e.g. the terrain textures using an NWN2 surface. */
  detail?: string;
  /** Set by the format or the baker, not by a designer (hidden from names, kept in the raw value). */
  internal?: boolean;
}

export interface GameValueNames {
  game: GameId;
  /** What the value is called in this game: "material", "flags" or "attributes". */
  noun: 'material' | 'flags' | 'attributes';
  /**
   * 'enum': the value is one of `choices` (KotOR surfacemat rows). 'bits': the value is an
   * OR of `bits`; `choices`, when given, are mutually exclusive bits (NWN2 surface materials).
   */
  kind: 'enum' | 'bits';
  /** Values a designer picks one of (a material): KotOR rows, NWN2 surface bits. */
  choices: readonly NamedValue[];
  /** Independent bits (flags, attributes), including the choice bits for 'bits' tables. */
  bits: readonly NamedValue[];
  /** The name of the value 0 when it has no bit set. */
  zeroName: string;
  /** Where the names come from, for the user (a 2DA, a spec table). */
  source: string;
}

/**
 * The colours a value can take: the renderer's material palette (Okabe–Ito colours and
 * their lighter and darker steps, renderer/src/viewport/face-colours.ts, whose overlays are
 * checked for contrast against exactly these) plus its grey. Every value's colour is one of
 * them, chosen for what a designer expects (earth brown, grass green, water blue, blocked
 * vermilion); with more values than colours some share one, and the legend names each.
 */
export const SWATCHES = {
  sky: [0.34, 0.71, 0.91],
  orange: [0.9, 0.62, 0],
  green: [0, 0.62, 0.45],
  pink: [0.8, 0.47, 0.65],
  yellow: [0.94, 0.89, 0.26],
  blue: [0, 0.45, 0.7],
  vermilion: [0.84, 0.37, 0],
  pale: [0.62, 0.84, 0.96],
  brown: [0.5, 0.33, 0],
  mint: [0.55, 0.86, 0.74],
  plum: [0.45, 0.2, 0.36],
  sand: [0.98, 0.8, 0.55],
  grey: [0.55, 0.57, 0.6],
} as const satisfies Record<string, Rgb>;

const SWATCH_LIST: readonly Rgb[] = Object.values(SWATCHES);

const SURFACE_COLOURS: Record<string, Rgb> = {
  notdefined: SWATCHES.grey,
  dirt: SWATCHES.brown,
  obscuring: SWATCHES.plum,
  grass: SWATCHES.green,
  stone: SWATCHES.grey,
  rock: SWATCHES.grey,
  wood: SWATCHES.orange,
  water: SWATCHES.blue,
  nonwalk: SWATCHES.vermilion,
  transparent: SWATCHES.pale,
  carpet: SWATCHES.pink,
  metal: SWATCHES.sky,
  puddles: SWATCHES.mint,
  swamp: SWATCHES.plum,
  mud: SWATCHES.brown,
  leaves: SWATCHES.yellow,
  lava: SWATCHES.vermilion,
  bottomlesspit: SWATCHES.plum,
  deepwater: SWATCHES.blue,
  door: SWATCHES.sand,
  snow: SWATCHES.pale,
  sand: SWATCHES.sand,
  barebones: SWATCHES.yellow,
  stonebridge: SWATCHES.grey,
};

/** A swatch for a value without a chosen colour: spread over the palette by a hash. */
export function hashColour(key: number): Rgb {
  const h = Math.imul((key >>> 0) ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  return SWATCH_LIST[((h ^ (h >>> 15)) >>> 0) % (SWATCH_LIST.length - 1)]!;
}

function surfaceColour(label: string, fallbackKey: number): Rgb {
  return SURFACE_COLOURS[label.toLowerCase().replace(/[^a-z]/g, '')] ?? hashColour(fallbackKey);
}

/**
 * KotOR surface materials by row of `surfacemat.2da`: the project's own 2DA labels when it
 * has one (walkabilityFromTwoDa gives them), else the labels every tool agrees on.
 */
export function kotorMaterialNames(labels: readonly string[] = SURFACE_MATERIAL_LABELS, source = 'surfacemat.2da (default labels)'): GameValueNames {
  const choices = labels.map((name, value) => ({ value, name, colour: surfaceColour(name, value) }));
  return { game: 'kotor', noun: 'material', kind: 'enum', choices, bits: [], zeroName: labels[0] ?? 'NotDefined', source };
}

const NWN2_SURFACES: readonly [keyof typeof TriangleFlag, string][] = [
  ['dirt', 'Dirt'], ['grass', 'Grass'], ['stone', 'Stone'], ['wood', 'Wood'], ['carpet', 'Carpet'], ['metal', 'Metal'],
  ['swamp', 'Swamp'], ['mud', 'Mud'], ['leaves', 'Leaves'], ['water', 'Water'], ['puddles', 'Puddles'],
];

/** NWN2 TRN/TRX triangle flags (spec nwn2-trn-trx.md §5): walkable, winding and one footstep material. */
export function nwn2FlagNames(): GameValueNames {
  const choices = NWN2_SURFACES.map(([key, name]) => ({ value: TriangleFlag[key], name, colour: surfaceColour(name, TriangleFlag[key]) }));
  const bits: NamedValue[] = [
    { value: TriangleFlag.walkable, name: 'walkable', colour: SWATCHES.mint },
    { value: TriangleFlag.clockwise, name: 'clockwise', colour: SWATCHES.grey, internal: true },
    ...choices,
  ];
  return { game: 'nwn2', noun: 'flags', kind: 'bits', choices, bits, zeroName: 'no flags (not walkable, no material)', source: 'NWN2 triangle flags (nwn2-trn-trx spec §5)' };
}

/** NWN2 footstep surfaces by the name terrainmaterials.2da's `Material` column uses ("Rock" is the Stone bit, spec nwn2-trn-trx.md §5.10). */
function nwn2SurfaceBit(material: string): number | undefined {
  const key = material.trim().toLowerCase();
  if (key === 'rock') return TriangleFlag.stone;
  const hit = NWN2_SURFACES.find(([, name]) => name.toLowerCase() === key);
  return hit ? TriangleFlag[hit[0]] : undefined;
}

/**
 * NWN2 flags with the surfaces named and ordered as the project's terrainmaterials.2da
 * (`Terrain` texture → `Material`) uses them: each surface lists the terrain textures that
 * sound like it, surfaces the table never uses come last, and a `Material` Walkbench has no
 * flag bit for is named in `unmatched` (the bake cannot give it either).
 */
export function nwn2TerrainMaterialNames(rows: readonly (readonly [terrain: string, material: string])[], source: string): GameValueNames & { unmatched: string[] } {
  const base = nwn2FlagNames();
  const textures = new Map<number, string[]>();
  const unmatched = new Set<string>();
  for (const [terrain, material] of rows) {
    const bit = nwn2SurfaceBit(material);
    if (bit === undefined) {
      if (material.trim() !== '') unmatched.add(material.trim());
      continue;
    }
    const list = textures.get(bit) ?? [];
    list.push(terrain);
    textures.set(bit, list);
  }
  const detail = (list: string[]) => `${list.length} terrain texture${list.length === 1 ? '' : 's'}: ${list.slice(0, 3).join(', ')}${list.length > 3 ? ', …' : ''}`;
  const used = [...textures.keys()].map((bit) => base.choices.find((c) => c.value === bit)!).map((c) => ({ ...c, detail: detail(textures.get(c.value)!) }));
  const rest = base.choices.filter((c) => !textures.has(c.value)).map((c) => ({ ...c, detail: `no terrain texture in ${source}` }));
  const choices = [...used, ...rest];
  const bits = [...base.bits.filter((b) => !base.choices.includes(b)), ...choices];
  return { ...base, choices, bits, source, unmatched: [...unmatched] };
}

/** Skyrim NVNM triangle flags (spec skyrim-navm.md §5, xEdit's wbNavmeshTriangleFlags, in lower case as the Source attributes). */
export function skyrimFlagNames(): GameValueNames {
  const bits: NamedValue[] = [
    { value: 0x1, name: 'edge 0-1 links out', colour: SWATCHES.grey, internal: true },
    { value: 0x2, name: 'edge 1-2 links out', colour: SWATCHES.grey, internal: true },
    { value: 0x4, name: 'edge 2-0 links out', colour: SWATCHES.grey, internal: true },
    { value: TRI_DELETED, name: 'deleted', colour: SWATCHES.vermilion },
    { value: 0x10, name: 'no large creatures', colour: SWATCHES.orange },
    { value: 0x20, name: 'overlapping', colour: SWATCHES.pink },
    { value: TRI_PREFERRED, name: 'preferred', colour: SWATCHES.green },
    { value: TRI_WATER, name: 'water', colour: SWATCHES.blue },
    { value: TRI_DOOR, name: 'door', colour: SWATCHES.sand },
    { value: TRI_FOUND, name: 'found', colour: SWATCHES.grey, internal: true },
  ];
  return { game: 'skyrim', noun: 'flags', kind: 'bits', choices: [], bits, zeroName: 'no flags', source: 'Skyrim triangle flags (skyrim-navm spec §5)' };
}

const SOURCE_ATTRIBUTES: readonly [number, string, Rgb][] = [
  [0x1, 'crouch', SWATCHES.sky],
  [0x2, 'jump', SWATCHES.orange],
  [0x4, 'precise', SWATCHES.green],
  [0x8, 'no jump', SWATCHES.pink],
  [0x10, 'stop', SWATCHES.vermilion],
  [0x20, 'run', SWATCHES.mint],
  [0x40, 'walk', SWATCHES.yellow],
  [0x80, 'avoid', SWATCHES.plum],
  [0x100, 'transient', SWATCHES.pale],
  [0x200, "don't hide", SWATCHES.sand],
  [0x400, 'stand', SWATCHES.brown],
  [0x800, 'no hostages', SWATCHES.blue],
  [0x1000, 'stairs', SWATCHES.grey],
  [0x2000, 'no merge', SWATCHES.pale],
  [0x4000, 'obstacle top', SWATCHES.brown],
  [0x8000, 'cliff', SWATCHES.plum],
];

/**
 * Source area attributes (spec source-nav.md §5, NavAttributeType): the SDK's sixteen, the
 * games' custom range 0x10000..0x04000000 (one bit each, named by value as no game's names
 * are documented) and the runtime bits CS:GO files carry.
 */
export function sourceAttributeNames(): GameValueNames {
  const bits: NamedValue[] = SOURCE_ATTRIBUTES.map(([value, name, colour]) => ({ value, name, colour }));
  for (let bit = 0x10000; bit <= 0x04000000; bit *= 2) bits.push({ value: bit, name: `game-specific 0x${bit.toString(16)}`, colour: hashColour(bit) });
  bits.push(
    { value: 0x20000000, name: 'func cost (runtime)', colour: SWATCHES.grey, internal: true },
    { value: 0x40000000, name: 'has elevator (runtime)', colour: SWATCHES.grey, internal: true },
    { value: 0x80000000, name: 'nav blocker (runtime)', colour: SWATCHES.grey, internal: true },
  );
  return { game: 'source', noun: 'attributes', kind: 'bits', choices: [], bits, zeroName: 'no attributes', source: 'Source NavAttributeType (source-nav spec §5)' };
}

const DEFAULTS: Record<GameId, GameValueNames> = {
  kotor: kotorMaterialNames(),
  nwn2: nwn2FlagNames(),
  skyrim: skyrimFlagNames(),
  source: sourceAttributeNames(),
};

/** The name table of a game (KotOR: the default labels; pass kotorMaterialNames(2DA labels) for a project's own). */
export function gameValueNames(game: GameId): GameValueNames {
  return DEFAULTS[game];
}

/**
 * The game's own tables found for an opened file (its project's 2DA files, else its game
 * folder's): read on the main side and sent with the file (OpenedFile.structure.tables).
 */
export interface ProjectNameTables {
  /** KotOR surfacemat.2da: the label of each row, and where the table was found. */
  kotorSurfacemat?: { labels: string[]; source: string };
  /** NWN2 terrainmaterials.2da: (Terrain, Material) per row, and where it was found. */
  nwn2TerrainMaterials?: { rows: [string, string][]; source: string };
}

/** The name table a file's pickers, legend and inspector use: the project's own tables where it has them. */
export function projectValueNames(game: GameId, tables: ProjectNameTables | undefined): GameValueNames {
  if (game === 'kotor' && tables?.kotorSurfacemat) return kotorMaterialNames(tables.kotorSurfacemat.labels, tables.kotorSurfacemat.source);
  if (game === 'nwn2' && tables?.nwn2TerrainMaterials) return nwn2TerrainMaterialNames(tables.nwn2TerrainMaterials.rows, tables.nwn2TerrainMaterials.source);
  return gameValueNames(game);
}

const hex = (v: number) => `0x${(v >>> 0).toString(16)}`;

/** The value as an expert reads it: decimal for an enum, hex for a bit mask. */
export function rawValue(names: GameValueNames, value: number): string {
  return names.kind === 'enum' ? String(value) : hex(value);
}

/**
 * The value in the game's words: "Stone" (KotOR), "Stone, walkable" (NWN2), "crouch, jump"
 * (Source). Bits or rows without a name say "unknown" with their raw number, so nothing
 * is hidden; internal bits (winding, edge links, Found) are left to the raw value.
 */
export function valueName(names: GameValueNames, value: number): string {
  if (names.kind === 'enum') return names.choices[value]?.name ?? `unknown ${names.noun} ${value}`;
  const parts: string[] = [];
  let rest = value >>> 0;
  // Materials first: a designer reads "Stone, walkable", not "walkable, clockwise, Stone".
  for (const c of names.choices) {
    if ((rest & c.value) !== 0) {
      parts.push(c.name);
      rest &= ~c.value >>> 0;
    }
  }
  for (const b of names.bits) {
    if ((rest & b.value) === 0) continue;
    rest = (rest & ~b.value) >>> 0;
    if (!b.internal) parts.push(b.name);
  }
  if (rest !== 0) parts.push(`unknown ${hex(rest)}`);
  // NWN2's walkable bit is one of the flags: its absence is what a designer needs to read.
  if (names.game === 'nwn2' && (value & TriangleFlag.walkable) === 0) parts.push('not walkable');
  if (parts.length > 0) return parts.join(', ');
  return value === 0 ? names.zeroName : `no ${names.noun}`;
}

/**
 * One colour per value: the material's colour, or the one visible bit's colour; values that
 * combine several visible bits get a hashed swatch (the legend names each value).
 */
export function valueColour(names: GameValueNames, value: number): Rgb {
  if (names.kind === 'enum') return names.choices[value]?.colour ?? hashColour(value);
  // NWN2: a face that is not walkable reads as blocked whatever its footstep sound.
  if (names.game === 'nwn2' && (value & TriangleFlag.walkable) === 0) return SWATCHES.vermilion;
  const choice = names.choices.find((c) => (value & c.value) !== 0);
  if (choice) return choice.colour;
  const visible = names.bits.filter((b) => !b.internal && (value & b.value) !== 0);
  if (visible.length === 0) return names.game === 'nwn2' ? SWATCHES.mint : SWATCHES.pale;
  if (visible.length === 1) return visible[0]!.colour;
  // Hash the visible bits only: values that read alike are drawn alike.
  return hashColour(visible.reduce((m, b) => m | b.value, 0) >>> 0);
}

/** Bits to set and clear so that a face's surface material becomes `choice` (NWN2: one material bit). */
export function choiceBits(names: GameValueNames, choice: number): { setBits: number; clearBits: number } {
  const all = names.choices.reduce((m, c) => m | c.value, 0);
  return { setBits: choice, clearBits: all & ~choice };
}

/** Skyrim cover word (spec skyrim-navm.md §6): per edge, type or wall height and the covered sides. */
export function skyrimCoverName(word: number): string {
  if ((word & 0x3fff) === 0) return (word & 0x4000) !== 0 ? 'no cover (autogen marker)' : 'no cover';
  const edge = (label: string, type: number, left: boolean, right: boolean): string | null => {
    if (type === 0 && !left && !right) return null;
    const kind = type === 0 ? 'open' : type === 1 ? 'wall' : type === 2 ? 'ledge cover' : type === 3 ? 'unknown type 3' : `wall cover ${64 + (type - 4) * 16}${type === 15 ? ' (max)' : ''}`;
    const sides = [left ? 'left' : '', right ? 'right' : ''].filter(Boolean).join(' and ');
    return `edge ${label}: ${kind}${sides ? `, ${sides}` : ''}`;
  };
  const parts = [
    edge('0-1', word & 0xf, (word & 0x10) !== 0, (word & 0x20) !== 0),
    edge('1-2', (word >> 6) & 0xf, (word & 0x400) !== 0, (word & 0x800) !== 0),
  ].filter((p): p is string => p !== null);
  if ((word & 0x3000) !== 0) parts.push(`unknown ${hex(word & 0x3000)}`);
  return parts.join('; ');
}

/** One covered edge of a Skyrim triangle's cover word: its type or wall height, and the covered sides. */
export interface SkyrimCoverEdge {
  /** 0 open edge, 1 wall, 2 ledge cover, 4..15 covered wall (height 64 + (v − 4) · 16); 3 is unused. */
  type: number;
  left: boolean;
  right: boolean;
}

/** The cover types a designer picks from, named as skyrimCoverName names them (3 is unused and not offered). */
export const SKYRIM_COVER_TYPES: readonly { value: number; name: string }[] = [
  { value: 0, name: 'open edge' },
  { value: 1, name: 'wall (no cover)' },
  { value: 2, name: 'ledge cover' },
  ...Array.from({ length: 12 }, (_, i) => ({ value: i + 4, name: `wall cover ${64 + i * 16}${i === 11 ? ' (max)' : ''}` })),
];

/** A cover word's two edges (0-1 and 1-2; edge 2-0 has no slot) and its other bits (12-15, kept as they are). */
export function skyrimCoverEdges(word: number): { edges: [SkyrimCoverEdge, SkyrimCoverEdge]; other: number } {
  return {
    edges: [
      { type: word & 0xf, left: (word & 0x10) !== 0, right: (word & 0x20) !== 0 },
      { type: (word >> 6) & 0xf, left: (word & 0x400) !== 0, right: (word & 0x800) !== 0 },
    ],
    other: word & 0xf000,
  };
}

/** The cover word of two edges, keeping `other` (the Autogen marker 0x4000 and unused bits). */
export function skyrimCoverWord(edges: readonly [SkyrimCoverEdge, SkyrimCoverEdge], other = 0): number {
  const [a, b] = edges;
  return ((a.type & 0xf) | (a.left ? 0x10 : 0) | (a.right ? 0x20 : 0) | ((b.type & 0xf) << 6) | (b.left ? 0x400 : 0) | (b.right ? 0x800 : 0) | (other & 0xf000)) >>> 0;
}

export interface NamedValueCount {
  value: number;
  name: string;
  raw: string;
  faces: number;
}

/** Faces per material/flags/attributes value of a walkmesh, most used first, named as the game names them. */
export function namedValueCounts(mesh: { game: GameId; faceMaterial: ArrayLike<number> }): NamedValueCount[] {
  const names = gameValueNames(mesh.game);
  const counts = new Map<number, number>();
  for (let f = 0; f < mesh.faceMaterial.length; f++) {
    const v = mesh.faceMaterial[f]!;
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([value, faces]) => ({ value, name: valueName(names, value), raw: rawValue(names, value), faces }));
}
