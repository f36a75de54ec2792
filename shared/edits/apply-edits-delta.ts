import type { EditsDelta } from '../ipc/edits-contract';
import { faceCount, vertexCount, type Walkmesh } from '../model/walkmesh';
import { EditError } from './edit-error';

/** What applying a delta changed, so a view can redraw only that. */
export interface DeltaChange {
  /** Faces whose walkable, material or owner value is different now. */
  faces: Uint32Array;
  /** Their values before, parallel to `faces` (a legend's counts follow without a pass over the mesh). */
  before: { walkable: Uint8Array; material: Uint32Array; owner: Uint32Array };
  /** Vertices whose position is different now. */
  vertices: Uint32Array;
  walkableChanged: boolean;
  ownerChanged: boolean;
}

/**
 * Copies an edit reply's delta (the new values of the touched faces and vertices) into the
 * walkmesh's own arrays. The delta is checked against the mesh first, so a reply meant for
 * another mesh is refused whole instead of half applied.
 */
export function applyEditsDelta(mesh: Walkmesh, delta: EditsDelta): DeltaChange {
  const F = faceCount(mesh);
  const V = vertexCount(mesh);
  const n = delta.faces.length;
  if (delta.faceWalkable.length !== n || delta.faceMaterial.length !== n || delta.faceOwner.length !== n) {
    throw new EditError('delta', `${mesh.name}: the delta lists ${n} faces but ${delta.faceWalkable.length}/${delta.faceMaterial.length}/${delta.faceOwner.length} walkable/material/owner values`);
  }
  if (delta.positions.length !== delta.vertices.length * 3) {
    throw new EditError('delta', `${mesh.name}: the delta lists ${delta.vertices.length} vertices but ${delta.positions.length} coordinates (expected ${delta.vertices.length * 3})`);
  }
  for (const f of delta.faces) if (f >= F) throw new EditError('delta', `${mesh.name}: the delta names face ${f} but the mesh has ${F} faces`);
  for (const v of delta.vertices) if (v >= V) throw new EditError('delta', `${mesh.name}: the delta names vertex ${v} but the mesh has ${V} vertices`);

  const faces: number[] = [];
  const was: { walkable: number[]; material: number[]; owner: number[] } = { walkable: [], material: [], owner: [] };
  let walkableChanged = false;
  let ownerChanged = false;
  for (let i = 0; i < n; i++) {
    const f = delta.faces[i]!;
    const w = delta.faceWalkable[i]!, m = delta.faceMaterial[i]!, o = delta.faceOwner[i]!;
    if (mesh.faceWalkable[f] === w && mesh.faceMaterial[f] === m && mesh.faceOwner[f] === o) continue;
    was.walkable.push(mesh.faceWalkable[f]!);
    was.material.push(mesh.faceMaterial[f]!);
    was.owner.push(mesh.faceOwner[f]!);
    walkableChanged ||= mesh.faceWalkable[f] !== w;
    ownerChanged ||= mesh.faceOwner[f] !== o;
    mesh.faceWalkable[f] = w;
    mesh.faceMaterial[f] = m;
    mesh.faceOwner[f] = o;
    faces.push(f);
  }
  const vertices: number[] = [];
  const P = mesh.positions;
  for (let i = 0; i < delta.vertices.length; i++) {
    const v = delta.vertices[i]!;
    const x = delta.positions[i * 3]!, y = delta.positions[i * 3 + 1]!, z = delta.positions[i * 3 + 2]!;
    // Object.is: a move between 0 and -0 is a change of bits the file keeps.
    if (Object.is(P[v * 3], x) && Object.is(P[v * 3 + 1], y) && Object.is(P[v * 3 + 2], z)) continue;
    P[v * 3] = x;
    P[v * 3 + 1] = y;
    P[v * 3 + 2] = z;
    vertices.push(v);
  }
  const before = { walkable: Uint8Array.from(was.walkable), material: Uint32Array.from(was.material), owner: Uint32Array.from(was.owner) };
  return { faces: Uint32Array.from(faces), before, vertices: Uint32Array.from(vertices), walkableChanged, ownerChanged };
}
