import { isMalformedInputError, type MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { BWM_FORMAT } from '../../../shared/formats/kotor/bwm-document';
import type { LytDocument } from '../../../shared/formats/kotor/lyt-document';
import { readLyt } from '../../../shared/formats/kotor/lyt-reader';
import { nameKey, type ProjectStore } from './project-store';
import type { FileRecord } from './project-types';

/**
 * A KotOR room walkmesh: a walkmesh named `<room>.wok` (the LYT lists the room by that
 * stem), read as a BWM or, when no format was recorded, by its name alone. Placeable and
 * door walkmeshes (`.pwk`, `.dwk`) share the format but are never rooms of a layout.
 */
export function isKotorRoomWalkmesh(f: FileRecord): boolean {
  return f.kind === 'walkmesh' && /\.wok$/i.test(f.name) && (f.format === BWM_FORMAT || f.format === null);
}

/** The room a walkmesh file is, as a layout names it, in lower case (`M10aa_01c.WOK` → `m10aa_01c`). */
export function kotorRoomName(f: Pick<FileRecord, 'name'>): string {
  return f.name.replace(/\.wok$/i, '').toLowerCase();
}

/** The rooms a LYT lists, in lower case; undefined when the bytes are not a readable LYT. */
export function roomsOfLayoutBytes(bytes: Uint8Array): string[] | undefined {
  try {
    return readLyt(bytes).rooms.map((r) => r.name.toLowerCase());
  } catch (e) {
    if (isMalformedInputError(e)) return undefined;
    throw e;
  }
}

export interface KotorRoomLayout {
  /** The layout file that lists the room. */
  lyt: FileRecord;
  /** Its document as read: room order is the room index WOK edge transitions name. */
  layout: LytDocument;
  /**
   * The walkmesh file of each room the layout lists that the project holds, by lower-case
   * room name; a room the project lacks is absent.
   */
  rooms: Map<string, FileRecord>;
}

export interface KotorLayoutLookupOptions {
  /**
   * The bytes of a LYT as they are now. Default `store.loadCurrentBytes`; the edit service
   * passes its own reader, which writes edits still pending first.
   */
  read?(lyt: FileRecord): Uint8Array;
  /** Told of each LYT passed over because its bytes do not parse. */
  onMalformed?(lyt: FileRecord, error: MalformedInputError): void;
}

/**
 * The room walkmeshes of every room `layout` lists, wherever the project holds them: a
 * project may have imported the LYT from override and the rooms from a module capsule, or,
 * imported by a version that named modules after folders, keep them in different modules.
 * When several files carry one room's name, `prefer` (the room asked about) wins, then a
 * file of the layout's module, then one of `prefer`'s module, then the first by module
 * name. Reads file metadata only, no bytes.
 */
export function kotorRoomsOfLayout(store: ProjectStore, lyt: FileRecord, layout: LytDocument, prefer?: FileRecord): Map<string, FileRecord> {
  const wanted = new Set(layout.rooms.map((r) => r.name.toLowerCase()));
  const lytModule = nameKey(lyt.module);
  const preferModule = prefer && nameKey(prefer.module);
  const rank = (f: FileRecord) => (f.id === prefer?.id ? 0 : nameKey(f.module) === lytModule ? 1 : nameKey(f.module) === preferModule ? 2 : 3);
  const rooms = new Map<string, FileRecord>();
  for (const f of store.listFiles({ kind: 'walkmesh' })) {
    if (!isKotorRoomWalkmesh(f)) continue;
    const room = kotorRoomName(f);
    if (!wanted.has(room)) continue;
    const held = rooms.get(room);
    if (held === undefined || rank(f) < rank(held)) rooms.set(room, f);
  }
  return rooms;
}

/**
 * The layout a KotOR room belongs to, for the room-link tools of the edit service
 * (`kotorArea`: the room's neighbours for link checks, "link back" and "fix link";
 * `projectWoks`: the WOKs a layout's path query walks through): the LYT whose layout lists
 * the room (names without case), searched in the room's module first (its area's LYT
 * before the others) and then in the whole project, so a LYT imported from elsewhere than
 * the rooms, or held under another module by a project of an older version, is found. With
 * it, every room walkmesh it lists, wherever it is (see `kotorRoomsOfLayout`); `room`
 * itself is always the one for its name.
 *
 * Undefined when `room` is not a room walkmesh (`isKotorRoomWalkmesh`) or no readable LYT
 * lists it. A LYT whose bytes do not parse is passed over (and reported to `onMalformed`):
 * one broken layout must not stop the links of every other module's rooms.
 *
 * Cost: the metadata of the project's LYTs and walkmeshes, and the bytes of LYTs only,
 * read one by one until one lists the room (a LYT is a few KB of text); no walkmesh is read.
 */
export function kotorLayoutOfRoom(store: ProjectStore, room: FileRecord, options: KotorLayoutLookupOptions = {}): KotorRoomLayout | undefined {
  if (!isKotorRoomWalkmesh(room)) return undefined;
  const name = kotorRoomName(room);
  const module = nameKey(room.module);
  const rank = (l: FileRecord) => (nameKey(l.module) !== module ? 2 : l.area !== null && room.area !== null && nameKey(l.area) === nameKey(room.area) ? 0 : 1);
  // Array.prototype.sort is stable: within a rank, the store's order (module, then name).
  const lyts = store.listFiles({ kind: 'lyt' }).sort((a, b) => rank(a) - rank(b));
  const read = options.read ?? ((f: FileRecord) => store.loadCurrentBytes(f));
  for (const lyt of lyts) {
    let layout: LytDocument;
    try {
      layout = readLyt(read(lyt));
    } catch (e) {
      if (!isMalformedInputError(e)) throw e;
      options.onMalformed?.(lyt, e.withFile(`${lyt.module}/${lyt.name}`));
      continue;
    }
    if (layout.rooms.some((r) => r.name.toLowerCase() === name)) return { lyt, layout, rooms: kotorRoomsOfLayout(store, lyt, layout, room) };
  }
  return undefined;
}
