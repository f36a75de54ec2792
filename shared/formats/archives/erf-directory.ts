import { MalformedInputError } from '../../binary/malformed-input-error';
import { bytesToByteString, bytesToByteStringZ, isPrintableTag } from '../aurora/byte-string';
import { ERF_FORMAT, ERF_HEADER_BYTES, ERF_RESOURCE_ENTRY_BYTES, erfKeyEntryBytes, erfResRefBytes, type ErfVersion } from '../aurora/erf-document';
import type { ByteSource } from './byte-source';

/**
 * The directory of an ERF V1.0/V1.1 archive (.hak, .mod, .erf) read through a ByteSource:
 * keys and resource entries only, each resource read when asked for. readErf
 * (aurora/erf-reader.ts) reads a whole archive for editing; this is for looking resources
 * up in haks of hundreds of MB without loading them. The checks mirror readErf's.
 */

export interface ErfDirectoryEntry {
  resRef: string;
  type: number;
  offset: number;
  size: number;
  /** Position in the key list (for errors). */
  index: number;
}

export interface ErfDirectory {
  source: ByteSource;
  fileType: string;
  version: ErfVersion;
  entries: ErfDirectoryEntry[];
}

function fail(source: ByteSource, offset: number, field: string, expected: string, found: string): MalformedInputError {
  return new MalformedInputError({ format: ERF_FORMAT, offset, field, expected, found, file: source.name });
}

export function openErfDirectory(source: ByteSource): ErfDirectory {
  const len = source.size;
  if (len < ERF_HEADER_BYTES) throw fail(source, 0, 'header', `a ${ERF_HEADER_BYTES}-byte ERF header`, `${len} byte(s)`);
  const header = source.read(0, ERF_HEADER_BYTES);
  if (!isPrintableTag(header, 0, 4)) throw fail(source, 0, 'fileType', 'four printable ASCII characters (e.g. "HAK ")', JSON.stringify(bytesToByteString(header, 0, 4)));
  const fileType = bytesToByteString(header, 0, 4);
  const versionText = bytesToByteString(header, 4, 8);
  if (versionText !== 'V1.0' && versionText !== 'V1.1') {
    throw fail(source, 4, 'version', '"V1.0" (16-character resrefs) or "V1.1" (NWN2, 32-character resrefs)', JSON.stringify(versionText));
  }
  const version: ErfVersion = versionText;
  const h = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const entryCount = h.getUint32(16, true);
  const keyOffset = h.getUint32(24, true);
  const resourceOffset = h.getUint32(28, true);
  const keyBytes = erfKeyEntryBytes(version);
  if (keyOffset > len || entryCount > (len - keyOffset) / keyBytes) {
    throw fail(source, 16, `entryCount (${entryCount} × ${keyBytes}-byte keys at ${keyOffset})`, `a key list within the ${len}-byte file`, `${entryCount} key(s)`);
  }
  if (resourceOffset > len || entryCount > (len - resourceOffset) / ERF_RESOURCE_ENTRY_BYTES) {
    throw fail(source, 16, `entryCount (${entryCount} × ${ERF_RESOURCE_ENTRY_BYTES}-byte resource entries at ${resourceOffset})`, `a resource list within the ${len}-byte file`, `${entryCount} entries`);
  }
  const keys = source.read(keyOffset, entryCount * keyBytes);
  const list = source.read(resourceOffset, entryCount * ERF_RESOURCE_ENTRY_BYTES);
  const kv = new DataView(keys.buffer, keys.byteOffset, keys.byteLength);
  const lv = new DataView(list.buffer, list.byteOffset, list.byteLength);
  const resRefBytes = erfResRefBytes(version);
  const entries: ErfDirectoryEntry[] = [];
  for (let i = 0; i < entryCount; i++) {
    const k = i * keyBytes;
    const offset = lv.getUint32(i * 8, true);
    const size = lv.getUint32(i * 8 + 4, true);
    const at = resourceOffset + i * 8;
    if (offset > len) throw fail(source, at, `resources[${i}].offset`, `an offset within the ${len}-byte file`, String(offset));
    if (size > len - offset) throw fail(source, at + 4, `resources[${i}].size`, `at most the ${len - offset} byte(s) after offset ${offset}`, String(size));
    entries.push({ resRef: bytesToByteStringZ(keys, k, k + resRefBytes), type: kv.getUint16(k + resRefBytes + 4, true), offset, size, index: i });
  }
  return { source, fileType, version, entries };
}

/** A resource's bytes (checked against the file when the directory was read). */
export function readErfDirectoryEntry(dir: ErfDirectory, entry: ErfDirectoryEntry): Uint8Array {
  return dir.source.read(entry.offset, entry.size);
}
