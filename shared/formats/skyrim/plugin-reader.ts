import { BinaryReader } from '../../binary/binary-reader';
import { MalformedInputError } from '../../binary/malformed-input-error';
import type { FormatEnvironment } from '../format-environment';
import { readNvmi } from './navi-reader';
import { NVNM_VERSION } from './nvnm-document';
import { readNvnm } from './nvnm-reader';
import { rememberStoredRecord } from './plugin-stored-bytes';
import {
  formIdHex, GROUP_HEADER_SIZE, PLUGIN_FORMAT, RECORD_FLAG_COMPRESSED, RECORD_HEADER_SIZE, signatureOf, SUBRECORD_HEADER_SIZE,
  type PluginDocument, type PluginGroup, type PluginItem, type PluginRecord, type Subrecord, type SubrecordOverflow,
} from './plugin-document';

/** Groups nest at most five deep in real plugins (WRLD → … → temporary children). */
const MAX_GROUP_DEPTH = 16;
/** deflate cannot expand a stream by more than about 1032:1, so larger claims are corrupt. */
const MAX_INFLATE_RATIO = 1100;
/** No record of any Bethesda game comes near this; it bounds a single allocation. */
const MAX_UNCOMPRESSED_RECORD = 256 * 1024 * 1024;

/** Reads a Skyrim plugin (TES4 header record and groups), decompressing compressed records. */
export function readPlugin(bytes: Uint8Array, env: FormatEnvironment): PluginDocument {
  const r = new BinaryReader(bytes, PLUGIN_FORMAT);
  if (bytes.length < RECORD_HEADER_SIZE || signatureOf(bytes, 0) !== 'TES4') {
    throw r.error('header.signature', 'a TES4 header record', bytes.length < 4 ? `${bytes.length} byte(s)` : JSON.stringify(signatureOf(bytes, 0)), 0);
  }
  return { items: readItems(r, bytes.length, env, 0) };
}

function readItems(r: BinaryReader, end: number, env: FormatEnvironment, depth: number): PluginItem[] {
  const items: PluginItem[] = [];
  while (r.offset < end) {
    const start = r.offset;
    const bytes = r.bytes;
    if (end - start < RECORD_HEADER_SIZE) throw r.error('record header', `${RECORD_HEADER_SIZE} bytes inside the enclosing group`, `${end - start} byte(s)`);
    const signature = signatureOf(bytes, start);
    r.offset += 4;
    if (signature === 'GRUP') items.push(readGroup(r, start, end, env, depth));
    else items.push(readRecord(r, signature, start, end, env));
  }
  return items;
}

function readGroup(r: BinaryReader, start: number, end: number, env: FormatEnvironment, depth: number): PluginGroup {
  const size = r.u32('GRUP.size');
  if (size < GROUP_HEADER_SIZE || size > end - start) {
    throw r.error('GRUP.size', `${GROUP_HEADER_SIZE}..${end - start} (the header and what is left of the enclosing data)`, String(size), start + 4);
  }
  if (depth >= MAX_GROUP_DEPTH) throw r.error('GRUP', `groups nested at most ${MAX_GROUP_DEPTH} deep`, `a deeper group`, start);
  const label = r.u32('GRUP.label');
  const groupType = r.i32('GRUP.type');
  const timestamp = r.u16('GRUP.timestamp');
  const versionControl = r.u16('GRUP.versionControl');
  const unknown = r.u32('GRUP.unknown');
  const children = readItems(r, start + size, env, depth + 1);
  return { kind: 'group', label, groupType, timestamp, versionControl, unknown, children };
}

function readRecord(r: BinaryReader, signature: string, start: number, end: number, env: FormatEnvironment): PluginRecord {
  const size = r.u32(`${signature}.size`);
  const flags = r.u32(`${signature}.flags`);
  const formId = r.u32(`${signature}.formId`);
  const versionControl1 = r.u32(`${signature}.versionControl1`);
  const formVersion = r.u16(`${signature}.formVersion`);
  const versionControl2 = r.u16(`${signature}.versionControl2`);
  const where = `${signature} ${formIdHex(formId)}`;
  if (size > end - r.offset) {
    throw r.error(`${where}.size`, `at most ${end - r.offset} (what is left of the enclosing data)`, String(size), start + 4);
  }
  const dataStart = r.offset;
  r.offset += size;
  const compressed = (flags & RECORD_FLAG_COMPRESSED) !== 0 && size > 0;
  let subrecords: Subrecord[];
  if (compressed) {
    const data = inflateRecord(r.bytes, dataStart, size, where, env);
    subrecords = readSubrecords(new BinaryReader(data, PLUGIN_FORMAT), signature, `${where} decompressed`);
  } else {
    subrecords = readSubrecords(new BinaryReader(r.bytes, PLUGIN_FORMAT, dataStart, dataStart + size), signature, where);
  }
  const record: PluginRecord = { kind: 'record', signature, flags, formId, versionControl1, formVersion, versionControl2, compressed, subrecords, sourceOffset: start };
  if (compressed) rememberStoredRecord(record, r.bytes.slice(dataStart, dataStart + size));
  return record;
}

function inflateRecord(bytes: Uint8Array, dataStart: number, size: number, where: string, env: FormatEnvironment): Uint8Array {
  const r = new BinaryReader(bytes, PLUGIN_FORMAT, dataStart, dataStart + size);
  const declared = r.u32(`${where}.uncompressedSize`);
  const limit = Math.min(MAX_UNCOMPRESSED_RECORD, (size - 4) * MAX_INFLATE_RATIO + 64);
  if (declared > limit) {
    throw r.error(`${where}.uncompressedSize`, `at most ${limit} for a ${size - 4}-byte zlib stream`, String(declared), dataStart);
  }
  let out: Uint8Array;
  try {
    out = env.zlib.inflate(bytes.subarray(dataStart + 4, dataStart + size), declared);
  } catch (e) {
    throw r.error(`${where} zlib stream`, `a zlib stream inflating to ${declared} byte(s)`, e instanceof Error ? e.message : String(e), dataStart + 4);
  }
  if (out.length !== declared) {
    throw r.error(`${where} zlib stream`, `${declared} byte(s) after inflating (the declared size)`, `${out.length} byte(s)`, dataStart + 4);
  }
  return out;
}

/** The subrecords of one record body; `where` names the record (and "decompressed") in errors. */
function readSubrecords(r: BinaryReader, recordSignature: string, where: string): Subrecord[] {
  const out: Subrecord[] = [];
  let overflowSize: number | undefined;
  const bytes = r.bytes;
  while (r.offset < r.end) {
    const headerOffset = r.offset;
    // Field names are built only for the error: a plugin has tens of thousands of subrecords.
    if (r.end - headerOffset < SUBRECORD_HEADER_SIZE) r.need(SUBRECORD_HEADER_SIZE, `${where} subrecord header`);
    const signature = signatureOf(bytes, headerOffset);
    const sizeField = bytes[headerOffset + 4]! | (bytes[headerOffset + 5]! << 8);
    r.offset += SUBRECORD_HEADER_SIZE;
    if (signature === 'XXXX' && overflowSize === undefined) {
      if (sizeField !== 4) throw r.error(`${where} XXXX.size`, '4', String(sizeField), headerOffset + 4);
      overflowSize = r.u32(`${where} XXXX.value`);
      continue;
    }
    const size = overflowSize ?? sizeField;
    if (size > r.remaining) {
      throw new MalformedInputError({ format: PLUGIN_FORMAT, offset: headerOffset + 4, field: `${where} ${signature}.size`, expected: `at most ${r.remaining} (what is left of the record)`, found: String(size) });
    }
    const dataStart = r.offset;
    r.offset += size;
    const overflow = overflowSize === undefined ? undefined : { sizeField };
    overflowSize = undefined;
    out.push(modelSubrecord(bytes, dataStart, size, recordSignature, signature, overflow, where));
  }
  if (overflowSize !== undefined) throw r.error(`${where} XXXX`, 'a subrecord after the XXXX size record', 'the end of the record');
  return out;
}

function modelSubrecord(bytes: Uint8Array, start: number, size: number, recordSignature: string, signature: string, overflow: SubrecordOverflow | undefined, where: string): Subrecord {
  let out: Subrecord | undefined;
  if (recordSignature === 'NAVM' && signature === 'NVNM' && size >= 4) {
    const version = new DataView(bytes.buffer, bytes.byteOffset + start, 4).getUint32(0, true);
    // Other versions (Fallout 4's 15, Starfield's 17) have other layouts and stay bytes.
    if (version === NVNM_VERSION) out = { kind: 'nvnm', signature, nvnm: readNvnm(bytes, start, start + size, where) };
  } else if (recordSignature === 'NAVI' && signature === 'NVMI') {
    out = { kind: 'nvmi', signature, nvmi: readNvmi(bytes, start, start + size, where) };
  }
  out ??= { kind: 'raw', signature, data: bytes.slice(start, start + size) };
  if (overflow) out.overflow = overflow;
  return out;
}
