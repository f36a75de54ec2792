import { TRI_EDGE_LINK_BITS, type NvnmDocument } from '../formats/skyrim/nvnm-document';
import { formIdHex, type PluginDocument } from '../formats/skyrim/plugin-document';
import type { DocumentEditCommand, SkyrimFinalizeCommand } from './document-edit-command';
import { EditError } from './edit-error';
import { applySkyrimAddDoorLinks } from './skyrim-door-links';
import { doorPortalSummary, skyrimDoorPortals } from './skyrim-door-portals';
import { applySkyrimLinkEdges, liveNavmeshes } from './skyrim-edge-links';

/**
 * How far apart the ends of two navmeshes' border edges may be and still be linked: the
 * CK does not weld border vertices across navmeshes, and of the 279 cross-navmesh links in
 * the spec's sample plugins the largest endpoint mismatch is 63.6 units (spec §4.2).
 */
export const CROSS_LINK_TOLERANCE = 64;
/**
 * How far apart two linked border edges' ends may be seen from above: the CK's 74 links
 * between DawnOfTheSilverHand's own navmeshes differ by at most 11.1 units horizontally
 * (their 3-D mismatch, up to 63.6, is height). With only the 3-D tolerance, Finalize also
 * linked 4 edge pairs there that are 13 to 35 units apart across the border (and one in
 * DwemerSecrets 64 units apart along it) that the CK never links.
 */
export const CROSS_LINK_XY_TOLERANCE = 12;
/** Skyrim's exterior cell size: exterior navmeshes meet on the lines x, y = k · 4096. */
const EXTERIOR_CELL = 4096;
/** An edge shorter than this many times the tolerance is matched within this fraction of its length instead. */
const SHORT_EDGE_FRACTION = 0.45;
const CELL = 256;

/** Why each side of a plan is there, counted for the report. */
export interface LinkPlanCounts {
  /** Two triangles of one navmesh share an edge's two vertices but are not linked (both sides). */
  sharedEdges: number;
  /** A link whose other end does not link back: the way back is added. */
  reciprocals: number;
  /** Open border edges of two navmeshes that meet: linked both ways (edge-link entries). */
  crossNavmesh: number;
}

/** One thing to link: `a`'s edge toward `b`'s triangle (and back, unless `why` is reciprocal). */
export interface PlannedLink {
  why: 'shared-edge' | 'reciprocal' | 'cross-navmesh';
  a: { navmesh: number; t: number; e: number };
  b: { navmesh: number; t: number; e: number };
}

export interface LinkPlan {
  /** Sides for skyrim-link-edges (5 numbers each). */
  sides: number[];
  counts: LinkPlanCounts;
  links: PlannedLink[];
}

interface Slot {
  navmesh: number;
  t: number;
  e: number;
}

const isOpen = (v: NvnmDocument, t: number, e: number) => v.triEdges[t * 3 + e] === -1 && (v.triFlags[t]! & TRI_EDGE_LINK_BITS[e]!) === 0;

function floats(v: NvnmDocument): Float32Array {
  return new Float32Array(v.vertices.buffer, v.vertices.byteOffset, v.vertices.length);
}

function endpoints(v: NvnmDocument, P: Float32Array, t: number, e: number): [number, number, number, number, number, number] {
  const a = v.triVertices[t * 3 + e]!, b = v.triVertices[t * 3 + ((e + 1) % 3)]!;
  return [P[a * 3]!, P[a * 3 + 1]!, P[a * 3 + 2]!, P[b * 3]!, P[b * 3 + 1]!, P[b * 3 + 2]!];
}

const dist = (p: number[], i: number, q: number[], j: number) => Math.hypot(p[i]! - q[j]!, p[i + 1]! - q[j + 1]!, p[i + 2]! - q[j + 2]!);

const distXY = (p: number[], i: number, q: number[], j: number) => Math.hypot(p[i]! - q[j]!, p[i + 1]! - q[j + 1]!);

/** The larger endpoint distance of two edges matched end to end (either way round). */
function edgeMismatch(p: number[], q: number[], d = dist): number {
  const reversed = Math.max(d(p, 0, q, 3), d(p, 3, q, 0));
  const same = Math.max(d(p, 0, q, 0), d(p, 3, q, 3));
  return Math.min(reversed, same);
}

/**
 * Whether an edge lies on an exterior cell border (both ends within a unit of one line
 * x = k · 4096 or y = k · 4096). Every one of the CK's 74 links between the fixture
 * plugin's exterior navmeshes has at least one of its two edges on such a line (72 both);
 * exterior navmeshes meet only there.
 */
function onCellBorder(p: number[]): boolean {
  const on = (a: number, b: number) => {
    const k = Math.round(a / EXTERIOR_CELL) * EXTERIOR_CELL;
    return Math.abs(a - k) <= 1 && Math.abs(b - k) <= 1;
  };
  return on(p[0]!, p[3]!) || on(p[1]!, p[4]!);
}

/**
 * Whether two navmeshes share one coordinate space: the same worldspace (exterior
 * coordinates are world coordinates), or the same interior cell (interior coordinates are
 * cell-local, so two interiors' navmeshes overlap without meeting; spec §4 fields 3–5).
 */
function sameSpace(a: NvnmDocument, b: NvnmDocument): boolean {
  return a.worldspace === b.worldspace && (a.worldspace !== 0 || a.parent === b.parent);
}

/** Does triangle u of `v` link back to (navmesh, t) across any of its edges? */
function linksBack(v: NvnmDocument, vId: number, u: number, navmesh: number, t: number): boolean {
  for (let f = 0; f < 3; f++) {
    const value = v.triEdges[u * 3 + f]!;
    if ((v.triFlags[u]! & TRI_EDGE_LINK_BITS[f]!) !== 0) {
      if (value >= 0 && value < v.edgeLinkNavmesh.length && v.edgeLinkNavmesh[value] === navmesh && v.edgeLinkTriangle[value] === t) return true;
    } else if (vId === navmesh && value === t) return true;
  }
  return false;
}

/**
 * What the Creation Kit's Finalize and its navmesh check link, found in the plugin as it is:
 * open edges of one navmesh whose two triangles share both vertices; links whose other end
 * does not link back (the way back is added on the other triangle's open edge that lies on
 * this one); and open border edges of two navmeshes whose ends lie within
 * CROSS_LINK_TOLERANCE of each other and CROSS_LINK_XY_TOLERANCE seen from above, in
 * exteriors on a cell border (closest pairs first, each edge once). Only sides
 * touching `navmeshes` (all live navmeshes when absent), and with `triangle` only sides of
 * or to that triangle of the first listed navmesh, are planned. Linear in the edges
 * (hashes by vertex pair and by midpoint cell).
 */
export function planSkyrimLinks(doc: PluginDocument, navmeshes?: readonly number[], triangle?: number): LinkPlan {
  const all = liveNavmeshes(doc);
  const scope = new Set(navmeshes ?? all.keys());
  const focus = triangle === undefined || navmeshes === undefined || navmeshes.length === 0 ? undefined : { navmesh: navmeshes[0]!, t: triangle };
  const touches = (a: Slot, b: Slot) => !focus || (a.navmesh === focus.navmesh && a.t === focus.t) || (b.navmesh === focus.navmesh && b.t === focus.t);
  const used = new Set<string>();
  const key = (s: Slot) => `${s.navmesh}:${s.t}:${s.e}`;
  const sides: number[] = [];
  const counts: LinkPlanCounts = { sharedEdges: 0, reciprocals: 0, crossNavmesh: 0 };
  const links: PlannedLink[] = [];
  const side = (a: Slot, b: Slot) => {
    sides.push(a.navmesh, a.t, a.e, b.navmesh, b.t);
    used.add(key(a));
  };

  // 1. Within a navmesh: two open edges over the same vertex pair.
  for (const id of scope) {
    const v = all.get(id);
    if (!v) continue;
    const open = new Map<number, number>();
    const nt = v.triFlags.length;
    for (let t = 0; t < nt; t++) {
      for (let e = 0; e < 3; e++) {
        if (!isOpen(v, t, e)) continue;
        const a = v.triVertices[t * 3 + e]!, b = v.triVertices[t * 3 + ((e + 1) % 3)]!;
        if (a === b) continue;
        const k = Math.min(a, b) * 0x10000 + Math.max(a, b);
        const other = open.get(k);
        if (other === undefined) {
          open.set(k, t * 3 + e);
          continue;
        }
        const u = Math.floor(other / 3);
        if (u === t) continue;
        open.delete(k);
        const s1 = { navmesh: id, t, e }, s2 = { navmesh: id, t: u, e: other % 3 };
        if (!touches(s1, s2)) continue;
        side(s1, s2);
        side(s2, s1);
        counts.sharedEdges++;
        links.push({ why: 'shared-edge', a: s1, b: s2 });
      }
    }
  }

  // 2. Links whose other end does not link back: the way back on the other triangle's open edge lying on this one.
  for (const id of scope) {
    const v = all.get(id);
    if (!v) continue;
    const P = floats(v);
    for (let t = 0; t < v.triFlags.length; t++) {
      for (let e = 0; e < 3; e++) {
        const value = v.triEdges[t * 3 + e]!;
        const external = (v.triFlags[t]! & TRI_EDGE_LINK_BITS[e]!) !== 0;
        if (value < 0 || (external && value >= v.edgeLinkNavmesh.length)) continue;
        const toId = external ? v.edgeLinkNavmesh[value]! : id;
        const u = external ? v.edgeLinkTriangle[value]! : value;
        const w = all.get(toId);
        if (!w || u < 0 || u >= w.triFlags.length || linksBack(w, toId, u, id, t)) continue;
        const mine = endpoints(v, P, t, e);
        const Q = floats(w);
        let best = -1;
        let bestD = Infinity;
        for (let f = 0; f < 3; f++) {
          if (!isOpen(w, u, f) || used.has(`${toId}:${u}:${f}`)) continue;
          const d = edgeMismatch(mine, endpoints(w, Q, u, f));
          if (d < bestD) [best, bestD] = [f, d];
        }
        if (best < 0 || bestD > CROSS_LINK_TOLERANCE) continue;
        const back = { navmesh: toId, t: u, e: best }, here = { navmesh: id, t, e };
        if (!touches(back, here)) continue;
        side(back, here);
        counts.reciprocals++;
        links.push({ why: 'reciprocal', a: back, b: here });
      }
    }
  }

  // 3. Across navmeshes: open border edges whose ends meet.
  interface OpenEdge { slot: Slot; p: number[]; length: number }
  const buckets = new Map<string, OpenEdge[]>();
  const cellOf = (x: number, y: number) => [Math.floor(x / CELL), Math.floor(y / CELL)] as const;
  const mine: OpenEdge[] = [];
  for (const [id, v] of all) {
    const P = floats(v);
    for (let t = 0; t < v.triFlags.length; t++) {
      for (let e = 0; e < 3; e++) {
        if (!isOpen(v, t, e) || used.has(`${id}:${t}:${e}`)) continue;
        const p = endpoints(v, P, t, e);
        const edge: OpenEdge = { slot: { navmesh: id, t, e }, p, length: dist(p, 0, p, 3) };
        const [cx, cy] = cellOf((p[0]! + p[3]!) / 2, (p[1]! + p[4]!) / 2);
        const k = `${cx},${cy}`;
        const list = buckets.get(k);
        if (list) list.push(edge);
        else buckets.set(k, [edge]);
        if (scope.has(id)) mine.push(edge);
      }
    }
  }
  const candidates: { a: OpenEdge; b: OpenEdge; d: number }[] = [];
  for (const a of mine) {
    const [cx, cy] = cellOf((a.p[0]! + a.p[3]!) / 2, (a.p[1]! + a.p[4]!) / 2);
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const b of buckets.get(`${cx + dx},${cy + dy}`) ?? []) {
          if (b.slot.navmesh === a.slot.navmesh || !sameSpace(all.get(a.slot.navmesh)!, all.get(b.slot.navmesh)!)) continue;
          // Each pair once: from the edge of the lower FormID when both are in scope.
          if (scope.has(b.slot.navmesh) && b.slot.navmesh < a.slot.navmesh) continue;
          const d = edgeMismatch(a.p, b.p);
          const tolerance = Math.min(CROSS_LINK_TOLERANCE, SHORT_EDGE_FRACTION * Math.min(a.length, b.length));
          if (d > tolerance || edgeMismatch(a.p, b.p, distXY) > CROSS_LINK_XY_TOLERANCE || !touches(a.slot, b.slot)) continue;
          // Exterior navmeshes are linked where they meet on a cell border, as the CK links them.
          if (all.get(a.slot.navmesh)!.worldspace !== 0 && !onCellBorder(a.p) && !onCellBorder(b.p)) continue;
          candidates.push({ a, b, d });
        }
      }
    }
  }
  candidates.sort((x, y) => x.d - y.d);
  for (const { a, b } of candidates) {
    if (used.has(key(a.slot)) || used.has(key(b.slot))) continue;
    side(a.slot, b.slot);
    side(b.slot, a.slot);
    counts.crossNavmesh++;
    links.push({ why: 'cross-navmesh', a: a.slot, b: b.slot });
  }
  return { sides, counts, links };
}

export interface SkyrimFinalizeResult {
  doc: PluginDocument;
  /** Unlinks the sides, removes the door links made, or both (a batch), so undo gives the stored bytes back. */
  inverse: DocumentEditCommand;
  plan: LinkPlan;
  /** The door portals made (XNDPs of this plugin naming a triangle their navmesh did not link) and the report line. */
  doorPortals: { made: number; summary: string };
}

/**
 * The door links Finalize makes (navmesh, triangle, door: 3 numbers a link): each XNDP of
 * this plugin's doors that names a triangle of a live navmesh of this plugin (in
 * `navmeshes` when given) with no door link for that door. A master's door has its XNDP
 * in the master, so its links are never touched; an XNDP naming a triangle the navmesh
 * does not have is left for the check to report.
 */
export function plannedDoorLinks(doc: PluginDocument, navmeshes?: readonly number[]): number[] {
  const all = liveNavmeshes(doc);
  const scope = navmeshes ? new Set(navmeshes) : undefined;
  const seen = new Set<string>();
  const links: number[] = [];
  for (const p of skyrimDoorPortals(doc).portals) {
    if (p.state !== 'missing' || (scope && !scope.has(p.navmesh))) continue;
    const nt = all.get(p.navmesh)?.triFlags.length ?? 0;
    const key = `${p.navmesh}:${p.triangle}:${p.door}`;
    if (p.triangle < 0 || p.triangle >= nt || seen.has(key)) continue;
    seen.add(key);
    links.push(p.navmesh, p.triangle, p.door);
  }
  return links;
}

/**
 * Finalize as one edit: the links planSkyrimLinks finds, made with skyrim-link-edges (so
 * the inverse is an unlink of exactly those sides), and, unless only one triangle's links
 * are fixed, the door portals plannedDoorLinks finds, made with skyrim-add-door-links.
 * Refused when there is nothing to link and no door portal to make, so no empty step
 * lands in the history.
 */
export function applySkyrimFinalize(doc: PluginDocument, cmd: SkyrimFinalizeCommand): SkyrimFinalizeResult {
  if (cmd.navmeshes !== undefined) {
    const all = liveNavmeshes(doc);
    for (const n of cmd.navmeshes) if (!all.has(n)) throw new EditError(cmd.kind, `the plugin has no live navmesh ${Number.isInteger(n) ? formIdHex(n >>> 0) : String(n)}`);
  }
  if (cmd.triangle !== undefined && (cmd.navmeshes?.length ?? 0) === 0) throw new EditError(cmd.kind, 'a triangle is named within a navmesh: give navmeshes too');
  const plan = planSkyrimLinks(doc, cmd.navmeshes, cmd.triangle);
  const doors = cmd.triangle === undefined ? plannedDoorLinks(doc, cmd.navmeshes) : [];
  if (plan.sides.length === 0 && doors.length === 0) throw new EditError(cmd.kind, 'nothing to link: every edge that meets another is linked both ways already');
  let next = doc;
  const inverses: DocumentEditCommand[] = [];
  if (plan.sides.length > 0) {
    const r = applySkyrimLinkEdges(next, { kind: 'skyrim-link-edges', sides: plan.sides });
    next = r.doc;
    inverses.unshift(r.inverse);
  }
  if (doors.length > 0) {
    const r = applySkyrimAddDoorLinks(next, { kind: 'skyrim-add-door-links', links: doors });
    next = r.doc;
    inverses.unshift(r.inverse);
  }
  const made = doors.length / 3;
  const inverse = inverses.length === 1 ? inverses[0]! : { kind: 'document-batch' as const, commands: inverses };
  return { doc: next, inverse, plan, doorPortals: { made, summary: doorPortalSummary(skyrimDoorPortals(next), made) } };
}
