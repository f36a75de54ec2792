import type { Walkmesh } from '../model/walkmesh';

/**
 * A copy with its own arrays. Edits change arrays in place, and a model's arrays may be
 * shared with the document it was read from, which the writer compares against.
 */
export function copyWalkmesh(mesh: Walkmesh): Walkmesh {
  return {
    ...mesh,
    positions: mesh.positions.slice(),
    triangles: mesh.triangles.slice(),
    faceWalkable: mesh.faceWalkable.slice(),
    faceMaterial: mesh.faceMaterial.slice(),
    faceOwner: mesh.faceOwner.slice(),
  };
}
