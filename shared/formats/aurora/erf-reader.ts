import type { ReadMemoryBound } from '../../binary/read-budget';
import { MalformedInputError } from '../../binary/malformed-input-error';
import { bytesToByteString, bytesToByteStringZ, isPrintableTag } from './byte-string';
import {
  ERF_FORMAT,
  ERF_HEADER_BYTES,
  ERF_RESERVED_BYTES,
  ERF_RESOURCE_ENTRY_BYTES,
  erfKeyEntryBytes,
  erfResRefBytes,
  type ErfDocument,
  type ErfLocalizedString,
  type ErfResource,
  type ErfVersion,
} from './erf-document';

/** readErf's memory bound (see ReadMemoryBound). */
export const ERF_READ_MEMORY: ReadMemoryBound = { perInputByte: 8, perDecompressedByte: 0 };

/** Files with an ERF-like signature but another layout (KotOR RIM, KEY/BIF, BWM walkmeshes: `BWM V1.0`). */
const NOT_ERF = new Set(['RIM ', 'KEY ', 'BIFF', 'BWM ']);

/** True when the bytes start like an ERF V1.0/V1.1 (any 4-character type but RIM/KEY/BIF). */
export function sniffErf(bytes: Uint8Array): boolean {
  if (bytes.length < 8 || !isPrintableTag(bytes, 0, 4) || NOT_ERF.has(bytesToByteString(bytes, 0, 4))) return false;
  const v = bytesToByteString(bytes, 4, 8);
  return v === 'V1.0' || v === 'V1.1';
}

function fail(offset: number, field: string, expected: string, found: string): MalformedInputError {
  return new MalformedInputError({ format: ERF_FORMAT, offset, field, expected, found });
}

/**
 * Reads an ERF V1.0/V1.1 archive. Resource data are views into `bytes` (no copy): keep
 * `bytes` unchanged while the document is in use. Every count and offset is checked
 * against the file before use; failures are MalformedInputError (format `erf`) naming the
 * field and its offset. A file whose layout the canonical writer would not reproduce
 * (gaps, other section order, ids ≠ positions, garbage after resref NULs…) keeps a
 * reference to `bytes` in `preserved`, so an unedited document is written back as read.
 *
 * Memory bound (ERF_READ_MEMORY): resources are views, entries may name each stretch of
 * data at most about 8 times over in all, and each entry (32 or 48 bytes in the file) is an
 * object, a view and a resref string, about 280 bytes (measured on a 219 KB module with
 * 4,000 repeated entries: 5.3 bytes per input byte; on 20,000 empty entries with full
 * resrefs, 6.3 for V1.0 and 4.5 for V1.1): at most 8 bytes per input byte, nothing
 * decompressed.
 */
export function readErf(bytes: Uint8Array): ErfDocument {
  const len = bytes.length;
  if (len < ERF_HEADER_BYTES) throw fail(0, 'header', `a ${ERF_HEADER_BYTES}-byte ERF header`, `${len} byte(s)`);
  if (!isPrintableTag(bytes, 0, 4)) {
    throw fail(0, 'fileType', 'four printable ASCII characters (e.g. "MOD ")', JSON.stringify(bytesToByteString(bytes, 0, 4)));
  }
  const fileType = bytesToByteString(bytes, 0, 4);
  if (NOT_ERF.has(fileType)) {
    throw fail(0, 'fileType', 'an ERF type (MOD, ERF, HAK, SAV, NWM, PWC…)', `${JSON.stringify(fileType)}, a different container format`);
  }
  const versionText = bytesToByteString(bytes, 4, 8);
  if (versionText !== 'V1.0' && versionText !== 'V1.1') {
    throw fail(4, 'version', '"V1.0" (16-character resrefs) or "V1.1" (NWN2, 32-character resrefs)', JSON.stringify(versionText));
  }
  const version: ErfVersion = versionText;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number) => view.getUint32(at, true);
  const languageCount = u32(8);
  const localizedBytes = u32(12);
  const entryCount = u32(16);
  const localizedOffset = u32(20);
  const keyOffset = u32(24);
  const resourceOffset = u32(28);

  const region = (offset: number, offsetAt: number, size: number, sizeAt: number, name: string, sizeText: string) => {
    if (offset > len) throw fail(offsetAt, `${name}Offset`, `an offset within the ${len}-byte file`, String(offset));
    if (size > len - offset) {
      throw fail(sizeAt, sizeText, `a size that fits in the ${len - offset} byte(s) after offset ${offset}`, `${size} byte(s)`);
    }
  };
  region(localizedOffset, 20, localizedBytes, 12, 'localizedStrings', 'localizedStringBytes');
  const keyBytes = erfKeyEntryBytes(version);
  region(keyOffset, 24, entryCount * keyBytes, 16, 'keyList', `entryCount (${entryCount} × ${keyBytes}-byte keys)`);
  region(resourceOffset, 28, entryCount * ERF_RESOURCE_ENTRY_BYTES, 16, 'resourceList', `entryCount (${entryCount} × ${ERF_RESOURCE_ENTRY_BYTES}-byte resource entries)`);
  if (languageCount > localizedBytes / 8) {
    throw fail(8, 'languageCount', `strings whose 8-byte headers fit in the ${localizedBytes} localized-string bytes`, String(languageCount));
  }

  let canonical = localizedOffset === ERF_HEADER_BYTES;
  const localizedStrings: ErfLocalizedString[] = [];
  const locEnd = localizedOffset + localizedBytes;
  let p = localizedOffset;
  for (let i = 0; i < languageCount; i++) {
    if (locEnd - p < 8) throw fail(p, `localizedStrings[${i}]`, '8 more bytes (language, length)', `${locEnd - p} byte(s) left`);
    const language = u32(p);
    const size = u32(p + 4);
    if (size > locEnd - p - 8) throw fail(p + 4, `localizedStrings[${i}].length`, `at most ${locEnd - p - 8}`, String(size));
    localizedStrings.push({ language, text: bytesToByteString(bytes, p + 8, p + 8 + size) });
    p += 8 + size;
  }
  if (p !== locEnd || keyOffset !== locEnd) canonical = false;

  const resRefBytes = erfResRefBytes(version);
  const resources: ErfResource[] = new Array<ErfResource>(entryCount);
  let expectedData = resourceOffset + entryCount * ERF_RESOURCE_ENTRY_BYTES;
  // Entries may overlap (views cost nothing), but a writer copies each one: bound the total
  // so that rewriting an archive cannot multiply its size by thousands.
  let dataBudget = 8 * len + 65536;
  if (resourceOffset !== keyOffset + entryCount * keyBytes) canonical = false;
  for (let i = 0; i < entryCount; i++) {
    const k = keyOffset + i * keyBytes;
    const resRef = bytesToByteStringZ(bytes, k, k + resRefBytes);
    for (let j = k + resRef.length; j < k + resRefBytes; j++) if (bytes[j] !== 0) canonical = false;
    const id = u32(k + resRefBytes);
    const type = view.getUint16(k + resRefBytes + 4, true);
    const unused = view.getUint16(k + resRefBytes + 6, true);
    if (id !== i || unused !== 0) canonical = false;
    const e = resourceOffset + i * ERF_RESOURCE_ENTRY_BYTES;
    const offset = u32(e);
    const size = u32(e + 4);
    if (offset > len) throw fail(e, `resources[${i}].offset`, `an offset within the ${len}-byte file`, String(offset));
    if (size > len - offset) throw fail(e + 4, `resources[${i}].size`, `at most the ${len - offset} byte(s) after offset ${offset}`, String(size));
    dataBudget -= size;
    if (dataBudget < 0) {
      throw fail(e + 4, `resources[${i}].size`, `resource sizes adding up to at most ${8 * len + 65536} bytes (8 times the file)`, 'more: resources overlap many times over');
    }
    if (offset !== expectedData) canonical = false;
    expectedData = offset + size;
    resources[i] = { resRef, type, data: bytes.subarray(offset, offset + size) };
  }
  if (expectedData !== len) canonical = false;

  const doc: ErfDocument = {
    fileType,
    version,
    buildYear: u32(32),
    buildDay: u32(36),
    descriptionStrRef: u32(40),
    localizedStrings,
    reserved: bytes.slice(44, 44 + ERF_RESERVED_BYTES),
    resources,
  };
  if (!canonical) {
    doc.preserved = {
      bytes,
      snapshot: {
        ...doc,
        localizedStrings: localizedStrings.map((s) => ({ ...s })),
        reserved: doc.reserved.slice(),
        resources: resources.map((r) => ({ ...r })),
      },
    };
  }
  return doc;
}
