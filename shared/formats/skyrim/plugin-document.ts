import type { NvmiEntry } from './navi-document';
import type { NvnmDocument } from './nvnm-document';

/**
 * A Skyrim plugin (ESP/ESM) as a tree of groups and records. Only NVNM (inside NAVM) and
 * NVMI (inside NAVI) are modelled; every other subrecord is kept as its bytes, so an
 * unedited plugin is written back byte for byte.
 */
export const PLUGIN_FORMAT = 'skyrim-plugin';
export const NVNM_FORMAT = 'skyrim-nvnm';

export const RECORD_HEADER_SIZE = 24;
export const GROUP_HEADER_SIZE = 24;
export const SUBRECORD_HEADER_SIZE = 6;

export const RECORD_FLAG_DELETED = 0x20;
export const RECORD_FLAG_COMPRESSED = 0x00040000;

/** The Creation Kit's zlib level; pako 2.1.0 at this level reproduces its streams. */
export const PLUGIN_DEFLATE_LEVEL = 9;

/** Present when the subrecord was preceded by an `XXXX` size record. */
export interface SubrecordOverflow {
  /** The subrecord's own u16 size field (0 in CK and xEdit output). */
  sizeField: number;
}

interface SubrecordBase {
  signature: string;
  overflow?: SubrecordOverflow;
}

export interface RawSubrecord extends SubrecordBase {
  kind: 'raw';
  data: Uint8Array;
}

export interface NvnmSubrecord extends SubrecordBase {
  kind: 'nvnm';
  nvnm: NvnmDocument;
}

export interface NvmiSubrecord extends SubrecordBase {
  kind: 'nvmi';
  nvmi: NvmiEntry;
}

export type Subrecord = RawSubrecord | NvnmSubrecord | NvmiSubrecord;

export interface PluginRecord {
  kind: 'record';
  signature: string;
  flags: number;
  formId: number;
  versionControl1: number;
  /** 43 = Skyrim LE, 44 = Skyrim SE. */
  formVersion: number;
  versionControl2: number;
  /** Stored as a u32 uncompressed size and a zlib stream (re-encoded from the subrecords on write). */
  compressed: boolean;
  subrecords: Subrecord[];
  /** Offset of the record header in the file it was read from (-1 when built in memory). */
  sourceOffset: number;
}

export interface PluginGroup {
  kind: 'group';
  /** The raw 4-byte label (a signature, a FormID or two i16 grid values by group type). */
  label: number;
  groupType: number;
  timestamp: number;
  versionControl: number;
  unknown: number;
  children: PluginItem[];
}

export type PluginItem = PluginRecord | PluginGroup;

export interface PluginDocument {
  /** The TES4 header record first, then the top-level groups. */
  items: PluginItem[];
}

export function signatureOf(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(bytes[offset]!, bytes[offset + 1]!, bytes[offset + 2]!, bytes[offset + 3]!);
}

export function formIdHex(formId: number): string {
  return `0x${(formId >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
}

export function findSubrecord(record: PluginRecord, signature: string): Subrecord | undefined {
  return record.subrecords.find((s) => s.signature === signature);
}

/** Every record of the plugin in file order, with the groups that contain it. */
export function* walkRecords(items: readonly PluginItem[], parents: PluginGroup[] = []): Generator<{ record: PluginRecord; parents: readonly PluginGroup[] }> {
  for (const item of items) {
    if (item.kind === 'record') yield { record: item, parents };
    else yield* walkRecords(item.children, [...parents, item]);
  }
}
