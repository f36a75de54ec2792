import { formIdHex } from '../../formats/skyrim/plugin-document';
import { TRI_EDGE_LINK_BITS, TRI_FOUND, type NvnmDocument } from '../../formats/skyrim/nvnm-document';
import { gridDivisorFor } from '../../formats/skyrim/nvnm-grid';
import { ModelMappingError } from '../../model/model-mapping-error';
import { buildGrid } from './navmesh-grid';
import { rebakeCoverList } from './navmesh-rebake';

/** s16 triangle indices and u16 vertex indices (spec §11). */
export const MAX_NAVMESH_TRIANGLES = 0x7fff;
export const MAX_NAVMESH_VERTICES = 0xffff;

const LINK_BITS = TRI_EDGE_LINK_BITS[0] | TRI_EDGE_LINK_BITS[1] | TRI_EDGE_LINK_BITS[2];
/** One edge's cover slot: type/height (4 bits), left, right (spec §6). */
const COVER_EDGE_BITS = 0x3f;

export interface TrianglesToAdd {
  /** New vertices, x y z each; triangle corners name them as vertexCount + i. */
  positions?: readonly number[];
  /** Three vertex indices per new triangle. */
  triangles: readonly number[];
  /** Flags per new triangle (Found, 0x800, when absent); edge-link bits are not allowed. */
  flags?: readonly number[];
  /** Cover word per new triangle (0 when absent). */
  cover?: readonly number[];
}

function u16(formId: number, what: string, values: readonly number[] | undefined, count: number): void {
  if (values === undefined) return;
  if (values.length !== count) throw new ModelMappingError(`navmesh ${formIdHex(formId)}: ${count} triangle(s) but ${values.length} ${what} value(s)`);
  for (const x of values) if (!Number.isInteger(x) || x < 0 || x > 0xffff) throw new ModelMappingError(`navmesh ${formIdHex(formId)}: ${what} ${x} is not a u16`);
}

/** f32 bit patterns of the given coordinates, refusing what an f32 cannot hold. */
export function positionBits(formId: number, positions: readonly number[]): Uint32Array {
  if (positions.length % 3 !== 0) throw new ModelMappingError(`navmesh ${formIdHex(formId)}: ${positions.length} coordinates is not a whole number of x y z vertices`);
  const f = new Float32Array(positions);
  for (let i = 0; i < f.length; i++) {
    if (!Number.isFinite(f[i]!)) throw new ModelMappingError(`navmesh ${formIdHex(formId)}: coordinate ${positions[i]} of vertex ${Math.floor(i / 3)} is not a finite f32`);
  }
  return new Uint32Array(f.buffer);
}

/**
 * Appends vertices and triangles to a navmesh. Nothing is renumbered, so no link or door
 * reference anywhere changes. A new triangle's edge becomes the internal neighbour of the
 * open edge (−1, not a link) of another triangle that has the same two vertices, and that
 * edge's cover slot is cleared; the cover list and the grid are rebuilt (divisor by the
 * new triangle count).
 */
export function addTriangles(formId: number, v: NvnmDocument, add: TrianglesToAdd): NvnmDocument {
  const id = formIdHex(formId);
  const added = positionBits(formId, add.positions ?? []);
  const nv = v.vertices.length / 3 + added.length / 3;
  if (nv > MAX_NAVMESH_VERTICES) throw new ModelMappingError(`navmesh ${id}: ${nv} vertices exceed the u16 limit of ${MAX_NAVMESH_VERTICES}`);
  if (add.triangles.length % 3 !== 0) throw new ModelMappingError(`navmesh ${id}: ${add.triangles.length} corner indices is not a whole number of triangles`);
  const count = add.triangles.length / 3;
  const oldCount = v.triFlags.length;
  const nt = oldCount + count;
  if (nt > MAX_NAVMESH_TRIANGLES) throw new ModelMappingError(`navmesh ${id}: ${nt} triangles exceed the s16 limit of ${MAX_NAVMESH_TRIANGLES}`);
  u16(formId, 'flags', add.flags, count);
  u16(formId, 'cover', add.cover, count);
  for (let i = 0; i < count; i++) {
    const c = add.triangles.slice(i * 3, i * 3 + 3);
    for (const x of c) if (!Number.isInteger(x) || x < 0 || x >= nv) throw new ModelMappingError(`navmesh ${id}: new triangle ${i} names vertex ${x}, but the navmesh has ${nv}`);
    if (c[0] === c[1] || c[1] === c[2] || c[0] === c[2]) throw new ModelMappingError(`navmesh ${id}: new triangle ${i} repeats a vertex (${c.join(', ')})`);
    if (add.flags && (add.flags[i]! & LINK_BITS) !== 0) throw new ModelMappingError(`navmesh ${id}: new triangle ${i} has edge-link bits set (0x${add.flags[i]!.toString(16)}); links are made only by the CK's finalize or a rebake of the neighbours`);
  }
  const vertices = new Uint32Array(v.vertices.length + added.length);
  vertices.set(v.vertices);
  vertices.set(added, v.vertices.length);
  const triVertices = new Uint16Array(nt * 3);
  triVertices.set(v.triVertices);
  triVertices.set(add.triangles, oldCount * 3);
  const triEdges = new Int16Array(nt * 3).fill(-1);
  triEdges.set(v.triEdges);
  const triFlags = new Uint16Array(nt);
  triFlags.set(v.triFlags);
  triFlags.set(add.flags ?? new Array<number>(count).fill(TRI_FOUND), oldCount);
  const triCover = new Uint16Array(nt);
  triCover.set(v.triCover);
  if (add.cover) triCover.set(add.cover, oldCount);
  // Open internal edges by undirected vertex pair; a pair is taken by the first edge that claims it.
  const open = new Map<number, number>();
  const key = (a: number, b: number) => (a < b ? a * 0x10000 + b : b * 0x10000 + a);
  for (let t = 0; t < nt; t++) {
    for (let k = 0; k < 3; k++) {
      const slot = t * 3 + k;
      if ((triFlags[t]! & TRI_EDGE_LINK_BITS[k]!) !== 0 || triEdges[slot] !== -1) continue;
      const pair = key(triVertices[slot]!, triVertices[t * 3 + ((k + 1) % 3)]!);
      const other = open.get(pair);
      if (other === undefined) {
        open.set(pair, slot);
      } else if (t >= oldCount && Math.floor(other / 3) !== t) {
        // Only a new triangle may close an edge: the stored mesh's open edges stay as the CK left them.
        const u = Math.floor(other / 3);
        triEdges[slot] = u;
        triEdges[other] = t;
        open.delete(pair);
        // Cover sits only on open or external edges (spec §6): the closed edge's slot (edges 0-1, 1-2) is cleared.
        const ku = other % 3;
        if (ku < 2) triCover[u] = triCover[u]! & ~(COVER_EDGE_BITS << (6 * ku));
      }
    }
  }
  const next: NvnmDocument = { ...v, vertices, triVertices, triEdges, triFlags, triCover };
  next.coverTriangles = rebakeCoverList(next);
  return Object.assign(next, buildGrid(next, gridDivisorFor(nt)));
}
