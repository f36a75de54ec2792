import { NO_TRANSITION, type BwmDocument } from './bwm-document';
import type { KotorArea, KotorAreaRoom } from './kotor-area';
import type { Finding, FindingSeverity } from '../../validation/finding';

/**
 * Room links (transitions) of a KotOR area and their checks (kotor-bwm.md §7.2). A link is
 * a perimeter edge of a room WOK whose transition names another LYT room. The engine welds
 * room r's edge with transition t to the edge of room t whose transition is r and whose two
 * endpoints are exactly equal in X and Y (either direction, Z ignored), so a link holds
 * only when it is reciprocal and both sides meet edge to edge with bit-identical XY.
 *
 * This replaces the role of `validateBwmSeams` (bwm-validate.ts), which works on bare
 * documents: here findings name the room by LYT index and name, the face and the local
 * edge, tell a one-way link (the other side is there, with another transition) from a
 * seam that does not meet (and from one that nearly meets, with the gap), treat links to a
 * LYT room whose WOK is absent as unverifiable rather than dangling, and report rooms that
 * meet edge to edge with no link on either side (a walkable gap the player cannot cross).
 */

/** Endpoint distance under which a non-matching edge is reported as a near miss (game units). */
export const NEAR_SEAM_TOLERANCE = 0.1;

export interface RoomEdgeRef {
  room: number;
  /** Row in the room's edge table. */
  row: number;
  /** face*3 + local edge. */
  slot: number;
}

export interface RoomLink extends RoomEdgeRef {
  roomName: string;
  face: number;
  edge: number;
  /** The LYT room index the edge leads to. */
  target: number;
}

/** A finding about one room edge, naming the room, face and local edge (0: v1→v2, 1: v2→v3, 2: v3→v1). */
export interface RoomLinkFinding extends Finding {
  room: number;
  roomName: string;
  face: number;
  edge: number;
  /** The transition the edge carries (−1 for an unlinked seam). */
  target: number;
  /** The edge on the other side, when one was found. */
  other?: RoomEdgeRef & { face: number; edge: number; transition: number; distance: number };
}

interface EdgeEnds {
  ax: number;
  ay: number;
  bx: number;
  by: number;
}

function edgeEnds(doc: BwmDocument, positions: Float32Array, slot: number): EdgeEnds {
  const f = (slot / 3) | 0;
  const e = slot - 3 * f;
  const a = doc.faces[slot]!;
  const b = doc.faces[3 * f + (e === 2 ? 0 : e + 1)]!;
  return { ax: positions[3 * a]!, ay: positions[3 * a + 1]!, bx: positions[3 * b]!, by: positions[3 * b + 1]! };
}

/** Same key for both directions; numbers compare by value as the engine's float compare does (−0 = 0). */
function seamKey(e: EdgeEnds): string {
  const ka = `${e.ax},${e.ay}`;
  const kb = `${e.bx},${e.by}`;
  return ka < kb ? `${ka}|${kb}` : `${kb}|${ka}`;
}

/** Largest endpoint distance between two edges, taking the better of the two pairings. */
function endsDistance(p: EdgeEnds, q: EdgeEnds): number {
  const same = Math.max(Math.hypot(p.ax - q.ax, p.ay - q.ay), Math.hypot(p.bx - q.bx, p.by - q.by));
  const swapped = Math.max(Math.hypot(p.ax - q.bx, p.ay - q.by), Math.hypot(p.bx - q.ax, p.by - q.ay));
  return Math.min(same, swapped);
}

function validSlot(room: KotorAreaRoom, row: number): boolean {
  return room.doc !== undefined && room.doc.edgeIndex[row]! < room.doc.faces.length;
}

/** Every link in the area, room by room in edge-table order. */
export function collectRoomLinks(area: KotorArea): RoomLink[] {
  const out: RoomLink[] = [];
  for (const r of area.rooms) {
    const doc = r.doc;
    if (doc === undefined) continue;
    for (let row = 0; row < doc.edgeIndex.length; row++) {
      const target = doc.edgeTransition[row]!;
      if (target === NO_TRANSITION || !validSlot(r, row)) continue;
      const slot = doc.edgeIndex[row]!;
      out.push({ room: r.index, roomName: r.name, row, slot, face: (slot / 3) | 0, edge: slot % 3, target });
    }
  }
  return out;
}

/** Perimeter edges of every room, bucketed by their XY endpoints (a hash map, no pairwise scan). */
function indexSeams(area: KotorArea): Map<string, RoomEdgeRef[]> {
  const index = new Map<string, RoomEdgeRef[]>();
  for (const r of area.rooms) {
    if (r.doc === undefined) continue;
    for (let row = 0; row < r.doc.edgeIndex.length; row++) {
      if (!validSlot(r, row)) continue;
      const slot = r.doc.edgeIndex[row]!;
      const key = seamKey(edgeEnds(r.doc, r.positions, slot));
      const list = index.get(key);
      const ref = { room: r.index, row, slot };
      if (list === undefined) index.set(key, [ref]);
      else list.push(ref);
    }
  }
  return index;
}

/** The perimeter edge of `target` that meets `link` exactly in XY, or undefined. */
function partnerOf(area: KotorArea, index: Map<string, RoomEdgeRef[]>, link: RoomLink, target: number): RoomEdgeRef | undefined {
  const r = area.rooms[link.room]!;
  const key = seamKey(edgeEnds(r.doc!, r.positions, link.slot));
  const candidates = (index.get(key) ?? []).filter((c) => c.room === target);
  // Prefer the edge that already links back, then any.
  return candidates.find((c) => area.rooms[c.room]!.doc!.edgeTransition[c.row] === link.room) ?? candidates[0];
}

/** The target room's perimeter edge nearest to the link's edge (largest endpoint distance). */
function nearestEdge(area: KotorArea, link: RoomLink, target: KotorAreaRoom): { ref: RoomEdgeRef; distance: number } | undefined {
  const from = area.rooms[link.room]!;
  const ends = edgeEnds(from.doc!, from.positions, link.slot);
  let best: { ref: RoomEdgeRef; distance: number } | undefined;
  const doc = target.doc!;
  for (let row = 0; row < doc.edgeIndex.length; row++) {
    if (!validSlot(target, row)) continue;
    const slot = doc.edgeIndex[row]!;
    const d = endsDistance(ends, edgeEnds(doc, target.positions, slot));
    if (best === undefined || d < best.distance) best = { ref: { room: target.index, row, slot }, distance: d };
  }
  return best;
}

function finding(severity: FindingSeverity, code: string, link: RoomLink, message: string, other?: RoomLinkFinding['other']): RoomLinkFinding {
  const f: RoomLinkFinding = {
    severity,
    code,
    message,
    subject: { kind: 'edge', id: link.slot },
    room: link.room,
    roomName: link.roomName,
    face: link.face,
    edge: link.edge,
    target: link.target,
  };
  if (other) f.other = other;
  return f;
}

const where = (room: number, name: string, slot: number) => `room ${room} (${name}) face ${(slot / 3) | 0} edge ${slot % 3}`;

function otherOf(area: KotorArea, ref: RoomEdgeRef, distance: number): NonNullable<RoomLinkFinding['other']> {
  return { ...ref, face: (ref.slot / 3) | 0, edge: ref.slot % 3, transition: area.rooms[ref.room]!.doc!.edgeTransition[ref.row]!, distance };
}

/**
 * Checks every link of the area. Codes: `kotor.link.self`, `kotor.link.dangling` (no such
 * LYT room), `kotor.link.unverified` (the target room has no WOK), `kotor.link.one-way` (the
 * other side meets edge to edge but carries another transition), `kotor.link.misaligned`
 * (the nearest edge of the target is within NEAR_SEAM_TOLERANCE but not bit-identical in
 * XY), `kotor.link.no-seam` (nothing of the target meets the edge), and
 * `kotor.link.unlinked-seam` (two rooms meet edge to edge and neither side links: a gap
 * the engine will not cross).
 */
export function checkRoomLinks(area: KotorArea): RoomLinkFinding[] {
  const out: RoomLinkFinding[] = [];
  const index = indexSeams(area);
  for (const link of collectRoomLinks(area)) {
    const here = where(link.room, link.roomName, link.slot);
    const t = link.target;
    if (t === link.room) {
      out.push(finding('error', 'kotor.link.self', link, `${here}: transition to its own room ${t}`));
      continue;
    }
    const target = t >= 0 ? area.rooms[t] : undefined;
    if (target === undefined) {
      out.push(finding('error', 'kotor.link.dangling', link, `${here}: transition to room ${t}, but the layout has ${area.rooms.length} room(s)`));
      continue;
    }
    if (target.doc === undefined) {
      out.push(finding('warning', 'kotor.link.unverified', link, `${here}: transition to room ${t} (${target.name}), whose walkmesh is not loaded, so the seam cannot be checked`));
      continue;
    }
    const partner = partnerOf(area, index, link, t);
    if (partner !== undefined) {
      const back = target.doc.edgeTransition[partner.row]!;
      if (back !== link.room) {
        const other = otherOf(area, partner, 0);
        out.push(finding('error', 'kotor.link.one-way', link, `${here}: transition to room ${t}, but the meeting edge ${where(t, target.name, partner.slot)} ${back === NO_TRANSITION ? 'has no transition' : `leads to room ${back}`} instead of back to room ${link.room}`, other));
      }
      continue;
    }
    const near = nearestEdge(area, link, target);
    if (near !== undefined && near.distance <= NEAR_SEAM_TOLERANCE) {
      out.push(finding('error', 'kotor.link.misaligned', link, `${here}: transition to room ${t}, but the nearest edge ${where(t, target.name, near.ref.slot)} is ${near.distance.toPrecision(3)} away; the engine joins only bit-identical XY endpoints`, otherOf(area, near.ref, near.distance)));
    } else {
      out.push(finding('error', 'kotor.link.no-seam', link, `${here}: transition to room ${t} (${target.name}), but no edge of that room meets it${near ? ` (nearest: ${where(t, target.name, near.ref.slot)}, ${near.distance.toPrecision(3)} away)` : ''}`, near ? otherOf(area, near.ref, near.distance) : undefined));
    }
  }
  for (const refs of index.values()) {
    for (let i = 0; i < refs.length; i++) {
      for (let j = i + 1; j < refs.length; j++) {
        const p = refs[i]!, q = refs[j]!;
        if (p.room === q.room) continue;
        const rp = area.rooms[p.room]!, rq = area.rooms[q.room]!;
        if (rp.doc!.edgeTransition[p.row] !== NO_TRANSITION || rq.doc!.edgeTransition[q.row] !== NO_TRANSITION) continue;
        const link: RoomLink = { room: p.room, roomName: rp.name, row: p.row, slot: p.slot, face: (p.slot / 3) | 0, edge: p.slot % 3, target: NO_TRANSITION };
        out.push(finding('warning', 'kotor.link.unlinked-seam', link, `${where(p.room, rp.name, p.slot)} and ${where(q.room, rq.name, q.slot)} meet edge to edge but neither links to the other: a walkable gap the engine will not cross`, otherOf(area, q, 0)));
      }
    }
  }
  return out;
}

export interface RoomLinkSummary {
  /** Edges carrying a transition. */
  links: number;
  /** Seams linked from both sides (each counted once). */
  reciprocalSeams: number;
  /** Links whose target room has no loaded WOK. */
  unverified: number;
}

export function summarizeRoomLinks(area: KotorArea): RoomLinkSummary {
  const links = collectRoomLinks(area);
  const index = indexSeams(area);
  let reciprocal = 0;
  let unverified = 0;
  for (const link of links) {
    const target = area.rooms[link.target];
    if (target === undefined || link.target === link.room) continue;
    if (target.doc === undefined) {
      unverified++;
      continue;
    }
    const partner = partnerOf(area, index, link, link.target);
    // Count each seam from its lower-numbered room only.
    if (partner !== undefined && link.room < link.target && target.doc.edgeTransition[partner.row] === link.room) reciprocal++;
  }
  return { links: links.length, reciprocalSeams: reciprocal, unverified };
}

/** How to repair a one-sided link: give the meeting edge the reverse transition, or drop the link. */
export type LinkFixMode = 'reciprocate' | 'unlink';

export type LinkFixResult =
  | { ok: true; /** Edited walkmeshes by room index (copies; the area is not changed). */ documents: Map<number, BwmDocument> }
  | { ok: false; reason: string };

function copyBwm(doc: BwmDocument): BwmDocument {
  return {
    ...doc,
    hooks: doc.hooks.slice(),
    vertices: doc.vertices.slice(),
    faces: doc.faces.slice(),
    materials: doc.materials.slice(),
    normals: doc.normals.slice(),
    planes: doc.planes.slice(),
    aabb: doc.aabb.slice(),
    adjacency: doc.adjacency.slice(),
    edgeIndex: doc.edgeIndex.slice(),
    edgeTransition: doc.edgeTransition.slice(),
    perimeters: doc.perimeters.slice(),
    emptyOffsets: { ...doc.emptyOffsets },
    trailing: doc.trailing.slice(),
  };
}

/**
 * Repairs the link on `room`'s face/edge. `reciprocate` sets the transition of the target
 * room's edge that meets it exactly to `room`; `unlink` clears the link's own transition.
 * Only a transition value in the edge table changes, never which edges are perimeter edges,
 * so adjacency, perimeters and the AABB tree stay valid and need no rebake.
 */
export function fixOneSidedLink(area: KotorArea, room: number, face: number, edge: number, mode: LinkFixMode = 'reciprocate'): LinkFixResult {
  const slot = face * 3 + edge;
  const link = collectRoomLinks(area).find((l) => l.room === room && l.slot === slot);
  const name = area.rooms[room]?.name ?? '?';
  if (link === undefined) return { ok: false, reason: `room ${room} (${name}) face ${face} edge ${edge} is not a perimeter edge with a transition` };
  if (mode === 'unlink') {
    const doc = copyBwm(area.rooms[room]!.doc!);
    doc.edgeTransition[link.row] = NO_TRANSITION;
    return { ok: true, documents: new Map([[room, doc]]) };
  }
  const target = area.rooms[link.target];
  if (target === undefined || target.doc === undefined || link.target === room) {
    return { ok: false, reason: `room ${room} (${name}) face ${face} edge ${edge} leads to room ${link.target}, which has no loaded walkmesh to link back from` };
  }
  const partner = partnerOf(area, indexSeams(area), link, link.target);
  if (partner === undefined) {
    return { ok: false, reason: `no perimeter edge of room ${link.target} (${target.name}) meets room ${room} face ${face} edge ${edge} in XY; move the vertices first` };
  }
  const current = target.doc.edgeTransition[partner.row]!;
  if (current === room) return { ok: true, documents: new Map() };
  const doc = copyBwm(target.doc);
  doc.edgeTransition[partner.row] = room;
  return { ok: true, documents: new Map([[link.target, doc]]) };
}

/**
 * Endpoint distance (XY, game units) under which another room's perimeter edge counts as
 * sharing an edge, for offering link targets: the near-miss tolerance of the checks, so a
 * seam reported as misaligned is still offered (the link is then reported until it meets).
 */
export const SHARED_EDGE_TOLERANCE = NEAR_SEAM_TOLERANCE;

/** One perimeter edge of a room with the rooms it may link to. */
export interface RoomEdgeChoice {
  face: number;
  edge: number;
  /** The transition it carries now (NO_TRANSITION for none). */
  current: number;
  /** LYT indices of the other rooms with a perimeter edge within tolerance of this one, ascending. */
  rooms: number[];
}

/**
 * For each perimeter edge of `room`, the other rooms of the area that share it: a room
 * shares an edge when one of its perimeter edges has both endpoints within `tolerance` of
 * this edge's (either direction, XY only, as the engine joins seams). The other rooms'
 * edges are bucketed by endpoint on a grid of `tolerance`-sized cells, so each edge looks
 * at the 3×3 cells around one endpoint rather than at every edge of the area.
 */
export function roomEdgeChoices(area: KotorArea, room: number, tolerance = SHARED_EDGE_TOLERANCE): RoomEdgeChoice[] {
  const here = area.rooms[room];
  if (here === undefined || here.doc === undefined) return [];
  const cell = tolerance > 0 ? tolerance : 1e-6;
  const key = (x: number, y: number) => `${Math.floor(x / cell)},${Math.floor(y / cell)}`;
  const buckets = new Map<string, { room: number; ends: EdgeEnds }[]>();
  const put = (k: string, v: { room: number; ends: EdgeEnds }) => {
    const list = buckets.get(k);
    if (list === undefined) buckets.set(k, [v]);
    else list.push(v);
  };
  for (const r of area.rooms) {
    if (r.index === room || r.doc === undefined) continue;
    for (let row = 0; row < r.doc.edgeIndex.length; row++) {
      if (!validSlot(r, row)) continue;
      const ends = edgeEnds(r.doc, r.positions, r.doc.edgeIndex[row]!);
      const v = { room: r.index, ends };
      const ka = key(ends.ax, ends.ay);
      const kb = key(ends.bx, ends.by);
      put(ka, v);
      if (kb !== ka) put(kb, v);
    }
  }
  const out: RoomEdgeChoice[] = [];
  const doc = here.doc;
  for (let row = 0; row < doc.edgeIndex.length; row++) {
    if (!validSlot(here, row)) continue;
    const slot = doc.edgeIndex[row]!;
    const ends = edgeEnds(doc, here.positions, slot);
    const rooms = new Set<number>();
    const cx = Math.floor(ends.ax / cell);
    const cy = Math.floor(ends.ay / cell);
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const c of buckets.get(`${cx + dx},${cy + dy}`) ?? []) {
          if (!rooms.has(c.room) && endsDistance(ends, c.ends) <= tolerance) rooms.add(c.room);
        }
      }
    }
    out.push({ face: (slot / 3) | 0, edge: slot % 3, current: doc.edgeTransition[row]!, rooms: [...rooms].sort((a, b) => a - b) });
  }
  return out;
}
