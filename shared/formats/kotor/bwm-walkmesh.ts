import { createWalkmesh, NO_OWNER, type Walkmesh } from '../../model/walkmesh';
import { bakeBwm } from '../../bakers/kotor/bwm-bake';
import { bitsOf, BWM_TYPE_AREA, floatsOf, NO_TRANSITION, type BwmDocument } from './bwm-document';
import { DEFAULT_WALKABILITY, isWalkableMaterial, type WalkabilityTable } from './surface-materials';
import { faceEdgeTransitions } from '../../bakers/kotor/bwm-face-order';

export const BWM_FORMAT_ID = 'kotor-bwm';

/**
 * The common-model view of a BWM: one walkmesh; faceMaterial = surface material id,
 * faceWalkable from the walkability table, faceOwner = NO_OWNER (a WOK is one room and does
 * not know its own LYT index).
 */
export function bwmToWalkmesh(doc: BwmDocument, name: string, table: WalkabilityTable = DEFAULT_WALKABILITY): Walkmesh {
  const faces = doc.faces.length / 3;
  const faceWalkable = new Uint8Array(faces);
  for (let f = 0; f < faces; f++) faceWalkable[f] = isWalkableMaterial(table, doc.materials[f]!) ? 1 : 0;
  return createWalkmesh({
    name,
    game: 'kotor',
    format: BWM_FORMAT_ID,
    positions: floatsOf(doc.vertices),
    triangles: doc.faces.slice(),
    faceWalkable,
    faceMaterial: doc.materials.slice(),
    faceOwner: new Uint32Array(faces).fill(NO_OWNER),
  });
}

/**
 * A BWM from an edited walkmesh. Per-edge transitions have no place in the common model
 * (or in an OBJ's per-face material names), so they travel in the base document: each
 * edge of the new mesh takes the transition of the base edge with the same two endpoint
 * positions (bit-exact, either direction). That survives face reordering, vertex
 * renumbering and any edit that leaves a doorway edge's endpoints in place; an edge that
 * moved loses its transition, which validation then reports as a missing seam.
 *
 * An unedited mesh (same faces with the same corner positions, materials and walkability,
 * whatever the vertex numbering) gives the base back unchanged, so read → model → write
 * and WOK → OBJ → WOK with `--base` are byte-identical. Anything else is
 * rebuilt with the game's derivation (face order, planes, AABB, adjacency, perimeters);
 * walkability comes from the mesh's faceWalkable. Without a base, the result is a room
 * walkmesh (type 1) with no use points and no transitions.
 */
export function bwmFromWalkmesh(mesh: Walkmesh, base: BwmDocument | undefined, table: WalkabilityTable = DEFAULT_WALKABILITY): BwmDocument {
  const vertices = bitsOf(mesh.positions);
  if (base && sameWalkmesh(mesh, vertices, base, table)) return base;
  const transitions = base ? transitionsByPosition(base, mesh) : new Int32Array(mesh.triangles.length).fill(NO_TRANSITION);
  return bakeBwm(
    {
      type: base?.type ?? BWM_TYPE_AREA,
      hooks: base?.hooks ?? new Uint32Array(15),
      vertices,
      faces: mesh.triangles,
      materials: mesh.faceMaterial,
      transitions,
      walkable: mesh.faceWalkable,
    },
    table,
  ).document;
}

/**
 * True when the mesh is the base's geometry: same faces in the same order with the same
 * corner positions (bit for bit; vertex numbering may differ, as after an OBJ export that
 * renumbers vertices by first use), materials and walkability.
 */
function sameWalkmesh(mesh: Walkmesh, vertices: Uint32Array, base: BwmDocument, table: WalkabilityTable): boolean {
  if (mesh.triangles.length !== base.faces.length || !equalWords(mesh.faceMaterial, base.materials)) return false;
  const baseVertexCount = base.vertices.length / 3;
  for (let i = 0; i < mesh.triangles.length; i++) {
    const v = mesh.triangles[i]! * 3, w = base.faces[i]!;
    if (w >= baseVertexCount) return false;
    if (vertices[v] !== base.vertices[3 * w] || vertices[v + 1] !== base.vertices[3 * w + 1] || vertices[v + 2] !== base.vertices[3 * w + 2]) return false;
  }
  for (let f = 0; f < mesh.faceWalkable.length; f++) {
    if ((mesh.faceWalkable[f] ? 1 : 0) !== (isWalkableMaterial(table, base.materials[f]!) ? 1 : 0)) return false;
  }
  return true;
}

function equalWords(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Transitions for the mesh's face edges, from the base's edges with the same endpoints. */
function transitionsByPosition(base: BwmDocument, mesh: Walkmesh): Int32Array {
  const baseTransitions = faceEdgeTransitions(base);
  const byEdge = new Map<string, number>();
  const baseVertices = base.vertices;
  const key = (words: Uint32Array, a: number, b: number): string => {
    const ka = `${words[3 * a]!},${words[3 * a + 1]!},${words[3 * a + 2]!}`;
    const kb = `${words[3 * b]!},${words[3 * b + 1]!},${words[3 * b + 2]!}`;
    return ka < kb ? `${ka}|${kb}` : `${kb}|${ka}`;
  };
  for (let slot = 0; slot < baseTransitions.length; slot++) {
    const t = baseTransitions[slot]!;
    if (t === NO_TRANSITION) continue;
    const f = (slot / 3) | 0;
    const e = slot - 3 * f;
    const a = base.faces[slot]!;
    const b = base.faces[3 * f + (e === 2 ? 0 : e + 1)]!;
    if (a < baseVertices.length / 3 && b < baseVertices.length / 3) byEdge.set(key(baseVertices, a, b), t);
  }
  const out = new Int32Array(mesh.triangles.length).fill(NO_TRANSITION);
  if (byEdge.size === 0) return out;
  const words = bitsOf(mesh.positions);
  for (let slot = 0; slot < out.length; slot++) {
    const f = (slot / 3) | 0;
    const e = slot - 3 * f;
    const t = byEdge.get(key(words, mesh.triangles[slot]!, mesh.triangles[3 * f + (e === 2 ? 0 : e + 1)]!));
    if (t !== undefined) out[slot] = t;
  }
  return out;
}
