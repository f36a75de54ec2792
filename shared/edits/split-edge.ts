import { faceCount, vertexCount, type Walkmesh } from '../model/walkmesh';
import type { BatchCommand, SplitEdgeCommand } from './edit-command';
import { EditError } from './edit-error';
import { checkVertex } from './edit-checks';
import { checkGeometryEdit } from './game-edit-rules';
import { facesOnEdge } from './edit-topology';

/**
 * Splits an edge at a new vertex: each face on the edge keeps its index with one half,
 * and the other half is appended with the same attributes (so no face is renumbered).
 */
export function compileSplitEdge(mesh: Walkmesh, cmd: SplitEdgeCommand): BatchCommand {
  const kind = cmd.kind;
  checkGeometryEdit(mesh, kind);
  if (!Array.isArray(cmd.edge) || cmd.edge.length !== 2) throw new EditError(kind, 'edge must be two vertex indices');
  const [a, b] = cmd.edge;
  checkVertex(mesh, a, kind, 'edge[0]');
  checkVertex(mesh, b, kind, 'edge[1]');
  const t = cmd.t ?? 0.5;
  if (typeof t !== 'number' || !(t > 0 && t < 1)) throw new EditError(kind, `t is ${t}, not a fraction strictly between 0 and 1`);
  const uses = facesOnEdge(mesh, a, b);
  if (uses.length === 0) throw new EditError(kind, `no face of "${mesh.name}" has the edge ${a}–${b}`);
  const P = mesh.positions;
  const m = vertexCount(mesh);
  const position = [0, 1, 2].map((k) => Math.fround(P[a * 3 + k]! + (P[b * 3 + k]! - P[a * 3 + k]!) * t));
  const T = mesh.triangles;
  const faces: number[] = [];
  const kept: number[] = [];
  const added: number[] = [];
  const at: number[] = [];
  const F = faceCount(mesh);
  for (const use of uses) {
    const f = use.face;
    const u = T[f * 3 + use.corner]!;
    const v = T[f * 3 + ((use.corner + 1) % 3)]!;
    const w = T[f * 3 + ((use.corner + 2) % 3)]!;
    faces.push(f);
    kept.push(u, m, w);
    added.push(m, v, w);
    at.push(F + at.length);
  }
  const pick = (arr: Uint8Array | Uint32Array) => uses.map((u) => arr[u.face]!);
  return {
    kind: 'batch',
    commands: [
      { kind: 'append-vertices', positions: position },
      { kind: 'set-triangles', faces, triangles: kept },
      { kind: 'insert-faces', at, triangles: added, walkable: pick(mesh.faceWalkable), material: pick(mesh.faceMaterial), owner: pick(mesh.faceOwner) },
    ],
  };
}
