import { createWalkmesh, NO_OWNER, type Walkmesh } from '../../model/walkmesh';
import { bakeBwm } from '../../bakers/kotor/bwm-bake';
import { inferNormalRule, type BwmNormalRule } from '../../bakers/kotor/bwm-normals';
import { AABB_NODE_WORDS, bitsOf, BWM_TYPE_AREA, floatsOf, NO_TRANSITION, type BwmDocument } from './bwm-document';
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
 * edge of the new mesh takes the transition of the base edge with the same two endpoints,
 * matched first by vertex numbers and endpoint positions in the same direction, then by
 * positions in the same direction (the two sides of a duplicate-vertex seam run opposite
 * ways), then in either direction (a flipped face) when that is unambiguous. That survives
 * face reordering, vertex renumbering and any edit that leaves a doorway edge's endpoints
 * in place; an edge that moved loses its transition, which validation then reports as a
 * missing seam.
 *
 * An unedited mesh (same faces with the same corner positions, materials and walkability,
 * whatever the vertex numbering) gives the base back unchanged, so read → model → write
 * and WOK → OBJ → WOK with `--base` are byte-identical. A mesh whose only change is
 * materials that keep each face's walkability gives the base with that material column
 * (every other section follows from geometry and walkability). Anything else is rebuilt
 * with the game's derivation (face order, AABB, adjacency, perimeters); walkability comes
 * from the mesh's faceWalkable. When the geometry is the base's and only the walkable-first
 * order moved faces, the base's AABB tree (BioWare's, which a rebuild cannot reproduce bit
 * for bit) is kept with its leaves renumbered. What the base stores beyond the derivation is kept: a face whose
 * corners are the base face's (same positions, same order) keeps the base's stored normal
 * and planar distance bit for bit (also when another tool computed them), and the header
 * (type, use points, position), the offsets style of empty sections and any bytes after
 * the last section stay as they were. Normals of new or moved faces follow `normals`, else
 * the arithmetic the base's own normals follow (bwm-normals.ts: the game the room comes
 * from), else KotOR 1's. Without a base, the result is a room walkmesh (type 1) with no use
 * points and no transitions.
 */
export function bwmFromWalkmesh(mesh: Walkmesh, base: BwmDocument | undefined, table: WalkabilityTable = DEFAULT_WALKABILITY, normals?: BwmNormalRule): BwmDocument {
  const vertices = bitsOf(mesh.positions);
  if (base && sameWalkmesh(mesh, vertices, base, table)) return base;
  const sameGeometry = base !== undefined && equalWords(vertices, base.vertices) && equalWords(mesh.triangles, base.faces);
  // Only materials changed, each face keeping its walkability: every other section depends
  // on geometry and walkability alone, so the base's (BioWare's tree included) stays.
  if (base && sameGeometry && sameWalkability(mesh, base, table)) return { ...base, materials: mesh.faceMaterial.slice() };
  const transitions = base ? transitionsByPosition(base, mesh, vertices) : new Int32Array(mesh.triangles.length).fill(NO_TRANSITION);
  const rule = normals ?? (base ? inferNormalRule(floatsOf(base.vertices), base.faces, base.normals) : 'kotor1');
  const baked = bakeBwm(
    {
      type: base?.type ?? BWM_TYPE_AREA,
      hooks: base?.hooks ?? new Uint32Array(15),
      vertices,
      faces: mesh.triangles,
      materials: mesh.faceMaterial,
      transitions,
      walkable: mesh.faceWalkable,
      normals: rule,
    },
    table,
  );
  const doc = baked.document;
  if (base) {
    keepStoredPlanes(doc, baked.faceOrder, mesh.triangles, vertices, base);
    // Same geometry, only reordered (a face painted across walkability): the tree's boxes
    // depend on the geometry alone, so the base's tree stays with its leaves renumbered.
    if (sameGeometry && base.aabb.length === doc.aabb.length) {
      doc.aabb = renumberedLeaves(base.aabb, baked.faceOrder);
      doc.aabbRoot = base.aabbRoot;
    }
    // Absent entries mean running offsets (the writer's default), so the base's styles win.
    if (base.type === doc.type) doc.emptyOffsets = { ...doc.emptyOffsets, ...base.emptyOffsets };
    doc.trailing = base.trailing.slice();
  }
  return doc;
}

/** True when every face's walkability is what the base's material gives it. */
function sameWalkability(mesh: Walkmesh, base: BwmDocument, table: WalkabilityTable): boolean {
  for (let f = 0; f < mesh.faceWalkable.length; f++) {
    if ((mesh.faceWalkable[f] ? 1 : 0) !== (isWalkableMaterial(table, base.materials[f]!) ? 1 : 0)) return false;
  }
  return true;
}

/** A copy of an AABB table whose leaves name each face by its new position (faceOrder: old face by new position). */
function renumberedLeaves(aabb: Uint32Array, faceOrder: Uint32Array): Uint32Array {
  const newIndex = new Uint32Array(faceOrder.length);
  for (let k = 0; k < faceOrder.length; k++) newIndex[faceOrder[k]!] = k;
  const out = aabb.slice();
  for (let o = 0; o < out.length; o += AABB_NODE_WORDS) {
    const face = out[o + 6]!;
    if (face < newIndex.length) out[o + 6] = newIndex[face]!;
  }
  return out;
}

/** Corner position bits of a face, in order: the identity of a face's geometry. */
function cornerKey(triangles: Uint32Array, words: Uint32Array, f: number): string {
  let k = '';
  for (let i = 0; i < 3; i++) {
    const v = triangles[3 * f + i]! * 3;
    k += `${words[v]!},${words[v + 1]!},${words[v + 2]!};`;
  }
  return k;
}

/**
 * Gives every output face whose corners are a base face's (same positions in the same
 * order) that face's stored normal and planar distance. Faces keep their index through
 * most edits, so the base face of the same index is tried first; others are found by their
 * corners (a map built only when some face needs it).
 */
function keepStoredPlanes(doc: BwmDocument, faceOrder: Uint32Array, triangles: Uint32Array, words: Uint32Array, base: BwmDocument): void {
  const baseFaces = Math.min(base.faces.length / 3, base.normals.length / 3, base.planes.length);
  const baseVertexCount = base.vertices.length / 3;
  const baseKey = (f: number): string | undefined => {
    for (let i = 0; i < 3; i++) if (base.faces[3 * f + i]! >= baseVertexCount) return undefined;
    return cornerKey(base.faces, base.vertices, f);
  };
  let byCorners: Map<string, number> | undefined;
  for (let k = 0; k < faceOrder.length; k++) {
    const f = faceOrder[k]!;
    const key = cornerKey(triangles, words, f);
    let from = f < baseFaces && baseKey(f) === key ? f : -1;
    if (from < 0) {
      if (!byCorners) {
        byCorners = new Map();
        for (let g = baseFaces - 1; g >= 0; g--) {
          const bk = baseKey(g);
          if (bk !== undefined) byCorners.set(bk, g);
        }
      }
      from = byCorners.get(key) ?? -1;
    }
    if (from < 0) continue;
    doc.normals[3 * k] = base.normals[3 * from]!;
    doc.normals[3 * k + 1] = base.normals[3 * from + 1]!;
    doc.normals[3 * k + 2] = base.normals[3 * from + 2]!;
    doc.planes[k] = base.planes[from]!;
  }
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
  return sameWalkability(mesh, base, table);
}

function equalWords(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Records key → t; null marks a key whose base edges carry different transitions. */
function remember(map: Map<string, number | null>, key: string, t: number): void {
  const had = map.get(key);
  map.set(key, had === undefined || had === t ? t : null);
}

/** Transitions for the mesh's face edges, from the base's edges with the same endpoints. */
function transitionsByPosition(base: BwmDocument, mesh: Walkmesh, words: Uint32Array): Int32Array {
  const baseTransitions = faceEdgeTransitions(base);
  const exact = new Map<string, number | null>();
  const directed = new Map<string, number | null>();
  const either = new Map<string, number | null>();
  const baseVertices = base.vertices;
  const baseVertexCount = baseVertices.length / 3;
  const at = (w: Uint32Array, v: number): string => `${w[3 * v]!},${w[3 * v + 1]!},${w[3 * v + 2]!}`;
  // Edges without a transition count too (walkable faces are the first adjacency rows), so
  // the side of a duplicate-vertex seam that has none does not take the other side's.
  const walkableSlots = Math.min(base.adjacency.length, baseTransitions.length);
  let any = false;
  for (let slot = 0; slot < baseTransitions.length; slot++) {
    const t = baseTransitions[slot]!;
    if (t === NO_TRANSITION && slot >= walkableSlots) continue;
    any ||= t !== NO_TRANSITION;
    const f = (slot / 3) | 0;
    const e = slot - 3 * f;
    const a = base.faces[slot]!;
    const b = base.faces[3 * f + (e === 2 ? 0 : e + 1)]!;
    if (a >= baseVertexCount || b >= baseVertexCount) continue;
    const pa = at(baseVertices, a), pb = at(baseVertices, b);
    remember(exact, `${a}>${b}|${pa}|${pb}`, t);
    remember(directed, `${pa}|${pb}`, t);
    remember(either, pa < pb ? `${pa}|${pb}` : `${pb}|${pa}`, t);
  }
  const out = new Int32Array(mesh.triangles.length).fill(NO_TRANSITION);
  if (!any) return out;
  for (let slot = 0; slot < out.length; slot++) {
    const f = (slot / 3) | 0;
    const e = slot - 3 * f;
    const a = mesh.triangles[slot]!;
    const b = mesh.triangles[3 * f + (e === 2 ? 0 : e + 1)]!;
    const pa = at(words, a), pb = at(words, b);
    let t = exact.get(`${a}>${b}|${pa}|${pb}`);
    if (t === undefined || t === null) t = directed.get(`${pa}|${pb}`);
    if (t === undefined || t === null) t = either.get(pa < pb ? `${pa}|${pb}` : `${pb}|${pa}`);
    if (t !== undefined && t !== null) out[slot] = t;
  }
  return out;
}
