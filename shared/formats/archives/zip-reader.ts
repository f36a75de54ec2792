import { MalformedInputError } from '../../binary/malformed-input-error';
import { decompressionBudgetOf, type DecompressionBudget, type ReadMemoryBound } from '../../binary/read-budget';
import { pakoZlibCodec } from '../../platform/pako-zlib-codec';
import type { FormatEnvironment } from '../format-environment';
import type { ByteSource } from './byte-source';
import { crc32 } from './crc32';

/**
 * Zip archives (PKWARE APPNOTE 6.3.x), read the way NWN2 ships its data: the install's
 * `Data/*.zip` (models, 2DAs, templates…). Only the central directory is read when the
 * archive is opened; an entry's bytes are read and inflated when asked for, so a 700 MB
 * model archive costs its directory in memory, not its size.
 *
 * Supported: stored (method 0) and deflate (method 8) entries, data descriptors (bit 3:
 * the central directory's sizes are used), ZIP64 end records and extra fields (archives or
 * entries past 4 GiB or 65,535 entries; NWN2's own zips need neither, but repacked or
 * merged data zips may). Refused with a MalformedInputError naming the archive, offset and
 * field: encrypted entries, other methods, spanned archives, anything that points outside
 * the file, and entries whose inflated size or CRC-32 differs from the directory.
 */

export const ZIP_FORMAT = 'zip';

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_BYTES = 22;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_LOCATOR_BYTES = 20;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const ZIP64_EOCD_BYTES = 56;
const CENTRAL_SIGNATURE = 0x02014b50;
const CENTRAL_BYTES = 46;
const LOCAL_SIGNATURE = 0x04034b50;
const LOCAL_BYTES = 30;
const MAX_COMMENT = 0xffff;
const ZIP64_EXTRA = 0x0001;

export const ZipMethod = { stored: 0, deflate: 8 } as const;

/**
 * openZip's memory bound: the central directory is read whole (46 bytes + name per entry
 * in the file) and each entry becomes an object with its name; an entry needs at least 46
 * bytes of the file. Measured: a 10.6 MB archive of 70,000 entries (Python's zipfile, with
 * ZIP64 end records) keeps 1.1 bytes per input byte after the open; a 48 KB archive of 300
 * tiny entries grows about 3 bytes per input byte during it, garbage included (~470 bytes
 * per entry); the fuzz target's highest growth was 56% of this bound. Entries are read one
 * at a time (readZipEntry), bounded by the decompression budget.
 */
export const ZIP_READ_MEMORY: ReadMemoryBound = { perInputByte: 6, perDecompressedByte: 2 };

export interface ZipEntry {
  /** The name as stored (folders separated by `/`). */
  name: string;
  /** Position in the central directory (entries left out by `keep` still count). */
  index: number;
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Offset of the entry's local header. */
  localHeaderOffset: number;
  /** Offset of the entry's central directory record (for errors). */
  centralOffset: number;
}

export interface ZipArchive {
  source: ByteSource;
  entries: ZipEntry[];
  /** The archive comment (latin-1), usually empty. */
  comment: string;
}

function fail(source: ByteSource, offset: number, field: string, expected: string, found: string): MalformedInputError {
  return new MalformedInputError({ format: ZIP_FORMAT, offset, field, expected, found, file: source.name });
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

// TextDecoder exists in every runtime Walkbench targets, but shared/ compiles without the
// DOM library (as in shared/ipc/mesh-payload.ts).
interface Utf8Codec {
  TextDecoder: new (label: string, options: { fatal: boolean }) => { decode(bytes: Uint8Array): string };
}

/** One decoder for every name (a decoder per entry costs kilobytes each). */
let utf8Decoder: { decode(bytes: Uint8Array): string } | undefined;

/** A 64-bit field as a number, refused past 2^53 (no real file is that large). */
function u64(source: ByteSource, view: DataView, at: number, fileOffset: number, field: string): number {
  const v = view.getBigUint64(at, true);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw fail(source, fileOffset, field, 'a value below 2^53', v.toString());
  return Number(v);
}

/**
 * Names are UTF-8 when flag bit 11 is set, else code page 437; the names NWN2 uses are
 * ASCII, where both agree, so anything else is decoded as latin-1 (each byte one character)
 * rather than refused.
 */
function decodeName(bytes: Uint8Array, utf8: boolean): string {
  const decoder = (utf8Decoder ??= new (globalThis as unknown as Utf8Codec).TextDecoder('utf-8', { fatal: false }));
  // ASCII reads the same in UTF-8 and latin-1; the decoder makes one flat string of it.
  if (utf8 || bytes.every((b) => b < 0x80)) return decoder.decode(bytes);
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

/** Finds the end of central directory record: the last signature whose comment length reaches the file's end. */
function findEndRecord(source: ByteSource): number {
  if (source.size < EOCD_BYTES) throw fail(source, 0, 'end of central directory', `a zip archive of at least ${EOCD_BYTES} bytes`, `${source.size} byte(s)`);
  const tailLength = Math.min(source.size, EOCD_BYTES + MAX_COMMENT);
  const tailStart = source.size - tailLength;
  const tail = source.read(tailStart, tailLength);
  const view = viewOf(tail);
  for (let p = tailLength - EOCD_BYTES; p >= 0; p--) {
    if (view.getUint32(p, true) !== EOCD_SIGNATURE) continue;
    if (p + EOCD_BYTES + view.getUint16(p + 20, true) === tailLength) return tailStart + p;
  }
  // A signature with a comment that runs short or long still marks a damaged archive whose
  // directory may be read; without any, this is not a zip.
  for (let p = tailLength - EOCD_BYTES; p >= 0; p--) if (view.getUint32(p, true) === EOCD_SIGNATURE) return tailStart + p;
  throw fail(source, tailStart, 'end of central directory', 'the signature PK\\5\\6 in the last 65,557 bytes (a zip archive)', 'none');
}

interface Directory {
  entryCount: number;
  size: number;
  offset: number;
  comment: string;
}

function readDirectoryLocation(source: ByteSource, eocd: number): Directory {
  const rec = viewOf(source.read(eocd, EOCD_BYTES));
  const disk = rec.getUint16(4, true);
  const cdDisk = rec.getUint16(6, true);
  const entriesHere = rec.getUint16(8, true);
  let entryCount = rec.getUint16(10, true);
  let size = rec.getUint32(12, true);
  let offset = rec.getUint32(16, true);
  const commentLength = Math.min(rec.getUint16(20, true), source.size - eocd - EOCD_BYTES);
  const comment = decodeName(source.read(eocd + EOCD_BYTES, commentLength), false);
  const wantsZip64 = entryCount === 0xffff || entriesHere === 0xffff || size === 0xffffffff || offset === 0xffffffff;
  if (eocd >= ZIP64_LOCATOR_BYTES) {
    const loc = viewOf(source.read(eocd - ZIP64_LOCATOR_BYTES, ZIP64_LOCATOR_BYTES));
    if (loc.getUint32(0, true) === ZIP64_LOCATOR_SIGNATURE) {
      const at = eocd - ZIP64_LOCATOR_BYTES;
      const recordOffset = u64(source, loc, 8, at + 8, 'zip64Locator.endRecordOffset');
      if (recordOffset > source.size - ZIP64_EOCD_BYTES) {
        throw fail(source, at + 8, 'zip64Locator.endRecordOffset', `an offset of a ${ZIP64_EOCD_BYTES}-byte record within the ${source.size}-byte file`, String(recordOffset));
      }
      const z = viewOf(source.read(recordOffset, ZIP64_EOCD_BYTES));
      if (z.getUint32(0, true) !== ZIP64_EOCD_SIGNATURE) throw fail(source, recordOffset, 'zip64EndRecord.signature', 'PK\\6\\6', `0x${z.getUint32(0, true).toString(16)}`);
      if (z.getUint32(16, true) !== 0 || z.getUint32(20, true) !== 0) {
        throw fail(source, recordOffset + 16, 'zip64EndRecord.disk', 'disk 0 (a single-file archive; spanned archives are not read)', String(z.getUint32(16, true)));
      }
      entryCount = u64(source, z, 32, recordOffset + 32, 'zip64EndRecord.entryCount');
      size = u64(source, z, 40, recordOffset + 40, 'zip64EndRecord.directorySize');
      offset = u64(source, z, 48, recordOffset + 48, 'zip64EndRecord.directoryOffset');
      return checkDirectory(source, { entryCount, size, offset, comment }, recordOffset);
    }
  }
  if (wantsZip64) throw fail(source, eocd + 10, 'endRecord.entryCount', 'a ZIP64 locator before the end record (its fields say 0xFFFF…)', 'none');
  if (disk !== 0 || cdDisk !== 0) throw fail(source, eocd + 4, 'endRecord.disk', 'disk 0 (a single-file archive; spanned archives are not read)', `${disk}/${cdDisk}`);
  return checkDirectory(source, { entryCount, size, offset, comment }, eocd);
}

function checkDirectory(source: ByteSource, d: Directory, record: number): Directory {
  if (d.offset > record || d.size > record - d.offset) {
    throw fail(source, record, 'endRecord.directoryOffset', `a central directory that ends by offset ${record} (the end record)`, `${d.size} byte(s) at ${d.offset}`);
  }
  if (d.entryCount > Math.floor(d.size / CENTRAL_BYTES)) {
    throw fail(source, record, 'endRecord.entryCount', `at most ${Math.floor(d.size / CENTRAL_BYTES)} entries (${CENTRAL_BYTES} bytes each in the ${d.size}-byte directory)`, String(d.entryCount));
  }
  return d;
}

export interface ZipOpenOptions {
  /**
   * Which entries to keep, by name: the others are still read and checked but not kept,
   * so a look-up that wants two kinds of resource from an install's 70 zips holds the
   * directory of those only. Default: all.
   */
  keep?(name: string): boolean;
}

/**
 * Opens a zip archive: reads its end record and central directory (through `source`, not
 * the whole file). Every offset and size is checked against the file before use.
 */
export function openZip(source: ByteSource, options: ZipOpenOptions = {}): ZipArchive {
  const dir = readDirectoryLocation(source, findEndRecord(source));
  const cd = source.read(dir.offset, dir.size);
  const view = viewOf(cd);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < dir.entryCount; i++) {
    const at = dir.offset + p;
    if (dir.size - p < CENTRAL_BYTES) throw fail(source, at, `entries[${i}]`, `a ${CENTRAL_BYTES}-byte central directory record`, `${dir.size - p} byte(s) left in the directory`);
    const sig = view.getUint32(p, true);
    if (sig !== CENTRAL_SIGNATURE) throw fail(source, at, `entries[${i}].signature`, 'PK\\1\\2 (a central directory record)', `0x${sig.toString(16).padStart(8, '0')}`);
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    const crc = view.getUint32(p + 16, true);
    let compressedSize = view.getUint32(p + 20, true);
    let uncompressedSize = view.getUint32(p + 24, true);
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    const diskStart = view.getUint16(p + 34, true);
    let localHeaderOffset = view.getUint32(p + 42, true);
    const recordBytes = CENTRAL_BYTES + nameLength + extraLength + commentLength;
    if (recordBytes > dir.size - p) throw fail(source, at + 28, `entries[${i}].nameLength`, `name, extra field and comment within the ${dir.size - p} byte(s) left in the directory`, `${recordBytes - CENTRAL_BYTES} byte(s)`);
    const name = decodeName(cd.subarray(p + CENTRAL_BYTES, p + CENTRAL_BYTES + nameLength), (flags & 0x800) !== 0);
    // ZIP64 extended information: only the fields whose 32-bit value is saturated, in order.
    const extraStart = p + CENTRAL_BYTES + nameLength;
    for (let e = extraStart; e + 4 <= extraStart + extraLength; ) {
      const id = view.getUint16(e, true);
      const len = view.getUint16(e + 2, true);
      if (e + 4 + len > extraStart + extraLength) break;
      if (id === ZIP64_EXTRA) {
        let q = e + 4;
        const next = (field: string): number => {
          if (q + 8 > e + 4 + len) throw fail(source, dir.offset + q, `entries[${i}].zip64.${field}`, '8 more bytes in the ZIP64 extra field', `${e + 4 + len - q}`);
          const v = u64(source, view, q, dir.offset + q, `entries[${i}].zip64.${field}`);
          q += 8;
          return v;
        };
        if (uncompressedSize === 0xffffffff) uncompressedSize = next('uncompressedSize');
        if (compressedSize === 0xffffffff) compressedSize = next('compressedSize');
        if (localHeaderOffset === 0xffffffff) localHeaderOffset = next('localHeaderOffset');
      }
      e += 4 + len;
    }
    if (diskStart !== 0 && diskStart !== 0xffff) throw fail(source, at + 34, `entries[${i}].diskStart`, 'disk 0 (a single-file archive)', String(diskStart));
    if (localHeaderOffset > dir.offset || compressedSize > dir.offset - localHeaderOffset) {
      throw fail(source, at + 42, `entries[${i}].localHeaderOffset`, `data that ends before the central directory at ${dir.offset}`, `${compressedSize} byte(s) at ${localHeaderOffset}`);
    }
    if (!options.keep || options.keep(name)) entries.push({ name, index: i, method, flags, crc32: crc, compressedSize, uncompressedSize, localHeaderOffset, centralOffset: at });
    p += recordBytes;
  }
  return { source, entries, comment: dir.comment };
}

/**
 * Reads one entry's bytes: stored entries as they are, deflate entries inflated (charged
 * to a budget of max(256 MiB, 8 × the entry's compressed size) unless `env.limits` says
 * otherwise; the inflater stops at the declared size), then checked against the CRC-32.
 * A caller reading many entries of one archive at once may pass a `budget` shared by them.
 */
export function readZipEntry(archive: ZipArchive, entry: ZipEntry, env?: FormatEnvironment, budget?: DecompressionBudget): Uint8Array {
  const { source } = archive;
  const field = (f: string) => `entries[${entry.index}] (${entry.name}).${f}`;
  if (entry.flags & 0x1) throw fail(source, entry.centralOffset + 8, field('flags'), 'an unencrypted entry', 'encrypted (flag bit 0)');
  if (entry.method !== ZipMethod.stored && entry.method !== ZipMethod.deflate) {
    throw fail(source, entry.centralOffset + 10, field('method'), '0 (stored) or 8 (deflate)', String(entry.method));
  }
  const h = entry.localHeaderOffset;
  if (h > source.size - LOCAL_BYTES) throw fail(source, h, field('localHeader'), `a ${LOCAL_BYTES}-byte local header`, `${source.size - h} byte(s) left`);
  const local = viewOf(source.read(h, LOCAL_BYTES));
  const sig = local.getUint32(0, true);
  if (sig !== LOCAL_SIGNATURE) throw fail(source, h, field('localHeader.signature'), 'PK\\3\\4 (a local file header)', `0x${sig.toString(16).padStart(8, '0')}`);
  const dataStart = h + LOCAL_BYTES + local.getUint16(26, true) + local.getUint16(28, true);
  if (dataStart > source.size || entry.compressedSize > source.size - dataStart) {
    throw fail(source, h + 26, field('localHeader.nameLength'), `entry data within the ${source.size}-byte file`, `${entry.compressedSize} byte(s) at ${dataStart}`);
  }
  let data: Uint8Array;
  if (entry.method === ZipMethod.stored) {
    if (entry.compressedSize !== entry.uncompressedSize) {
      throw fail(source, entry.centralOffset + 24, field('uncompressedSize'), `the stored size ${entry.compressedSize}`, String(entry.uncompressedSize));
    }
    data = source.read(dataStart, entry.compressedSize);
  } else {
    const limit = decompressionBudgetOf(entry.compressedSize, env?.limits);
    if (entry.uncompressedSize > limit) {
      throw fail(
        source,
        entry.centralOffset + 24,
        field('uncompressedSize'),
        `at most ${limit} bytes (the entry's decompression budget; ${env?.limits?.howToRaise ?? 'raise FormatEnvironment.limits.maxDecompressedBytes to read larger entries'})`,
        String(entry.uncompressedSize),
      );
    }
    budget?.charge(entry.uncompressedSize, ZIP_FORMAT, entry.centralOffset + 24, () => field('uncompressedSize'));
    const raw = source.read(dataStart, entry.compressedSize);
    const inflateRaw = env?.zlib.inflateRaw ?? pakoZlibCodec.inflateRaw!;
    try {
      data = inflateRaw(raw, entry.uncompressedSize);
    } catch (e) {
      throw fail(source, dataStart, field('data'), `a deflate stream of ${entry.uncompressedSize} byte(s)`, `a stream that does not inflate (${e instanceof Error ? e.message : String(e)})`);
    }
    if (data.length !== entry.uncompressedSize) {
      throw fail(source, entry.centralOffset + 24, field('uncompressedSize'), `the ${data.length} byte(s) the data inflates to`, String(entry.uncompressedSize));
    }
  }
  const crc = crc32(data);
  if (crc !== entry.crc32) {
    throw fail(source, entry.centralOffset + 16, field('crc32'), `0x${crc.toString(16).padStart(8, '0')} (the CRC-32 of the entry's data)`, `0x${entry.crc32.toString(16).padStart(8, '0')}`);
  }
  return data;
}
