import type { Walkmesh } from '../model/walkmesh';
import type { EditResult, SetFaceAttributesCommand } from './edit-command';
import { EditError } from './edit-error';
import { checkFaceList, checkFaceValues, compactValues, valueAt } from './edit-checks';

/** Sets walkable, material and owner of the listed faces; the inverse sets the old values back. */
export function setFaceAttributes(mesh: Walkmesh, cmd: SetFaceAttributesCommand): EditResult {
  const kind = cmd.kind;
  checkFaceList(mesh, cmd.faces, kind);
  const n = cmd.faces.length;
  checkFaceValues(cmd.walkable, n, kind, 'walkable');
  checkFaceValues(cmd.material, n, kind, 'material');
  checkFaceValues(cmd.owner, n, kind, 'owner');
  if (cmd.walkable !== undefined) {
    for (let i = 0; i < n; i++) if (valueAt(cmd.walkable, i) > 1) throw new EditError(kind, `walkable${typeof cmd.walkable === 'number' ? '' : `[${i}]`} is ${valueAt(cmd.walkable, i)}, not 0 or 1`);
  }
  const inverse: SetFaceAttributesCommand = { kind, faces: cmd.faces.slice() };
  const swap = (arr: Uint8Array | Uint32Array, values: number | number[]): number | number[] => {
    const old = new Array<number>(n);
    for (let i = 0; i < n; i++) old[i] = arr[cmd.faces[i]!]!;
    for (let i = 0; i < n; i++) arr[cmd.faces[i]!] = valueAt(values, i);
    return compactValues(old);
  };
  if (cmd.walkable !== undefined) inverse.walkable = swap(mesh.faceWalkable, cmd.walkable);
  if (cmd.material !== undefined) inverse.material = swap(mesh.faceMaterial, cmd.material);
  if (cmd.owner !== undefined) inverse.owner = swap(mesh.faceOwner, cmd.owner);
  return { inverse, affectedFaces: Uint32Array.from(cmd.faces), affectedVertices: new Uint32Array(0), renumbered: false, topology: false };
}
