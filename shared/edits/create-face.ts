import { faceCount, type Walkmesh } from '../model/walkmesh';
import type { CreateFaceCommand, InsertFacesCommand } from './edit-command';
import { EditError } from './edit-error';
import { checkVertex } from './edit-checks';
import { checkGeometryEdit } from './game-edit-rules';
import { facesOnEdge, firstFaceOfVertex, newFaceAttributes } from './edit-topology';

/**
 * A new face on three existing vertices, appended after the last face. When it shares an
 * edge with a face that runs the edge the same way, its winding is reversed to match the
 * neighbour; attributes not given come from that neighbour (or a face at a corner).
 */
export function compileCreateFace(mesh: Walkmesh, cmd: CreateFaceCommand): InsertFacesCommand {
  const kind = cmd.kind;
  checkGeometryEdit(mesh, kind);
  if (!Array.isArray(cmd.vertices) || cmd.vertices.length !== 3) throw new EditError(kind, 'vertices must be three vertex indices');
  const [a, b, c] = cmd.vertices;
  cmd.vertices.forEach((v, i) => checkVertex(mesh, v, kind, `vertices[${i}]`));
  if (a === b || b === c || a === c) throw new EditError(kind, `vertices ${a}, ${b}, ${c} are not three different vertices`);
  let corners = [a, b, c];
  let template = -1;
  for (const [u, v] of [[a, b], [b, c], [c, a]] as const) {
    const uses = facesOnEdge(mesh, u, v);
    if (uses.length >= 2) throw new EditError(kind, `the edge ${u}–${v} already has ${uses.length} faces (${uses.map((e) => e.face).join(', ')}); a third would make it non-manifold`);
    if (uses.length === 1 && template < 0) {
      template = uses[0]!.face;
      if (uses[0]!.forward) corners = [a, c, b];
    }
  }
  if (template < 0) template = firstFaceOfVertex(mesh, a);
  const attrs = newFaceAttributes(mesh, template, cmd, kind);
  return { kind: 'insert-faces', at: [faceCount(mesh)], triangles: corners, walkable: [attrs.walkable], material: [attrs.material], owner: [attrs.owner] };
}
