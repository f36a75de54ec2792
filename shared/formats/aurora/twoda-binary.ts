import type { ReadMemoryBound } from '../../binary/read-budget';
import { BinaryReader } from '../../binary/binary-reader';
import { MalformedInputError } from '../../binary/malformed-input-error';
import { byteStringToBytes, bytesToByteString } from './byte-string';
import { TWODA_EMPTY, type TwoDaTable } from './twoda-table';
import { readTwoDaText, sniffTwoDaText, TWODA_FORMAT } from './twoda-text';

const SIGNATURE = '2DA V2.b';

/**
 * KotOR's binary 2DA (`2DA V2.b`), the form the game ships in its BIFs and RIMs:
 *
 *     "2DA V2.b\n"
 *     column names, each followed by a tab, then a NUL
 *     u32 rowCount
 *     rowCount row labels, each followed by a tab
 *     u16 cell offsets [rowCount × columnCount], row-major, relative to the data block
 *     u16 data size
 *     data: NUL-terminated cell strings (equal strings stored once)
 *
 * Sources: PyKotor `pykotor/resource/formats/twoda/io_twoda.py` (TwoDABinaryReader/Writer),
 * xoreos `src/aurora/2dafile.cpp` (`read2b`), and the Kaitai description
 * bioware-kaitai-formats `TwoDA.ksy`. An empty string is an empty cell (what `****` is in
 * text files); a literal `****` also reads as empty.
 *
 * Exact writing: an unedited table read from bytes is written back as read (BioWare's
 * string sharing and any slack in the data block survive); once edited it is written in
 * the canonical layout (strings shared in row-major first-use order, as PyKotor does).
 */
export class TwoDaBinary implements TwoDaTable {
  readonly columns: readonly string[];
  private readonly labels: string[];
  /** Row-major cell strings as stored ('' = empty). */
  private readonly values: string[];
  private readonly columnMap = new Map<string, number>();
  private original: Uint8Array | undefined;

  private constructor(columns: string[], labels: string[], values: string[], original: Uint8Array | undefined) {
    this.columns = columns;
    this.labels = labels;
    this.values = values;
    this.original = original;
    columns.forEach((c, i) => {
      const key = c.toLowerCase();
      if (!this.columnMap.has(key)) this.columnMap.set(key, i);
    });
  }

  /** A new, empty table. */
  static create(columns: readonly string[]): TwoDaBinary {
    for (const c of columns) checkText(c, 'column name');
    return new TwoDaBinary([...columns], [], [], undefined);
  }

  static read(bytes: Uint8Array): TwoDaBinary {
    const r = new BinaryReader(bytes, TWODA_FORMAT);
    r.need(9, 'signature');
    const signature = bytesToByteString(bytes, 0, 8);
    if (signature !== SIGNATURE || bytes[8] !== 0x0a) {
      throw r.error('signature', '"2DA V2.b" and a line feed', JSON.stringify(bytesToByteString(bytes, 0, 9)), 0);
    }
    r.offset = 9;
    const headerEnd = bytes.indexOf(0, 9);
    if (headerEnd < 0) throw r.error('columns', 'column names ending with a NUL byte', 'no NUL before the end of the file', 9);
    const header = bytesToByteString(bytes, 9, headerEnd);
    const columns = header.length === 0 ? [] : header.split('\t');
    if (columns.length > 0 && columns[columns.length - 1] === '') columns.pop();
    r.offset = headerEnd + 1;
    const rowCount = r.checkCount(r.u32('rowCount'), 1, 'rowCount');
    const labels: string[] = new Array<string>(rowCount);
    for (let i = 0; i < rowCount; i++) {
      const tab = bytes.indexOf(0x09, r.offset);
      if (tab < 0) throw r.error(`rowLabels[${i}]`, 'a row label ending with a tab', 'no tab before the end of the file');
      labels[i] = bytesToByteString(bytes, r.offset, tab);
      r.offset = tab + 1;
    }
    const cellCount = rowCount * columns.length;
    r.checkCount(cellCount, 2, `cellOffsets (${rowCount} rows × ${columns.length} columns)`, r.offset);
    const offsetsAt = r.offset;
    r.skip(cellCount * 2, 'cellOffsets');
    const dataSize = r.u16('dataSize');
    const dataStart = r.offset;
    const dataEnd = dataStart + dataSize;
    if (dataEnd > bytes.length) throw r.error('dataSize', `at most the ${bytes.length - dataStart} byte(s) left`, String(dataSize), dataStart - 2);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // End of the string starting at each data offset (-1: no NUL before the block ends),
    // found in one backward pass so that 65535 distinct offsets cost one scan.
    const stringEnd = new Int32Array(dataSize);
    for (let j = dataSize - 1, next = -1; j >= 0; j--) {
      if (bytes[dataStart + j] === 0) next = j;
      stringEnd[j] = next;
    }
    const byOffset = new Map<number, string>();
    const values: string[] = new Array<string>(cellCount);
    for (let i = 0; i < cellCount; i++) {
      const at = offsetsAt + 2 * i;
      const offset = view.getUint16(at, true);
      let value = byOffset.get(offset);
      if (value === undefined) {
        const field = `cellOffsets[${Math.floor(i / columns.length)}][${i % columns.length}]`;
        if (offset >= dataSize) throw r.error(field, `an offset below the data size ${dataSize}`, String(offset), at);
        const nul = stringEnd[offset]!;
        if (nul < 0) throw r.error(field, 'a string ending with a NUL inside the data block', 'no NUL before the end of the data block', at);
        value = bytesToByteString(bytes, dataStart + offset, dataStart + nul);
        byOffset.set(offset, value);
      }
      values[i] = value;
    }
    return new TwoDaBinary(columns, labels, values, bytes);
  }

  get rowCount(): number {
    return this.labels.length;
  }

  /** True while the table holds exactly what was read (and is written back as read). */
  get unedited(): boolean {
    return this.original !== undefined;
  }

  columnIndex(name: string): number {
    return this.columnMap.get(name.toLowerCase()) ?? -1;
  }

  rowLabel(row: number): string | undefined {
    return this.rowOk(row) ? this.labels[row] : undefined;
  }

  cell(row: number, column: string | number): string | undefined {
    const c = typeof column === 'number' ? column : this.columnIndex(column);
    if (!this.rowOk(row) || !Number.isInteger(c) || c < 0 || c >= this.columns.length) return undefined;
    const v = this.values[row * this.columns.length + c]!;
    return v === '' || v === TWODA_EMPTY ? undefined : v;
  }

  /** Sets one cell (undefined = empty). */
  setCell(row: number, column: string | number, value: string | undefined): void {
    const c = typeof column === 'number' ? column : this.columnIndex(column);
    if (!Number.isInteger(c) || c < 0 || c >= this.columns.length) throw new RangeError(`2DA has no column ${JSON.stringify(column)}`);
    if (!this.rowOk(row)) throw new RangeError(`2DA row ${row} is past the last row (${this.rowCount - 1})`);
    if (value !== undefined) checkText(value, `cell (${row}, ${this.columns[c]})`);
    this.values[row * this.columns.length + c] = value ?? '';
    this.original = undefined;
  }

  setRowLabel(row: number, label: string): void {
    if (!this.rowOk(row)) throw new RangeError(`2DA row ${row} is past the last row (${this.rowCount - 1})`);
    checkText(label, 'row label');
    this.labels[row] = label;
    this.original = undefined;
  }

  /** Appends a row (cells by column name or position; missing = empty); returns its index. */
  addRow(cells: Readonly<Record<string, string | undefined>> | readonly (string | undefined)[], label?: string): number {
    const row = this.rowCount;
    const next: string[] = new Array<string>(this.columns.length).fill('');
    if (Array.isArray(cells)) {
      const list: readonly (string | undefined)[] = cells;
      if (list.length > this.columns.length) throw new RangeError(`2DA row has ${list.length} cells for ${this.columns.length} columns`);
      list.forEach((v, i) => (next[i] = v ?? ''));
    } else {
      for (const [name, v] of Object.entries(cells)) {
        const c = this.columnIndex(name);
        if (c < 0) throw new RangeError(`2DA has no column ${JSON.stringify(name)}`);
        next[c] = v ?? '';
      }
    }
    const rowLabel = label ?? String(row);
    checkText(rowLabel, 'row label');
    next.forEach((v, i) => checkText(v, `cell (${row}, ${this.columns[i]})`));
    this.labels.push(rowLabel);
    this.values.push(...next);
    this.original = undefined;
    return row;
  }

  /** The file bytes: as read while unedited, else the canonical layout. */
  write(): Uint8Array {
    return this.original !== undefined ? this.original.slice() : this.encodeCanonical();
  }

  encodeCanonical(): Uint8Array {
    const head = `${SIGNATURE}\n${this.columns.map((c) => `${c}\t`).join('')}\0`;
    const labels = this.labels.map((l) => `${l}\t`).join('');
    const offsets = new Uint16Array(this.values.length);
    const shared = new Map<string, number>();
    const data: string[] = [];
    let dataSize = 0;
    this.values.forEach((v, i) => {
      let at = shared.get(v);
      if (at === undefined) {
        at = dataSize;
        if (at > 0xffff) throw new RangeError(`2DA V2.b cell data exceed 65535 bytes (u16 offsets) at cell ${i}`);
        shared.set(v, at);
        data.push(v, '\0');
        dataSize += v.length + 1;
      }
      offsets[i] = at;
    });
    if (dataSize > 0xffff) throw new RangeError(`2DA V2.b cell data are ${dataSize} bytes; the u16 data size allows 65535`);
    const headBytes = byteStringToBytes(head + '\0\0\0\0' + labels, '2DA header');
    const dataBytes = byteStringToBytes(data.join(''), '2DA cells');
    const out = new Uint8Array(headBytes.length + offsets.length * 2 + 2 + dataBytes.length);
    const view = new DataView(out.buffer);
    out.set(headBytes, 0);
    view.setUint32(head.length, this.labels.length, true);
    let p = headBytes.length;
    for (const o of offsets) {
      view.setUint16(p, o, true);
      p += 2;
    }
    view.setUint16(p, dataSize, true);
    out.set(dataBytes, p + 2);
    return out;
  }

  private rowOk(row: number): boolean {
    return Number.isInteger(row) && row >= 0 && row < this.labels.length;
  }
}

/** readTwoDaBinary's memory bound (see ReadMemoryBound). */
export const TWODA_BINARY_READ_MEMORY: ReadMemoryBound = { perInputByte: 16, perDecompressedByte: 0 };

/**
 * Reads a binary 2DA (V2.b). Memory bound (TWODA_BINARY_READ_MEMORY): a row label per
 * label of at least one byte, 8 bytes per 2-byte cell offset, a string per distinct cell
 * offset (cached: the same offset is one string), and the string-end table of 4 bytes per
 * data byte: at most 16 bytes per input byte, nothing decompressed.
 */
export function readTwoDaBinary(bytes: Uint8Array): TwoDaBinary {
  return TwoDaBinary.read(bytes);
}

export function writeTwoDaBinary(table: TwoDaBinary): Uint8Array {
  return table.write();
}

export function sniffTwoDaBinary(bytes: Uint8Array): boolean {
  return bytes.length >= 9 && bytesToByteString(bytes, 0, 9) === `${SIGNATURE}\n`;
}

/** Reads a 2DA in either encoding (binary V2.b or text V2.0). */
export function readAnyTwoDa(bytes: Uint8Array): TwoDaTable {
  if (sniffTwoDaBinary(bytes)) return TwoDaBinary.read(bytes);
  if (sniffTwoDaText(bytes)) return readTwoDaText(bytes);
  throw new MalformedInputError({ format: TWODA_FORMAT, offset: 0, field: 'signature', expected: '"2DA V2.b" (binary) or "2DA V2.0" (text)', found: JSON.stringify(bytesToByteString(bytes, 0, Math.min(9, bytes.length))) });
}

function checkText(value: string, what: string): void {
  if (/[\t\0]/.test(value)) throw new RangeError(`2DA ${what} ${JSON.stringify(value)} cannot hold a tab or a NUL`);
  byteStringToBytes(value, `2DA ${what}`);
}
