/**
 * KEY V1 (`chitin.key`): the index of the game's BIF archives. Layout (xoreos
 * `src/aurora/keyfile.cpp`, kotor-bwm.md §8.2; the BioWare Aurora "Key and BIF File
 * Formats" document describes the same V1 layout):
 *
 *     0   "KEY " "V1  "
 *     8   u32 bifCount, u32 keyCount, u32 fileTableOffset, u32 keyTableOffset
 *     24  u32 buildYear (−1900), u32 buildDay, 32 reserved bytes        (64-byte header)
 *     file table: bifCount × 12 B: u32 fileSize, u32 nameOffset, u16 nameSize, u16 drives
 *     key table:  keyCount × 22 B: ResRef[16], u16 type, u32 id
 *
 * A key's id packs the BIF (id >> 20) and the resource's index in that BIF's variable
 * table (id & 0xFFFFF).
 */

export const KEY_FORMAT = 'key';
export const KEY_HEADER_BYTES = 64;
export const KEY_FILE_ENTRY_BYTES = 12;
export const KEY_ENTRY_BYTES = 22;

export interface KeyBif {
  /** As stored, e.g. `data\2da.bif` (backslashes, any case). */
  fileName: string;
  fileSize: number;
  /** Drive bit field (which install media held the BIF; 0 or 1 in KotOR). */
  drives: number;
}

export interface KeyEntry {
  /** As stored; look-ups ignore case. */
  resRef: string;
  type: number;
  /** Index into `bifs`. */
  bifIndex: number;
  /** Index in the BIF's variable resource table. */
  resourceIndex: number;
}

export interface KeyDocument {
  buildYear: number;
  buildDay: number;
  bifs: KeyBif[];
  keys: KeyEntry[];
  /** Set by the reader: where the file held each part (see key-writer). */
  layout?: KeyLayout;
}

/**
 * The file as read and where its tables and names lay. The writer lays an unedited
 * document (and one whose names still fit their slots) out as read, copying from `bytes`
 * what the document does not hold: the 32 reserved header bytes, gaps and padding between
 * tables and names, and the bytes after a name's or a resref's NUL.
 */
export interface KeyLayout {
  /** The file read (not copied). */
  bytes: Uint8Array;
  fileTableOffset: number;
  keyTableOffset: number;
  /** Per BIF: where its name lay and the stored name size (the slot, NUL and padding included). */
  nameOffsets: Uint32Array;
  nameSizes: Uint16Array;
}

/** Case-insensitive (resref, type) → key entry map; the first of duplicate entries wins. */
export class KeyIndex {
  private readonly map = new Map<string, KeyEntry>();

  constructor(doc: KeyDocument) {
    for (const k of doc.keys) {
      const key = KeyIndex.key(k.resRef, k.type);
      if (!this.map.has(key)) this.map.set(key, k);
    }
  }

  get(resRef: string, type: number): KeyEntry | undefined {
    return this.map.get(KeyIndex.key(resRef, type));
  }

  private static key(resRef: string, type: number): string {
    return `${type}:${resRef.toLowerCase()}`;
  }
}
