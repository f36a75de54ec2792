import { faceCount, type Walkmesh } from '../model/walkmesh';
import type { DeleteFacesCommand, EditResult, InsertFacesCommand } from './edit-command';
import { EditError } from './edit-error';
import { checkFaceList, checkUint32, checkVertex, verticesOfFaces } from './edit-checks';

/**
 * Deletes faces. Later faces move down, and every per-face array moves with them, so data
 * the model keys by face (tile, area, room in faceOwner) stays with its face. The inverse
 * inserts the faces back at their old indices, which moves every other face back too.
 */
export function deleteFaces(mesh: Walkmesh, cmd: DeleteFacesCommand): EditResult {
  const sorted = checkFaceList(mesh, cmd.faces, cmd.kind);
  const F = faceCount(mesh);
  const k = sorted.length;
  const dead = new Uint8Array(F);
  for (const f of sorted) dead[f] = 1;
  const T = mesh.triangles;
  const inverse: InsertFacesCommand = {
    kind: 'insert-faces',
    at: sorted,
    triangles: new Array<number>(k * 3),
    walkable: new Array<number>(k),
    material: new Array<number>(k),
    owner: new Array<number>(k),
  };
  for (let i = 0; i < k; i++) {
    const f = sorted[i]!;
    for (let c = 0; c < 3; c++) inverse.triangles[i * 3 + c] = T[f * 3 + c]!;
    inverse.walkable[i] = mesh.faceWalkable[f]!;
    inverse.material[i] = mesh.faceMaterial[f]!;
    inverse.owner[i] = mesh.faceOwner[f]!;
  }
  const affectedVertices = verticesOfFaces(T, sorted);
  const triangles = new Uint32Array((F - k) * 3);
  const walkable = new Uint8Array(F - k);
  const material = new Uint32Array(F - k);
  const owner = new Uint32Array(F - k);
  let o = 0;
  for (let f = 0; f < F; f++) {
    if (dead[f]) continue;
    triangles[o * 3] = T[f * 3]!;
    triangles[o * 3 + 1] = T[f * 3 + 1]!;
    triangles[o * 3 + 2] = T[f * 3 + 2]!;
    walkable[o] = mesh.faceWalkable[f]!;
    material[o] = mesh.faceMaterial[f]!;
    owner[o] = mesh.faceOwner[f]!;
    o++;
  }
  Object.assign(mesh, { triangles, faceWalkable: walkable, faceMaterial: material, faceOwner: owner });
  const renumbered = k > 0 && sorted[0]! < F - k;
  const result: EditResult = { inverse, affectedFaces: new Uint32Array(0), affectedVertices, renumbered, topology: k > 0 };
  if (renumbered) result.faceMap = { removed: Uint32Array.from(sorted) };
  return result;
}

/** Inserts faces so that they land at exactly the indices `at`; the inverse deletes them. */
export function insertFaces(mesh: Walkmesh, cmd: InsertFacesCommand): EditResult {
  const kind = cmd.kind;
  const F = faceCount(mesh);
  const at = cmd.at;
  const k = Array.isArray(at) ? at.length : -1;
  if (k < 0) throw new EditError(kind, 'at must be a list of face indices');
  const total = F + k;
  for (let i = 0; i < k; i++) {
    if (!Number.isInteger(at[i]) || at[i]! < 0 || at[i]! >= total) throw new EditError(kind, `at[${i}] is ${at[i]}, not an index 0..${total - 1} of the mesh after the insert`);
    if (i > 0 && at[i]! <= at[i - 1]!) throw new EditError(kind, `at must be ascending without repeats (at[${i}] = ${at[i]} after ${at[i - 1]})`);
  }
  for (const [field, arr, per] of [['triangles', cmd.triangles, 3], ['walkable', cmd.walkable, 1], ['material', cmd.material, 1], ['owner', cmd.owner, 1]] as const) {
    if (!Array.isArray(arr) || arr.length !== k * per) throw new EditError(kind, `${field} must hold ${k * per} numbers (${per} per inserted face)`);
  }
  for (let i = 0; i < k * 3; i++) checkVertex(mesh, cmd.triangles[i]!, kind, `triangles[${i}]`);
  for (let i = 0; i < k; i++) {
    if (cmd.walkable[i] !== 0 && cmd.walkable[i] !== 1) throw new EditError(kind, `walkable[${i}] is ${cmd.walkable[i]}, not 0 or 1`);
    checkUint32(cmd.material[i]!, kind, `material[${i}]`);
    checkUint32(cmd.owner[i]!, kind, `owner[${i}]`);
  }
  const T = mesh.triangles;
  const triangles = new Uint32Array(total * 3);
  const walkable = new Uint8Array(total);
  const material = new Uint32Array(total);
  const owner = new Uint32Array(total);
  let next = 0; // next inserted face
  let old = 0; // next old face
  for (let f = 0; f < total; f++) {
    if (next < k && at[next] === f) {
      triangles[f * 3] = cmd.triangles[next * 3]!;
      triangles[f * 3 + 1] = cmd.triangles[next * 3 + 1]!;
      triangles[f * 3 + 2] = cmd.triangles[next * 3 + 2]!;
      walkable[f] = cmd.walkable[next]!;
      material[f] = cmd.material[next]!;
      owner[f] = cmd.owner[next]!;
      next++;
    } else {
      triangles[f * 3] = T[old * 3]!;
      triangles[f * 3 + 1] = T[old * 3 + 1]!;
      triangles[f * 3 + 2] = T[old * 3 + 2]!;
      walkable[f] = mesh.faceWalkable[old]!;
      material[f] = mesh.faceMaterial[old]!;
      owner[f] = mesh.faceOwner[old]!;
      old++;
    }
  }
  Object.assign(mesh, { triangles, faceWalkable: walkable, faceMaterial: material, faceOwner: owner });
  const renumbered = k > 0 && at[0]! < F;
  const result: EditResult = {
    inverse: { kind: 'delete-faces', faces: at.slice() },
    affectedFaces: Uint32Array.from(at),
    affectedVertices: verticesOfFaces(triangles, at),
    renumbered,
    topology: k > 0,
  };
  if (renumbered) result.faceMap = { inserted: Uint32Array.from(at) };
  return result;
}
