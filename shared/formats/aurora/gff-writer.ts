import { BinaryWriter } from '../../binary/binary-writer';
import { GrowableU32 } from '../../binary/growable-array';
import { byteStringToBytes, bytesEqual } from './byte-string';
import {
  GFF_HEADER_BYTES,
  GFF_LABEL_BYTES,
  GffType,
  type GffDocument,
  type GffField,
  type GffStruct,
} from './gff-document';

/**
 * Writes a GFF document. An unedited document read from a file comes back byte for byte:
 * files in the canonical layout (every BioWare, nwn-lib-d and PyKotor file we have) are
 * reproduced by the canonical writer itself; other files keep their original bytes in
 * `doc.preserved`, returned while the tree still encodes to what was read. An edited
 * document is written in the canonical layout.
 */
export function writeGff(doc: GffDocument): Uint8Array {
  const canonical = encodeGffCanonical(doc);
  const kept = doc.preserved;
  if (kept !== undefined && bytesEqual(canonical, kept.canonical)) return kept.bytes.slice();
  return canonical;
}

/**
 * The layout of BioWare's writer (CResGFF), derived from the NWN2 toolset, nwn-lib-d and
 * KotOR files, all of which follow it exactly:
 * - sections in header order (structs, fields, labels, field data, field indices, list
 *   indices), contiguous after the 56-byte header;
 * - structs numbered in depth-first pre-order from the root;
 * - fields numbered as they are met in the same walk: a Struct or List field gets its
 *   number before the fields of the structs it holds;
 * - labels unique, in order of first use; field data not deduplicated, appended in field
 *   order; each struct's field-index block and each list's index block allocated in the
 *   order their struct or list field is met;
 * - a struct with one field stores that field's index, with none 0xFFFFFFFF.
 */
export function encodeGffCanonical(doc: GffDocument): Uint8Array {
  const fileType = headerTag(doc.fileType, 'fileType');
  const version = headerTag(doc.version, 'version');
  const enc = new CanonicalEncoder();
  enc.encode(doc.root);

  const structBytes = enc.structs.length * 4;
  const fieldBytes = enc.fields.length * 4;
  const labelBytes = enc.labels.length * GFF_LABEL_BYTES;
  const fieldData = enc.fieldData.finish();
  const fieldIndexBytes = enc.fieldIndices.length * 4;
  const listIndexBytes = enc.listIndices.length * 4;

  const total = GFF_HEADER_BYTES + structBytes + fieldBytes + labelBytes + fieldData.length + fieldIndexBytes + listIndexBytes;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out.set(fileType, 0);
  out.set(version, 4);
  let at = GFF_HEADER_BYTES;
  const sections: [number, number][] = [
    [structBytes, enc.structs.length / 3],
    [fieldBytes, enc.fields.length / 3],
    [labelBytes, enc.labels.length],
    [fieldData.length, fieldData.length],
    [fieldIndexBytes, fieldIndexBytes],
    [listIndexBytes, listIndexBytes],
  ];
  sections.forEach(([bytes, count], i) => {
    view.setUint32(8 + i * 8, at, true);
    view.setUint32(12 + i * 8, count, true);
    at += bytes;
  });

  at = GFF_HEADER_BYTES;
  at = putWords(view, at, enc.structs);
  at = putWords(view, at, enc.fields);
  for (const label of enc.labels) {
    out.set(label, at);
    at += GFF_LABEL_BYTES;
  }
  out.set(fieldData, at);
  at += fieldData.length;
  at = putWords(view, at, enc.fieldIndices);
  putWords(view, at, enc.listIndices);
  return out;
}

function putWords(view: DataView, at: number, words: GrowableU32): number {
  const a = words.array;
  for (let i = 0; i < words.length; i++, at += 4) view.setUint32(at, a[i]!, true);
  return at;
}

function headerTag(s: string, what: string): Uint8Array {
  const bytes = byteStringToBytes(s, `GFF ${what}`);
  if (bytes.length !== 4) throw new RangeError(`GFF ${what} must be 4 characters, got ${JSON.stringify(s)}`);
  return bytes;
}

interface StructFrame {
  struct: GffStruct;
  next: number;
  /** Index of the struct's block in fieldIndices (words), or -1 for 0 or 1 field. */
  block: number;
  /** Index of the struct's entry in `structs` (words). */
  entry: number;
}

interface ListFrame {
  list: GffStruct[];
  next: number;
  block: number;
}

type Frame = StructFrame | ListFrame;

const INT_RANGES: Record<number, [number, number]> = {
  [GffType.Byte]: [0, 0xff],
  [GffType.Char]: [-0x80, 0x7f],
  [GffType.Word]: [0, 0xffff],
  [GffType.Short]: [-0x8000, 0x7fff],
  [GffType.Dword]: [0, 0xffffffff],
  [GffType.Int]: [-0x80000000, 0x7fffffff],
};

class CanonicalEncoder {
  readonly structs = new GrowableU32(256);
  readonly fields = new GrowableU32(1024);
  readonly labels: Uint8Array[] = [];
  readonly fieldData = new BinaryWriter(4096);
  readonly fieldIndices = new GrowableU32(1024);
  readonly listIndices = new GrowableU32(256);
  private readonly labelIndex = new Map<string, number>();
  private readonly stack: Frame[] = [];
  /** Structs on the current path (a struct inside itself would never end). */
  private readonly open = new Set<GffStruct>();
  private readonly f32 = new DataView(new ArrayBuffer(4));

  encode(root: GffStruct): void {
    this.openStruct(root, 'root');
    const stack = this.stack;
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if ('struct' in top) {
        const fields = top.struct.fields;
        if (top.next === fields.length) {
          stack.pop();
          this.open.delete(top.struct);
          continue;
        }
        const field = fields[top.next]!;
        const fieldIndex = this.fields.length / 3;
        if (top.block >= 0) this.fieldIndices.array[top.block + top.next] = fieldIndex;
        else this.structs.array[top.entry + 1] = fieldIndex;
        top.next++;
        this.encodeField(field);
      } else {
        if (top.next === top.list.length) {
          stack.pop();
          continue;
        }
        const item = top.list[top.next]!;
        this.listIndices.array[top.block + top.next] = this.structs.length / 3;
        top.next++;
        this.openStruct(item, 'list entry');
      }
    }
  }

  private openStruct(s: GffStruct, where: string): void {
    if (this.open.has(s)) throw new RangeError(`GFF struct (type ${s.type}) contains itself (${where}); a GFF tree cannot be cyclic`);
    this.open.add(s);
    const entry = this.structs.reserve(3);
    const a = this.structs.array;
    const n = s.fields.length;
    a[entry] = s.type >>> 0;
    a[entry + 2] = n;
    let block = -1;
    if (n === 0) a[entry + 1] = 0xffffffff;
    else if (n > 1) {
      block = this.fieldIndices.reserve(n);
      a[entry + 1] = block * 4;
    }
    this.stack.push({ struct: s, next: 0, block, entry });
  }

  private label(label: string): number {
    let i = this.labelIndex.get(label);
    if (i !== undefined) return i;
    const bytes = byteStringToBytes(label, `GFF label ${JSON.stringify(label)}`);
    if (bytes.length > GFF_LABEL_BYTES) throw new RangeError(`GFF label ${JSON.stringify(label)} is longer than ${GFF_LABEL_BYTES} bytes`);
    const padded = new Uint8Array(GFF_LABEL_BYTES);
    padded.set(bytes);
    i = this.labels.length;
    this.labels.push(padded);
    this.labelIndex.set(label, i);
    return i;
  }

  private encodeField(field: GffField): void {
    const entry = this.fields.reserve(3);
    const a = this.fields.array;
    a[entry] = field.type;
    a[entry + 1] = this.label(field.label);
    const fd = this.fieldData;
    const dataOffset = fd.size;
    let data = dataOffset;
    switch (field.type) {
      case GffType.Byte:
      case GffType.Char:
      case GffType.Word:
      case GffType.Short:
      case GffType.Dword:
      case GffType.Int: {
        const [lo, hi] = INT_RANGES[field.type]!;
        const v = field.value;
        if (!Number.isInteger(v) || v < lo || v > hi) throw this.rangeError(field, `an integer in ${lo}..${hi}`);
        data = field.type === GffType.Char ? v & 0xff : field.type === GffType.Short ? v & 0xffff : v >>> 0;
        break;
      }
      case GffType.Float:
        this.f32.setFloat32(0, field.value, true);
        data = this.f32.getUint32(0, true);
        break;
      case GffType.Dword64:
      case GffType.Int64: {
        const v = field.value;
        const ok = field.type === GffType.Dword64 ? v >= 0n && v < 1n << 64n : v >= -(1n << 63n) && v < 1n << 63n;
        if (!ok) throw this.rangeError(field, field.type === GffType.Dword64 ? 'an unsigned 64-bit integer' : 'a signed 64-bit integer');
        const u = BigInt.asUintN(64, v);
        fd.u32(Number(u & 0xffffffffn));
        fd.u32(Number(u >> 32n));
        break;
      }
      case GffType.Double:
        fd.f64(field.value);
        break;
      case GffType.ExoString: {
        const bytes = byteStringToBytes(field.value, `GFF field ${JSON.stringify(field.label)}`);
        fd.u32(bytes.length);
        fd.bytes(bytes);
        break;
      }
      case GffType.ResRef: {
        const bytes = byteStringToBytes(field.value, `GFF field ${JSON.stringify(field.label)}`);
        if (bytes.length > 255) throw this.rangeError(field, 'a ResRef of at most 255 bytes');
        fd.u8(bytes.length);
        fd.bytes(bytes);
        break;
      }
      case GffType.LocString: {
        const loc = field.value;
        const encoded = loc.strings.map((s) => byteStringToBytes(s.text, `GFF field ${JSON.stringify(field.label)}`));
        let size = 8;
        for (const e of encoded) size += 8 + e.length;
        fd.u32(size);
        fd.u32(loc.strRef >>> 0);
        fd.u32(loc.strings.length);
        loc.strings.forEach((s, i) => {
          fd.u32(s.id >>> 0);
          fd.u32(encoded[i]!.length);
          fd.bytes(encoded[i]!);
        });
        break;
      }
      case GffType.Void:
        fd.u32(field.value.length);
        fd.bytes(field.value);
        break;
      case GffType.Orientation:
      case GffType.Vector: {
        const want = field.type === GffType.Orientation ? 4 : 3;
        if (field.value.length !== want) throw this.rangeError(field, `${want} components`);
        for (const c of field.value) fd.f32(c);
        break;
      }
      case GffType.Struct:
        data = this.structs.length / 3;
        a[entry + 2] = data;
        this.openStruct(field.value, `field ${JSON.stringify(field.label)}`);
        return;
      case GffType.List: {
        const list = field.value;
        data = this.listIndices.length * 4;
        a[entry + 2] = data;
        this.listIndices.push(list.length);
        const block = this.listIndices.reserve(list.length);
        this.stack.push({ list, next: 0, block });
        return;
      }
      default: {
        const unknown: { type: number; label: string } = field;
        throw new RangeError(`GFF field ${JSON.stringify(unknown.label)} has unknown type ${unknown.type}`);
      }
    }
    a[entry + 2] = data;
  }

  private rangeError(field: GffField, expected: string): RangeError {
    return new RangeError(`GFF field ${JSON.stringify(field.label)} (type ${field.type}): value must be ${expected}`);
  }
}

