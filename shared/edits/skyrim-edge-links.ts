import { naviNeighboursOf } from '../bakers/skyrim/navi-rebake';
import { replaceNavmeshData } from '../bakers/skyrim/plugin-rebake';
import type { NvmiEntry } from '../formats/skyrim/navi-document';
import { TRI_EDGE_LINK_BITS, type NvnmDocument } from '../formats/skyrim/nvnm-document';
import { formIdHex, type PluginDocument } from '../formats/skyrim/plugin-document';
import { pluginNaviEntries, pluginNavmeshes } from '../formats/skyrim/plugin-navmeshes';
import type { SkyrimLinkEdgesCommand, SkyrimUnlinkEdgesCommand } from './document-edit-command';
import { EditError } from './edit-error';

/** Edge-link type 0, "Portal": every link in the sample plugins has it (spec §4.2). */
const PORTAL = 0;

/** The live navmeshes of a plugin by FormID, as edited so far (first record wins, as the readers do). */
export function liveNavmeshes(doc: PluginDocument): Map<number, NvnmDocument> {
  const out = new Map<number, NvnmDocument>();
  for (const n of pluginNavmeshes(doc)) if (n.nvnm && !n.deleted && !out.has(n.formId)) out.set(n.formId, n.nvnm);
  return out;
}

/** A navmesh being edited: copies of the arrays a link changes, made on first change. */
interface Working {
  v: NvnmDocument;
  triEdges: Int16Array;
  triFlags: Uint16Array;
  type: number[];
  navmesh: number[];
  triangle: number[];
}

function working(all: Map<number, NvnmDocument>, edited: Map<number, Working>, formId: number, kind: string): Working {
  const known = edited.get(formId);
  if (known) return known;
  const v = all.get(formId);
  if (!v) throw new EditError(kind, `the plugin has no live navmesh ${Number.isInteger(formId) ? formIdHex(formId >>> 0) : String(formId)}`);
  const w: Working = {
    v, triEdges: new Int16Array(v.triEdges), triFlags: new Uint16Array(v.triFlags),
    type: Array.from(v.edgeLinkType), navmesh: Array.from(v.edgeLinkNavmesh), triangle: Array.from(v.edgeLinkTriangle),
  };
  edited.set(formId, w);
  return w;
}

function checkSlot(w: Working, formId: number, t: number, e: number, kind: string): void {
  const nt = w.triFlags.length;
  if (!Number.isInteger(t) || t < 0 || t >= nt) throw new EditError(kind, `navmesh ${formIdHex(formId)} has ${nt} triangles; triangle ${t} does not exist`);
  if (!Number.isInteger(e) || e < 0 || e > 2) throw new EditError(kind, `edge ${e} is not 0 (v0→v1), 1 (v1→v2) or 2 (v2→v0)`);
}

/**
 * A stored NAVI neighbour list changed only by what the links changed: neighbours the edit
 * removed go, new ones are appended, the rest keep their stored order (the CK's order is
 * not derivable). So linking and unlinking again give the stored list back exactly; the
 * vertex mean, preferred fraction and doors do not depend on links and stay as stored.
 */
function followList(stored: Uint32Array, before: readonly number[], after: readonly number[]): Uint32Array {
  const was = new Set(before), now = new Set(after);
  const removed = before.filter((f) => !now.has(f));
  const added = after.filter((f) => !was.has(f) && !stored.includes(f));
  if (removed.length === 0 && added.length === 0) return stored;
  const gone = new Set(removed);
  return Uint32Array.from([...Array.from(stored).filter((f) => !gone.has(f)), ...added]);
}

function finish(doc: PluginDocument, edited: Map<number, Working>): { doc: PluginDocument; changed: number[] } {
  const nvmiOf = new Map<number, NvmiEntry>();
  for (const { entries } of pluginNaviEntries(doc)) for (const e of entries) if (!nvmiOf.has(e.navmesh)) nvmiOf.set(e.navmesh, e);
  const nvnmMap = new Map<NvnmDocument, NvnmDocument>();
  const nvmiMap = new Map<NvmiEntry, NvmiEntry>();
  for (const [formId, w] of edited) {
    const next: NvnmDocument = {
      ...w.v,
      triEdges: w.triEdges,
      triFlags: w.triFlags,
      edgeLinkType: Uint32Array.from(w.type),
      edgeLinkNavmesh: Uint32Array.from(w.navmesh),
      edgeLinkTriangle: Int16Array.from(w.triangle),
    };
    nvnmMap.set(w.v, next);
    // The NAVI entry lists the navmesh's neighbours (spec §9.1): they follow the links.
    const nvmi = nvmiOf.get(formId);
    if (nvmi) {
      const was = naviNeighboursOf(w.v), now = naviNeighboursOf(next);
      const edgeLinks = followList(nvmi.edgeLinks, was.edgeLinks, now.edgeLinks);
      const preferredEdgeLinks = followList(nvmi.preferredEdgeLinks, was.preferredEdgeLinks, now.preferredEdgeLinks);
      if (edgeLinks !== nvmi.edgeLinks || preferredEdgeLinks !== nvmi.preferredEdgeLinks) nvmiMap.set(nvmi, { ...nvmi, edgeLinks, preferredEdgeLinks });
    }
  }
  return { doc: { items: replaceNavmeshData(doc.items, nvnmMap, nvmiMap) }, changed: [...edited.keys()] };
}

export interface SkyrimLinkResult {
  doc: PluginDocument;
  inverse: SkyrimLinkEdgesCommand | SkyrimUnlinkEdgesCommand;
  /** FormIDs of the navmeshes whose NVNM changed. */
  changed: number[];
}

/**
 * Links open triangle edges, one side each (5 numbers a side: navmesh, triangle, edge,
 * target navmesh, target triangle). A side within one navmesh stores the neighbour in the
 * edge; a side into another navmesh appends one edge-link entry (type Portal) and sets the
 * edge's link bit, one entry per linked edge as the CK writes them (spec §4.2). A two-way
 * link is two sides. Refused unless every listed edge is open, so the inverse (an unlink
 * of the same sides, last first) puts back exactly what was.
 */
export function applySkyrimLinkEdges(doc: PluginDocument, cmd: SkyrimLinkEdgesCommand): SkyrimLinkResult {
  const kind = cmd.kind;
  if (!Array.isArray(cmd.sides) || cmd.sides.length === 0 || cmd.sides.length % 5 !== 0) throw new EditError(kind, 'sides must be navmesh, triangle, edge, target navmesh, target triangle per side');
  const all = liveNavmeshes(doc);
  const edited = new Map<number, Working>();
  const undo: number[] = [];
  for (let i = 0; i < cmd.sides.length; i += 5) {
    const [formId, t, e, toId, u] = cmd.sides.slice(i, i + 5) as [number, number, number, number, number];
    const w = working(all, edited, formId, kind);
    checkSlot(w, formId, t, e, kind);
    const target = working(all, edited, toId, kind);
    if (!Number.isInteger(u) || u < 0 || u >= target.triFlags.length) throw new EditError(kind, `navmesh ${formIdHex(toId)} has ${target.triFlags.length} triangles; triangle ${u} does not exist`);
    const bit = TRI_EDGE_LINK_BITS[e]!;
    if ((w.triFlags[t]! & bit) !== 0 || w.triEdges[t * 3 + e] !== -1) throw new EditError(kind, `navmesh ${formIdHex(formId)} triangle ${t} edge ${e} is already linked`);
    if (toId === formId) {
      if (u === t) throw new EditError(kind, `triangle ${t} cannot neighbour itself`);
      w.triEdges[t * 3 + e] = u;
    } else {
      if (w.type.length >= 0x7fff) throw new EditError(kind, `navmesh ${formIdHex(formId)} has ${w.type.length} edge links; the s16 edge value cannot name more`);
      w.triEdges[t * 3 + e] = w.type.length;
      w.triFlags[t]! |= bit;
      w.type.push(PORTAL);
      w.navmesh.push(toId >>> 0);
      w.triangle.push(u);
    }
    undo.unshift(formId, t, e);
  }
  const r = finish(doc, edited);
  return { doc: r.doc, inverse: { kind: 'skyrim-unlink-edges', sides: undo }, changed: r.changed };
}

/**
 * Opens linked triangle edges (3 numbers a side: navmesh, triangle, edge). An edge link's
 * entry is removed from the list and later entries move down one (the edges naming them
 * follow). The inverse links the same sides again, last first: links appended last come
 * back at the same indices.
 */
export function applySkyrimUnlinkEdges(doc: PluginDocument, cmd: SkyrimUnlinkEdgesCommand): SkyrimLinkResult {
  const kind = cmd.kind;
  if (!Array.isArray(cmd.sides) || cmd.sides.length === 0 || cmd.sides.length % 3 !== 0) throw new EditError(kind, 'sides must be navmesh, triangle, edge per side');
  const all = liveNavmeshes(doc);
  const edited = new Map<number, Working>();
  const redo: number[] = [];
  for (let i = 0; i < cmd.sides.length; i += 3) {
    const [formId, t, e] = cmd.sides.slice(i, i + 3) as [number, number, number];
    const w = working(all, edited, formId, kind);
    checkSlot(w, formId, t, e, kind);
    const bit = TRI_EDGE_LINK_BITS[e]!;
    const value = w.triEdges[t * 3 + e]!;
    if ((w.triFlags[t]! & bit) !== 0) {
      if (value < 0 || value >= w.type.length) throw new EditError(kind, `navmesh ${formIdHex(formId)} triangle ${t} edge ${e} names edge link ${value} of ${w.type.length}`);
      redo.unshift(formId, t, e, w.navmesh[value]!, w.triangle[value]!);
      w.type.splice(value, 1);
      w.navmesh.splice(value, 1);
      w.triangle.splice(value, 1);
      w.triFlags[t]! &= ~bit;
      w.triEdges[t * 3 + e] = -1;
      for (let s = 0; s < w.triEdges.length; s++) {
        const tt = Math.floor(s / 3);
        if ((w.triFlags[tt]! & TRI_EDGE_LINK_BITS[s % 3]!) !== 0 && w.triEdges[s]! > value) w.triEdges[s]! -= 1;
      }
    } else if (value >= 0) {
      redo.unshift(formId, t, e, formId, value);
      w.triEdges[t * 3 + e] = -1;
    } else throw new EditError(kind, `navmesh ${formIdHex(formId)} triangle ${t} edge ${e} is not linked`);
  }
  const r = finish(doc, edited);
  return { doc: r.doc, inverse: { kind: 'skyrim-link-edges', sides: redo }, changed: r.changed };
}
