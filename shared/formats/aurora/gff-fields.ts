import { MalformedInputError } from '../../binary/malformed-input-error';
import {
  GFF_FORMAT,
  GffType,
  gffTypeName,
  type GffField,
  type GffIntegerField,
  type GffLocString,
  type GffStruct,
} from './gff-document';

/**
 * Typed access to struct fields. Getters throw MalformedInputError (format `gff`) naming the
 * label, the struct and the expected type when a field is missing or has another type, so
 * a GIT with a broken placeable is reported like any other malformed input. The offset is
 * the struct's entry in the file (0 for structs built in memory).
 */

export function findField(s: GffStruct, label: string): GffField | undefined {
  const fields = s.fields;
  for (let i = 0; i < fields.length; i++) if (fields[i]!.label === label) return fields[i];
  return undefined;
}

export function hasField(s: GffStruct, label: string): boolean {
  return findField(s, label) !== undefined;
}

export function getField(s: GffStruct, label: string): GffField {
  const f = findField(s, label);
  if (f === undefined) throw fieldError(s, label, 'a field with this label', 'no such field');
  return f;
}

function fieldError(s: GffStruct, label: string, expected: string, found: string): MalformedInputError {
  return new MalformedInputError({
    format: GFF_FORMAT,
    offset: s.fileOffset ?? 0,
    field: `'${label}' in struct type ${s.type}`,
    expected,
    found,
  });
}

function wrongType(s: GffStruct, f: GffField, expected: string): MalformedInputError {
  return fieldError(s, f.label, expected, gffTypeName(f.type));
}

const INTEGER_TYPES = 'BYTE, CHAR, WORD, SHORT, DWORD or INT';

function isSmallInt(f: GffField): f is GffIntegerField {
  return f.type <= GffType.Int;
}

/** Any of BYTE, CHAR, WORD, SHORT, DWORD, INT (games differ in which they use, e.g. `Static`). */
export function getInteger(s: GffStruct, label: string): number {
  const f = getField(s, label);
  if (isSmallInt(f)) return f.value;
  throw wrongType(s, f, INTEGER_TYPES);
}

export function optInteger(s: GffStruct, label: string, fallback: number): number {
  const f = findField(s, label);
  if (f === undefined) return fallback;
  if (isSmallInt(f)) return f.value;
  throw wrongType(s, f, INTEGER_TYPES);
}

/** Any integer type including DWORD64/INT64, as a bigint. */
export function getInteger64(s: GffStruct, label: string): bigint {
  const f = getField(s, label);
  if (f.type === GffType.Dword64 || f.type === GffType.Int64) return f.value;
  if (isSmallInt(f)) return BigInt(f.value);
  throw wrongType(s, f, `${INTEGER_TYPES}, DWORD64 or INT64`);
}

/** FLOAT or DOUBLE. */
export function getFloat(s: GffStruct, label: string): number {
  const f = getField(s, label);
  if (f.type === GffType.Float || f.type === GffType.Double) return f.value;
  throw wrongType(s, f, 'FLOAT or DOUBLE');
}

export function optFloat(s: GffStruct, label: string, fallback: number): number {
  return findField(s, label) === undefined ? fallback : getFloat(s, label);
}

/** FLOAT, DOUBLE or any small integer type, as a number. */
export function getNumber(s: GffStruct, label: string): number {
  const f = getField(s, label);
  if (f.type === GffType.Float || f.type === GffType.Double || isSmallInt(f)) return f.value;
  throw wrongType(s, f, `FLOAT, DOUBLE, ${INTEGER_TYPES}`);
}

/** CExoString or ResRef, as a byte string. */
export function getText(s: GffStruct, label: string): string {
  const f = getField(s, label);
  if (f.type === GffType.ExoString || f.type === GffType.ResRef) return f.value;
  throw wrongType(s, f, 'CExoString or ResRef');
}

export function optText(s: GffStruct, label: string): string | undefined {
  return findField(s, label) === undefined ? undefined : getText(s, label);
}

export function getResRef(s: GffStruct, label: string): string {
  const f = getField(s, label);
  if (f.type === GffType.ResRef) return f.value;
  throw wrongType(s, f, 'ResRef');
}

export function getExoString(s: GffStruct, label: string): string {
  const f = getField(s, label);
  if (f.type === GffType.ExoString) return f.value;
  throw wrongType(s, f, 'CExoString');
}

export function getLocString(s: GffStruct, label: string): GffLocString {
  const f = getField(s, label);
  if (f.type === GffType.LocString) return f.value;
  throw wrongType(s, f, 'CExoLocString');
}

export function getVoid(s: GffStruct, label: string): Uint8Array {
  const f = getField(s, label);
  if (f.type === GffType.Void) return f.value;
  throw wrongType(s, f, 'VOID');
}

export function getStruct(s: GffStruct, label: string): GffStruct {
  const f = getField(s, label);
  if (f.type === GffType.Struct) return f.value;
  throw wrongType(s, f, 'Struct');
}

export function optStruct(s: GffStruct, label: string): GffStruct | undefined {
  return findField(s, label) === undefined ? undefined : getStruct(s, label);
}

export function getList(s: GffStruct, label: string): GffStruct[] {
  const f = getField(s, label);
  if (f.type === GffType.List) return f.value;
  throw wrongType(s, f, 'List');
}

/** The list, or an empty array when the struct has no field with this label. */
export function optList(s: GffStruct, label: string): GffStruct[] {
  return findField(s, label) === undefined ? [] : getList(s, label);
}

export function getVector(s: GffStruct, label: string): [number, number, number] {
  const f = getField(s, label);
  if (f.type === GffType.Vector) return f.value;
  throw wrongType(s, f, 'Vector');
}

export function getOrientation(s: GffStruct, label: string): [number, number, number, number] {
  const f = getField(s, label);
  if (f.type === GffType.Orientation) return f.value;
  throw wrongType(s, f, 'Orientation');
}

/** Replaces the field with the same label (keeping its position) or appends it. */
export function setField(s: GffStruct, field: GffField): void {
  const i = s.fields.findIndex((f) => f.label === field.label);
  if (i >= 0) s.fields[i] = field;
  else s.fields.push(field);
}

export function removeField(s: GffStruct, label: string): boolean {
  const i = s.fields.findIndex((f) => f.label === label);
  if (i < 0) return false;
  s.fields.splice(i, 1);
  return true;
}

/** Field constructors, so callers need not spell type ids. */
export const gff = {
  byte: (label: string, value: number): GffField => ({ label, type: GffType.Byte, value }),
  char: (label: string, value: number): GffField => ({ label, type: GffType.Char, value }),
  word: (label: string, value: number): GffField => ({ label, type: GffType.Word, value }),
  short: (label: string, value: number): GffField => ({ label, type: GffType.Short, value }),
  dword: (label: string, value: number): GffField => ({ label, type: GffType.Dword, value }),
  int: (label: string, value: number): GffField => ({ label, type: GffType.Int, value }),
  dword64: (label: string, value: bigint): GffField => ({ label, type: GffType.Dword64, value }),
  int64: (label: string, value: bigint): GffField => ({ label, type: GffType.Int64, value }),
  float: (label: string, value: number): GffField => ({ label, type: GffType.Float, value }),
  double: (label: string, value: number): GffField => ({ label, type: GffType.Double, value }),
  exoString: (label: string, value: string): GffField => ({ label, type: GffType.ExoString, value }),
  resRef: (label: string, value: string): GffField => ({ label, type: GffType.ResRef, value }),
  locString: (label: string, value: GffLocString): GffField => ({ label, type: GffType.LocString, value }),
  void: (label: string, value: Uint8Array): GffField => ({ label, type: GffType.Void, value }),
  struct: (label: string, value: GffStruct): GffField => ({ label, type: GffType.Struct, value }),
  list: (label: string, value: GffStruct[]): GffField => ({ label, type: GffType.List, value }),
  orientation: (label: string, value: [number, number, number, number]): GffField => ({ label, type: GffType.Orientation, value }),
  vector: (label: string, value: [number, number, number]): GffField => ({ label, type: GffType.Vector, value }),
};
