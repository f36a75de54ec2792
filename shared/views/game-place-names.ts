import { nwn2TileName } from '../formats/nwn2/tile-name';
import { NO_OWNER, type GameId, type Walkmesh } from '../model/walkmesh';
import { NO_ISLAND } from './face-islands';

/**
 * One naming of the places a face belongs to, for the legend, hover, inspector, findings
 * and the command line:
 * - owners as the game calls them: NWN2 "tile 8,10" (column,row), KotOR "room 3",
 *   Source "area 1042" (the area ID stored in the .nav), Skyrim "navmesh 2";
 * - islands (connected walkable regions Walkbench computes) by their rank, largest first:
 *   "island #1" is the main floor. The rank is not stored anywhere; NWN2's stored
 *   pathing islands are a different thing (per tile) and are called "baked island N".
 */
export function ownerNoun(game: GameId): string {
  return game === 'nwn2' ? 'tile' : game === 'source' ? 'area' : game === 'skyrim' ? 'navmesh' : 'room';
}

export function ownerName(mesh: Pick<Walkmesh, 'game' | 'tileGridWidth'>, owner: number): string {
  if (owner === NO_OWNER) return `no ${ownerNoun(mesh.game)}`;
  if (mesh.game === 'nwn2' && mesh.tileGridWidth !== undefined) return nwn2TileName(owner, mesh.tileGridWidth);
  return `${ownerNoun(mesh.game)} ${owner}`;
}

/** `faceIslands` numbers islands from 0 by size; people count from 1. */
export function islandName(island: number): string {
  return island === NO_ISLAND ? 'no island (not walkable)' : `island #${island + 1}`;
}
