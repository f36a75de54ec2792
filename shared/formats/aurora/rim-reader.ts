import type { ReadMemoryBound } from '../../binary/read-budget';
import { MalformedInputError } from '../../binary/malformed-input-error';
import { bytesToByteString, bytesToByteStringZ } from './byte-string';
import { RIM_FORMAT, RIM_HEADER_BYTES, RIM_KEY_ENTRY_BYTES, RIM_RESREF_BYTES, type RimDocument, type RimResource } from './rim-document';

/** readRim's memory bound (see ReadMemoryBound). */
export const RIM_READ_MEMORY: ReadMemoryBound = { perInputByte: 8, perDecompressedByte: 0 };

export function sniffRim(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && bytesToByteString(bytes, 0, 8) === 'RIM V1.0';
}

function fail(offset: number, field: string, expected: string, found: string): MalformedInputError {
  return new MalformedInputError({ format: RIM_FORMAT, offset, field, expected, found });
}

/**
 * Reads a RIM V1.0. Resource data are views into `bytes` (keep them unchanged while the
 * document is in use). Every count, offset and size is checked against the file before use
 * (MalformedInputError, format `rim`). A file the canonical writer would not reproduce
 * (BioWare's padded data, non-zero reserved bytes, ids ≠ positions…) keeps `bytes` in
 * `preserved` so that an unedited document is written back as read.
 *
 * Memory bound (RIM_READ_MEMORY): resources are views (their sizes add up to at most about
 * 8 times the file), and each 32-byte key entry is an object of about 150 bytes: at most
 * 8 bytes per input byte, nothing decompressed.
 */
export function readRim(bytes: Uint8Array): RimDocument {
  const len = bytes.length;
  if (len < RIM_HEADER_BYTES) throw fail(0, 'header', `a ${RIM_HEADER_BYTES}-byte RIM header`, `${len} byte(s)`);
  const signature = bytesToByteString(bytes, 0, 8);
  if (signature !== 'RIM V1.0') throw fail(0, 'signature', '"RIM V1.0"', JSON.stringify(signature));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number) => view.getUint32(at, true);
  const entryCount = u32(12);
  const keyOffset = u32(16);
  if (entryCount > (len - RIM_HEADER_BYTES) / RIM_KEY_ENTRY_BYTES) {
    throw fail(12, 'entryCount', `a count whose ${RIM_KEY_ENTRY_BYTES}-byte keys fit in the ${len - RIM_HEADER_BYTES} byte(s) after the header`, String(entryCount));
  }
  if (keyOffset > len) throw fail(16, 'keyListOffset', `an offset within the ${len}-byte file`, String(keyOffset));
  if (entryCount > (len - keyOffset) / RIM_KEY_ENTRY_BYTES) {
    throw fail(12, 'entryCount', `a count whose ${RIM_KEY_ENTRY_BYTES}-byte keys fit in the ${len - keyOffset} byte(s) after offset ${keyOffset}`, String(entryCount));
  }

  let canonical = u32(8) === 0 && keyOffset === RIM_HEADER_BYTES;
  for (let j = 20; j < RIM_HEADER_BYTES && canonical; j++) if (bytes[j] !== 0) canonical = false;
  const resources = new Array<RimResource>(entryCount);
  let expectedData = keyOffset + entryCount * RIM_KEY_ENTRY_BYTES;
  // Overlapping entries cost nothing to read, but a writer copies each: bound the total.
  let dataBudget = 8 * len + 65536;
  for (let i = 0; i < entryCount; i++) {
    const k = keyOffset + i * RIM_KEY_ENTRY_BYTES;
    const resRef = bytesToByteStringZ(bytes, k, k + RIM_RESREF_BYTES);
    for (let j = k + resRef.length; j < k + RIM_RESREF_BYTES; j++) if (bytes[j] !== 0) canonical = false;
    const type = u32(k + 16);
    const id = u32(k + 20);
    const offset = u32(k + 24);
    const size = u32(k + 28);
    if (offset > len) throw fail(k + 24, `resources[${i}].offset`, `an offset within the ${len}-byte file`, String(offset));
    if (size > len - offset) throw fail(k + 28, `resources[${i}].size`, `at most the ${len - offset} byte(s) after offset ${offset}`, String(size));
    dataBudget -= size;
    if (dataBudget < 0) {
      throw fail(k + 28, `resources[${i}].size`, `resource sizes adding up to at most ${8 * len + 65536} bytes (8 times the file)`, 'more: resources overlap many times over');
    }
    if (id !== i || offset !== expectedData) canonical = false;
    expectedData = offset + size;
    resources[i] = { resRef, type, data: bytes.subarray(offset, offset + size) };
  }
  if (expectedData !== len) canonical = false;
  const doc: RimDocument = { resources };
  if (!canonical) doc.preserved = { bytes, snapshot: resources.map((r) => ({ ...r })) };
  return doc;
}
