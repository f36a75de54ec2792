import { GffType, type GffField, type GffLocString, type GffStruct } from '../formats/aurora/gff-document';
import type { GffStructJson } from './document-edit-command';
import { EditError } from './edit-error';

/**
 * A GFF struct as JSON for the edit history, exact both ways: floats travel as their
 * 32-bit patterns (Double as 16 hex digits) so −0 and NaN survive, 64-bit integers as
 * decimal strings, void data as a list of bytes.
 */
const scratch = new DataView(new ArrayBuffer(8));

function floatBits(v: number): number {
  scratch.setFloat32(0, v, true);
  return scratch.getUint32(0, true);
}

function bitsFloat(bits: number): number {
  scratch.setUint32(0, bits >>> 0, true);
  return scratch.getFloat32(0, true);
}

function doubleHex(v: number): string {
  scratch.setFloat64(0, v, true);
  return scratch.getBigUint64(0, true).toString(16).padStart(16, '0');
}

function hexDouble(hex: string): number {
  scratch.setBigUint64(0, BigInt(`0x${hex}`), true);
  return scratch.getFloat64(0, true);
}

export function gffStructToJson(s: GffStruct): GffStructJson {
  return { type: s.type, fields: s.fields.map((f) => ({ label: f.label, type: f.type, value: fieldValueToJson(f) })) };
}

function fieldValueToJson(f: GffField): unknown {
  switch (f.type) {
    case GffType.Dword64:
    case GffType.Int64:
      return f.value.toString();
    case GffType.Float:
      return floatBits(f.value);
    case GffType.Double:
      return doubleHex(f.value);
    case GffType.LocString:
      return { strRef: f.value.strRef, strings: f.value.strings.map((x) => ({ ...x })) };
    case GffType.Void:
      return Array.from(f.value);
    case GffType.Struct:
      return gffStructToJson(f.value);
    case GffType.List:
      return f.value.map(gffStructToJson);
    case GffType.Orientation:
    case GffType.Vector:
      return f.value.map(floatBits);
    default:
      return f.value;
  }
}

/** The struct back from JSON; anything of the wrong shape is an EditError naming `where` and the field. */
export function gffStructFromJson(value: unknown, where: string): GffStruct {
  const v = value as Partial<GffStructJson> | null;
  if (typeof v !== 'object' || v === null || !Number.isInteger(v.type) || !Array.isArray(v.fields)) {
    throw new EditError('gff-struct', `${where}: expected { type, fields: [...] }`);
  }
  return { type: v.type! >>> 0, fields: v.fields.map((f, i) => fieldFromJson(f, `${where}.fields[${i}]`)) };
}

function fieldFromJson(value: unknown, where: string): GffField {
  const f = value as { label?: unknown; type?: unknown; value?: unknown } | null;
  if (typeof f !== 'object' || f === null || typeof f.label !== 'string' || typeof f.type !== 'number') {
    throw new EditError('gff-struct', `${where}: expected { label, type, value }`);
  }
  const { label, type } = f;
  const x = f.value;
  const bad = (expected: string): never => {
    throw new EditError('gff-struct', `${where} (${label}): value ${JSON.stringify(x)?.slice(0, 60)} is not ${expected}`);
  };
  const int = (lo: number, hi: number): number => (typeof x === 'number' && Number.isInteger(x) && x >= lo && x <= hi ? x : bad(`an integer in ${lo}..${hi}`));
  switch (type) {
    case GffType.Byte:
    case GffType.Char:
    case GffType.Word:
    case GffType.Short:
    case GffType.Dword:
    case GffType.Int:
      return { label, type, value: int(-0x80000000, 0xffffffff) };
    case GffType.Dword64:
    case GffType.Int64:
      if (typeof x !== 'string' || !/^-?\d+$/.test(x)) return bad('a decimal integer string');
      return { label, type, value: BigInt(x as string) };
    case GffType.Float:
      return { label, type, value: bitsFloat(int(0, 0xffffffff)) };
    case GffType.Double:
      if (typeof x !== 'string' || !/^[0-9a-f]{16}$/.test(x)) return bad('16 hex digits');
      return { label, type, value: hexDouble(x as string) };
    case GffType.ExoString:
    case GffType.ResRef:
      return typeof x === 'string' ? { label, type, value: x } : bad('a string');
    case GffType.LocString: {
      const l = x as Partial<GffLocString> | null;
      if (typeof l !== 'object' || l === null || typeof l.strRef !== 'number' || !Array.isArray(l.strings)) return bad('a localised string');
      const strings = l.strings.map((s) => (typeof s === 'object' && s !== null && typeof s.id === 'number' && typeof s.text === 'string' ? { ...s } : bad('a localised string')));
      return { label, type, value: { strRef: l.strRef, strings } };
    }
    case GffType.Void:
      if (!Array.isArray(x) || !x.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) return bad('a list of bytes');
      return { label, type, value: Uint8Array.from(x as number[]) };
    case GffType.Struct:
      return { label, type, value: gffStructFromJson(x, `${where}.value`) };
    case GffType.List:
      if (!Array.isArray(x)) return bad('a list of structs');
      return { label, type, value: (x as unknown[]).map((s, i) => gffStructFromJson(s, `${where}.value[${i}]`)) };
    case GffType.Orientation:
    case GffType.Vector: {
      const n = type === GffType.Vector ? 3 : 4;
      if (!Array.isArray(x) || x.length !== n || !x.every((b) => Number.isInteger(b) && b >= 0 && b <= 0xffffffff)) return bad(`${n} float bit patterns`);
      const floats = (x as number[]).map(bitsFloat);
      return type === GffType.Vector ? { label, type, value: floats as [number, number, number] } : { label, type, value: floats as [number, number, number, number] };
    }
    default:
      return bad(`of a known GFF field type (type ${String(type)} is not)`);
  }
}
