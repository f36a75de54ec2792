import { byteStringToBytes, bytesEqual } from './byte-string';
import { BIF_HEADER_BYTES, BIF_VARIABLE_ENTRY_BYTES, type BifDocument, type BifLayout, type BifResource } from './bif-document';

/** Offsets and sizes are u32: a BIF is at most 4 GiB. */
const MAX_BIF_BYTES = 0xffffffff;

/**
 * Writes a BIF V1 (see bif-document.ts). A document read from a file is laid out as read
 * while it has as many resources as the file and each resource's data is unchanged: the
 * variable table is rewritten from the document (ids and types may be edited) and every
 * other byte (the fixed count and any fixed table, gaps, padding, data shared by several
 * entries or named by none) is the file's, so an unedited file comes back byte for byte.
 * Otherwise it is written in the canonical layout (encodeBifCanonical). Values that do not
 * fit their fields throw RangeError.
 */
export function writeBif(doc: BifDocument): Uint8Array {
  checkResources(doc.resources);
  const layout = doc.layout;
  if (layout !== undefined && dataUnchanged(doc.resources, layout)) {
    const out = writeInLayout(doc.resources, layout);
    // Where the table shares bytes with the header or with data, an edited entry would change
    // what is read there: such a layout is kept only while the document is unedited.
    if (tableStandsApart(doc.resources, layout) || bytesEqual(out, layout.bytes)) return out;
  }
  return encodeBifCanonical(doc);
}

/**
 * The canonical layout of the public descriptions (BioWare's "Key and BIF File Formats",
 * xoreos `biffile.cpp`, PyKotor's wiki): the 20-byte header, the variable table right
 * after it, no fixed resources (the games have none), then each resource's data in table
 * order, packed. Ids are written as the document holds them (the KEY ids in BioWare files).
 */
export function encodeBifCanonical(doc: BifDocument): Uint8Array {
  checkResources(doc.resources);
  const total = canonicalBifSize(doc);
  if (total > MAX_BIF_BYTES) throw new RangeError(`BIF: ${total} bytes do not fit the u32 offsets of a BIF`);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out.set(byteStringToBytes('BIFFV1  ', 'BIF signature'), 0);
  view.setUint32(8, doc.resources.length, true);
  view.setUint32(12, 0, true);
  view.setUint32(16, BIF_HEADER_BYTES, true);
  let dataAt = BIF_HEADER_BYTES + doc.resources.length * BIF_VARIABLE_ENTRY_BYTES;
  doc.resources.forEach((r, i) => {
    writeEntry(view, BIF_HEADER_BYTES + i * BIF_VARIABLE_ENTRY_BYTES, r, dataAt);
    out.set(r.data, dataAt);
    dataAt += r.data.length;
  });
  return out;
}

/** The size encodeBifCanonical would write (without writing it: a hostile file's entries may share one large blob many times over). */
export function canonicalBifSize(doc: BifDocument): number {
  let total = BIF_HEADER_BYTES + doc.resources.length * BIF_VARIABLE_ENTRY_BYTES;
  for (const r of doc.resources) total += r.data.length;
  return total;
}

function checkResources(resources: readonly BifResource[]): void {
  resources.forEach((r, i) => {
    for (const [value, what] of [[r.id, 'id'], [r.type, 'type']] as const) {
      if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new RangeError(`BIF resource ${i} ${what}: ${value} is not a u32`);
    }
  });
}

function dataUnchanged(resources: readonly BifResource[], layout: BifLayout): boolean {
  if (resources.length !== layout.offsets.length) return false;
  const file = layout.bytes;
  for (let i = 0; i < resources.length; i++) {
    const data = resources[i]!.data;
    const at = layout.offsets[i]!;
    if (data.length > file.length - at) return false;
    // The reader's own view: the same bytes, without comparing them.
    if (data.buffer === file.buffer && data.byteOffset === file.byteOffset + at) continue;
    if (!bytesEqual(data, file.subarray(at, at + data.length))) return false;
  }
  return true;
}

function tableStandsApart(resources: readonly BifResource[], layout: BifLayout): boolean {
  const start = layout.variableTableOffset;
  const end = start + resources.length * BIF_VARIABLE_ENTRY_BYTES;
  if (start === end) return true;
  if (start < BIF_HEADER_BYTES) return false;
  for (let i = 0; i < resources.length; i++) {
    const at = layout.offsets[i]!;
    const size = resources[i]!.data.length;
    if (size > 0 && at < end && start < at + size) return false;
  }
  return true;
}

function writeInLayout(resources: readonly BifResource[], layout: BifLayout): Uint8Array {
  const out = layout.bytes.slice();
  const view = new DataView(out.buffer);
  view.setUint32(8, resources.length, true);
  view.setUint32(16, layout.variableTableOffset, true);
  resources.forEach((r, i) => writeEntry(view, layout.variableTableOffset + i * BIF_VARIABLE_ENTRY_BYTES, r, layout.offsets[i]!));
  return out;
}

function writeEntry(view: DataView, e: number, r: BifResource, offset: number): void {
  view.setUint32(e, r.id, true);
  view.setUint32(e + 4, offset, true);
  view.setUint32(e + 8, r.data.length, true);
  view.setUint32(e + 12, r.type, true);
}
