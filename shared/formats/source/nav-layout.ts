import type { NavCustomLayout } from './nav-document';

/**
 * Version gates of the `.nav` format, as `CNavMesh::Load` and `CNavArea::Load` in the
 * Source SDK apply them (spec §2–§4). Kept in one place so the reader and the writer
 * cannot disagree.
 */
export const navGates = {
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
  encounterPaths: (v: number) => v >= 3,
  place: (v: number) => v >= 5,
  ladderLinks: (v: number) => v >= 7,
  earliestOccupy: (v: number) => v >= 8,
  lightIntensity: (v: number) => v >= 11,
  visibility: (v: number) => v >= 16,
};

export const HIDING_SPOT_BYTES = 17;
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
  if (navGates.encounterPaths(version)) n += 4;
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
  if (version === 5) return 'Counter-Strike 1.6 / Condition Zero (GoldSrc)';
  if (version < 10) return 'Counter-Strike: Source (original maps)';
  if (layout === 'cs-approach') return 'Counter-Strike: Source / Global Offensive';
  if (layout === 'tf-attributes') return 'Team Fortress 2';
  if (subVersion === 1) return 'Counter-Strike (legacy layout) or Team Fortress 2 (first sub-version)';
  return 'Source SDK game (Half-Life 2: Deathmatch, Garry\'s Mod…)';
}
