/**
 * The Source engine `.nav` document, kept as columns of typed arrays (one entry per area,
 * ladder, connection…). Variable-length lists use an offsets column: the items of group g
 * are `items[start[g] .. start[g + 1])`. Float fields are stored as their 32-bit patterns
 * (with a Float32Array view for arithmetic) so every file is written back bit for bit.
 * Spec: ../shared/specs/source-nav.md.
 */

export const NAV_MAGIC = 0xfeedface;
/**
 * Oldest version this reader supports. Versions 1 to 5 are the GoldSrc CS 1.6 / CZ bots'
 * (the Source SDK still loads them: CNavArea::Load keeps every gate below 5).
 */
export const NAV_MIN_VERSION = 1;
/** Newest version the engine loads. */
export const NAV_MAX_VERSION = 16;

/**
 * What follows the base area record (v ≥ 10, chosen by game and sub-version):
 * - `none`: nothing (SDK, HL2DM, GMod: sub-version 0; CS before v15; TF2 sub-version 1),
 * - `cs-approach`: the CS approach list, moved out of the base area at v15 (sub-version 1),
 * - `tf-attributes`: one u32 of TF attribute flags (TF2, sub-version 2).
 */
export type NavCustomLayout = 'none' | 'cs-approach' | 'tf-attributes';

export const NAV_DIRECTIONS = ['north', 'east', 'south', 'west'] as const;
export const NAV_LADDER_DIRECTIONS = ['up', 'down'] as const;

/** Offsets of the 8 corner words of an area in `NavAreas.corners`. */
export const NavCorner = { NwX: 0, NwY: 1, NwZ: 2, SeX: 3, SeY: 4, SeZ: 5, NeZ: 6, SwZ: 7 } as const;

export interface NavAreas {
  count: number;
  id: Uint32Array;
  /** Attribute flags at full 32 bits (the file stores 8, 16 or 32 of them by version). */
  attributes: Uint32Array;
  /** 8 words per area: nw x y z, se x y z, ne z, sw z (float bit patterns). */
  corners: Uint32Array;
  /** Per area and direction (N, E, S, W): `connectionStart[4a+d]`; length 4·count+1. */
  connectionStart: Uint32Array;
  connectionTarget: Uint32Array;
  hidingSpotStart: Uint32Array;
  /** 0 in version 1, which stores positions only (the engine numbers the spots as it loads). */
  hidingSpotId: Uint32Array;
  /** 3 float words per hiding spot. */
  hidingSpotPosition: Uint32Array;
  /** 0 in version 1 (the engine marks every loaded spot IN_COVER). */
  hidingSpotFlags: Uint8Array;
  /** Approach list: in the base area before v15, as CS custom data after. */
  approachStart: Uint32Array;
  approachHere: Uint32Array;
  approachPrev: Uint32Array;
  approachPrevHow: Uint8Array;
  approachNext: Uint32Array;
  approachNextHow: Uint8Array;
  encounterStart: Uint32Array;
  encounterFrom: Uint32Array;
  /** 0 before version 3 (not stored). */
  encounterFromDir: Uint8Array;
  encounterTo: Uint32Array;
  /** 0 before version 3 (not stored). */
  encounterToDir: Uint8Array;
  /** Per encounter path: its spots; length paths+1. */
  encounterSpotStart: Uint32Array;
  /** Hiding-spot ID (v ≥ 3; 0 before, where spots are stored as positions). */
  encounterSpotId: Uint32Array;
  /** Parametric distance along the path, t·255 (v ≥ 3; 0 before). */
  encounterSpotT: Uint8Array;
  /**
   * Versions 1 and 2 only (empty otherwise): the obsolete encounter layout, which the
   * engine reads and discards. 6 float words per path (from xyz, to xyz) and 4 per spot
   * (position xyz, t as a float), kept so such a file is written back as it was.
   */
  encounterPathWords: Uint32Array;
  encounterSpotWords: Uint32Array;
  /** 1-based index into the place directory, 0 = none. */
  place: Uint16Array;
  /** Per area and ladder direction (up, down); length 2·count+1. */
  ladderLinkStart: Uint32Array;
  ladderLinkId: Uint32Array;
  /** 2 float words per area (one per team). */
  earliestOccupy: Uint32Array;
  /** 4 float words per area, corners NW, NE, SE, SW. */
  lightIntensity: Uint32Array;
  visibleStart: Uint32Array;
  visibleId: Uint32Array;
  visibleAttributes: Uint8Array;
  inheritVisibilityFrom: Uint32Array;
  /** TF2 attribute flags (custom layout `tf-attributes`). */
  tfAttributes: Uint32Array;
}

/** Ladder float words: width, top xyz, bottom xyz, length; then the direction as u32. */
export const NAV_LADDER_WORDS = 9;
/** Ladder area links: top forward, top left, top right, top behind, bottom. */
export const NAV_LADDER_AREAS = 5;

export interface NavLadders {
  count: number;
  id: Uint32Array;
  words: Uint32Array;
  /** Only stored in version 6 files. */
  dangling: Uint8Array;
  areas: Uint32Array;
}

export interface NavDocument {
  version: number;
  /** 0 when the version has no sub-version field (v < 10). */
  subVersion: number;
  /** Size of the .bsp the mesh was built for. */
  bspSize: number;
  /** Raw byte (v ≥ 14); kept as stored rather than as a boolean. */
  isAnalyzed: number;
  /** Place names as stored, each including its terminating NUL. */
  places: NavPlaces;
  /** Raw byte (v ≥ 12). */
  hasUnnamedAreas: number;
  customLayout: NavCustomLayout;
  areas: NavAreas;
  ladders: NavLadders;
  /**
   * Bytes after the last structure the format defines (post-area custom data of an
   * unknown game, or the trailing bytes some GoldSrc files carry). Written back as is.
   */
  trailing: Uint8Array;
}

/**
 * The place directory as one byte column: a file may declare tens of thousands of (empty)
 * names, and an object per name would cost a hundred times the bytes it was read from.
 */
export interface NavPlaces {
  count: number;
  /** Every name's stored bytes back to back. */
  data: Uint8Array;
  /** Name i is `data[start[i] .. start[i + 1])`; length count + 1. */
  start: Uint32Array;
}

/** The stored bytes of place `i` (0-based; areas name places 1-based). */
export function placeBytes(places: NavPlaces, i: number): Uint8Array {
  return places.data.subarray(places.start[i], places.start[i + 1]);
}

export function placesFromList(names: readonly Uint8Array[]): NavPlaces {
  const start = new Uint32Array(names.length + 1);
  names.forEach((n, i) => (start[i + 1] = start[i]! + n.length));
  const data = new Uint8Array(start[names.length]!);
  names.forEach((n, i) => data.set(n, start[i]));
  return { count: names.length, data, start };
}

export function placeList(places: NavPlaces): Uint8Array[] {
  return Array.from({ length: places.count }, (_, i) => placeBytes(places, i));
}

/** Float view over a column of float bit patterns. */
export function floatView(words: Uint32Array): Float32Array {
  return new Float32Array(words.buffer, words.byteOffset, words.length);
}

/** Decodes a stored place name (bytes up to the first NUL, as Latin-1). */
export function placeName(raw: Uint8Array, from = 0, to = raw.length): string {
  let s = '';
  for (let i = from; i < to && raw[i] !== 0; i++) s += String.fromCharCode(raw[i]!);
  return s;
}

export function hasSubVersion(version: number): boolean {
  return version >= 10;
}
