import type { ReadMemoryBound } from '../../binary/read-budget';
import { MalformedInputError } from '../../binary/malformed-input-error';
import { bytesToByteString, bytesToByteStringZ } from './byte-string';
import { KEY_ENTRY_BYTES, KEY_FILE_ENTRY_BYTES, KEY_FORMAT, KEY_HEADER_BYTES, type KeyBif, type KeyDocument, type KeyEntry } from './key-document';

/** readKey's memory bound (see ReadMemoryBound). */
export const KEY_READ_MEMORY: ReadMemoryBound = { perInputByte: 16, perDecompressedByte: 0 };

export function sniffKey(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && bytesToByteString(bytes, 0, 8) === 'KEY V1  ';
}

function fail(offset: number, field: string, expected: string, found: string): MalformedInputError {
  return new MalformedInputError({ format: KEY_FORMAT, offset, field, expected, found });
}

/**
 * Reads a KEY V1 (see key-document.ts). Counts are checked against the file before any
 * allocation, every name and table must lie inside the file, BIF names may not overlap,
 * and every key must name a BIF of the file table; failures are MalformedInputError
 * (format `key`). The document keeps `bytes` and where each part lay (`layout`) so that
 * writeKey gives an unedited file back byte for byte.
 *
 * Memory bound (KEY_READ_MEMORY): one object per file entry (12 bytes in the file) and per
 * key (22 bytes), about 150 bytes each with their strings, and the names (which may not
 * overlap) at most the file's bytes: at most 16 bytes per input byte, nothing decompressed.
 */
export function readKey(bytes: Uint8Array): KeyDocument {
  const len = bytes.length;
  if (len < KEY_HEADER_BYTES) throw fail(0, 'header', `a ${KEY_HEADER_BYTES}-byte KEY header`, `${len} byte(s)`);
  const signature = bytesToByteString(bytes, 0, 8);
  if (signature !== 'KEY V1  ') {
    const hint = signature.startsWith('KEY ') ? ' (KEY V1.1 is NWN2/The Witcher, not KotOR)' : '';
    throw fail(0, 'signature', `"KEY V1  "${hint}`, JSON.stringify(signature));
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number) => view.getUint32(at, true);
  const bifCount = u32(8);
  const keyCount = u32(12);
  const fileTableOffset = u32(16);
  const keyTableOffset = u32(20);
  const table = (offset: number, offsetAt: number, count: number, countAt: number, itemBytes: number, name: string) => {
    if (count > (len - KEY_HEADER_BYTES) / itemBytes) {
      throw fail(countAt, `${name}Count`, `a count whose ${itemBytes}-byte entries fit in the ${len - KEY_HEADER_BYTES} byte(s) after the header`, String(count));
    }
    if (offset > len) throw fail(offsetAt, `${name}TableOffset`, `an offset within the ${len}-byte file`, String(offset));
    if (count * itemBytes > len - offset) {
      throw fail(countAt, `${name}Count`, `a count whose ${itemBytes}-byte entries fit in the ${len - offset} byte(s) after offset ${offset}`, String(count));
    }
  };
  table(fileTableOffset, 16, bifCount, 8, KEY_FILE_ENTRY_BYTES, 'file');
  table(keyTableOffset, 20, keyCount, 12, KEY_ENTRY_BYTES, 'key');

  const bifs = new Array<KeyBif>(bifCount);
  // BIF names may not share bytes (each file entry names its own string): the names then
  // add up to at most the file, however many entries there are.
  const nameOffsets = new Uint32Array(bifCount);
  const nameSizes = new Uint16Array(bifCount);
  for (let i = 0; i < bifCount; i++) {
    const e = fileTableOffset + i * KEY_FILE_ENTRY_BYTES;
    const nameOffset = u32(e + 4);
    const nameSize = view.getUint16(e + 8, true);
    if (nameOffset > len || nameSize > len - nameOffset) {
      throw fail(e + 4, `bifs[${i}].name`, `a name of ${nameSize} byte(s) inside the ${len}-byte file`, `offset ${nameOffset}`);
    }
    nameOffsets[i] = nameOffset;
    nameSizes[i] = nameSize;
  }
  const nameEnd = (i: number) => nameOffsets[i]! + nameSizes[i]!;
  // Empty names hold no bytes; among the others, any overlap shows between neighbours in offset order.
  const order = Array.from({ length: bifCount }, (_, i) => i)
    .filter((i) => nameSizes[i]! > 0)
    .sort((a, b) => nameOffsets[a]! - nameOffsets[b]! || a - b);
  for (let k = 1; k < order.length; k++) {
    const a = order[k - 1]!;
    const b = order[k]!;
    if (nameOffsets[b]! < nameEnd(a)) {
      const later = Math.max(a, b);
      const other = Math.min(a, b);
      throw fail(fileTableOffset + later * KEY_FILE_ENTRY_BYTES + 4, `bifs[${later}].name`, `a name of its own (names may not overlap; bifs[${other}] names bytes ${nameOffsets[other]}..${nameEnd(other)})`, `bytes ${nameOffsets[later]}..${nameEnd(later)}`);
    }
  }
  for (let i = 0; i < bifCount; i++) {
    const e = fileTableOffset + i * KEY_FILE_ENTRY_BYTES;
    bifs[i] = { fileSize: u32(e), fileName: bytesToByteStringZ(bytes, nameOffsets[i]!, nameEnd(i)), drives: view.getUint16(e + 10, true) };
  }
  const keys = new Array<KeyEntry>(keyCount);
  for (let i = 0; i < keyCount; i++) {
    const k = keyTableOffset + i * KEY_ENTRY_BYTES;
    const id = u32(k + 18);
    const bifIndex = id >>> 20;
    if (bifIndex >= bifCount) throw fail(k + 18, `keys[${i}].id`, `a BIF index (id >> 20) below the ${bifCount} BIF(s) of the file table`, `${bifIndex} (id 0x${id.toString(16)})`);
    keys[i] = { resRef: bytesToByteStringZ(bytes, k, k + 16), type: view.getUint16(k + 16, true), bifIndex, resourceIndex: id & 0xfffff };
  }
  return { buildYear: u32(24), buildDay: u32(28), bifs, keys, layout: { bytes, fileTableOffset, keyTableOffset, nameOffsets, nameSizes } };
}
