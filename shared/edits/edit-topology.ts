import { NO_OWNER, faceCount, type Walkmesh } from '../model/walkmesh';
import type { NewFaceAttributes } from './edit-command';
import { EditError } from './edit-error';
import { checkUint32 } from './edit-checks';
import { checkWalkableMatchesMaterial, materialForWalkable, walkableForMaterial } from './game-edit-rules';

/** A face on an edge, with the corner at which the edge starts in the face's winding. */
export interface EdgeUse {
  face: number;
  /** Corner k such that the face runs corner k → corner k+1 along the edge. */
  corner: number;
  /** True when the face runs the edge a → b, false when b → a. */
  forward: boolean;
}

/** Every face that has the edge {a, b}, found in one pass (commands are rare; the brush never calls this). */
export function facesOnEdge(mesh: Walkmesh, a: number, b: number): EdgeUse[] {
  const T = mesh.triangles;
  const out: EdgeUse[] = [];
  const F = faceCount(mesh);
  for (let f = 0; f < F; f++) {
    for (let k = 0; k < 3; k++) {
      const u = T[f * 3 + k]!;
      const v = T[f * 3 + (k === 2 ? 0 : k + 1)]!;
      if (u === a && v === b) out.push({ face: f, corner: k, forward: true });
      else if (u === b && v === a) out.push({ face: f, corner: k, forward: false });
    }
  }
  return out;
}

/** The first face using vertex v, or -1. */
export function firstFaceOfVertex(mesh: Walkmesh, v: number): number {
  const T = mesh.triangles;
  for (let i = 0; i < T.length; i++) if (T[i] === v) return (i / 3) | 0;
  return -1;
}

export interface FaceAttributes {
  walkable: number;
  material: number;
  owner: number;
}

/**
 * Attributes of a new face: what the command gives, the rest from `template` (the face
 * it grows from), and a walkable face with material 0 and no owner without one.
 */
export function newFaceAttributes(mesh: Walkmesh, template: number, given: NewFaceAttributes, kind: string): FaceAttributes {
  if (given.material !== undefined) checkUint32(given.material, kind, 'material');
  if (given.owner !== undefined) checkUint32(given.owner, kind, 'owner');
  if (given.walkable !== undefined && typeof given.walkable !== 'boolean') throw new EditError(kind, `walkable is ${String(given.walkable)}, not true or false`);
  const has = template >= 0;
  let material = given.material ?? (has ? mesh.faceMaterial[template]! : 0);
  let walkable = has ? mesh.faceWalkable[template]! : 1;
  if (given.material !== undefined) walkable = walkableForMaterial(mesh.game, material, walkable);
  if (given.walkable !== undefined) {
    walkable = given.walkable ? 1 : 0;
    material = materialForWalkable(mesh.game, material, walkable);
    checkWalkableMatchesMaterial(mesh.game, material, walkable, kind, 'the new face');
  }
  return { walkable, material, owner: given.owner ?? (has ? mesh.faceOwner[template]! : NO_OWNER) };
}
