/**
 * GFF V3.2 (BioWare's Generic File Format: GIT, ARE, GIC, IFO, UT*, … in NWN1, NWN2 and
 * KotOR) as a plain tree: a document holds a root struct; a struct holds its type id and its
 * fields in file order; a field holds its label, type id and value.
 *
 * Text (labels, CExoString, ResRef, localized substrings) is kept as byte strings (see
 * byte-string.ts), so any code page survives a round trip. FLOAT/DOUBLE values are plain
 * numbers: every float32 is exactly representable as a number, so only NaN payloads are
 * not kept in the tree (an unedited file is still written back byte for byte, see
 * `GffDocument.preserved`).
 */

export const GFF_FORMAT = 'gff';
export const GFF_VERSION = 'V3.2';
export const GFF_HEADER_BYTES = 56;
export const GFF_LABEL_BYTES = 16;
/** Struct id of the root struct in files written by BioWare's tools. */
export const GFF_ROOT_STRUCT_TYPE = 0xffffffff;

export const GffType = {
  Byte: 0,
  Char: 1,
  Word: 2,
  Short: 3,
  Dword: 4,
  Int: 5,
  Dword64: 6,
  Int64: 7,
  Float: 8,
  Double: 9,
  ExoString: 10,
  ResRef: 11,
  LocString: 12,
  Void: 13,
  Struct: 14,
  List: 15,
  /** Quaternion x, y, z, w (4 floats in the field data; KotOR, NWN2). */
  Orientation: 16,
  /** x, y, z (3 floats in the field data; KotOR, NWN2). */
  Vector: 17,
} as const;
export type GffType = (typeof GffType)[keyof typeof GffType];

export const GFF_TYPE_NAMES: readonly string[] = [
  'BYTE', 'CHAR', 'WORD', 'SHORT', 'DWORD', 'INT', 'DWORD64', 'INT64', 'FLOAT', 'DOUBLE',
  'CExoString', 'ResRef', 'CExoLocString', 'VOID', 'Struct', 'List', 'Orientation', 'Vector',
];

export function gffTypeName(type: number): string {
  return GFF_TYPE_NAMES[type] ?? `type ${type}`;
}

/** Types whose value lives in the 4-byte data slot of the field entry. */
export type GffSmallIntType = 0 | 1 | 2 | 3 | 4 | 5;

/** One localized substring; `id` = language × 2 + gender (0 = male, 1 = female). */
export interface GffLocSubstring {
  id: number;
  text: string;
}

export interface GffLocString {
  /** Talk-table string reference, 0xFFFFFFFF when none. */
  strRef: number;
  strings: GffLocSubstring[];
}

interface FieldOf<T extends GffType, V> {
  label: string;
  type: T;
  value: V;
}

export type GffIntegerField = FieldOf<GffSmallIntType, number>;
export type GffInt64Field = FieldOf<6 | 7, bigint>;
export type GffFloatField = FieldOf<8 | 9, number>;
export type GffTextField = FieldOf<10 | 11, string>;
export type GffLocStringField = FieldOf<12, GffLocString>;
export type GffVoidField = FieldOf<13, Uint8Array>;
export type GffStructField = FieldOf<14, GffStruct>;
export type GffListField = FieldOf<15, GffStruct[]>;
export type GffOrientationField = FieldOf<16, [number, number, number, number]>;
export type GffVectorField = FieldOf<17, [number, number, number]>;

export type GffField =
  | GffIntegerField
  | GffInt64Field
  | GffFloatField
  | GffTextField
  | GffLocStringField
  | GffVoidField
  | GffStructField
  | GffListField
  | GffOrientationField
  | GffVectorField;

export interface GffStruct {
  /** The struct id (e.g. 1 for a TriggerList entry, 0xFFFFFFFF for the root). */
  type: number;
  /** Fields in stored order; labels are unique within a struct in valid files. */
  fields: GffField[];
  /**
   * Byte offset of this struct's entry in the file it was read from, used to point error
   * messages at the file; absent for structs built in memory.
   */
  fileOffset?: number;
}

/**
 * What the reader keeps of a file that the canonical writer does not reproduce (another
 * tool's section order, gaps, garbage padding, NaN payloads, shared field data…): the
 * original bytes, and the canonical encoding of the tree as read. The writer returns the
 * original bytes as long as the tree still encodes to `canonical`, i.e. is unedited.
 */
export interface GffPreservedLayout {
  bytes: Uint8Array;
  canonical: Uint8Array;
}

export interface GffDocument {
  /** Four characters, e.g. `GIT `, `ARE `, `GIC `. */
  fileType: string;
  /** Four characters; `V3.2`. */
  version: string;
  root: GffStruct;
  preserved?: GffPreservedLayout;
}

export function createGffStruct(type: number, fields: GffField[] = []): GffStruct {
  return { type, fields };
}

export function createGffDocument(fileType: string, root: GffStruct = createGffStruct(GFF_ROOT_STRUCT_TYPE)): GffDocument {
  return { fileType: fileType.padEnd(4, ' ').slice(0, 4), version: GFF_VERSION, root };
}
