import { BinaryReader } from '../../binary/binary-reader';
import { isMalformedInputError, MalformedInputError } from '../../binary/malformed-input-error';
import { DecompressionBudget, type ReadMemoryBound } from '../../binary/read-budget';
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
/**
 * What one subrecord of a compressed record costs in the model beyond its bytes (its
 * object, its view of the record body and its place in the list; about 180 bytes
 * measured): charged to the decompression budget, so that a record inflating to millions
 * of empty subrecords is as bounded as one inflating to as many bytes.
 */
export const SUBRECORD_MODEL_COST = 192;

/** readPlugin's memory bound (see ReadMemoryBound). */
export const PLUGIN_READ_MEMORY: ReadMemoryBound = { perInputByte: 32, perDecompressedByte: 32 };

interface ReadState {
  env: FormatEnvironment;
  budget: DecompressionBudget;
}

/**
 * Reads a Skyrim plugin (TES4 header record and groups), decompressing compressed records.
 *
 * Memory bound (PLUGIN_READ_MEMORY): a record's bytes are copied once and its raw
 * subrecords are views of the copy, so records, groups and subrecords read from the file
 * take at most 32 bytes per input byte (an empty subrecord, 6 bytes in the file, is an
 * object and a view of about 130 bytes; real plugins take about 10). Compressed records
 * are charged to the file's decompression budget (`env.limits`, default max(256 MiB, 8 ×
 * the file size); shared/binary/read-budget.ts): each inflated byte, and
 * SUBRECORD_MODEL_COST bytes per subrecord inside. Their subrecords (views of the inflated
 * body) and NVNM/NVMI columns take at most 32 bytes per inflated byte (empty subrecords
 * again), and the charge keeps their total near the budget: however a small file is
 * compressed, it cannot make the reader hold more than about 1.3 × 256 MiB. The navmesh
 * grid is sparse (nvnm-reader.ts): its declared size costs nothing beyond its bytes.
 */
export function readPlugin(bytes: Uint8Array, env: FormatEnvironment): PluginDocument {
  const r = new BinaryReader(bytes, PLUGIN_FORMAT);
  if (bytes.length < RECORD_HEADER_SIZE || signatureOf(bytes, 0) !== 'TES4') {
    throw r.error('header.signature', 'a TES4 header record', bytes.length < 4 ? `${bytes.length} byte(s)` : JSON.stringify(signatureOf(bytes, 0)), 0);
  }
  return { items: readItems(r, bytes.length, { env, budget: new DecompressionBudget(bytes.length, env.limits) }, 0) };
}

/**
 * Signatures as shared strings: a plugin has hundreds of thousands of records and
 * subrecords but a few hundred signatures (the cache stops growing at 4,096 for a file
 * that invents more).
 */
const signatures = new Map<number, string>();
function internedSignature(bytes: Uint8Array, at: number): string {
  const key = (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
  let s = signatures.get(key);
  if (s === undefined) {
    s = signatureOf(bytes, at);
    if (signatures.size < 4096) signatures.set(key, s);
  }
  return s;
}

function readItems(r: BinaryReader, end: number, env: ReadState, depth: number): PluginItem[] {
  const items: PluginItem[] = [];
  const dv = new DataView(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
  while (r.offset < end) {
    const start = r.offset;
    const bytes = r.bytes;
    if (end - start < RECORD_HEADER_SIZE) throw r.error('record header', `${RECORD_HEADER_SIZE} bytes inside the enclosing group`, `${end - start} byte(s)`);
    const signature = internedSignature(bytes, start);
    r.offset += 4;
    if (signature === 'GRUP') items.push(readGroup(r, dv, start, end, env, depth));
    else items.push(readRecord(r, dv, signature, start, end, env));
  }
  return items;
}

// Both headers are 24 bytes, checked to lie inside the enclosing data (readItems), so their
// fields are read straight from the bytes: no field name is built unless one is wrong.

function readGroup(r: BinaryReader, dv: DataView, start: number, end: number, env: ReadState, depth: number): PluginGroup {
  const size = dv.getUint32(start + 4, true);
  if (size < GROUP_HEADER_SIZE || size > end - start) {
    throw r.error('GRUP.size', `${GROUP_HEADER_SIZE}..${end - start} (the header and what is left of the enclosing data)`, String(size), start + 4);
  }
  if (depth >= MAX_GROUP_DEPTH) throw r.error('GRUP', `groups nested at most ${MAX_GROUP_DEPTH} deep`, `a deeper group`, start);
  const label = dv.getUint32(start + 8, true);
  const groupType = dv.getInt32(start + 12, true);
  const timestamp = dv.getUint16(start + 16, true);
  const versionControl = dv.getUint16(start + 18, true);
  const unknown = dv.getUint32(start + 20, true);
  r.offset = start + GROUP_HEADER_SIZE;
  const children = readItems(r, start + size, env, depth + 1);
  return { kind: 'group', label, groupType, timestamp, versionControl, unknown, children };
}

function readRecord(r: BinaryReader, dv: DataView, signature: string, start: number, end: number, env: ReadState): PluginRecord {
  const size = dv.getUint32(start + 4, true);
  const flags = dv.getUint32(start + 8, true);
  const formId = dv.getUint32(start + 12, true);
  const versionControl1 = dv.getUint32(start + 16, true);
  const formVersion = dv.getUint16(start + 20, true);
  const versionControl2 = dv.getUint16(start + 22, true);
  r.offset = start + RECORD_HEADER_SIZE;
  const where = () => `${signature} ${formIdHex(formId)}`;
  if (size > end - r.offset) {
    throw r.error(`${where()}.size`, `at most ${end - r.offset} (what is left of the enclosing data)`, String(size), start + 4);
  }
  const dataStart = r.offset;
  r.offset += size;
  const compressed = (flags & RECORD_FLAG_COMPRESSED) !== 0 && size > 0;
  let subrecords: Subrecord[];
  if (compressed) {
    const data = inflateRecord(r.bytes, dataStart, size, where(), env);
    try {
      subrecords = readSubrecords(new BinaryReader(data, PLUGIN_FORMAT), signature, () => `${where()} decompressed`, { budget: env.budget, recordOffset: start });
    } catch (e) {
      // An error inside the inflated body gives the record's offset in the file, and its
      // position in the body in the field.
      if (!isMalformedInputError(e) || e.offset === start) throw e;
      throw new MalformedInputError({ ...e.details(), offset: dataStart + 4, field: `${e.field} (at +${e.offset} of the inflated record)` });
    }
  } else {
    // One copy of the record's bytes, which its raw subrecords view: a plugin has a
    // subrecord per 25 bytes or so, and an array buffer of its own costs each one about
    // 150 bytes more than a view.
    const body = r.bytes.slice(dataStart, dataStart + size);
    try {
      subrecords = readSubrecords(new BinaryReader(body, PLUGIN_FORMAT), signature, where, undefined);
    } catch (e) {
      if (!isMalformedInputError(e)) throw e;
      throw new MalformedInputError({ ...e.details(), offset: e.offset + dataStart });
    }
  }
  const record: PluginRecord = { kind: 'record', signature, flags, formId, versionControl1, formVersion, versionControl2, compressed, subrecords, sourceOffset: start };
  if (compressed) rememberStoredRecord(record, r.bytes.slice(dataStart, dataStart + size));
  return record;
}

function inflateRecord(bytes: Uint8Array, dataStart: number, size: number, where: string, state: ReadState): Uint8Array {
  const r = new BinaryReader(bytes, PLUGIN_FORMAT, dataStart, dataStart + size);
  const declared = r.u32(`${where}.uncompressedSize`);
  const limit = Math.min(MAX_UNCOMPRESSED_RECORD, (size - 4) * MAX_INFLATE_RATIO + 64);
  if (declared > limit) {
    throw r.error(`${where}.uncompressedSize`, `at most ${limit} for a ${size - 4}-byte zlib stream`, String(declared), dataStart);
  }
  state.budget.charge(declared, PLUGIN_FORMAT, dataStart, `${where}.uncompressedSize`);
  let out: Uint8Array;
  try {
    out = state.env.zlib.inflate(bytes.subarray(dataStart + 4, dataStart + size), declared);
  } catch (e) {
    throw r.error(`${where} zlib stream`, `a zlib stream inflating to ${declared} byte(s)`, e instanceof Error ? e.message : String(e), dataStart + 4);
  }
  if (out.length !== declared) {
    throw r.error(`${where} zlib stream`, `${declared} byte(s) after inflating (the declared size)`, `${out.length} byte(s)`, dataStart + 4);
  }
  return out;
}

/** Where an inflated record body is: its budget, and the record's offset in the file (for errors). */
interface InflatedBody {
  budget: DecompressionBudget;
  recordOffset: number;
}

/**
 * The subrecords of one record body (the reader's own copy or inflation of it: raw
 * subrecords are views of it); `where` names the record (and "decompressed") in errors,
 * built only when one is. Each subrecord of an inflated body is charged
 * SUBRECORD_MODEL_COST to the file's budget.
 */
function readSubrecords(r: BinaryReader, recordSignature: string, where: () => string, inflated: InflatedBody | undefined): Subrecord[] {
  const out: Subrecord[] = [];
  let overflowSize: number | undefined;
  const bytes = r.bytes;
  while (r.offset < r.end) {
    const headerOffset = r.offset;
    if (inflated) inflated.budget.charge(SUBRECORD_MODEL_COST, PLUGIN_FORMAT, inflated.recordOffset, () => `${where()} subrecord at +${headerOffset}`);
    // Field names are built only for the error: a plugin has tens of thousands of subrecords.
    if (r.end - headerOffset < SUBRECORD_HEADER_SIZE) r.need(SUBRECORD_HEADER_SIZE, `${where()} subrecord header`);
    const signature = internedSignature(bytes, headerOffset);
    const sizeField = bytes[headerOffset + 4]! | (bytes[headerOffset + 5]! << 8);
    r.offset += SUBRECORD_HEADER_SIZE;
    if (signature === 'XXXX' && overflowSize === undefined) {
      if (sizeField !== 4) throw r.error(`${where()} XXXX.size`, '4', String(sizeField), headerOffset + 4);
      if (r.remaining < 4) r.need(4, `${where()} XXXX.value`);
      overflowSize = r.u32('XXXX.value');
      continue;
    }
    const size = overflowSize ?? sizeField;
    if (size > r.remaining) {
      throw new MalformedInputError({ format: PLUGIN_FORMAT, offset: headerOffset + 4, field: `${where()} ${signature}.size`, expected: `at most ${r.remaining} (what is left of the record)`, found: String(size) });
    }
    const dataStart = r.offset;
    r.offset += size;
    const overflow = overflowSize === undefined ? undefined : { sizeField };
    overflowSize = undefined;
    out.push(modelSubrecord(bytes, dataStart, size, recordSignature, signature, overflow, where));
  }
  if (overflowSize !== undefined) throw r.error(`${where()} XXXX`, 'a subrecord after the XXXX size record', 'the end of the record');
  return out;
}

function modelSubrecord(bytes: Uint8Array, start: number, size: number, recordSignature: string, signature: string, overflow: SubrecordOverflow | undefined, where: () => string): Subrecord {
  let out: Subrecord | undefined;
  if (recordSignature === 'NAVM' && signature === 'NVNM' && size >= 4) {
    const version = bytes[start]! | (bytes[start + 1]! << 8) | (bytes[start + 2]! << 16) | (bytes[start + 3]! << 24);
    // Other versions (Fallout 4's 15, Starfield's 17) have other layouts and stay bytes.
    if (version === NVNM_VERSION) out = { kind: 'nvnm', signature, nvnm: readNvnm(bytes, start, start + size, where()) };
  } else if (recordSignature === 'NAVI' && signature === 'NVMI') {
    out = { kind: 'nvmi', signature, nvmi: readNvmi(bytes, start, start + size, where()) };
  }
  out ??= { kind: 'raw', signature, data: bytes.subarray(start, start + size) };
  if (overflow) out.overflow = overflow;
  return out;
}
