import { formIdHex } from '../../formats/skyrim/plugin-document';
import { TRI_EDGE_LINK_BITS, type NvnmDocument } from '../../formats/skyrim/nvnm-document';
import { gridDivisorFor } from '../../formats/skyrim/nvnm-grid';
import { ModelMappingError } from '../../model/model-mapping-error';
import { buildGrid } from './navmesh-grid';
import { rebakeCoverList } from './navmesh-rebake';

const LINK_BITS = TRI_EDGE_LINK_BITS[0] | TRI_EDGE_LINK_BITS[1] | TRI_EDGE_LINK_BITS[2];

/** The plugin's live navmeshes by FormID, the edit's view of "both sides" of a link. */
export type NavmeshesById = ReadonlyMap<number, NvnmDocument>;

export interface TriangleDeletion {
  /** New NVNM of every navmesh that changed: the edited one and neighbours that lost a link. */
  changed: Map<number, NvnmDocument>;
  /** Old triangle index → new index in the edited navmesh, −1 for deleted triangles. */
  triangleMap: Int32Array;
}

/** Triangle indices checked: whole numbers within the navmesh, no repeats. */
export function checkedTriangles(formId: number, nt: number, triangles: readonly number[]): number[] {
  const seen = new Set<number>();
  for (const t of triangles) {
    if (!Number.isInteger(t) || t < 0 || t >= nt) throw new ModelMappingError(`navmesh ${formIdHex(formId)}: triangle ${t} does not exist (the navmesh has ${nt})`);
    if (seen.has(t)) throw new ModelMappingError(`navmesh ${formIdHex(formId)}: triangle ${t} is listed twice`);
    seen.add(t);
  }
  return [...seen];
}

/** Triangles of `formId` that an edge link of another navmesh of the plugin names. */
function linkedFromOthers(formId: number, navmeshes: NavmeshesById): Set<number> {
  const out = new Set<number>();
  for (const [id, v] of navmeshes) {
    if (id === formId) continue;
    for (let i = 0; i < v.edgeLinkNavmesh.length; i++) if (v.edgeLinkNavmesh[i] === formId) out.add(v.edgeLinkTriangle[i]!);
  }
  return out;
}

/**
 * Drops the given edge-link entries of `v` and renumbers the link indices in `triFlags` /
 * `triEdges` (updated in place); an edge whose entry is dropped loses its link bit and
 * becomes open (−1).
 */
function withoutLinks(v: NvnmDocument, removed: ReadonlySet<number>, triFlags: Uint16Array, triEdges: Int16Array): Pick<NvnmDocument, 'edgeLinkType' | 'edgeLinkNavmesh' | 'edgeLinkTriangle'> {
  const nl = v.edgeLinkType.length;
  const linkMap = new Int32Array(nl).fill(-1);
  let kept = 0;
  for (let i = 0; i < nl; i++) if (!removed.has(i)) linkMap[i] = kept++;
  for (let t = 0; t < triFlags.length; t++) {
    for (let k = 0; k < 3; k++) {
      const bit = TRI_EDGE_LINK_BITS[k]!;
      if ((triFlags[t]! & bit) === 0) continue;
      const slot = t * 3 + k;
      const li = triEdges[slot]!;
      if (li >= 0 && li < nl && linkMap[li] === -1) {
        triFlags[t] = triFlags[t]! & ~bit;
        triEdges[slot] = -1;
      } else if (li >= 0 && li < nl) {
        triEdges[slot] = linkMap[li]!;
      }
    }
  }
  const keep = (i: number) => linkMap[i]! >= 0;
  return {
    edgeLinkType: v.edgeLinkType.filter((_, i) => keep(i)),
    edgeLinkNavmesh: v.edgeLinkNavmesh.filter((_, i) => keep(i)),
    edgeLinkTriangle: v.edgeLinkTriangle.filter((_, i) => keep(i)),
  };
}

/** The neighbour with its links back to the deleted triangles of `formId` removed (spec §11: both sides). */
function neighbourWithoutLinksTo(v: NvnmDocument, formId: number, deleted: Uint8Array): NvnmDocument | undefined {
  const removed = new Set<number>();
  for (let i = 0; i < v.edgeLinkNavmesh.length; i++) {
    const u = v.edgeLinkTriangle[i]!;
    if (v.edgeLinkNavmesh[i] === formId && u >= 0 && u < deleted.length && deleted[u]) removed.add(i);
  }
  if (removed.size === 0) return undefined;
  const triFlags = new Uint16Array(v.triFlags);
  const triEdges = new Int16Array(v.triEdges);
  return { ...v, triFlags, triEdges, ...withoutLinks(v, removed, triFlags, triEdges) };
}

/**
 * Deletes triangles of one navmesh without renumbering any triangle that something outside
 * the navmesh names (spec §11): border triangles (a link bit set, or named by another
 * navmesh's link) and door triangles keep their indices. The holes are filled with the
 * highest-numbered other triangles, and every internal reference (neighbour edges, links
 * to this navmesh from itself) is remapped. Deleting a border triangle removes its links
 * on both sides when the neighbour is in the plugin; a link into a navmesh the plugin does
 * not hold (a master's) or a door triangle cannot be updated, so such a deletion is refused.
 * Cover list and grid are rebuilt (divisor by the new triangle count, as the CK picks it).
 */
export function deleteTriangles(formId: number, navmeshes: NavmeshesById, triangles: readonly number[]): TriangleDeletion {
  const v = navmeshes.get(formId);
  if (!v) throw new ModelMappingError(`the plugin has no live navmesh ${formIdHex(formId)}`);
  const id = formIdHex(formId);
  const nt = v.triFlags.length;
  const list = checkedTriangles(formId, nt, triangles);
  const deleted = new Uint8Array(nt);
  for (const t of list) deleted[t] = 1;
  const doorOf = new Map<number, number>();
  for (let i = 0; i < v.doorTriangle.length; i++) doorOf.set(v.doorTriangle[i]!, v.doorRef[i]!);
  const fromOthers = linkedFromOthers(formId, navmeshes);
  const pinned = new Uint8Array(nt);
  for (let t = 0; t < nt; t++) {
    if ((v.triFlags[t]! & LINK_BITS) !== 0 || doorOf.has(t) || fromOthers.has(t)) pinned[t] = 1;
  }
  const removedLinks = new Set<number>();
  for (const t of list) {
    const door = doorOf.get(t);
    if (door !== undefined) throw new ModelMappingError(`navmesh ${id}: triangle ${t} is the door triangle of door ${formIdHex(door)}, whose XNDP names it; remove the door link first`);
    for (let k = 0; k < 3; k++) {
      if ((v.triFlags[t]! & TRI_EDGE_LINK_BITS[k]!) === 0) continue;
      const li = v.triEdges[t * 3 + k]!;
      if (li < 0 || li >= v.edgeLinkType.length) continue;
      const target = v.edgeLinkNavmesh[li]!;
      if (target !== formId && !navmeshes.has(target)) {
        throw new ModelMappingError(`navmesh ${id}: triangle ${t} links to navmesh ${formIdHex(target)}, which this plugin does not hold (a master's); its link back could not be removed`);
      }
      removedLinks.add(li);
    }
  }
  const newCount = nt - list.length;
  const triangleMap = new Int32Array(nt).fill(-1);
  const holes: number[] = [];
  for (let t = 0; t < newCount; t++) {
    if (deleted[t]) holes.push(t);
    else triangleMap[t] = t;
  }
  // Survivors past the new end move into the holes; only triangles nothing outside names may move.
  let h = 0;
  for (let t = nt - 1; t >= newCount; t--) {
    if (deleted[t]) continue;
    if (pinned[t]) {
      throw new ModelMappingError(`navmesh ${id}: deleting ${list.length} triangle(s) would renumber border or door triangle ${t} (the navmesh would end at ${newCount - 1}); delete triangles from the end of the navmesh, or fewer`);
    }
    triangleMap[t] = holes[h++]!;
  }
  const triVertices = new Uint16Array(newCount * 3);
  const triEdges = new Int16Array(newCount * 3);
  const triFlags = new Uint16Array(newCount);
  const triCover = new Uint16Array(newCount);
  for (let t = 0; t < nt; t++) {
    const n = triangleMap[t]!;
    if (n < 0) continue;
    triFlags[n] = v.triFlags[t]!;
    triCover[n] = v.triCover[t]!;
    for (let k = 0; k < 3; k++) {
      triVertices[n * 3 + k] = v.triVertices[t * 3 + k]!;
      const e = v.triEdges[t * 3 + k]!;
      const isLink = (v.triFlags[t]! & TRI_EDGE_LINK_BITS[k]!) !== 0;
      triEdges[n * 3 + k] = isLink ? e : e >= 0 && e < nt ? triangleMap[e]! : -1;
    }
  }
  const links = withoutLinks(v, removedLinks, triFlags, triEdges);
  // Links from this navmesh to itself name its own triangles, which may have moved.
  for (let i = 0; i < links.edgeLinkNavmesh.length; i++) {
    const u = links.edgeLinkTriangle[i]!;
    if (links.edgeLinkNavmesh[i] === formId && u >= 0 && u < nt) links.edgeLinkTriangle[i] = triangleMap[u]!;
  }
  const doorTriangle = v.doorTriangle.map((t) => (t >= 0 && t < nt ? triangleMap[t]! : t));
  const edited: NvnmDocument = { ...v, triVertices, triEdges, triFlags, triCover, ...links, doorTriangle };
  edited.coverTriangles = rebakeCoverList(edited);
  Object.assign(edited, buildGrid(edited, gridDivisorFor(newCount)));
  const changed = new Map<number, NvnmDocument>([[formId, edited]]);
  for (const [other, nv] of navmeshes) {
    if (other === formId) continue;
    const next = neighbourWithoutLinksTo(nv, formId, deleted);
    if (next) changed.set(other, next);
  }
  return { changed, triangleMap };
}
