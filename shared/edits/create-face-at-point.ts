import { vertexCount, type Walkmesh } from '../model/walkmesh';
import type { BatchCommand, CreateFaceAtPointCommand, CreateFaceCommand } from './edit-command';
import { EditError } from './edit-error';
import { checkCoordinate, checkVertex } from './edit-checks';
import { checkGeometryEdit } from './game-edit-rules';

/**
 * A new vertex at `point` and a face on it and the two vertices of `edge`: the Creation
 * Kit's "create triangle" from two picked vertices and a click on the ground. The vertex is
 * appended and the face goes after the last one (create-face), so nothing is renumbered;
 * its winding follows the face already on the edge, its attributes that face's.
 */
export function compileCreateFaceAtPoint(mesh: Walkmesh, cmd: CreateFaceAtPointCommand): BatchCommand {
  const kind = cmd.kind;
  checkGeometryEdit(mesh, kind);
  if (!Array.isArray(cmd.edge) || cmd.edge.length !== 2) throw new EditError(kind, 'edge must be two vertex indices');
  const [a, b] = cmd.edge;
  checkVertex(mesh, a, kind, 'edge[0]');
  checkVertex(mesh, b, kind, 'edge[1]');
  if (a === b) throw new EditError(kind, `edge ${a}–${b} needs two different vertices`);
  if (!Array.isArray(cmd.point) || cmd.point.length !== 3) throw new EditError(kind, 'point must be x, y, z');
  cmd.point.forEach((c, i) => checkCoordinate(c, kind, `point[${i}]`));
  const P = mesh.positions;
  const [x, y, z] = cmd.point.map((c) => Math.fround(c)) as [number, number, number];
  // A point on the edge's line makes a face with no area.
  const ux = P[b * 3]! - P[a * 3]!, uy = P[b * 3 + 1]! - P[a * 3 + 1]!, uz = P[b * 3 + 2]! - P[a * 3 + 2]!;
  const vx = x - P[a * 3]!, vy = y - P[a * 3 + 1]!, vz = z - P[a * 3 + 2]!;
  const cross = Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
  if (!(cross > 1e-6 * Math.max(1, Math.hypot(ux, uy, uz) * Math.hypot(vx, vy, vz)))) throw new EditError(kind, `the point (${x}, ${y}, ${z}) lies on the line of edge ${a}–${b}: the face would have no area`);
  const face: CreateFaceCommand = { kind: 'create-face', vertices: [a, b, vertexCount(mesh)] };
  if (cmd.walkable !== undefined) face.walkable = cmd.walkable;
  if (cmd.material !== undefined) face.material = cmd.material;
  if (cmd.owner !== undefined) face.owner = cmd.owner;
  return { kind: 'batch', commands: [{ kind: 'append-vertices', positions: [x, y, z] }, face] };
}
