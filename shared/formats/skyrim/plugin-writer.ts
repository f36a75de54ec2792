import { BinaryWriter } from '../../binary/binary-writer';
import type { FormatEnvironment } from '../format-environment';
import { writeNvmi } from './navi-writer';
import { writeNvnm } from './nvnm-writer';
import { unchangedStoredRecord } from './plugin-stored-bytes';
import { PLUGIN_DEFLATE_LEVEL, type PluginDocument, type PluginItem, type PluginRecord, type Subrecord } from './plugin-document';

function signature(w: BinaryWriter, sig: string): void {
  for (let i = 0; i < 4; i++) w.u8(sig.charCodeAt(i) & 0xff);
}

export function subrecordPayload(s: Subrecord): Uint8Array {
  if (s.kind === 'nvnm') return writeNvnm(s.nvnm);
  if (s.kind === 'nvmi') return writeNvmi(s.nvmi);
  return s.data;
}

/** The record body: its subrecords, with an `XXXX` size record before any over 65,535 bytes. */
export function recordBody(record: PluginRecord): Uint8Array {
  const w = new BinaryWriter(256);
  for (const s of record.subrecords) {
    const payload = subrecordPayload(s);
    if (s.overflow || payload.length > 0xffff) {
      signature(w, 'XXXX');
      w.u16(4);
      w.u32(payload.length);
      signature(w, s.signature);
      w.u16(s.overflow ? s.overflow.sizeField : 0);
    } else {
      signature(w, s.signature);
      w.u16(payload.length);
    }
    w.bytes(payload);
  }
  return w.finish();
}

/**
 * The bytes after the record header: the body, or its size and zlib stream when compressed.
 * Compressed records are always re-encoded from the model at the CK's level 9; only when
 * that stream differs from the one the record was read with (another tool compressed it
 * differently) and the body is unchanged is the read stream kept, so that an unedited file
 * from any tool is written back byte for byte. `recompress` skips that fallback.
 */
export function recordStoredData(record: PluginRecord, env: FormatEnvironment, recompress = false): Uint8Array {
  const body = recordBody(record);
  if (!record.compressed) return body;
  const stream = env.zlib.deflate(body, PLUGIN_DEFLATE_LEVEL);
  const out = new Uint8Array(4 + stream.length);
  new DataView(out.buffer).setUint32(0, body.length, true);
  out.set(stream, 4);
  if (recompress) return out;
  return unchangedStoredRecord(record, out, body, env) ?? out;
}

function writeItem(w: BinaryWriter, item: PluginItem, env: FormatEnvironment): void {
  if (item.kind === 'group') {
    const start = w.size;
    signature(w, 'GRUP');
    w.u32(0);
    w.u32(item.label);
    w.i32(item.groupType);
    w.u16(item.timestamp);
    w.u16(item.versionControl);
    w.u32(item.unknown);
    for (const child of item.children) writeItem(w, child, env);
    w.patchU32(start + 4, w.size - start);
    return;
  }
  const data = recordStoredData(item, env);
  signature(w, item.signature);
  w.u32(data.length);
  w.u32(item.flags);
  w.u32(item.formId);
  w.u32(item.versionControl1);
  w.u16(item.formVersion);
  w.u16(item.versionControl2);
  w.bytes(data);
}

/** Writes the plugin; compressed records are re-encoded from their subrecords at zlib level 9 (unless unchanged since read). */
export function writePlugin(doc: PluginDocument, env: FormatEnvironment): Uint8Array {
  const w = new BinaryWriter(64 * 1024);
  for (const item of doc.items) writeItem(w, item, env);
  return w.finish();
}
