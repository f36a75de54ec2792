import type { GffDocument, GffStruct } from './gff-document';
import { getFloat, getInteger, getStruct, optInteger, optList } from './gff-fields';

/** Edge of one ASWM tile: 9 m for interiors, 10 m for exteriors (nwn2-trn-trx.md §4.6). */
export const NWN2_INTERIOR_TILE_METRES = 9;
export const NWN2_EXTERIOR_TILE_METRES = 10;

export interface AreDimensions {
  /** `Width`, in tiles. */
  width: number;
  /** `Height`, in tiles. */
  height: number;
  /** `HasTerrain` ≠ 0: an exterior (terrain) area. */
  hasTerrain: boolean;
  /** The opposite of hasTerrain: a tile-built interior. */
  isInterior: boolean;
  /** `Flags` (NWN bits: 1 interior, 2 underground, 4 natural; toolset interiors store 1, exteriors 4); 0 when absent. */
  flags: number;
  /** Edge of one tile in metres (9 interior, 10 exterior). */
  tileMetres: number;
  /** Entries of `TileList` (interior tiles; 0 for exteriors). */
  tileCount: number;
}

/** The size and kind of an NWN2 area from its ARE (`Width`, `Height`, `HasTerrain`, `Flags`). */
export function readAreDimensions(gff: GffDocument): AreDimensions {
  const r = gff.root;
  const hasTerrain = optInteger(r, 'HasTerrain', 0) !== 0;
  return {
    width: getInteger(r, 'Width'),
    height: getInteger(r, 'Height'),
    hasTerrain,
    isInterior: !hasTerrain,
    flags: optInteger(r, 'Flags', 0),
    tileMetres: hasTerrain ? NWN2_EXTERIOR_TILE_METRES : NWN2_INTERIOR_TILE_METRES,
    tileCount: optList(r, 'TileList').length,
  };
}

/** One entry of an interior ARE's `TileList` (nwn2-trn-trx.md §8: Position = tile centre). */
export interface AreTile {
  /** Position in `TileList`. */
  index: number;
  /** `Appearance`: a row of tiles.2da. */
  appearance: number;
  /** `Variation` (default 0). */
  variation: number;
  /** `Orientation` (default 0): quarter turns. */
  orientation: number;
  /** `MetaTile` (default 0). */
  metaTile: number;
  /** `Position` (a struct of floats x, y, z): the tile's centre. */
  position: [number, number, number];
}

/** The interior tiles of an ARE (`TileList`); empty for an exterior. Throws MalformedInputError for a tile without `Appearance` or `Position`. */
export function readAreTiles(gff: GffDocument): AreTile[] {
  return optList(gff.root, 'TileList').map((t, index) => ({
    index,
    appearance: getInteger(t, 'Appearance'),
    variation: optInteger(t, 'Variation', 0),
    orientation: optInteger(t, 'Orientation', 0),
    metaTile: optInteger(t, 'MetaTile', 0),
    position: tilePosition(getStruct(t, 'Position')),
  }));
}

function tilePosition(p: GffStruct): [number, number, number] {
  return [getFloat(p, 'x'), getFloat(p, 'y'), getFloat(p, 'z')];
}
