import { NO_ISLAND } from '../../../shared/views/face-islands';
import { gameValueNames, rawValue, valueName } from '../../../shared/views/game-attribute-names';
import { islandName } from '../../../shared/views/game-place-names';
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
export function faceInfo(mesh: Walkmesh, face: number, faceIsland: Int32Array | undefined, meshes: readonly Walkmesh[] = [mesh]): FaceInfo | null {
  if (!Number.isInteger(face) || face < 0 || face * 3 >= mesh.triangles.length) return null;
  const owner = mesh.faceOwner[face]!;
  const island = faceIsland?.[face] ?? NO_ISLAND;
  const corners: [number, number, number][] = [];
  for (let k = 0; k < 3; k++) {
    const v = mesh.triangles[face * 3 + k]! * 3;
    corners.push([mesh.positions[v]!, mesh.positions[v + 1]!, mesh.positions[v + 2]!]);
  }
  return {
    meshName: mesh.name,
    face,
    material: describeMaterial(mesh, mesh.faceMaterial[face]!),
    raw: rawValue(gameValueNames(mesh.game), mesh.faceMaterial[face]!),
    noun: gameValueNames(mesh.game).noun,
    walkable: mesh.faceWalkable[face] !== 0,
    // Named as the owner legend names it (a KotOR layout's rooms by their LYT names).
    owner: owner === NO_OWNER ? 'none' : ownerLabel(meshes)(owner),
    island: islandName(island),
    corners,
  };
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
