import type { Walkmesh } from '../model/walkmesh';
import type { FlipFacesCommand, SetTrianglesCommand } from './edit-command';
import { checkFaceList } from './edit-checks';
import { checkGeometryEdit } from './game-edit-rules';

/** Reverses the winding of the listed faces by swapping their second and third corners. */
export function compileFlipFaces(mesh: Walkmesh, cmd: FlipFacesCommand): SetTrianglesCommand {
  checkGeometryEdit(mesh, cmd.kind);
  checkFaceList(mesh, cmd.faces, cmd.kind);
  const T = mesh.triangles;
  const triangles = new Array<number>(cmd.faces.length * 3);
  cmd.faces.forEach((f, i) => {
    triangles[i * 3] = T[f * 3]!;
    triangles[i * 3 + 1] = T[f * 3 + 2]!;
    triangles[i * 3 + 2] = T[f * 3 + 1]!;
  });
  return { kind: 'set-triangles', faces: cmd.faces.slice(), triangles };
}
