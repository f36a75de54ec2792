import { vertexCount, type Walkmesh } from '../model/walkmesh';
import type { AppendVerticesCommand, EditResult, TruncateVerticesCommand } from './edit-command';
import { EditError } from './edit-error';
import { checkCoordinate } from './edit-checks';

/** Adds vertices after the last one; the inverse truncates back to the old count. */
export function appendVertices(mesh: Walkmesh, cmd: AppendVerticesCommand): EditResult {
  const kind = cmd.kind;
  if (!Array.isArray(cmd.positions) || cmd.positions.length % 3 !== 0) throw new EditError(kind, 'positions must hold x, y, z per new vertex');
  for (let i = 0; i < cmd.positions.length; i++) checkCoordinate(cmd.positions[i]!, kind, `positions[${i}]`);
  const count = vertexCount(mesh);
  const next = new Float32Array(mesh.positions.length + cmd.positions.length);
  next.set(mesh.positions);
  next.set(cmd.positions, mesh.positions.length);
  mesh.positions = next;
  return { inverse: { kind: 'truncate-vertices', count }, affectedFaces: new Uint32Array(0), affectedVertices: new Uint32Array(0), renumbered: false, topology: false };
}

/** Removes trailing vertices, which no face may use; the inverse appends them again. */
export function truncateVertices(mesh: Walkmesh, cmd: TruncateVerticesCommand): EditResult {
  const kind = cmd.kind;
  const count = vertexCount(mesh);
  if (!Number.isInteger(cmd.count) || cmd.count < 0 || cmd.count > count) throw new EditError(kind, `count is ${cmd.count}, not 0..${count}`);
  const T = mesh.triangles;
  for (let i = 0; i < T.length; i++) {
    if (T[i]! >= cmd.count) throw new EditError(kind, `face ${(i / 3) | 0} still uses vertex ${T[i]}, which would be removed`);
  }
  const removed = Array.from(mesh.positions.subarray(cmd.count * 3));
  mesh.positions = mesh.positions.slice(0, cmd.count * 3);
  return { inverse: { kind: 'append-vertices', positions: removed }, affectedFaces: new Uint32Array(0), affectedVertices: new Uint32Array(0), renumbered: false, topology: false };
}
