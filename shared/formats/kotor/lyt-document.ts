/**
 * KotOR area layout (`.lyt`, resource type 3000): an ASCII file listing the rooms of an area
 * (room order = room index, the value WOK edge transitions refer to), the swoop-race track
 * and obstacle models, and the door hooks. Layout and evidence: kotor-bwm.md §7.1.
 */

export const LYT_FORMAT = 'kotor-lyt';

/** A room, track or obstacle row: a model resref and its world position. */
export interface LytPlacement {
  /** The model resref as stored (mixed case in game files; look-ups ignore case). */
  name: string;
  x: number;
  y: number;
  z: number;
}

/**
 * A door hook row. Game and K1CP files have 10 tokens `room door 0 x y z q0 q1 q2 q3`;
 * kotorblender writes 9 (no `0`). The quaternion is kept in file order: the evidence
 * (kotor-bwm.md §7.1) points to (w, x, y, z), against PyKotor's (x, y, z, w) reading.
 */
export interface LytDoorHook {
  room: string;
  door: string;
  /** The third token (`0` in every known file), or undefined for the 9-token form. */
  unknown: string | undefined;
  x: number;
  y: number;
  z: number;
  orientation: [number, number, number, number];
}

export interface LytDocument {
  /** Lines before `beginlayout` (`#MAXLAYOUT ASCII`, `filedependancy x.max`), trimmed. */
  headerLines: string[];
  rooms: LytPlacement[];
  tracks: LytPlacement[];
  obstacles: LytPlacement[];
  doorHooks: LytDoorHook[];
  /** The line break the writer uses for edited documents (the file's own when read). */
  lineEnding: '\n' | '\r\n';
  /** Set by the reader: the text as read, written back while the document is unedited. */
  preserved?: { text: string; snapshot: string; layout: LytSourceLayout };
}

export type LytSection = 'rooms' | 'tracks' | 'obstacles' | 'doorHooks';

/** Where the reader found each part, so that an edit rewrites only the lines it touches. */
export interface LytSourceLayout {
  /** The text split at `\n` (each line keeps its `\r`). */
  lines: string[];
  sections: Partial<Record<LytSection, LytSourceSection>>;
  /** Index of the `donelayout` line. */
  doneLine: number;
  /** `headerLines` as read, joined. */
  headerKey: string;
  lineEnding: '\n' | '\r\n';
}

export interface LytSourceSection {
  countLine: number;
  rowLines: number[];
  /** `lytRowKey` of each row as read. */
  rowKeys: string[];
}

export function createLytDocument(): LytDocument {
  return { headerLines: [], rooms: [], tracks: [], obstacles: [], doorHooks: [], lineEnding: '\r\n' };
}

/** The index of the room with this name (case-insensitive, as the game looks rooms up), or -1. */
export function lytRoomIndex(doc: LytDocument, name: string): number {
  const want = name.toLowerCase();
  return doc.rooms.findIndex((r) => r.name.toLowerCase() === want);
}

const numberKey = (v: number) => (Object.is(v, -0) ? '-0' : String(v));

/** A string that changes whenever the row changes (−0 ≠ 0). */
export function lytRowKey(row: LytPlacement | LytDoorHook): string {
  if ('door' in row) {
    return `${row.room}\u0001${row.door}\u0001${row.unknown ?? '\u0002'}\u0001${[row.x, row.y, row.z, ...row.orientation].map(numberKey).join('\u0001')}`;
  }
  return `${row.name}\u0001${numberKey(row.x)}\u0001${numberKey(row.y)}\u0001${numberKey(row.z)}`;
}

/** A string that changes whenever any content of the document changes. */
export function lytContentKey(doc: LytDocument): string {
  return [
    doc.headerLines.join('\u0003'),
    doc.rooms.map(lytRowKey).join('\u0003'),
    doc.tracks.map(lytRowKey).join('\u0003'),
    doc.obstacles.map(lytRowKey).join('\u0003'),
    doc.doorHooks.map(lytRowKey).join('\u0003'),
    doc.lineEnding,
  ].join('\u0004');
}
