import { byteStringToBytes, bytesEqual, bytesToByteStringZ } from './byte-string';
import { KEY_ENTRY_BYTES, KEY_FILE_ENTRY_BYTES, KEY_HEADER_BYTES, type KeyDocument, type KeyLayout } from './key-document';

const RESREF_BYTES = 16;
const RESERVED_AT = 32;
/** A key id holds the BIF index in its top 12 bits and the resource index in the low 20. */
const MAX_BIFS = 1 << 12;
const MAX_RESOURCE_INDEX = (1 << 20) - 1;

interface Encoded {
  names: Uint8Array[];
  resRefs: Uint8Array[];
}

/**
 * Writes a KEY V1 (see key-document.ts). A document read from a file is laid out as read
 * while its BIF and key counts are unchanged and each name still fits the slot it was read
 * from: header, tables and names stay where they were, and every byte the document does
 * not hold (reserved header bytes, gaps, bytes after a NUL) is copied from the file, so an
 * unedited file comes back byte for byte. Otherwise (a new document, entries added or
 * removed, a longer name) it is written in the canonical layout: see encodeKeyCanonical.
 * Values that do not fit their fields throw RangeError.
 */
export function writeKey(doc: KeyDocument): Uint8Array {
  const encoded = encodeStrings(doc);
  const layout = doc.layout;
  if (layout !== undefined && fitsLayout(doc, encoded, layout)) {
    const out = writeInLayout(doc, encoded, layout);
    // Where the file's tables or names share bytes, an edit written in place would change what
    // another part reads: such a layout is kept only while the document is unedited.
    if (partsAreDisjoint(layout) || bytesEqual(out, layout.bytes)) return out;
  }
  return writeCanonical(doc, encoded);
}

/**
 * The canonical layout, as the public descriptions of KEY V1 lay a file out (BioWare's
 * "Key and BIF File Formats", the IESDP, PyKotor's wiki): the 64-byte header, the file table
 * right after it, the BIF names (each NUL-terminated, the stored size counting the NUL)
 * packed in file-table order, then the key table; resrefs are NUL-padded. The 32 reserved
 * header bytes are kept from the file read, if any.
 */
export function encodeKeyCanonical(doc: KeyDocument): Uint8Array {
  return writeCanonical(doc, encodeStrings(doc));
}

function encodeStrings(doc: KeyDocument): Encoded {
  if (doc.bifs.length > MAX_BIFS) throw new RangeError(`KEY: ${doc.bifs.length} BIFs, but a key id addresses at most ${MAX_BIFS}`);
  const names = doc.bifs.map((b, i) => {
    const bytes = byteStringToBytes(b.fileName, `KEY BIF ${i} name`);
    if (bytes.includes(0)) throw new RangeError(`KEY BIF ${i} name ${JSON.stringify(b.fileName)} holds a NUL, which would end it`);
    if (bytes.length + 1 > 0xffff) throw new RangeError(`KEY BIF ${i} name is ${bytes.length} bytes; the stored size (with its NUL) is a u16`);
    checkUint(b.fileSize, 0xffffffff, `KEY BIF ${i} fileSize`);
    checkUint(b.drives, 0xffff, `KEY BIF ${i} drives`);
    return bytes;
  });
  const resRefs = doc.keys.map((k, i) => {
    const bytes = byteStringToBytes(k.resRef, `KEY entry ${i} resref`);
    if (bytes.length > RESREF_BYTES) throw new RangeError(`KEY resref ${JSON.stringify(k.resRef)} is longer than ${RESREF_BYTES} characters`);
    if (bytes.includes(0)) throw new RangeError(`KEY resref ${JSON.stringify(k.resRef)} holds a NUL, which would end it`);
    checkUint(k.type, 0xffff, `KEY entry ${i} type`);
    checkUint(k.bifIndex, doc.bifs.length - 1, `KEY entry ${i} bifIndex (an index into the ${doc.bifs.length} BIF(s))`);
    checkUint(k.resourceIndex, MAX_RESOURCE_INDEX, `KEY entry ${i} resourceIndex`);
    return bytes;
  });
  return { names, resRefs };
}

function checkUint(value: number, max: number, what: string): void {
  if (!Number.isInteger(value) || value < 0 || value > max) throw new RangeError(`${what}: ${value} is not an integer in 0..${max}`);
}

function fitsLayout(doc: KeyDocument, encoded: Encoded, layout: KeyLayout): boolean {
  const head = new DataView(layout.bytes.buffer, layout.bytes.byteOffset, layout.bytes.byteLength);
  if (doc.bifs.length !== layout.nameOffsets.length || doc.keys.length !== head.getUint32(12, true)) return false;
  return encoded.names.every((n, i) => n.length <= layout.nameSizes[i]!);
}

/**
 * Writes `value` into the slot [at, at + size) of `out` (a copy of the file read): a slot
 * that already reads as `value` is left as it is (its bytes after the NUL are the file's),
 * any other gets the value and NULs after it.
 */
function putString(out: Uint8Array, original: Uint8Array, at: number, size: number, value: string, bytes: Uint8Array): void {
  if (bytesToByteStringZ(original, at, at + size) === value) return;
  out.fill(0, at, at + size);
  out.set(bytes, at);
}

function writeInLayout(doc: KeyDocument, encoded: Encoded, layout: KeyLayout): Uint8Array {
  const original = layout.bytes;
  const out = original.slice();
  const view = new DataView(out.buffer);
  writeHeader(view, doc, layout.fileTableOffset, layout.keyTableOffset);
  doc.bifs.forEach((b, i) => {
    const e = layout.fileTableOffset + i * KEY_FILE_ENTRY_BYTES;
    const nameOffset = layout.nameOffsets[i]!;
    const nameSize = layout.nameSizes[i]!;
    view.setUint32(e, b.fileSize, true);
    view.setUint32(e + 4, nameOffset, true);
    view.setUint16(e + 8, nameSize, true);
    view.setUint16(e + 10, b.drives, true);
    putString(out, original, nameOffset, nameSize, b.fileName, encoded.names[i]!);
  });
  doc.keys.forEach((k, i) => {
    const e = layout.keyTableOffset + i * KEY_ENTRY_BYTES;
    putString(out, original, e, RESREF_BYTES, k.resRef, encoded.resRefs[i]!);
    writeKeyEntry(view, e, k.type, k.bifIndex, k.resourceIndex);
  });
  return out;
}

/** True when the header, the two tables and the names (which the reader keeps apart) share no byte. */
function partsAreDisjoint(layout: KeyLayout): boolean {
  const bifs = layout.nameOffsets.length;
  const keys = new DataView(layout.bytes.buffer, layout.bytes.byteOffset, layout.bytes.byteLength).getUint32(12, true);
  const tables: [number, number][] = [
    [0, KEY_HEADER_BYTES],
    [layout.fileTableOffset, layout.fileTableOffset + bifs * KEY_FILE_ENTRY_BYTES],
    [layout.keyTableOffset, layout.keyTableOffset + keys * KEY_ENTRY_BYTES],
  ];
  const apart = (a: [number, number], b: [number, number]) => a[0] === a[1] || b[0] === b[1] || a[1] <= b[0] || b[1] <= a[0];
  if (!apart(tables[0]!, tables[1]!) || !apart(tables[0]!, tables[2]!) || !apart(tables[1]!, tables[2]!)) return false;
  for (let i = 0; i < bifs; i++) {
    const name: [number, number] = [layout.nameOffsets[i]!, layout.nameOffsets[i]! + layout.nameSizes[i]!];
    if (!tables.every((t) => apart(t, name))) return false;
  }
  return true;
}

function writeCanonical(doc: KeyDocument, encoded: Encoded): Uint8Array {
  const fileTableOffset = KEY_HEADER_BYTES;
  let nameAt = fileTableOffset + doc.bifs.length * KEY_FILE_ENTRY_BYTES;
  const nameOffsets = encoded.names.map((n) => {
    const at = nameAt;
    nameAt += n.length + 1;
    return at;
  });
  const keyTableOffset = nameAt;
  const out = new Uint8Array(keyTableOffset + doc.keys.length * KEY_ENTRY_BYTES);
  const view = new DataView(out.buffer);
  const reserved = doc.layout?.bytes.subarray(RESERVED_AT, KEY_HEADER_BYTES);
  if (reserved !== undefined) out.set(reserved, RESERVED_AT);
  writeHeader(view, doc, fileTableOffset, keyTableOffset);
  doc.bifs.forEach((b, i) => {
    const e = fileTableOffset + i * KEY_FILE_ENTRY_BYTES;
    view.setUint32(e, b.fileSize, true);
    view.setUint32(e + 4, nameOffsets[i]!, true);
    view.setUint16(e + 8, encoded.names[i]!.length + 1, true);
    view.setUint16(e + 10, b.drives, true);
    out.set(encoded.names[i]!, nameOffsets[i]!);
  });
  doc.keys.forEach((k, i) => {
    const e = keyTableOffset + i * KEY_ENTRY_BYTES;
    out.set(encoded.resRefs[i]!, e);
    writeKeyEntry(view, e, k.type, k.bifIndex, k.resourceIndex);
  });
  return out;
}

function writeHeader(view: DataView, doc: KeyDocument, fileTableOffset: number, keyTableOffset: number): void {
  checkUint(doc.buildYear, 0xffffffff, 'KEY buildYear');
  checkUint(doc.buildDay, 0xffffffff, 'KEY buildDay');
  'KEY V1  '.split('').forEach((c, i) => view.setUint8(i, c.charCodeAt(0)));
  view.setUint32(8, doc.bifs.length, true);
  view.setUint32(12, doc.keys.length, true);
  view.setUint32(16, fileTableOffset, true);
  view.setUint32(20, keyTableOffset, true);
  view.setUint32(24, doc.buildYear, true);
  view.setUint32(28, doc.buildDay, true);
}

function writeKeyEntry(view: DataView, e: number, type: number, bifIndex: number, resourceIndex: number): void {
  view.setUint16(e + 16, type, true);
  view.setUint32(e + 18, ((bifIndex << 20) | resourceIndex) >>> 0, true);
}
