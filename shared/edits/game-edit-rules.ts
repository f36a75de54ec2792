import { DEFAULT_WALKABILITY, isWalkableMaterial } from '../formats/kotor/surface-materials';
import { TriangleFlag } from '../formats/nwn2/aswm-document';
import { faceCount, type GameId, type Walkmesh } from '../model/walkmesh';
import type { DeleteFacesCommand, InsertFacesCommand } from './edit-command';
import { EditError } from './edit-error';

/*
 * What each game's data keyed by face index does when faces are deleted or added:
 *
 * - KotOR: edge transitions are found again by their endpoint positions when the WOK is
 *   written (bwmFromWalkmesh), and the bake orders faces itself (walkable first), so
 *   renumbering the model's faces loses nothing. An edge whose endpoints move or that is
 *   split loses its transition, which validation reports as a missing seam.
 * - NWN2: a face's tile is its faceOwner and travels with the face through every
 *   per-face array; the TRX writer rebuilds the tiles' triangle ranges from it. New faces
 *   take the tile of the face they grow from.
 * - Source: an area is a pair of faces tagged with its area ID (faceOwner). Paint and
 *   delete take whole areas; the writer drops connections to deleted areas and an undo
 *   brings them back from the file's own document, since the area returns under its ID.
 *   Faces that are not an area's axis-aligned quad cannot be written, so create, fill,
 *   split-edge, weld and flip are refused; split-area and merge-areas (source-areas.ts)
 *   edit areas as areas.
 * - Skyrim: other navmeshes, doors and cover name triangles by index, so deleting or
 *   inserting faces anywhere but after the last one is refused; new faces are appended.
 */

/** Games where faces are whole areas and only whole areas can be painted or deleted. */
export function editsWholeAreas(game: GameId): boolean {
  return game === 'source';
}

/** Refuses, for games whose faces must stay axis-aligned area quads, a geometry command. */
export function checkGeometryEdit(mesh: Walkmesh, kind: string): void {
  if (mesh.game === 'source') {
    throw new EditError(kind, `"${mesh.name}" is a Source .nav mesh, whose faces are the two halves of axis-aligned area rectangles; ${kind} would leave faces that are not an area. Move corners up or down, paint, delete, split or merge whole areas instead`);
  }
}

/** Every face that shares an owner (area) with a listed face, ascending. */
export function facesOfSameOwners(mesh: Walkmesh, faces: readonly number[]): number[] {
  const owners = new Set<number>();
  for (const f of faces) owners.add(mesh.faceOwner[f]!);
  const out: number[] = [];
  const F = faceCount(mesh);
  for (let f = 0; f < F; f++) if (owners.has(mesh.faceOwner[f]!)) out.push(f);
  return out;
}

/** Refuses a face delete or insert that would renumber faces other data names by index. */
export function checkFaceIndexEdit(mesh: Walkmesh, cmd: DeleteFacesCommand | InsertFacesCommand): void {
  if (mesh.game !== 'skyrim') return;
  const F = faceCount(mesh);
  if (cmd.kind === 'delete-faces') {
    const k = cmd.faces.length;
    for (const f of cmd.faces) {
      if (f < F - k) throw new EditError(cmd.kind, `"${mesh.name}": deleting triangle ${f} of ${F} would renumber the triangles after it, which other navmeshes, doors and cover name by index; only triangles added after the last one can be deleted`);
    }
  } else {
    for (const f of cmd.at) {
      if (f < F) throw new EditError(cmd.kind, `"${mesh.name}": inserting a triangle at ${f} would renumber triangles that other navmeshes, doors and cover name by index; new triangles go after the last one (${F})`);
    }
  }
}

/**
 * The walkability a face gets with material `material`, when the edit does not say: the
 * game's rule, or `current` when walkability does not follow from the material.
 */
export function walkableForMaterial(game: GameId, material: number, current: number): number {
  if (game === 'kotor') return isWalkableMaterial(DEFAULT_WALKABILITY, material) ? 1 : 0;
  if (game === 'nwn2') return material & TriangleFlag.walkable ? 1 : 0;
  return current;
}

/** The material a face gets when its walkability is painted: NWN2 keeps its walkable flag in step. */
export function materialForWalkable(game: GameId, material: number, walkable: number): number {
  if (game !== 'nwn2') return material;
  return walkable ? (material | TriangleFlag.walkable) >>> 0 : (material & ~TriangleFlag.walkable) >>> 0;
}

/**
 * Refuses a walkability the material contradicts where the game reads walkability from
 * the material (KotOR's surface table): the file would put the face in the wrong group.
 */
export function checkWalkableMatchesMaterial(game: GameId, material: number, walkable: number, kind: string, face: string): void {
  if (game !== 'kotor') return;
  if ((isWalkableMaterial(DEFAULT_WALKABILITY, material) ? 1 : 0) !== walkable) {
    throw new EditError(kind, `${face}: KotOR reads walkability from the surface material, and material ${material} is ${walkable ? 'not ' : ''}walkable in ${DEFAULT_WALKABILITY.source}; paint a ${walkable ? '' : 'non-'}walkable material instead`);
  }
}

/** Refuses painting walkability where the game has no unwalkable faces. */
export function checkWalkablePaint(mesh: Walkmesh, walkable: boolean, kind: string): void {
  if (walkable) return;
  if (mesh.game === 'skyrim' || mesh.game === 'source') {
    throw new EditError(kind, `every face of a ${mesh.game === 'skyrim' ? 'Skyrim navmesh' : 'Source .nav mesh'} is walkable; paint its flags (material) instead, or delete the faces`);
  }
}
