import { MalformedInputError } from '../../binary/malformed-input-error';
import { BWM_TYPE_AREA, floatsOf, type BwmDocument } from './bwm-document';
import { readBwm } from './bwm-reader';
import type { KotorResourceResolver } from './kotor-resource-resolver';
import type { LytDocument } from './lyt-document';
import type { Finding } from '../../validation/finding';
import { FindingSink } from '../../validation/finding-sink';

/** Resource type id of a room walkmesh (kotor-bwm.md §8.3). */
export const WOK_RESOURCE_TYPE = 2016;

/**
 * One LYT room with its walkmesh. The WOK's vertices are used as they are: they are already
 * in world space with the LYT position baked in (kotor-bwm.md §7.2: xoreos loads the WOK
 * with an identity matrix, reone adds it with no transform, kotorblender recovers the LYT
 * offset as wok vertex + header position − model vertex). The LYT position only places the
 * room's model, so it is kept for display and never added to the walkmesh.
 *
 * None of the fixture LYTs has its own WOKs beside it (m40ad.lyt lists M40ad_* rooms while
 * the K1CP WOK is m40aa_18b; test.lyt lists M17mg_* rooms), so the world-space claim could
 * not be checked against a real LYT/WOK pair here; the sources above are the evidence.
 */
export interface KotorAreaRoom {
  /** Position in the LYT: the value WOK edge transitions name. */
  index: number;
  /** The LYT model name as written (mixed case in game files). */
  name: string;
  /** LYT position of the room model. */
  position: [number, number, number];
  /** The room walkmesh, or undefined when no `<name>.wok` was found. */
  doc: BwmDocument | undefined;
  /** World-space vertex positions (the WOK's own), or an empty array without a WOK. */
  positions: Float32Array;
}

export interface KotorArea {
  rooms: KotorAreaRoom[];
}

/** Supplies a room's WOK bytes by room resref (any case), or undefined when none exists. */
export type WokLoader = (roomName: string) => Uint8Array | undefined;

/** A WokLoader that follows the game's resource order (override, module capsules, chitin). */
export function wokLoaderFromResolver(resolver: KotorResourceResolver): WokLoader {
  return (name) => resolver.resolve(name, WOK_RESOURCE_TYPE)?.data;
}

/** An area from a LYT and already-read room walkmeshes, looked up by room name case-insensitively. */
export function areaFromDocuments(lyt: LytDocument, docs: ReadonlyMap<string, BwmDocument>): KotorArea {
  const byLower = new Map<string, BwmDocument>();
  for (const [name, doc] of docs) byLower.set(name.toLowerCase(), doc);
  return {
    rooms: lyt.rooms.map((r, index) => {
      const doc = byLower.get(r.name.toLowerCase());
      return { index, name: r.name, position: [r.x, r.y, r.z], doc, positions: doc ? floatsOf(doc.vertices) : new Float32Array(0) };
    }),
  };
}

/** An area from a LYT, reading each room's WOK through `load` (malformed WOKs throw, naming the room). */
export function loadKotorArea(lyt: LytDocument, load: WokLoader): KotorArea {
  const docs = new Map<string, BwmDocument>();
  for (const r of lyt.rooms) {
    if (docs.has(r.name.toLowerCase())) continue;
    const bytes = load(r.name);
    if (bytes === undefined) continue;
    try {
      docs.set(r.name.toLowerCase(), readBwm(bytes));
    } catch (e) {
      throw e instanceof MalformedInputError ? e.withFile(`${r.name}.wok`) : e;
    }
  }
  return areaFromDocuments(lyt, docs);
}

/** A copy of the area with some rooms' walkmeshes replaced (by room index). */
export function withRoomDocuments(area: KotorArea, edited: ReadonlyMap<number, BwmDocument>): KotorArea {
  return {
    rooms: area.rooms.map((r) => {
      const doc = edited.get(r.index);
      return doc === undefined ? r : { ...r, doc, positions: floatsOf(doc.vertices) };
    }),
  };
}

/**
 * Area-level checks that do not involve links: a LYT room without a WOK (the room has no
 * walkable floor in game) and a WOK flagged as model-local (type 0), which the engine would
 * transform a second time (the "stuck on spawn" bug of kotor-bwm.md §7.3).
 */
export function validateKotorArea(area: KotorArea): Finding[] {
  const sink = new FindingSink();
  for (const r of area.rooms) {
    if (r.doc === undefined) {
      sink.warning('kotor.area.room-without-wok', { kind: 'room', id: r.index }, () => `room ${r.index} (${r.name}) has no ${r.name.toLowerCase()}.wok: nothing can walk there and its links cannot be checked`);
    } else if (r.doc.type !== BWM_TYPE_AREA) {
      sink.error('kotor.area.room-not-world', { kind: 'room', id: r.index }, () => `room ${r.index} (${r.name}): its walkmesh has type ${r.doc!.type}, not 1 (world coordinates); the engine would transform it again`);
    }
  }
  return sink.finish();
}

/** XY/Z bounds of a room's walkmesh: [minX, minY, minZ, maxX, maxY, maxZ], or undefined without vertices. */
export function roomBounds(room: KotorAreaRoom): Float64Array | undefined {
  const P = room.positions;
  if (P.length === 0) return undefined;
  const b = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
  for (let i = 0; i < P.length; i += 3) {
    for (let ax = 0; ax < 3; ax++) {
      const v = P[i + ax]!;
      if (v < b[ax]!) b[ax] = v;
      if (v > b[3 + ax]!) b[3 + ax] = v;
    }
  }
  return b;
}
