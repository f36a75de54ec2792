import type { Walkmesh } from '../model/walkmesh';
import type { BatchCommand, EditCommand, WeldVerticesCommand } from './edit-command';
import { EditError } from './edit-error';
import { checkCoordinate, checkVertexList } from './edit-checks';
import { checkGeometryEdit } from './game-edit-rules';

/**
 * Welds vertices into the first listed one: every face corner on another listed vertex
 * moves to it (the others stay, unused, so no vertex is renumbered), the kept vertex
 * optionally moves to `position`, and faces left with two equal corners are deleted.
 */
export function compileWeldVertices(mesh: Walkmesh, cmd: WeldVerticesCommand): BatchCommand {
  const kind = cmd.kind;
  checkGeometryEdit(mesh, kind);
  if (!Array.isArray(cmd.vertices) || cmd.vertices.length < 2) throw new EditError(kind, 'vertices must list at least two vertices');
  checkVertexList(mesh, cmd.vertices, kind);
  const target = cmd.vertices[0]!;
  const merged = new Set(cmd.vertices.slice(1));
  const commands: EditCommand[] = [];
  if (cmd.position !== undefined) {
    if (!Array.isArray(cmd.position) || cmd.position.length !== 3) throw new EditError(kind, 'position must be x, y, z');
    cmd.position.forEach((c, i) => checkCoordinate(c, kind, `position[${i}]`));
    commands.push({ kind: 'move-vertices', vertices: [target], positions: cmd.position.slice() });
  }
  const T = mesh.triangles;
  const faces: number[] = [];
  const triangles: number[] = [];
  const collapsed: number[] = [];
  for (let f = 0; f < T.length / 3; f++) {
    const c = [T[f * 3]!, T[f * 3 + 1]!, T[f * 3 + 2]!];
    if (!c.some((v) => merged.has(v))) continue;
    const d = c.map((v) => (merged.has(v) ? target : v));
    faces.push(f);
    triangles.push(...d);
    if (d[0] === d[1] || d[1] === d[2] || d[0] === d[2]) collapsed.push(f);
  }
  if (faces.length > 0) commands.push({ kind: 'set-triangles', faces, triangles });
  if (collapsed.length > 0) commands.push({ kind: 'delete-faces', faces: collapsed });
  return { kind: 'batch', commands };
}
