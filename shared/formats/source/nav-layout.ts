import type { NavCustomLayout } from './nav-document';

/**
 * Version gates of the `.nav` format, as `CNavMesh::Load` and `CNavArea::Load` in the
 * Source SDK apply them (spec §2–§4). Kept in one place so the reader and the writer
 * cannot disagree.
 *
 * Versions 1–4 come from the CS:CZ bot's save comment (kept in the SDK's nav_file.cpp and
 * in the GoldSrc bot's, e.g. MoeMod/CSMoE game_shared/bot/nav_file.cpp): "1 = hiding spots
 * as plain vector array; 2 = hiding spots as HidingSpot objects; 3 = Encounter spots use
 * HidingSpot ID's instead of storing vector again; 4 = Includes size of source bsp file".
 * Both loaders read v1 hiding spots as 3 floats, read v < 3 encounter paths in the old
 * layout and return from the area right after them (no place index before v5).
 * Checked on the three real v3/v4 files of the fixtures (cs16-cslinux), which parse to
 * their last byte with these gates.
 */
export const navGates = {
  /** v ≥ 2: hiding spots are (u32 id, 3 floats, u8 flags); v1 stores the 3 floats only. */
  hidingSpotObjects: (v: number) => v >= 2,
  subVersion: (v: number) => v >= 10,
  bspSize: (v: number) => v >= 4,
  isAnalyzed: (v: number) => v >= 14,
  places: (v: number) => v >= 5,
  hasUnnamedAreas: (v: number) => v >= 12,
  ladders: (v: number) => v >= 6,
  ladderDangling: (v: number) => v === 6,
  /** Bytes of the attribute field: u8 for v ≤ 8, u16 for 9 ≤ v < 13, int32 from 13. */
  attributeBytes: (v: number) => (v <= 8 ? 1 : v < 13 ? 2 : 4),
  approachInBase: (v: number) => v < 15,
  /** v ≥ 3: encounter paths name hiding spots by ID; before, the obsolete layout (legacyEncounters). */
  encounterPaths: (v: number) => v >= 3,
  /** v < 3: (u32 from, u32 to, 6 floats, u8 n, n × 4 floats) per path, which the engine discards. */
  legacyEncounters: (v: number) => v < 3,
  place: (v: number) => v >= 5,
  ladderLinks: (v: number) => v >= 7,
  earliestOccupy: (v: number) => v >= 8,
  lightIntensity: (v: number) => v >= 11,
  visibility: (v: number) => v >= 16,
};

export const HIDING_SPOT_BYTES = 17;
/** A version-1 hiding spot: its position only. */
export const HIDING_SPOT_V1_BYTES = 12;
/** A v < 3 encounter path before its spots: from, to, from xyz, to xyz, spot count. */
export const LEGACY_ENCOUNTER_PATH_BYTES = 33;
/** A v < 3 encounter spot: position xyz and t, as floats. */
export const LEGACY_ENCOUNTER_SPOT_BYTES = 16;
export const LEGACY_PATH_WORDS = 6;
export const LEGACY_SPOT_WORDS = 4;

export function hidingSpotBytes(version: number): number {
  return navGates.hidingSpotObjects(version) ? HIDING_SPOT_BYTES : HIDING_SPOT_V1_BYTES;
}
export const APPROACH_BYTES = 14;
export const ENCOUNTER_PATH_BYTES = 11;
export const ENCOUNTER_SPOT_BYTES = 5;
export const VISIBLE_AREA_BYTES = 5;

export function ladderBytes(version: number): number {
  return navGates.ladderDangling(version) ? 61 : 60;
}

/** The smallest an area record can be (every list empty), to bound the area count. */
export function minAreaBytes(version: number, layout: NavCustomLayout): number {
  let n = 4 + navGates.attributeBytes(version) + 32 + 16 + 1;
  if (navGates.approachInBase(version)) n += 1;
  n += 4; // encounter path count, in both layouts
  if (navGates.place(version)) n += 2;
  if (navGates.ladderLinks(version)) n += 8;
  if (navGates.earliestOccupy(version)) n += 8;
  if (navGates.lightIntensity(version)) n += 16;
  if (navGates.visibility(version)) n += 8;
  if (layout === 'cs-approach') n += 1;
  if (layout === 'tf-attributes') n += 4;
  return n;
}

/**
 * The per-area custom layouts a (version, sub-version) pair can mean, most likely first.
 * Sub-version 1 is ambiguous: CS writes its approach list there from v15 on, while TF2's
 * first sub-version wrote nothing. The reader tries each candidate and keeps the one that
 * parses the whole file. An empty list means the layout is unknown (L4D, Insurgency…):
 * the areas' extent cannot be known, so the file is refused rather than guessed at.
 */
export function customLayoutCandidates(version: number, subVersion: number): NavCustomLayout[] {
  if (!navGates.subVersion(version)) return ['none'];
  switch (subVersion) {
    case 0:
      return ['none'];
    case 1:
      return version >= 15 ? ['cs-approach', 'none'] : ['none'];
    case 2:
      return ['tf-attributes'];
    default:
      return [];
  }
}

/** The game a file most likely belongs to, for display only. */
export function navGameLabel(version: number, subVersion: number, layout: NavCustomLayout): string {
  if (version <= 5) return 'Counter-Strike 1.6 / Condition Zero (GoldSrc)';
  if (version < 10) return 'Counter-Strike: Source (original maps)';
  if (layout === 'cs-approach') return 'Counter-Strike: Source / Global Offensive';
  if (layout === 'tf-attributes') return 'Team Fortress 2';
  if (subVersion === 1) return 'Counter-Strike (legacy layout) or Team Fortress 2 (first sub-version)';
  return 'Source SDK game (Half-Life 2: Deathmatch, Garry\'s Mod…)';
}
