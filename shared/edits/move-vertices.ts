import type { Walkmesh } from '../model/walkmesh';
import type { EditResult, MoveVerticesCommand } from './edit-command';
import { EditError } from './edit-error';
import { checkCoordinate, checkVertexList } from './edit-checks';

/**
 * Moves vertices to absolute positions. Absolute (not a delta) so that applying the
 * inverse restores the exact float32 bits whatever rounding the move involved.
 */
export function moveVertices(mesh: Walkmesh, cmd: MoveVerticesCommand): EditResult {
  const kind = cmd.kind;
  checkVertexList(mesh, cmd.vertices, kind);
  if (!Array.isArray(cmd.positions) || cmd.positions.length !== cmd.vertices.length * 3) {
    throw new EditError(kind, `positions must hold x, y, z per vertex (${cmd.vertices.length * 3} numbers), not ${cmd.positions?.length}`);
  }
  for (let i = 0; i < cmd.positions.length; i++) checkCoordinate(cmd.positions[i]!, kind, `positions[${i}]`);
  const P = mesh.positions;
  const old = new Array<number>(cmd.positions.length);
  for (let i = 0; i < cmd.vertices.length; i++) {
    const v = cmd.vertices[i]!;
    for (let k = 0; k < 3; k++) {
      old[i * 3 + k] = P[v * 3 + k]!;
      P[v * 3 + k] = cmd.positions[i * 3 + k]!;
    }
  }
  return {
    inverse: { kind, vertices: cmd.vertices.slice(), positions: old },
    affectedFaces: new Uint32Array(0),
    affectedVertices: Uint32Array.from(cmd.vertices),
    renumbered: false,
    topology: false,
  };
}
