import type { ReadMemoryBound } from '../../binary/read-budget';
import { MalformedInputError } from '../../binary/malformed-input-error';
import { bytesEqual, bytesToByteString, bytesToByteStringZ, isPrintableTag } from './byte-string';
import {
  GFF_FORMAT,
  GFF_HEADER_BYTES,
  GFF_LABEL_BYTES,
  GFF_VERSION,
  GffType,
  gffTypeName,
  type GffDocument,
  type GffField,
  type GffLocSubstring,
  type GffStruct,
} from './gff-document';
import { encodeGffCanonical } from './gff-writer';

export interface ReadGffOptions {
  /**
   * Keep the original bytes when the file is not in the canonical layout, so that writeGff
   * returns them while the tree is unedited (default true). Costs one canonical encoding
   * per read, and a copy of the file for non-canonical files only.
   */
  preserveLayout?: boolean;
}

/** True when the bytes start like a GFF V3.2 file (any 4-character file type). */
export function sniffGff(bytes: Uint8Array): boolean {
  return bytes.length >= GFF_HEADER_BYTES && isPrintableTag(bytes, 0, 4) && bytesToByteString(bytes, 4, 8) === GFF_VERSION;
}

/** readGff's memory bound (see ReadMemoryBound). */
export const GFF_READ_MEMORY: ReadMemoryBound = { perInputByte: 80, perDecompressedByte: 0 };

const SECTION_NAMES = ['struct', 'field', 'label', 'fieldData', 'fieldIndices', 'listIndices'] as const;
/** Bytes per counted item of each section (the last three count bytes). */
const SECTION_ITEM_BYTES = [12, 12, GFF_LABEL_BYTES, 1, 1, 1] as const;

interface Section {
  start: number;
  end: number;
  count: number;
}

/**
 * Reads a GFF V3.2 file into a tree. Every count and offset is checked against the file
 * before it is used; each struct may be reached only once (a cyclic or shared reference is
 * an error) and field references and field data are budgeted, so the tree is finite and
 * linear in the file size; the walk uses an explicit stack, so deep nesting cannot
 * overflow the call stack. Throws MalformedInputError (format `gff`) naming the offset,
 * the field (`structs[i].fields[k] 'Label'`) and what was expected.
 *
 * Memory bound (GFF_READ_MEMORY): the tree has one object per struct (12 bytes in the file)
 * and per field reference (a 4-byte index slot or a one-field struct), strings decode at
 * most 8 times the file's field data, and one canonical re-encoding is made to compare:
 * at most 80 bytes per input byte (about 37 on real files), nothing decompressed.
 */
export function readGff(bytes: Uint8Array, options?: ReadGffOptions): GffDocument {
  const doc = new GffParser(bytes).parse();
  if (options?.preserveLayout !== false) {
    const canonical = encodeGffCanonical(doc);
    if (!bytesEqual(canonical, bytes)) doc.preserved = { bytes: bytes.slice(), canonical };
  }
  return doc;
}

function fail(offset: number, field: string, expected: string, found: string): MalformedInputError {
  return new MalformedInputError({ format: GFF_FORMAT, offset, field, expected, found });
}

class GffParser {
  private readonly view: DataView;
  private readonly sections: Section[] = [];
  private labels: (string | undefined)[] = [];
  private visited = new Uint8Array(0);
  /** Field references left: each field-index slot (and one-field struct) used once. */
  private fieldBudget = 0;
  /** Field-data bytes left to decode; see parse(). */
  private dataBudget = 0;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  parse(): GffDocument {
    const bytes = this.bytes;
    if (bytes.length < GFF_HEADER_BYTES) {
      throw fail(0, 'header', `a ${GFF_HEADER_BYTES}-byte GFF header`, `${bytes.length} byte(s)`);
    }
    if (!isPrintableTag(bytes, 0, 4)) {
      throw fail(0, 'fileType', 'four printable ASCII characters (e.g. "GIT ")', hex(bytes, 0, 4));
    }
    const version = bytesToByteString(bytes, 4, 8);
    if (version !== GFF_VERSION) throw fail(4, 'version', JSON.stringify(GFF_VERSION), JSON.stringify(version));
    for (let i = 0; i < 6; i++) {
      const offset = this.u32(8 + i * 8);
      const count = this.u32(12 + i * 8);
      const size = count * SECTION_ITEM_BYTES[i]!;
      if (offset > bytes.length) {
        throw fail(8 + i * 8, `${SECTION_NAMES[i]}Offset`, `an offset within the ${bytes.length}-byte file`, String(offset));
      }
      if (size > bytes.length - offset) {
        throw fail(12 + i * 8, `${SECTION_NAMES[i]}Count`, `a count whose ${SECTION_ITEM_BYTES[i]}-byte items fit in the ${bytes.length - offset} byte(s) after offset ${offset}`, String(count));
      }
      this.sections.push({ start: offset, end: offset + size, count });
    }
    const structs = this.sections[0]!;
    if (structs.count === 0) throw fail(12, 'structCount', 'at least 1 (the root struct)', '0');
    // Both arrays are sized by counts already checked against the file size.
    this.visited = new Uint8Array(structs.count);
    this.labels = new Array<string | undefined>(this.sections[2]!.count);
    // Structs are reached once each, but fields and field data could be shared between
    // them; without these bounds a small file could name the same megabyte of field data
    // (or the same field-index block) thousands of times. Canonical files use each slot
    // and each byte once; the data bound leaves room for writers that deduplicate.
    this.fieldBudget = (this.sections[4]!.end - this.sections[4]!.start) / 4 + structs.count;
    this.dataBudget = 8 * bytes.length + 65536;

    const root = this.shell(0);
    this.visited[0] = 1;
    const pending: [number, GffStruct][] = [[0, root]];
    while (pending.length > 0) {
      const [index, struct] = pending.pop()!;
      this.readFields(index, struct, pending);
    }
    return { fileType: bytesToByteString(bytes, 0, 4), version, root };
  }

  private u32(at: number): number {
    return this.view.getUint32(at, true);
  }

  private shell(index: number): GffStruct {
    const at = this.sections[0]!.start + index * 12;
    return { type: this.u32(at), fields: [], fileOffset: at };
  }

  private readFields(index: number, struct: GffStruct, pending: [number, GffStruct][]): void {
    const at = this.sections[0]!.start + index * 12;
    const data = this.u32(at + 4);
    const count = this.u32(at + 8);
    const fieldCount = this.sections[1]!.count;
    if (count === 0) return;
    if (count === 1) {
      if (data >= fieldCount) throw fail(at + 4, `structs[${index}].fieldIndex`, `a field index below ${fieldCount}`, String(data));
      struct.fields.push(this.readField(data, index, 0, pending));
      return;
    }
    const fi = this.sections[4]!;
    if (data > fi.end - fi.start || count > (fi.end - fi.start - data) / 4) {
      throw fail(at + 4, `structs[${index}].fieldIndicesOffset`, `${count} field indices within the ${fi.end - fi.start}-byte field-indices section`, `offset ${data}`);
    }
    // `count` is bounded by the section size checked just above.
    const fields = new Array<GffField>(count);
    for (let k = 0; k < count; k++) {
      const indexAt = fi.start + data + k * 4;
      const fieldIndex = this.u32(indexAt);
      if (fieldIndex >= fieldCount) {
        throw fail(indexAt, `structs[${index}].fields[${k}]`, `a field index below ${fieldCount}`, String(fieldIndex));
      }
      fields[k] = this.readField(fieldIndex, index, k, pending);
    }
    struct.fields = fields;
  }

  private label(fieldAt: number, labelIndex: number, where: string): string {
    const labels = this.sections[2]!;
    if (labelIndex >= labels.count) throw fail(fieldAt + 4, `${where}.label`, `a label index below ${labels.count}`, String(labelIndex));
    let s = this.labels[labelIndex];
    if (s === undefined) {
      const start = labels.start + labelIndex * GFF_LABEL_BYTES;
      s = bytesToByteStringZ(this.bytes, start, start + GFF_LABEL_BYTES);
      this.labels[labelIndex] = s;
    }
    return s;
  }

  private readField(fieldIndex: number, structIndex: number, k: number, pending: [number, GffStruct][]): GffField {
    const at = this.sections[1]!.start + fieldIndex * 12;
    if (--this.fieldBudget < 0) {
      throw fail(at, `structs[${structIndex}].fields[${k}]`, 'each field-index entry used by one struct only', `field ${fieldIndex} reached after every field-index entry was used (shared field-index blocks)`);
    }
    const type = this.u32(at);
    let where = `structs[${structIndex}].fields[${k}]`;
    const label = this.label(at, this.u32(at + 4), where);
    where += ` '${label}'`;
    const data = this.u32(at + 8);
    const v = this.view;
    switch (type) {
      case GffType.Byte:
        return { label, type, value: data & 0xff };
      case GffType.Char:
        return { label, type, value: (data << 24) >> 24 };
      case GffType.Word:
        return { label, type, value: data & 0xffff };
      case GffType.Short:
        return { label, type, value: (data << 16) >> 16 };
      case GffType.Dword:
        return { label, type, value: data };
      case GffType.Int:
        return { label, type, value: data | 0 };
      case GffType.Float:
        return { label, type, value: v.getFloat32(at + 8, true) };
      case GffType.Dword64:
        return { label, type, value: v.getBigUint64(this.fieldData(at, data, 8, where, type), true) };
      case GffType.Int64:
        return { label, type, value: v.getBigInt64(this.fieldData(at, data, 8, where, type), true) };
      case GffType.Double:
        return { label, type, value: v.getFloat64(this.fieldData(at, data, 8, where, type), true) };
      case GffType.ExoString:
      case GffType.Void: {
        const p = this.fieldData(at, data, 4, where, type);
        const size = this.u32(p);
        const q = this.fieldData(at, data + 4, size, where, type, p);
        if (type === GffType.Void) return { label, type, value: this.bytes.slice(q, q + size) };
        return { label, type, value: bytesToByteString(this.bytes, q, q + size) };
      }
      case GffType.ResRef: {
        const p = this.fieldData(at, data, 1, where, type);
        const size = this.bytes[p]!;
        const q = this.fieldData(at, data + 1, size, where, type, p);
        return { label, type, value: bytesToByteString(this.bytes, q, q + size) };
      }
      case GffType.LocString:
        return { label, type, value: this.locString(at, data, where) };
      case GffType.Orientation:
      case GffType.Vector: {
        const n = type === GffType.Orientation ? 4 : 3;
        const p = this.fieldData(at, data, n * 4, where, type);
        const c = (i: number) => v.getFloat32(p + i * 4, true);
        if (type === GffType.Orientation) return { label, type, value: [c(0), c(1), c(2), c(3)] };
        return { label, type, value: [c(0), c(1), c(2)] };
      }
      case GffType.Struct:
        return { label, type, value: this.child(data, at + 8, where, pending) };
      case GffType.List:
        return { label, type, value: this.list(data, at, where, pending) };
      default:
        throw fail(at, `${where}.type`, 'a field type 0..17', String(type));
    }
  }

  /** The absolute position of `size` bytes at `offset` in the field data, checked. */
  private fieldData(fieldAt: number, offset: number, size: number, where: string, type: number, sizeAt = fieldAt + 8): number {
    const fd = this.sections[3]!;
    const length = fd.end - fd.start;
    if (offset > length || size > length - offset) {
      throw fail(sizeAt, `${where} (${gffTypeName(type)})`, `${size} byte(s) at offset ${offset} within the ${length}-byte field-data section`, `${Math.max(0, length - offset)} byte(s) left`);
    }
    this.dataBudget -= size;
    if (this.dataBudget < 0) {
      throw fail(sizeAt, `${where} (${gffTypeName(type)})`, `field data referenced at most about 8 times over (${8 * this.bytes.length + 65536} bytes in all)`, 'more: the same field data is shared by too many fields');
    }
    return fd.start + offset;
  }

  private locString(fieldAt: number, offset: number, where: string): { strRef: number; strings: GffLocSubstring[] } {
    const p = this.fieldData(fieldAt, offset, 12, where, GffType.LocString);
    const total = this.u32(p);
    if (total < 8) throw fail(p, `${where} (CExoLocString).size`, 'at least 8 bytes (string ref and count)', String(total));
    const start = this.fieldData(fieldAt, offset + 4, total, where, GffType.LocString, p);
    const end = start + total;
    const strRef = this.u32(start);
    const count = this.u32(start + 4);
    if (count > (total - 8) / 8) {
      throw fail(start + 4, `${where} (CExoLocString).count`, `substrings that fit in its ${total} bytes`, String(count));
    }
    const strings: GffLocSubstring[] = [];
    let q = start + 8;
    for (let i = 0; i < count; i++) {
      if (end - q < 8) throw fail(q, `${where} (CExoLocString).strings[${i}]`, '8 more bytes (id, length)', `${end - q} byte(s) left`);
      const id = this.u32(q);
      const length = this.u32(q + 4);
      if (length > end - q - 8) throw fail(q + 4, `${where} (CExoLocString).strings[${i}].length`, `at most ${end - q - 8}`, String(length));
      strings.push({ id, text: bytesToByteString(this.bytes, q + 8, q + 8 + length) });
      q += 8 + length;
    }
    return { strRef, strings };
  }

  private child(index: number, refAt: number, where: string, pending: [number, GffStruct][]): GffStruct {
    const count = this.sections[0]!.count;
    if (index >= count) throw fail(refAt, where, `a struct index below ${count}`, String(index));
    if (this.visited[index]) {
      throw fail(refAt, where, 'a struct not referenced elsewhere (a GFF is a tree)', `struct ${index}, already reached: a cyclic or shared reference`);
    }
    this.visited[index] = 1;
    const s = this.shell(index);
    pending.push([index, s]);
    return s;
  }

  private list(offset: number, fieldAt: number, where: string, pending: [number, GffStruct][]): GffStruct[] {
    const li = this.sections[5]!;
    const length = li.end - li.start;
    if (offset > length || length - offset < 4) {
      throw fail(fieldAt + 8, `${where} (List)`, `a list offset within the ${length}-byte list-indices section`, String(offset));
    }
    const p = li.start + offset;
    const n = this.u32(p);
    if (n > (length - offset - 4) / 4) {
      throw fail(p, `${where} (List).count`, `struct indices that fit in the ${length - offset - 4} byte(s) left of the list-indices section`, String(n));
    }
    const out = new Array<GffStruct>(n);
    for (let i = 0; i < n; i++) {
      const at = p + 4 + i * 4;
      out[i] = this.child(this.u32(at), at, `${where}[${i}]`, pending);
    }
    return out;
  }
}

function hex(bytes: Uint8Array, start: number, end: number): string {
  return Array.from(bytes.subarray(start, end), (b) => b.toString(16).padStart(2, '0')).join(' ');
}
