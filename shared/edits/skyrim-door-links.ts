import { replaceNavmeshData } from '../bakers/skyrim/plugin-rebake';
import type { NvmiEntry } from '../formats/skyrim/navi-document';
import { PATHING_DOOR_HASH, TRI_DOOR, type NvnmDocument } from '../formats/skyrim/nvnm-document';
import { formIdHex, type PluginDocument } from '../formats/skyrim/plugin-document';
import { pluginNaviEntries } from '../formats/skyrim/plugin-navmeshes';
import type { SkyrimAddDoorLinksCommand, SkyrimRemoveDoorLinksCommand } from './document-edit-command';
import { EditError } from './edit-error';
import { liveNavmeshes } from './skyrim-edge-links';

/** In `at`: the NVMI door entry is not added (it was there already, or the plugin's NAVI has no entry for the navmesh). */
export const NAVI_NOT_ADDED = -2;
/** In `keep`: leave the triangle's Door flag set / leave the NVMI door entry. */
export const KEEP_DOOR_FLAG = 1;
export const KEEP_NAVI_DOOR = 2;

/** A navmesh whose door links are being edited: copies of the door columns and flags, and of its NVMI door pairs. */
interface Working {
  v: NvnmDocument;
  triFlags: Uint16Array;
  triangle: number[];
  hash: number[];
  ref: number[];
  nvmi: NvmiEntry | undefined;
  naviDoors: number[];
}

interface Edit {
  all: Map<number, NvnmDocument>;
  nvmiOf: Map<number, NvmiEntry>;
  edited: Map<number, Working>;
  kind: string;
}

function start(doc: PluginDocument, kind: string, links: unknown, per: number): Edit {
  if (!Array.isArray(links) || links.length === 0 || links.length % per !== 0) throw new EditError(kind, 'links must be navmesh, triangle, door reference per link');
  const nvmiOf = new Map<number, NvmiEntry>();
  for (const { entries } of pluginNaviEntries(doc)) for (const e of entries) if (!nvmiOf.has(e.navmesh)) nvmiOf.set(e.navmesh, e);
  return { all: liveNavmeshes(doc), nvmiOf, edited: new Map(), kind };
}

function working(edit: Edit, formId: number, t: number): Working {
  let w = edit.edited.get(formId);
  if (!w) {
    const v = edit.all.get(formId);
    if (!v) throw new EditError(edit.kind, `the plugin has no live navmesh ${Number.isInteger(formId) ? formIdHex(formId >>> 0) : String(formId)}`);
    const nvmi = edit.nvmiOf.get(formId);
    w = {
      v, triFlags: new Uint16Array(v.triFlags), triangle: Array.from(v.doorTriangle), hash: Array.from(v.doorHash), ref: Array.from(v.doorRef),
      nvmi, naviDoors: nvmi ? Array.from(nvmi.doors) : [],
    };
    edit.edited.set(formId, w);
  }
  if (!Number.isInteger(t) || t < 0 || t >= w.triFlags.length) throw new EditError(edit.kind, `navmesh ${formIdHex(formId)} has ${w.triFlags.length} triangles; triangle ${t} does not exist`);
  return w;
}

/** Index of the NVMI (hash, door) pair for `door`, in pairs, or -1. */
function naviIndex(w: Working, door: number): number {
  for (let i = 0; i + 1 < w.naviDoors.length; i += 2) if (w.naviDoors[i] === PATHING_DOOR_HASH && w.naviDoors[i + 1] === door) return i / 2;
  return -1;
}

function finish(doc: PluginDocument, edit: Edit): PluginDocument {
  const nvnmMap = new Map<NvnmDocument, NvnmDocument>();
  const nvmiMap = new Map<NvmiEntry, NvmiEntry>();
  for (const w of edit.edited.values()) {
    nvnmMap.set(w.v, { ...w.v, triFlags: w.triFlags, doorTriangle: Int16Array.from(w.triangle), doorHash: Uint32Array.from(w.hash), doorRef: Uint32Array.from(w.ref) });
    if (w.nvmi && (w.naviDoors.length !== w.nvmi.doors.length || w.naviDoors.some((d, i) => d !== w.nvmi!.doors[i]))) {
      nvmiMap.set(w.nvmi, { ...w.nvmi, doors: Uint32Array.from(w.naviDoors) });
    }
  }
  return { items: replaceNavmeshData(doc.items, nvnmMap, nvmiMap) };
}

export interface SkyrimDoorLinkResult {
  doc: PluginDocument;
  inverse: SkyrimAddDoorLinksCommand | SkyrimRemoveDoorLinksCommand;
}

/**
 * Adds door links (3 numbers a link: navmesh, triangle, door REFR) as the CK's Finalize
 * writes them (spec skyrim-navm.md §4 field 8, §9.1): an NVNM door-link entry
 * (triangle, PathingDoor hash, door), the Door flag (0x0400) on the triangle, and the door's
 * (PathingDoor, door) pair in the navmesh's NVMI door list when the plugin's NAVI has an
 * entry for the navmesh and the pair is not there yet. `at` (2 numbers a link) places the
 * entry and the NVMI pair (-1: the end; NAVI_NOT_ADDED: no NVMI pair), so the inverse of a
 * removal puts them back where they were. A link already there is refused. By default
 * both are appended: the CK's order among several doors of one navmesh is not derivable
 * (checked only on DawnOfTheSilverHand.esp, whose 2 door portals of its own doors are each
 * their navmesh's only door link and NVMI door, so appending gives its bytes back).
 */
export function applySkyrimAddDoorLinks(doc: PluginDocument, cmd: SkyrimAddDoorLinksCommand): SkyrimDoorLinkResult {
  const edit = start(doc, cmd.kind, cmd.links, 3);
  const n = cmd.links.length / 3;
  if (cmd.at !== undefined && (!Array.isArray(cmd.at) || cmd.at.length !== n * 2)) throw new EditError(cmd.kind, `at must give 2 positions per link (${n * 2} numbers)`);
  const undo: number[] = [];
  const keep: number[] = [];
  for (let k = 0; k < n; k++) {
    const [formId, t, door] = cmd.links.slice(k * 3, k * 3 + 3) as [number, number, number];
    const w = working(edit, formId, t);
    if (!Number.isInteger(door) || door < 0 || door > 0xffffffff) throw new EditError(cmd.kind, `door ${door} is not a FormID`);
    if (w.ref.some((d, i) => d === door && w.triangle[i] === t)) throw new EditError(cmd.kind, `navmesh ${formIdHex(formId)} triangle ${t} already links door ${formIdHex(door)}`);
    if (w.ref.length >= 0x7fffffff) throw new EditError(cmd.kind, `navmesh ${formIdHex(formId)} has too many door links`);
    const at = cmd.at?.[k * 2] ?? -1, naviAt = cmd.at?.[k * 2 + 1] ?? -1;
    if (!Number.isInteger(at) || at < -1 || at > w.ref.length) throw new EditError(cmd.kind, `door link position ${at} is outside 0..${w.ref.length}`);
    const i = at === -1 ? w.ref.length : at;
    w.triangle.splice(i, 0, t);
    w.hash.splice(i, 0, PATHING_DOOR_HASH);
    w.ref.splice(i, 0, door >>> 0);
    let bits = 0;
    if ((w.triFlags[t]! & TRI_DOOR) !== 0) bits |= KEEP_DOOR_FLAG;
    w.triFlags[t]! |= TRI_DOOR;
    const pairs = w.naviDoors.length / 2;
    if (!w.nvmi || naviAt === NAVI_NOT_ADDED || naviIndex(w, door >>> 0) >= 0) bits |= KEEP_NAVI_DOOR;
    else {
      if (!Number.isInteger(naviAt) || naviAt < -1 || naviAt > pairs) throw new EditError(cmd.kind, `NVMI door position ${naviAt} is outside 0..${pairs}`);
      const j = naviAt === -1 ? pairs : naviAt;
      w.naviDoors.splice(j * 2, 0, PATHING_DOOR_HASH, door >>> 0);
    }
    undo.unshift(formId, t, door >>> 0);
    keep.unshift(bits);
  }
  return { doc: finish(doc, edit), inverse: { kind: 'skyrim-remove-door-links', links: undo, keep } };
}

/**
 * Removes door links (navmesh, triangle, door per link): the NVNM entry, the triangle's Door
 * flag unless `keep` says so or another door link stays on it, and the door's NVMI pair
 * unless `keep` says so or another door link of the navmesh names the door. The inverse
 * adds them back at the same positions, so undo gives the stored bytes back.
 */
export function applySkyrimRemoveDoorLinks(doc: PluginDocument, cmd: SkyrimRemoveDoorLinksCommand): SkyrimDoorLinkResult {
  const edit = start(doc, cmd.kind, cmd.links, 3);
  const n = cmd.links.length / 3;
  if (cmd.keep !== undefined && (!Array.isArray(cmd.keep) || cmd.keep.length !== n)) throw new EditError(cmd.kind, `keep must give one number per link (${n})`);
  const redo: number[] = [];
  const at: number[] = [];
  for (let k = 0; k < n; k++) {
    const [formId, t, door] = cmd.links.slice(k * 3, k * 3 + 3) as [number, number, number];
    const w = working(edit, formId, t);
    const i = w.ref.findIndex((d, j) => d === door >>> 0 && w.triangle[j] === t);
    if (i < 0) throw new EditError(cmd.kind, `navmesh ${formIdHex(formId)} triangle ${t} has no door link to ${Number.isInteger(door) ? formIdHex(door >>> 0) : String(door)}`);
    const bits = cmd.keep?.[k] ?? 0;
    w.triangle.splice(i, 1);
    w.hash.splice(i, 1);
    w.ref.splice(i, 1);
    if ((bits & KEEP_DOOR_FLAG) === 0 && !w.triangle.includes(t)) w.triFlags[t]! &= ~TRI_DOOR;
    let naviAt = NAVI_NOT_ADDED;
    if ((bits & KEEP_NAVI_DOOR) === 0 && !w.ref.includes(door >>> 0)) {
      const j = naviIndex(w, door >>> 0);
      if (j >= 0) {
        w.naviDoors.splice(j * 2, 2);
        naviAt = j;
      }
    }
    redo.unshift(formId, t, door >>> 0);
    at.unshift(i, naviAt);
  }
  return { doc: finish(doc, edit), inverse: { kind: 'skyrim-add-door-links', links: redo, at } };
}
