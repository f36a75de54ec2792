import type { Walkmesh } from '../model/walkmesh';
import type { BatchCommand, DeleteFacesCommand, EditCommand, EditResult } from './edit-command';
import { EditError } from './edit-error';
import { compileCreateFace } from './create-face';
import { compileCreateFaceAtPoint } from './create-face-at-point';
import { compileCreateArea } from './source-create-area';
import { deleteFaces, insertFaces } from './delete-faces';
import { compileFillHole } from './fill-hole';
import { compileFlipFaces } from './flip-faces';
import { checkFaceIndexEdit, editsWholeAreas, facesOfSameOwners } from './game-edit-rules';
import { checkFaceList } from './edit-checks';
import { mapFaceIndices } from './face-map';
import { moveVertices } from './move-vertices';
import { compilePaintFaces } from './paint-faces';
import { setFaceAttributes } from './set-face-attributes';
import { setTriangles } from './set-triangles';
import { compileMergeAreas, compileSplitArea } from './source-areas';
import { compileSplitEdge } from './split-edge';
import { appendVertices, truncateVertices } from './vertex-append';
import { compileWeldVertices } from './weld-vertices';

/**
 * Applies an edit to the mesh in place (arrays whose length changes are replaced on the
 * mesh object) and returns its inverse. Either the whole edit lands or, on an EditError,
 * the mesh is left exactly as it was.
 *
 * User-level commands are compiled against the current mesh into primitives, so redoing
 * one on the same mesh gives the same result.
 */
export function applyEdit(mesh: Walkmesh, cmd: EditCommand): EditResult {
  switch (cmd.kind) {
    case 'set-face-attributes':
      return setFaceAttributes(mesh, cmd);
    case 'move-vertices':
      return moveVertices(mesh, cmd);
    case 'set-triangles':
      return setTriangles(mesh, cmd);
    case 'delete-faces':
      checkFaceIndexEdit(mesh, cmd);
      return deleteFaces(mesh, wholeAreas(mesh, cmd));
    case 'insert-faces':
      checkFaceIndexEdit(mesh, cmd);
      return insertFaces(mesh, cmd);
    case 'append-vertices':
      return appendVertices(mesh, cmd);
    case 'truncate-vertices':
      return truncateVertices(mesh, cmd);
    case 'paint-faces':
      return applyEdit(mesh, compilePaintFaces(mesh, cmd));
    case 'create-face':
      return applyEdit(mesh, compileCreateFace(mesh, cmd));
    case 'fill-hole':
      return applyEdit(mesh, compileFillHole(mesh, cmd));
    case 'split-edge':
      return applyEdit(mesh, compileSplitEdge(mesh, cmd));
    case 'weld-vertices':
      return applyEdit(mesh, compileWeldVertices(mesh, cmd));
    case 'flip-faces':
      return applyEdit(mesh, compileFlipFaces(mesh, cmd));
    case 'split-area':
      return applyEdit(mesh, compileSplitArea(mesh, cmd));
    case 'merge-areas':
      return applyEdit(mesh, compileMergeAreas(mesh, cmd));
    case 'create-face-at-point':
      return applyEdit(mesh, compileCreateFaceAtPoint(mesh, cmd));
    case 'source-create-area':
      return applyEdit(mesh, compileCreateArea(mesh, cmd));
    case 'batch':
      return applyBatch(mesh, cmd);
    default:
      throw new EditError(String((cmd as { kind?: unknown }).kind), 'unknown edit command');
  }
}

function applyBatch(mesh: Walkmesh, cmd: BatchCommand): EditResult {
  if (!Array.isArray(cmd.commands)) throw new EditError(cmd.kind, 'commands must be a list of edit commands');
  const done: EditResult[] = [];
  try {
    for (const c of cmd.commands) done.push(applyEdit(mesh, c));
  } catch (e) {
    for (let i = done.length - 1; i >= 0; i--) applyEdit(mesh, done[i]!.inverse);
    throw e;
  }
  // One renumbering step moves the faces before it too, so only a last step's map holds.
  const renumbering = done.filter((r) => r.renumbered);
  const last = renumbering.length === 1 && renumbering[0] === done[done.length - 1] ? renumbering[0]!.faceMap : undefined;
  const faces = new Set<number>();
  const vertices = new Set<number>();
  let renumbered = false;
  let topology = false;
  for (const r of done) {
    if (last && r !== done[done.length - 1]) {
      const sorted = Array.from(r.affectedFaces).sort((a, b) => a - b);
      mapFaceIndices(sorted, last).forEach((f) => f >= 0 && faces.add(f));
    } else r.affectedFaces.forEach((f) => faces.add(f));
    r.affectedVertices.forEach((v) => vertices.add(v));
    renumbered ||= r.renumbered;
    topology ||= r.topology;
  }
  const result: EditResult = {
    inverse: { kind: 'batch', commands: done.map((r) => r.inverse).reverse() },
    affectedFaces: Uint32Array.from(faces),
    affectedVertices: Uint32Array.from(vertices),
    renumbered,
    topology,
  };
  if (last) result.faceMap = last;
  return result;
}

/** On Source a delete takes the whole areas of the listed faces: half an area cannot be written. */
function wholeAreas(mesh: Walkmesh, cmd: DeleteFacesCommand): DeleteFacesCommand {
  if (!editsWholeAreas(mesh.game)) return cmd;
  checkFaceList(mesh, cmd.faces, cmd.kind);
  return { kind: cmd.kind, faces: facesOfSameOwners(mesh, cmd.faces) };
}

/** Applies commands in order and returns the command that undoes them all. */
export function applyEdits(mesh: Walkmesh, commands: readonly EditCommand[]): EditCommand {
  return applyEdit(mesh, { kind: 'batch', commands: commands.slice() }).inverse;
}
