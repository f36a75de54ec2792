import type { ReadMemoryBound } from '../../binary/read-budget';
import { MalformedInputError } from '../../binary/malformed-input-error';
import { byteStringToBytes, bytesToByteString } from './byte-string';
import { TWODA_EMPTY, type TwoDaTable } from './twoda-table';

export const TWODA_FORMAT = '2da';

/**
 * A text 2DA (`2DA V2.0`): a version line, an optional `DEFAULT:` line, the column-name line,
 * then one row per non-blank line, each starting with its row label. Cells are separated by
 * any run of spaces and tabs; a cell with spaces is quoted; `****` is an empty cell; a short
 * row's missing cells are empty.
 *
 * Exact writing: the table keeps the file's lines as read (split at `\n`, each keeping its
 * `\r`), so blank lines, alignment, separators, CRLF/LF mixes and the final line break all
 * survive. Reading a row only tokenizes it (lazily, on first access). Editing a row replaces
 * that one line with a canonical rendering (label and cells joined by the file's separator,
 * a tab unless the column line uses none); added rows go after the last row. So an
 * unedited table is written back byte for byte and an edited one differs only in the lines
 * of the rows that were edited or added.
 */
export class TwoDaText implements TwoDaTable {
  readonly columns: readonly string[];
  /** The `DEFAULT:` value, when the file has one (returned by `cellOrDefault`). */
  readonly defaultValue: string | undefined;
  private readonly lines: string[];
  private readonly rowLines: number[];
  private readonly tokens: ((string | undefined)[] | undefined)[];
  private readonly columnMap = new Map<string, number>();
  private readonly separator: string;
  private readonly lineEnd: string;
  private readonly columnLine: number;

  private constructor(lines: string[], columnLine: number, columns: string[], defaultValue: string | undefined, rowLines: number[]) {
    this.lines = lines;
    this.columnLine = columnLine;
    this.columns = columns;
    this.defaultValue = defaultValue;
    this.rowLines = rowLines;
    this.tokens = new Array<(string | undefined)[] | undefined>(rowLines.length);
    columns.forEach((c, i) => {
      const key = c.toLowerCase();
      if (!this.columnMap.has(key)) this.columnMap.set(key, i);
    });
    const header = lines[columnLine]!;
    this.separator = header.includes('\t') || !header.includes(' ') ? '\t' : ' ';
    this.lineEnd = header.endsWith('\r') ? '\r' : '';
  }

  /** Parses the text of a 2DA V2.0 file (a byte string, see byte-string.ts). */
  static parse(text: string): TwoDaText {
    const lines = text.split('\n');
    const first = stripCr(lines[0]!);
    const signature = tokenize(first.startsWith('\xef\xbb\xbf') ? first.slice(3) : first);
    if (signature[0]?.toUpperCase() !== '2DA') {
      throw new MalformedInputError({ format: TWODA_FORMAT, offset: 0, field: 'signature', expected: '"2DA V2.0"', found: JSON.stringify(first.slice(0, 16)) });
    }
    const version = signature[1];
    if (version !== 'V2.0') {
      const hint = version === 'V2.b' ? ' (V2.b is the binary 2DA of KotOR, not a text table)' : '';
      throw new MalformedInputError({ format: TWODA_FORMAT, offset: Math.max(0, first.indexOf(version ?? '')), field: 'version', expected: `"V2.0"${hint}`, found: JSON.stringify(version ?? '') });
    }
    let defaultValue: string | undefined;
    let columnLine = -1;
    let i = 1;
    for (; i < lines.length; i++) {
      const line = stripCr(lines[i]!);
      if (isBlank(line)) continue;
      const trimmed = line.trimStart();
      if (trimmed.slice(0, 8).toUpperCase() === 'DEFAULT:') {
        defaultValue = tokenize(trimmed.slice(8))[0];
        continue;
      }
      columnLine = i;
      break;
    }
    if (columnLine < 0) {
      throw new MalformedInputError({ format: TWODA_FORMAT, offset: text.length, field: 'columns', expected: 'a line of column names after the version line', found: 'the end of the file' });
    }
    const columns = tokenize(stripCr(lines[columnLine]!)).map((c) => c ?? TWODA_EMPTY);
    const rowLines: number[] = [];
    for (i = columnLine + 1; i < lines.length; i++) if (!isBlank(lines[i]!)) rowLines.push(i);
    return new TwoDaText(lines, columnLine, columns, defaultValue, rowLines);
  }

  /** A new, empty table in the layout of the NWN2 game files (tabs, CRLF, blank line 2). */
  static create(columns: readonly string[]): TwoDaText {
    for (const c of columns) checkCellText(c, 'column name');
    return TwoDaText.parse(`2DA\tV2.0\r\n\r\n\t${columns.join('\t')}\r\n`);
  }

  get rowCount(): number {
    return this.rowLines.length;
  }

  columnIndex(name: string): number {
    return this.columnMap.get(name.toLowerCase()) ?? -1;
  }

  rowLabel(row: number): string | undefined {
    return this.row(row)?.[0];
  }

  cell(row: number, column: string | number): string | undefined {
    const c = typeof column === 'number' ? column : this.columnIndex(column);
    if (c < 0 || c >= this.columns.length) return undefined;
    return this.row(row)?.[c + 1];
  }

  /** The cell, or the file's `DEFAULT:` value when the cell is empty or missing. */
  cellOrDefault(row: number, column: string | number): string | undefined {
    return this.cell(row, column) ?? this.defaultValue;
  }

  /** Cells past the last column on this row (kept and written back; ignored by games). */
  extraCells(row: number): (string | undefined)[] {
    return this.row(row)?.slice(this.columns.length + 1) ?? [];
  }

  /** Sets one cell (undefined = `****`); the row's line is re-rendered canonically. */
  setCell(row: number, column: string | number, value: string | undefined): void {
    const c = typeof column === 'number' ? column : this.columnIndex(column);
    if (c < 0 || c >= this.columns.length) throw new RangeError(`2DA has no column ${JSON.stringify(column)}`);
    const tokens = this.row(row);
    if (tokens === undefined) throw new RangeError(`2DA row ${row} is past the last row (${this.rowCount - 1})`);
    if (value !== undefined) checkCellText(value, `cell (${row}, ${this.columns[c]})`);
    const next = tokens.slice();
    while (next.length < c + 2) next.push(undefined);
    next[c + 1] = value;
    this.replaceRow(row, next);
  }

  /** Changes a row's label (the first token of its line). */
  setRowLabel(row: number, label: string): void {
    const tokens = this.row(row);
    if (tokens === undefined) throw new RangeError(`2DA row ${row} is past the last row (${this.rowCount - 1})`);
    checkCellText(label, 'row label');
    const next = tokens.slice();
    next[0] = label;
    this.replaceRow(row, next);
  }

  /**
   * Appends a row after the last one. Cells by column name (case-insensitive) or by
   * position; missing cells are empty. The label defaults to the new row's index.
   * Returns the new row's index.
   */
  addRow(cells: Readonly<Record<string, string | undefined>> | readonly (string | undefined)[], label?: string): number {
    const row = this.rowCount;
    const tokens: (string | undefined)[] = [label ?? String(row)];
    for (let c = 0; c < this.columns.length; c++) tokens.push(undefined);
    if (Array.isArray(cells)) {
      const values: readonly (string | undefined)[] = cells;
      if (values.length > this.columns.length) throw new RangeError(`2DA row has ${values.length} cells for ${this.columns.length} columns`);
      values.forEach((v, i) => (tokens[i + 1] = v));
    } else {
      for (const [name, v] of Object.entries(cells)) {
        const c = this.columnIndex(name);
        if (c < 0) throw new RangeError(`2DA has no column ${JSON.stringify(name)}`);
        tokens[c + 1] = v;
      }
    }
    tokens.forEach((t, i) => t !== undefined && checkCellText(t, i === 0 ? 'row label' : `cell (${row}, ${this.columns[i - 1]})`));
    const at = row > 0 ? this.rowLines[row - 1]! + 1 : this.columnLine + 1;
    this.lines.splice(at, 0, this.render(tokens));
    this.rowLines.push(at);
    this.tokens.push(tokens);
    return row;
  }

  /** The file text (a byte string): the lines as read, with edited rows re-rendered. */
  toText(): string {
    return this.lines.join('\n');
  }

  private row(row: number): (string | undefined)[] | undefined {
    if (!Number.isInteger(row) || row < 0 || row >= this.rowLines.length) return undefined;
    let t = this.tokens[row];
    if (t === undefined) {
      t = tokenize(stripCr(this.lines[this.rowLines[row]!]!));
      this.tokens[row] = t;
    }
    return t;
  }

  private replaceRow(row: number, tokens: (string | undefined)[]): void {
    const line = this.rowLines[row]!;
    const old = this.lines[line]!;
    this.lines[line] = this.render(tokens, old.endsWith('\r') ? '\r' : '');
    this.tokens[row] = tokens;
  }

  private render(tokens: readonly (string | undefined)[], lineEnd = this.lineEnd): string {
    return tokens.map(renderCell).join(this.separator) + lineEnd;
  }
}

export function parseTwoDaText(text: string): TwoDaText {
  return TwoDaText.parse(text);
}

/** readTwoDaText's memory bound (see ReadMemoryBound). */
export const TWODA_TEXT_READ_MEMORY: ReadMemoryBound = { perInputByte: 16, perDecompressedByte: 0 };

/**
 * Reads a 2DA V2.0 file from its bytes (any code page; see byte-string.ts).
 *
 * Memory bound (TWODA_TEXT_READ_MEMORY): the text (a byte per byte), its lines (a string
 * per line of at least one byte, about 8 measured on real tables) and their positions;
 * rows are tokenized only when read: at most 16 bytes per input byte, nothing decompressed.
 */
export function readTwoDaText(bytes: Uint8Array): TwoDaText {
  return TwoDaText.parse(bytesToByteString(bytes));
}

export function writeTwoDaText(table: TwoDaText): Uint8Array {
  return byteStringToBytes(table.toText(), '2DA text');
}

/** True when the bytes start like a text 2DA (`2DA V2.0`, any whitespace). */
export function sniffTwoDaText(bytes: Uint8Array): boolean {
  const head = bytesToByteString(bytes, 0, Math.min(bytes.length, 32)).replace(/^\xef\xbb\xbf/, '');
  return /^\s*2DA[ \t]+V2\.0\b/i.test(head);
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/**
 * Splits a line at runs of spaces/tabs. A token starting with `"` runs to the next `"`
 * (or the end of the line); unquoted `****` is an empty cell (undefined).
 */
function tokenize(line: string): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  const n = line.length;
  let i = 0;
  while (i < n) {
    let c = line.charCodeAt(i);
    if (c === 0x20 || c === 0x09) {
      i++;
      continue;
    }
    if (c === 0x22) {
      const close = line.indexOf('"', i + 1);
      const end = close < 0 ? n : close;
      out.push(line.slice(i + 1, end));
      i = end + 1;
      continue;
    }
    const start = i;
    while (i < n && (c = line.charCodeAt(i)) !== 0x20 && c !== 0x09) i++;
    const token = line.slice(start, i);
    out.push(token === TWODA_EMPTY ? undefined : token);
  }
  return out;
}

function renderCell(value: string | undefined): string {
  if (value === undefined) return TWODA_EMPTY;
  return value === '' || value === TWODA_EMPTY || /[ \t]/.test(value) ? `"${value}"` : value;
}

function checkCellText(value: string, what: string): void {
  if (/["\r\n]/.test(value)) {
    throw new RangeError(`2DA ${what} ${JSON.stringify(value)} cannot hold a quote or a line break`);
  }
}
