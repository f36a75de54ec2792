import { NO_TRANSITION, type BwmDocument } from '../../formats/kotor/bwm-document';

/**
 * The order the game stores faces in: walkable faces first (adjacency row k belongs to
 * face k), each block keeping the input's relative order. Returns old face index by new
 * position.
 */
export function walkableFirstOrder(walkable: Uint8Array): Uint32Array {
  const faces = walkable.length;
  const order = new Uint32Array(faces);
  let at = 0;
  for (let f = 0; f < faces; f++) if (walkable[f]) order[at++] = f;
  for (let f = 0; f < faces; f++) if (!walkable[f]) order[at++] = f;
  return order;
}

/**
 * Per-edge transitions as a face-edge column (3 per face, −1 for none) from the edge
 * table; entries whose edge index points past the faces (broken writers) are dropped.
 */
export function faceEdgeTransitions(doc: BwmDocument): Int32Array {
  const slots = doc.faces.length;
  const out = new Int32Array(slots).fill(NO_TRANSITION);
  for (let i = 0; i < doc.edgeIndex.length; i++) {
    const e = doc.edgeIndex[i]!;
    if (e < slots) out[e] = doc.edgeTransition[i]!;
  }
  return out;
}
