import type { NvmiEntry } from '../../formats/skyrim/navi-document';
import { MAX_GRID_DIVISOR, gridDivisorFor } from '../../formats/skyrim/nvnm-grid';
import { TRI_EDGE_LINK_BITS, type NvnmDocument } from '../../formats/skyrim/nvnm-document';
import { formIdHex, type PluginDocument } from '../../formats/skyrim/plugin-document';
import { pluginNaviEntries, pluginNavmeshes } from '../../formats/skyrim/plugin-navmeshes';
import { ModelMappingError } from '../../model/model-mapping-error';
import { rebakeNvmi } from './navi-rebake';
import { addTriangles, positionBits, type TrianglesToAdd } from './navmesh-add-triangles';
import { checkedTriangles, deleteTriangles } from './navmesh-delete-triangles';
import { buildGrid } from './navmesh-grid';
import { rebakeCoverList } from './navmesh-rebake';
import { replaceNavmeshData } from './plugin-rebake';

const LINK_BITS = TRI_EDGE_LINK_BITS[0] | TRI_EDGE_LINK_BITS[1] | TRI_EDGE_LINK_BITS[2];

/** A navmesh's NVNM and NAVI entry as they were, for an exact undo. */
export interface NavmeshSnapshot {
  formId: number;
  nvnm: NvnmDocument;
  nvmi: NvmiEntry | undefined;
}

/**
 * An edit of one navmesh inside a plugin document (issue 5 §4). Triangle and vertex
 * indices are the navmesh's own; positions are x y z triples in game units.
 */
export type NavmeshEdit =
  | { kind: 'move-vertices'; navmesh: number; vertices: readonly number[]; positions: readonly number[] }
  /** Flags keep their edge-link bits (0x7) as stored: links belong to the link lists. */
  | { kind: 'set-triangle-flags'; navmesh: number; triangles: readonly number[]; flags?: readonly number[]; cover?: readonly number[] }
  | { kind: 'delete-triangles'; navmesh: number; triangles: readonly number[] }
  | ({ kind: 'add-triangles'; navmesh: number } & TrianglesToAdd)
  /** Puts the navmeshes back as they were: the inverse of every other edit. */
  | { kind: 'restore'; navmeshes: readonly NavmeshSnapshot[] };

export interface NavmeshEditResult {
  document: PluginDocument;
  /** The edit that undoes this one (a restore of every navmesh it changed). */
  inverse: NavmeshEdit;
  /** FormIDs of the navmeshes whose NVNM changed, the edited one first. */
  changed: number[];
  /** delete-triangles: old triangle index → new index, −1 when deleted. */
  triangleMap?: Int32Array;
  /** What the edit left as stored and may be stale, one line each (for the user to see). */
  notes: string[];
}

interface PluginNavmeshData {
  navmeshes: Map<number, NvnmDocument>;
  nvmi: Map<number, NvmiEntry>;
}

function navmeshData(doc: PluginDocument): PluginNavmeshData {
  const navmeshes = new Map<number, NvnmDocument>();
  for (const n of pluginNavmeshes(doc)) if (n.nvnm && !n.deleted && !navmeshes.has(n.formId)) navmeshes.set(n.formId, n.nvnm);
  const nvmi = new Map<number, NvmiEntry>();
  for (const { entries } of pluginNaviEntries(doc)) for (const e of entries) if (!nvmi.has(e.navmesh)) nvmi.set(e.navmesh, e);
  return { navmeshes, nvmi };
}

function target(data: PluginNavmeshData, formId: number): NvnmDocument {
  const v = data.navmeshes.get(formId);
  if (!v) throw new ModelMappingError(`the plugin has no live navmesh ${formIdHex(formId)}`);
  return v;
}

/** The grid divisor to keep while the triangle count stays: the stored one when xEdit can read it. */
function divisorOf(v: NvnmDocument): number {
  return v.gridDivisor >= 1 && v.gridDivisor <= MAX_GRID_DIVISOR ? v.gridDivisor : gridDivisorFor(v.triFlags.length);
}

function moveVertices(formId: number, v: NvnmDocument, vertices: readonly number[], positions: readonly number[]): NvnmDocument {
  const nv = v.vertices.length / 3;
  if (positions.length !== vertices.length * 3) throw new ModelMappingError(`navmesh ${formIdHex(formId)}: ${vertices.length} vertices need ${vertices.length * 3} coordinates, not ${positions.length}`);
  const bits = positionBits(formId, positions);
  const out = new Uint32Array(v.vertices);
  vertices.forEach((i, j) => {
    if (!Number.isInteger(i) || i < 0 || i >= nv) throw new ModelMappingError(`navmesh ${formIdHex(formId)}: vertex ${i} does not exist (the navmesh has ${nv})`);
    out.set(bits.subarray(j * 3, j * 3 + 3), i * 3);
  });
  const next: NvnmDocument = { ...v, vertices: out };
  return Object.assign(next, buildGrid(next, divisorOf(v)));
}

function setTriangleFlags(formId: number, v: NvnmDocument, triangles: readonly number[], flags: readonly number[] | undefined, cover: readonly number[] | undefined): NvnmDocument {
  const list = checkedTriangles(formId, v.triFlags.length, triangles);
  for (const [what, values] of [['flags', flags], ['cover', cover]] as const) {
    if (values === undefined) continue;
    if (values.length !== triangles.length) throw new ModelMappingError(`navmesh ${formIdHex(formId)}: ${triangles.length} triangle(s) but ${values.length} ${what} value(s)`);
    for (const x of values) if (!Number.isInteger(x) || x < 0 || x > 0xffff) throw new ModelMappingError(`navmesh ${formIdHex(formId)}: ${what} ${x} is not a u16`);
  }
  const triFlags = flags ? new Uint16Array(v.triFlags) : v.triFlags;
  const triCover = cover ? new Uint16Array(v.triCover) : v.triCover;
  list.forEach((t, i) => {
    if (flags) triFlags[t] = (flags[i]! & ~LINK_BITS) | (v.triFlags[t]! & LINK_BITS);
    if (cover) triCover[t] = cover[i]!;
  });
  const next: NvnmDocument = { ...v, triFlags, triCover };
  if (cover) next.coverTriangles = rebakeCoverList(next);
  return next;
}

function changedNavmeshes(data: PluginNavmeshData, edit: NavmeshEdit): { changed: Map<number, NvnmDocument>; triangleMap?: Int32Array } {
  switch (edit.kind) {
    case 'move-vertices':
      return { changed: new Map([[edit.navmesh, moveVertices(edit.navmesh, target(data, edit.navmesh), edit.vertices, edit.positions)]]) };
    case 'set-triangle-flags':
      return { changed: new Map([[edit.navmesh, setTriangleFlags(edit.navmesh, target(data, edit.navmesh), edit.triangles, edit.flags, edit.cover)]]) };
    case 'add-triangles':
      return { changed: new Map([[edit.navmesh, addTriangles(edit.navmesh, target(data, edit.navmesh), edit)]]) };
    case 'delete-triangles':
      target(data, edit.navmesh);
      return deleteTriangles(edit.navmesh, data.navmeshes, edit.triangles);
    case 'restore': {
      const changed = new Map<number, NvnmDocument>();
      for (const s of edit.navmeshes) {
        target(data, s.formId);
        changed.set(s.formId, s.nvnm);
      }
      return { changed };
    }
  }
}

/**
 * Applies one navmesh edit to a plugin document and returns the new document (the input is
 * not modified) with the edit that undoes it. The edited NVNM gets the derived data the
 * change needs (grid after a geometry change, cover list, internal adjacency), neighbours
 * in the plugin get the link changes that keep links reciprocal, and each changed
 * navmesh's NAVI entry is re-derived (centre, preferred fraction, neighbour lists). Every
 * other record is the input's own object, so it is written back byte for byte.
 */
export function applyNavmeshEdit(doc: PluginDocument, edit: NavmeshEdit): NavmeshEditResult {
  const data = navmeshData(doc);
  const { changed, triangleMap } = changedNavmeshes(data, edit);
  const nvnmMap = new Map<NvnmDocument, NvnmDocument>();
  const nvmiMap = new Map<NvmiEntry, NvmiEntry>();
  const before: NavmeshSnapshot[] = [];
  const restoring = edit.kind === 'restore' ? new Map(edit.navmeshes.map((s) => [s.formId, s.nvmi])) : undefined;
  const notes: string[] = [];
  for (const [formId, next] of changed) {
    const old = data.navmeshes.get(formId)!;
    const nvmi = data.nvmi.get(formId);
    before.push({ formId, nvnm: old, nvmi });
    if (next !== old) nvnmMap.set(old, next);
    if (!nvmi) continue;
    // The CK's rule for NVMI island data is not known (it is not always the navmesh's own triangles), so it stays.
    if (!restoring && nvmi.island && (next.vertices !== old.vertices || next.triVertices !== old.triVertices)) {
      notes.push(`navmesh ${formIdHex(formId)}: its NAVI island data is kept as stored and may no longer match the edited geometry`);
    }
    const nextNvmi = restoring ? restoring.get(formId) : rebakeNvmi(nvmi, next);
    if (nextNvmi && nextNvmi !== nvmi) nvmiMap.set(nvmi, nextNvmi);
  }
  return {
    document: { items: replaceNavmeshData(doc.items, nvnmMap, nvmiMap) },
    inverse: { kind: 'restore', navmeshes: before },
    changed: [...changed.keys()],
    ...(triangleMap ? { triangleMap } : {}),
    notes,
  };
}
