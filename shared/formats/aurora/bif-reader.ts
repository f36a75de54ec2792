import type { ReadMemoryBound } from '../../binary/read-budget';
import { MalformedInputError } from '../../binary/malformed-input-error';
import { bytesToByteString } from './byte-string';
import { BIF_FORMAT, BIF_HEADER_BYTES, BIF_VARIABLE_ENTRY_BYTES, type BifDocument, type BifResource } from './bif-document';

/** readBif's memory bound (see ReadMemoryBound). */
export const BIF_READ_MEMORY: ReadMemoryBound = { perInputByte: 16, perDecompressedByte: 0 };

export function sniffBif(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && bytesToByteString(bytes, 0, 8) === 'BIFFV1  ';
}

function fail(offset: number, field: string, expected: string, found: string): MalformedInputError {
  return new MalformedInputError({ format: BIF_FORMAT, offset, field, expected, found });
}

/**
 * Reads a BIF V1 (see bif-document.ts). Resource data are views into `bytes`. Counts,
 * offsets and sizes are checked against the file (MalformedInputError, format `bif`). The
 * document keeps `bytes` and where each part lay (`layout`) so that writeBif gives an
 * unedited file back byte for byte.
 *
 * Memory bound (BIF_READ_MEMORY): resources are views (their sizes add up to at most about
 * 8 times the file, so that writing or walking them stays bounded too), and
 * each 16-byte table entry is an object and a view of about 150 bytes: at most 16 bytes
 * per input byte, nothing decompressed.
 */
export function readBif(bytes: Uint8Array): BifDocument {
  const len = bytes.length;
  if (len < BIF_HEADER_BYTES) throw fail(0, 'header', `a ${BIF_HEADER_BYTES}-byte BIF header`, `${len} byte(s)`);
  const signature = bytesToByteString(bytes, 0, 8);
  if (signature !== 'BIFFV1  ') {
    const hint = signature.startsWith('BZF') ? ' (BZF is the compressed BIF of the mobile ports, not supported)' : '';
    throw fail(0, 'signature', `"BIFFV1  "${hint}`, JSON.stringify(signature));
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number) => view.getUint32(at, true);
  const count = u32(8);
  const tableOffset = u32(16);
  if (count > (len - BIF_HEADER_BYTES) / BIF_VARIABLE_ENTRY_BYTES) {
    throw fail(8, 'variableCount', `a count whose ${BIF_VARIABLE_ENTRY_BYTES}-byte entries fit in the ${len - BIF_HEADER_BYTES} byte(s) after the header`, String(count));
  }
  if (tableOffset > len) throw fail(16, 'variableTableOffset', `an offset within the ${len}-byte file`, String(tableOffset));
  if (count * BIF_VARIABLE_ENTRY_BYTES > len - tableOffset) {
    throw fail(8, 'variableCount', `a count whose ${BIF_VARIABLE_ENTRY_BYTES}-byte entries fit in the ${len - tableOffset} byte(s) after offset ${tableOffset}`, String(count));
  }
  const resources = new Array<BifResource>(count);
  const offsets = new Uint32Array(count);
  // Overlapping entries cost nothing to read, but a writer or a round trip of the held
  // resources goes through each: bound the total as the ERF and RIM readers do.
  let dataBudget = 8 * len + 65536;
  for (let i = 0; i < count; i++) {
    const e = tableOffset + i * BIF_VARIABLE_ENTRY_BYTES;
    const offset = u32(e + 4);
    const size = u32(e + 8);
    if (offset > len) throw fail(e + 4, `resources[${i}].offset`, `an offset within the ${len}-byte file`, String(offset));
    if (size > len - offset) throw fail(e + 8, `resources[${i}].size`, `at most the ${len - offset} byte(s) after offset ${offset}`, String(size));
    dataBudget -= size;
    if (dataBudget < 0) {
      throw fail(e + 8, `resources[${i}].size`, `resource sizes adding up to at most ${8 * len + 65536} bytes (8 times the file)`, 'more: resources overlap many times over');
    }
    offsets[i] = offset;
    resources[i] = { id: u32(e), type: u32(e + 12), data: bytes.subarray(offset, offset + size) };
  }
  return { resources, layout: { bytes, variableTableOffset: tableOffset, offsets } };
}

/** The resource a KEY entry points at (its index in the variable table), or undefined. */
export function bifResourceAt(doc: BifDocument, resourceIndex: number): BifResource | undefined {
  return doc.resources[resourceIndex];
}
