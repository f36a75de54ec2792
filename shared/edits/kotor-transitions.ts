import { bitsOf, NO_TRANSITION, type BwmDocument } from '../formats/kotor/bwm-document';
import type { Walkmesh } from '../model/walkmesh';
import type { KotorSetTransitionCommand } from './document-edit-command';
import { EditError } from './edit-error';

/** The two corners of local edge `e` of face `f` (0: v1→v2, 1: v2→v3, 2: v3→v1). */
function edgeCorners(triangles: Uint32Array, f: number, e: number): [number, number] {
  return [triangles[3 * f + e]!, triangles[3 * f + (e === 2 ? 0 : e + 1)]!];
}

function endpointKey(words: Uint32Array, a: number, b: number): string {
  const ka = `${words[3 * a]},${words[3 * a + 1]},${words[3 * a + 2]}`;
  const kb = `${words[3 * b]},${words[3 * b + 1]},${words[3 * b + 2]}`;
  return ka < kb ? `${ka}|${kb}` : `${kb}|${ka}`;
}

/**
 * The edge-table row of the document's perimeter edge that is the mesh's face/edge. With
 * no mesh (or a mesh whose faces are the document's own) the face is the document's; an
 * edited mesh is matched by the edge's endpoint positions, bit for bit, which is how the
 * BWM writer carries transitions over to a rebaked room (bwm-walkmesh.ts).
 */
export function perimeterRow(doc: BwmDocument, face: number, edge: number, kind: string, mesh?: Walkmesh): number {
  const faces = mesh ? mesh.triangles.length / 3 : doc.faces.length / 3;
  if (!Number.isInteger(face) || face < 0 || face >= faces) throw new EditError(kind, `face ${face} does not exist (the walkmesh has ${faces})`);
  if (!Number.isInteger(edge) || edge < 0 || edge > 2) throw new EditError(kind, `edge ${edge} is not 0, 1 or 2`);
  const slot = face * 3 + edge;
  if (!mesh || sameFaces(doc, mesh)) {
    const row = doc.edgeIndex.indexOf(slot);
    if (row < 0) throw new EditError(kind, `face ${face} edge ${edge} is not a perimeter edge, so it cannot lead to another room`);
    return row;
  }
  const [a, b] = edgeCorners(mesh.triangles, face, edge);
  const want = endpointKey(bitsOf(mesh.positions), a, b);
  for (let row = 0; row < doc.edgeIndex.length; row++) {
    const s = doc.edgeIndex[row]!;
    const [c, d] = edgeCorners(doc.faces, (s / 3) | 0, s % 3);
    if (endpointKey(doc.vertices, c, d) === want) return row;
  }
  throw new EditError(kind, `face ${face} edge ${edge} is not a perimeter edge of the room as written, so it cannot lead to another room`);
}

function sameFaces(doc: BwmDocument, mesh: Walkmesh): boolean {
  if (doc.faces.length !== mesh.triangles.length) return false;
  for (let i = 0; i < doc.faces.length; i++) if (doc.faces[i] !== mesh.triangles[i]) return false;
  return true;
}

export interface TransitionEditResult {
  doc: BwmDocument;
  inverse: KotorSetTransitionCommand;
}

/**
 * Sets a perimeter edge's transition; the input document is not modified. Only the value
 * in the edge table changes (never which edges are perimeter edges), so adjacency,
 * perimeters and the AABB tree stay valid and every other byte of the file stays.
 */
export function applyKotorTransition(doc: BwmDocument, cmd: KotorSetTransitionCommand, mesh?: Walkmesh): TransitionEditResult {
  if (!Number.isInteger(cmd.target) || cmd.target < NO_TRANSITION || cmd.target > 0x7fffffff) {
    throw new EditError(cmd.kind, `target ${cmd.target} is not a LYT room index (or −1 for no link)`);
  }
  const row = perimeterRow(doc, cmd.face, cmd.edge, cmd.kind, mesh);
  const old = doc.edgeTransition[row]!;
  const edgeTransition = doc.edgeTransition.slice();
  edgeTransition[row] = cmd.target;
  return { doc: { ...doc, edgeTransition }, inverse: { kind: cmd.kind, face: cmd.face, edge: cmd.edge, target: old } };
}

/** The mesh face/edge that is row `row` of the document's edge table (matched by endpoint positions). */
export function meshEdgeOfRow(doc: BwmDocument, row: number, mesh: Walkmesh): { face: number; edge: number } | undefined {
  const s = doc.edgeIndex[row]!;
  if (sameFaces(doc, mesh)) return { face: (s / 3) | 0, edge: s % 3 };
  const [c, d] = edgeCorners(doc.faces, (s / 3) | 0, s % 3);
  const want = endpointKey(doc.vertices, c, d);
  const words = bitsOf(mesh.positions);
  for (let f = 0; f < mesh.triangles.length / 3; f++) {
    for (let e = 0; e < 3; e++) {
      const [a, b] = edgeCorners(mesh.triangles, f, e);
      if (endpointKey(words, a, b) === want) return { face: f, edge: e };
    }
  }
  return undefined;
}
