import type { FormatEnvironment } from '../format-environment';
import { formIdHex, RECORD_HEADER_SIZE, walkRecords, type PluginDocument } from './plugin-document';
import { recordStoredData } from './plugin-writer';

export interface PluginRoundtripDetails {
  records: number;
  compressedRecords: number;
  /** Compressed records whose re-encoded bytes (u32 size + pako level-9 stream) equal the original's. */
  compressedRecordsIdentical: number;
  /** Records (compressed or not) whose stored data differs from the original, by FormID (first 20). */
  differingRecords: string[];
}

/**
 * The facts `walkbench roundtrip` adds for a plugin: each record re-encoded from the model
 * is compared with the bytes at its original offset, so a compressed record counts as
 * identical only when pako at level 9 reproduces the Creation Kit's stream.
 */
export function pluginRoundtripDetails(original: Uint8Array, doc: PluginDocument, env: FormatEnvironment): PluginRoundtripDetails {
  const view = new DataView(original.buffer, original.byteOffset, original.byteLength);
  const result: PluginRoundtripDetails = { records: 0, compressedRecords: 0, compressedRecordsIdentical: 0, differingRecords: [] };
  for (const { record } of walkRecords(doc.items)) {
    result.records++;
    // Re-deflated even when unchanged: this is the check that level 9 reproduces the CK's stream.
    const data = recordStoredData(record, env, true);
    const o = record.sourceOffset;
    let same = false;
    if (o >= 0 && o + RECORD_HEADER_SIZE <= original.length) {
      const size = view.getUint32(o + 4, true);
      const start = o + RECORD_HEADER_SIZE;
      if (size === data.length && start + size <= original.length) {
        same = true;
        for (let i = 0; i < size; i++) {
          if (original[start + i] !== data[i]) {
            same = false;
            break;
          }
        }
      }
    }
    if (record.compressed) {
      result.compressedRecords++;
      if (same) result.compressedRecordsIdentical++;
    }
    if (!same && result.differingRecords.length < 20) result.differingRecords.push(`${record.signature} ${formIdHex(record.formId)}`);
  }
  return result;
}
