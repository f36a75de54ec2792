import type { Walkmesh } from '../model/walkmesh';
import type { EditResult, SetTrianglesCommand } from './edit-command';
import { EditError } from './edit-error';
import { checkFaceList, checkVertex, verticesOfFaces } from './edit-checks';

/** Replaces the corners of the listed faces; the inverse puts the old corners back. */
export function setTriangles(mesh: Walkmesh, cmd: SetTrianglesCommand): EditResult {
  const kind = cmd.kind;
  checkFaceList(mesh, cmd.faces, kind);
  if (!Array.isArray(cmd.triangles) || cmd.triangles.length !== cmd.faces.length * 3) {
    throw new EditError(kind, `triangles must hold 3 vertex indices per face (${cmd.faces.length * 3}), not ${cmd.triangles?.length}`);
  }
  for (let i = 0; i < cmd.triangles.length; i++) checkVertex(mesh, cmd.triangles[i]!, kind, `triangles[${i}]`);
  const T = mesh.triangles;
  const before = verticesOfFaces(T, cmd.faces);
  const old = new Array<number>(cmd.triangles.length);
  for (let i = 0; i < cmd.faces.length; i++) {
    const f = cmd.faces[i]!;
    for (let k = 0; k < 3; k++) old[i * 3 + k] = T[f * 3 + k]!;
  }
  for (let i = 0; i < cmd.faces.length; i++) {
    const f = cmd.faces[i]!;
    for (let k = 0; k < 3; k++) T[f * 3 + k] = cmd.triangles[i * 3 + k]!;
  }
  const after = verticesOfFaces(T, cmd.faces);
  const vertices = new Set([...before, ...after]);
  return {
    inverse: { kind, faces: cmd.faces.slice(), triangles: old },
    affectedFaces: Uint32Array.from(cmd.faces),
    affectedVertices: Uint32Array.from(vertices),
    renumbered: false,
    topology: true,
  };
}
