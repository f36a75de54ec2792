import { closeSync, openSync, readSync, readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { BIF_FORMAT, BIF_HEADER_BYTES, BIF_VARIABLE_ENTRY_BYTES } from '../../../shared/formats/aurora/bif-document';
import { bytesToByteString, bytesToByteStringZ } from '../../../shared/formats/aurora/byte-string';
import { ERF_FORMAT, ERF_HEADER_BYTES, ERF_RESOURCE_ENTRY_BYTES, erfKeyEntryBytes, erfResRefBytes } from '../../../shared/formats/aurora/erf-document';
import { KeyIndex, type KeyDocument } from '../../../shared/formats/aurora/key-document';
import { readKey } from '../../../shared/formats/aurora/key-reader';
import { KOTOR_RESOURCE_TYPES } from '../../../shared/formats/aurora/resource-types';
import { RIM_FORMAT, RIM_HEADER_BYTES, RIM_KEY_ENTRY_BYTES, RIM_RESREF_BYTES } from '../../../shared/formats/aurora/rim-document';
import { moduleCapsuleOrder } from '../../../shared/formats/kotor/kotor-resource-resolver';
import { FileAccessError, checkRegularFileSync, readBytesSync } from '../file-access';
import { resolveGamePath } from '../kotor-game-folder';
import { contentHash } from '../project/content-hash';

/**
 * One resource of a KotOR game folder, found synchronously and without reading whole
 * archives, for the project bake (bakeJobOf must stay synchronous: the bake state of each
 * file is shown from it). The search is the game's (kotor-resource-resolver.ts, spec
 * §8.1): `override/`, then the module's capsules in `modules/` (`<m>.mod` alone when
 * present, else `<m>.rim`, `<m>_s.rim`, `<m>_dlg.erf`), then `chitin.key` and its BIFs.
 *
 * Only tables are read: a capsule's header and key/resource lists (kept per file, size and
 * time), chitin.key (kept likewise), a BIF's 20-byte header and the one 16-byte entry the
 * key names. The resource's bytes are read once to hash them (kept likewise) and again
 * when `read` is called. Malformed tables fail with MalformedInputError naming the file;
 * a BIF the key names but the folder lacks fails with FileAccessError.
 */
export interface GameResource {
  /** Where it was found, relative to the game folder: `override/x.mdl`, `modules/m10aa_s.rim`, `data/models.bif`. */
  origin: string;
  sha256: string;
  read(): Uint8Array;
}

interface Span {
  file: string;
  offset: number;
  size: number;
}

interface Stamped<T> {
  stamp: string;
  value: T;
}

const capsuleTables = new Map<string, Stamped<Map<string, Span>>>();
const keyTables = new Map<string, Stamped<{ doc: KeyDocument; index: KeyIndex }>>();
const spanHashes = new Map<string, string>();
const bifSpans = new Map<string, Span>();
const listings = new Map<string, Stamped<Dirent[]>>();

const tableKey = (resRef: string, type: number) => `${type}:${resRef.toLowerCase()}`;

function stampOf(file: string): { stamp: string; size: number } {
  const s = checkRegularFileSync(file);
  return { stamp: `${s.size}|${s.mtimeMs}`, size: s.size };
}

/** `length` bytes at `offset` (already checked against the file's size). */
function readAt(file: string, offset: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    throw new FileAccessError(file, e instanceof Error ? e.message : String(e));
  }
  try {
    let done = 0;
    while (done < length) {
      const n = readSync(fd, out, done, length - done, offset + done);
      if (n === 0) throw new FileAccessError(file, `ended at ${offset + done} while ${length} bytes at ${offset} were read (the file changed?)`);
      done += n;
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

function malformed(format: string, file: string, offset: number, field: string, expected: string, found: string): MalformedInputError {
  return new MalformedInputError({ format, offset, field, expected, found, file });
}

/** A RIM's or ERF/MOD's resources (first of duplicates), from its tables alone. */
function capsuleTable(file: string): Map<string, Span> {
  const { stamp, size: len } = stampOf(file);
  const cached = capsuleTables.get(file);
  if (cached?.stamp === stamp) return cached.value;
  const table = file.toLowerCase().endsWith('.rim') ? rimTable(file, len) : erfTable(file, len);
  capsuleTables.set(file, { stamp, value: table });
  return table;
}

function rimTable(file: string, len: number): Map<string, Span> {
  if (len < RIM_HEADER_BYTES) throw malformed(RIM_FORMAT, file, 0, 'header', `a ${RIM_HEADER_BYTES}-byte RIM header`, `${len} byte(s)`);
  const head = readAt(file, 0, RIM_HEADER_BYTES);
  const signature = bytesToByteString(head, 0, 8);
  if (signature !== 'RIM V1.0') throw malformed(RIM_FORMAT, file, 0, 'signature', '"RIM V1.0"', JSON.stringify(signature));
  const hv = new DataView(head.buffer);
  const count = hv.getUint32(12, true);
  const keyOffset = hv.getUint32(16, true);
  if (keyOffset > len) throw malformed(RIM_FORMAT, file, 16, 'keyListOffset', `an offset within the ${len}-byte file`, String(keyOffset));
  if (count > (len - keyOffset) / RIM_KEY_ENTRY_BYTES) {
    throw malformed(RIM_FORMAT, file, 12, 'entryCount', `a count whose ${RIM_KEY_ENTRY_BYTES}-byte keys fit in the ${len - keyOffset} byte(s) after offset ${keyOffset}`, String(count));
  }
  const keys = readAt(file, keyOffset, count * RIM_KEY_ENTRY_BYTES);
  const v = new DataView(keys.buffer);
  const table = new Map<string, Span>();
  for (let i = 0; i < count; i++) {
    const k = i * RIM_KEY_ENTRY_BYTES;
    const offset = v.getUint32(k + 24, true);
    const size = v.getUint32(k + 28, true);
    if (offset > len || size > len - offset) {
      throw malformed(RIM_FORMAT, file, keyOffset + k + 24, `resources[${i}]`, `data within the ${len}-byte file`, `${size} byte(s) at ${offset}`);
    }
    const key = tableKey(bytesToByteStringZ(keys, k, k + RIM_RESREF_BYTES), v.getUint32(k + 16, true));
    if (!table.has(key)) table.set(key, { file, offset, size });
  }
  return table;
}

function erfTable(file: string, len: number): Map<string, Span> {
  if (len < ERF_HEADER_BYTES) throw malformed(ERF_FORMAT, file, 0, 'header', `a ${ERF_HEADER_BYTES}-byte ERF header`, `${len} byte(s)`);
  const head = readAt(file, 0, ERF_HEADER_BYTES);
  const version = bytesToByteString(head, 4, 8);
  if (version !== 'V1.0' && version !== 'V1.1') throw malformed(ERF_FORMAT, file, 4, 'version', '"V1.0" or "V1.1"', JSON.stringify(version));
  const hv = new DataView(head.buffer);
  const count = hv.getUint32(16, true);
  const keyOffset = hv.getUint32(24, true);
  const resourceOffset = hv.getUint32(28, true);
  const keyBytes = erfKeyEntryBytes(version);
  const list = (offset: number, at: number, entry: number, name: string) => {
    if (offset > len) throw malformed(ERF_FORMAT, file, at, `${name}Offset`, `an offset within the ${len}-byte file`, String(offset));
    if (count > (len - offset) / entry) throw malformed(ERF_FORMAT, file, 16, 'entryCount', `a count whose ${entry}-byte ${name} entries fit in the ${len - offset} byte(s) after offset ${offset}`, String(count));
    return readAt(file, offset, count * entry);
  };
  const keys = list(keyOffset, 24, keyBytes, 'keyList');
  const resources = list(resourceOffset, 28, ERF_RESOURCE_ENTRY_BYTES, 'resourceList');
  const kv = new DataView(keys.buffer);
  const rv = new DataView(resources.buffer);
  const rb = erfResRefBytes(version);
  const table = new Map<string, Span>();
  for (let i = 0; i < count; i++) {
    const k = i * keyBytes;
    const e = i * ERF_RESOURCE_ENTRY_BYTES;
    const offset = rv.getUint32(e, true);
    const size = rv.getUint32(e + 4, true);
    if (offset > len || size > len - offset) {
      throw malformed(ERF_FORMAT, file, resourceOffset + e, `resources[${i}]`, `data within the ${len}-byte file`, `${size} byte(s) at ${offset}`);
    }
    const key = tableKey(bytesToByteStringZ(keys, k, k + rb), kv.getUint16(k + rb + 4, true));
    if (!table.has(key)) table.set(key, { file, offset, size });
  }
  return table;
}

function keyTable(file: string): { doc: KeyDocument; index: KeyIndex } {
  const { stamp } = stampOf(file);
  const cached = keyTables.get(file);
  if (cached?.stamp === stamp) return cached.value;
  const bytes = readBytesSync(file);
  let doc: KeyDocument;
  try {
    doc = readKey(bytes);
  } catch (e) {
    throw e instanceof MalformedInputError ? e.withFile(file) : e;
  }
  const value = { doc, index: new KeyIndex(doc) };
  keyTables.set(file, { stamp, value });
  return value;
}

/** Where entry `index` of a BIF's variable table lies: its header and that one entry are read. */
function bifSpan(file: string, index: number, type: number): Span {
  const { stamp, size: len } = stampOf(file);
  const cacheKey = `${file}|${stamp}|${index}|${type}`;
  const cached = bifSpans.get(cacheKey);
  if (cached) return cached;
  const span = readBifSpan(file, len, index, type);
  bifSpans.set(cacheKey, span);
  return span;
}

function readBifSpan(file: string, len: number, index: number, type: number): Span {
  if (len < BIF_HEADER_BYTES) throw malformed(BIF_FORMAT, file, 0, 'header', `a ${BIF_HEADER_BYTES}-byte BIF header`, `${len} byte(s)`);
  const head = readAt(file, 0, BIF_HEADER_BYTES);
  const signature = bytesToByteString(head, 0, 8);
  if (signature !== 'BIFFV1  ') throw malformed(BIF_FORMAT, file, 0, 'signature', '"BIFFV1  "', JSON.stringify(signature));
  const hv = new DataView(head.buffer);
  const count = hv.getUint32(8, true);
  const tableOffset = hv.getUint32(16, true);
  if (index >= count) throw malformed(BIF_FORMAT, file, 8, 'variableCount', `more than ${index} resources (chitin.key names index ${index})`, String(count));
  const at = tableOffset + index * BIF_VARIABLE_ENTRY_BYTES;
  if (tableOffset > len || at + BIF_VARIABLE_ENTRY_BYTES > len) throw malformed(BIF_FORMAT, file, 16, 'variableTableOffset', `a table whose entry ${index} lies within the ${len}-byte file`, String(tableOffset));
  const v = new DataView(readAt(file, at, BIF_VARIABLE_ENTRY_BYTES).buffer);
  const offset = v.getUint32(4, true);
  const size = v.getUint32(8, true);
  if (offset > len || size > len - offset) throw malformed(BIF_FORMAT, file, at + 4, `resources[${index}]`, `data within the ${len}-byte file`, `${size} byte(s) at ${offset}`);
  const stored = v.getUint32(12, true);
  if (stored !== type) throw malformed(BIF_FORMAT, file, at + 12, `resources[${index}].type`, `type ${type}, as chitin.key says`, String(stored));
  return { file, offset, size };
}

function resourceOf(span: Span, origin: string): GameResource {
  const { stamp } = stampOf(span.file);
  const key = `${span.file}|${stamp}|${span.offset}|${span.size}`;
  let sha256 = spanHashes.get(key);
  if (sha256 === undefined) {
    sha256 = contentHash(readAt(span.file, span.offset, span.size));
    spanHashes.set(key, sha256);
  }
  return { origin, sha256, read: () => readAt(span.file, span.offset, span.size) };
}

/**
 * A folder's entries, kept until its modification time changes (an entry added, removed or
 * renamed), so a modded override of thousands of files is not listed for every room.
 */
function entriesOf(dir: string): Dirent[] {
  try {
    const stamp = String(statSync(dir).mtimeMs);
    const cached = listings.get(dir);
    if (cached?.stamp === stamp) return cached.value;
    const value = readdirSync(dir, { withFileTypes: true });
    listings.set(dir, { stamp, value });
    return value;
  } catch {
    return [];
  }
}

const named = (entries: readonly Dirent[], name: string, dir: boolean) => entries.find((e) => e.name.toLowerCase() === name && (dir ? e.isDirectory() : e.isFile()));

/**
 * The resource `resRef` of `type` as the game would load it in module `moduleName` of the
 * game folder `root`, or undefined when no source has it.
 */
export function findKotorGameResource(root: string, moduleName: string, resRef: string, type: number): GameResource | undefined {
  const top = entriesOf(root);
  const ext = KOTOR_RESOURCE_TYPES.extension(type);
  const overrideDir = named(top, 'override', true);
  if (overrideDir && ext !== undefined) {
    const hit = named(entriesOf(path.join(root, overrideDir.name)), `${resRef}.${ext}`.toLowerCase(), false);
    if (hit) {
      const file = path.join(root, overrideDir.name, hit.name);
      return resourceOf({ file, offset: 0, size: stampOf(file).size }, `${overrideDir.name}/${hit.name}`);
    }
  }
  const modulesDir = named(top, 'modules', true);
  if (modulesDir) {
    const dir = path.join(root, modulesDir.name);
    const files = entriesOf(dir).filter((e) => e.isFile()).map((e) => e.name);
    for (const capsule of moduleCapsuleOrder(moduleName, files)) {
      const span = capsuleTable(path.join(dir, capsule)).get(tableKey(resRef, type));
      if (span) return resourceOf(span, `${modulesDir.name}/${capsule}`);
    }
  }
  const key = named(top, 'chitin.key', false);
  if (key) {
    const { doc, index } = keyTable(path.join(root, key.name));
    const entry = index.get(resRef, type);
    if (entry) {
      const bif = doc.bifs[entry.bifIndex]!;
      const file = resolveGamePath(root, bif.fileName);
      if (file === undefined) throw new FileAccessError(path.join(root, bif.fileName.replace(/\\/g, '/')), 'no such file (listed in chitin.key)');
      return resourceOf(bifSpan(file, entry.resourceIndex, type), path.relative(root, file).split(path.sep).join('/'));
    }
  }
  return undefined;
}
