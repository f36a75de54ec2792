import { NO_ISLAND } from '../../../shared/views/face-islands';
import { gameValueNames, projectValueNames, rawValue, valueName } from '../../../shared/views/game-attribute-names';
import { islandName } from '../../../shared/views/game-place-names';
import { nwn2BakedIslandName } from '../../../shared/formats/nwn2/tile-name';
import type { GameStructure } from '../../../shared/views/game-structure';
import { ownerLabel } from './face-colours';
import { NO_OWNER, type Walkmesh } from '../../../shared/model/walkmesh';

/** What the status bar and the inspector say about one face. */
export interface FaceInfo {
  meshName: string;
  face: number;
  /** Material, flags or attributes as the game names them ("Stone", "crouch, jump"). */
  material: string;
  /** The stored value for experts: decimal for KotOR materials, hex for flag words. */
  raw: string;
  /** "material", "flags" or "attributes": what the game calls the value. */
  noun: string;
  walkable: boolean;
  owner: string;
  island: string;
  /** NWN2: the pathing island the file stores for the triangle ("baked island 43"), else null. */
  bakedIsland: string | null;
  /** Game-space corners, x y z each. */
  corners: [number, number, number][];
}

/** The value in the game's words (shared/views/game-attribute-names.ts). */
export function describeMaterial(mesh: Walkmesh, value: number): string {
  return valueName(gameValueNames(mesh.game), value);
}

/**
 * What the panels say about a face, or null when the mesh no longer has it: a selection or
 * hover can outlive an edit that removed faces (an undo of a created face).
 */
export function faceInfo(mesh: Walkmesh, face: number, faceIsland: Int32Array | undefined, meshes: readonly Walkmesh[] = [mesh], structure?: GameStructure): FaceInfo | null {
  if (!Number.isInteger(face) || face < 0 || face * 3 >= mesh.triangles.length) return null;
  const owner = mesh.faceOwner[face]!;
  const island = faceIsland?.[face] ?? NO_ISLAND;
  // Named by the project's own table (surfacemat.2da) where it has one, as the pickers are.
  const names = projectValueNames(mesh.game, structure?.tables);
  const corners: [number, number, number][] = [];
  for (let k = 0; k < 3; k++) {
    const v = mesh.triangles[face * 3 + k]! * 3;
    corners.push([mesh.positions[v]!, mesh.positions[v + 1]!, mesh.positions[v + 2]!]);
  }
  return {
    meshName: mesh.name,
    face,
    material: valueName(names, mesh.faceMaterial[face]!),
    raw: rawValue(names, mesh.faceMaterial[face]!),
    noun: names.noun,
    walkable: mesh.faceWalkable[face] !== 0,
    // Named as the owner legend names it (a KotOR layout's rooms by their LYT names).
    owner: owner === NO_OWNER ? 'none' : ownerLabel(meshes)(owner),
    island: islandName(island),
    bakedIsland: bakedIslandOf(mesh, face, structure),
    corners,
  };
}

/**
 * The stored island of an NWN2 walkmesh's triangle; the file's table is for the file's
 * triangles, so an edit not yet written (other face count) says so instead of guessing.
 */
function bakedIslandOf(mesh: Walkmesh, face: number, structure: GameStructure | undefined): string | null {
  const stored = structure?.bakedIslands?.faceIsland;
  if (mesh.game !== 'nwn2' || !stored) return null;
  if (stored.length !== mesh.triangles.length / 3) return 'baked island not stored yet (edited)';
  return nwn2BakedIslandName(stored[face]!);
}

/** The three corners of a face as one array, for the highlight. */
export function faceCorners(mesh: Walkmesh, face: number): Float32Array {
  const out = new Float32Array(9);
  for (let k = 0; k < 3; k++) {
    const v = mesh.triangles[face * 3 + k]! * 3;
    out[k * 3] = mesh.positions[v]!;
    out[k * 3 + 1] = mesh.positions[v + 1]!;
    out[k * 3 + 2] = mesh.positions[v + 2]!;
  }
  return out;
}
