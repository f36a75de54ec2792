import type { ReadMemoryBound } from '../../binary/read-budget';
import { MalformedInputError } from '../../binary/malformed-input-error';
import { bytesToByteString } from '../aurora/byte-string';
import {
  LYT_FORMAT,
  lytContentKey,
  lytRowKey,
  type LytDocument,
  type LytDoorHook,
  type LytPlacement,
  type LytSection,
  type LytSourceLayout,
  type LytSourceSection,
} from './lyt-document';

/** readLyt's memory bound (see ReadMemoryBound). */
export const LYT_READ_MEMORY: ReadMemoryBound = { perInputByte: 64, perDecompressedByte: 0 };

const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i;

const SECTION_KEYWORDS: ReadonlyMap<string, LytSection> = new Map([
  ['roomcount', 'rooms'],
  ['trackcount', 'tracks'],
  ['obstaclecount', 'obstacles'],
  ['doorhookcount', 'doorHooks'],
]);

interface Line {
  tokens: string[];
  /** Index in the text split at `\n`. */
  index: number;
  /** Byte offset of the line's first character. */
  offset: number;
}

function fail(offset: number, field: string, expected: string, found: string): MalformedInputError {
  return new MalformedInputError({ format: LYT_FORMAT, offset, field, expected, found });
}

/** True when the bytes start like a LYT (optional `#MAXLAYOUT`/`filedependancy` lines, then `beginlayout`). */
export function sniffLyt(bytes: Uint8Array): boolean {
  const head = bytesToByteString(bytes, 0, Math.min(bytes.length, 512));
  for (const line of head.split('\n')) {
    const first = line.trim().split(/[ \t]+/)[0]!.toLowerCase();
    if (first === '' || first.startsWith('#') || first === 'filedependancy' || first === 'filedependency') continue;
    return first === 'beginlayout';
  }
  return false;
}

/**
 * Reads a LYT. Keywords are case-insensitive, tokens are separated by any run of spaces and
 * tabs (K1CP files mix both), blank lines are ignored and sections may come in any order.
 * A row count is never trusted: rows are read line by line and a count larger than the
 * rows present is a MalformedInputError (format `kotor-lyt`) naming the section.
 *
 * Memory bound (LYT_READ_MEMORY): the text, and per non-blank line (at least 2 bytes) a
 * line record, its tokens and at most one row: at most 64 bytes per input byte (a layout
 * is a few kilobytes; the bound matters for a file made of one-letter lines), nothing
 * decompressed.
 */
export function readLyt(bytes: Uint8Array): LytDocument {
  const text = bytesToByteString(bytes);
  const lines: Line[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  let index = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    else if (end > start && text.charCodeAt(end - 1) === 0x0d) crlf++;
    else lf++;
    const raw = text.slice(start, end);
    const tokens = raw.split(/[ \t\r\f\v]+/).filter((t) => t.length > 0);
    if (tokens.length > 0) lines.push({ tokens, offset: start, index });
    start = end + 1;
    index++;
  }

  const doc: LytDocument = { headerLines: [], rooms: [], tracks: [], obstacles: [], doorHooks: [], lineEnding: crlf > lf ? '\r\n' : '\n' };
  let i = 0;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.tokens[0]!.toLowerCase() === 'beginlayout') break;
    const first = line.tokens[0]!.toLowerCase();
    if (!first.startsWith('#') && first !== 'filedependancy' && first !== 'filedependency') {
      throw fail(line.offset, 'header', '"beginlayout", optionally after "#MAXLAYOUT ASCII" and "filedependancy" lines', JSON.stringify(line.tokens.join(' ').slice(0, 40)));
    }
    doc.headerLines.push(line.tokens.join(' '));
  }
  if (i >= lines.length) throw fail(text.length, 'beginlayout', 'a "beginlayout" line', 'the end of the file');
  i++;

  const sections: LytSourceLayout['sections'] = {};
  let doneLine = -1;
  for (;;) {
    const line = lines[i];
    if (line === undefined) throw fail(text.length, 'donelayout', 'a "donelayout" line closing the layout', 'the end of the file');
    i++;
    const keyword = line.tokens[0]!.toLowerCase();
    if (keyword === 'donelayout') {
      doneLine = line.index;
      break;
    }
    const section = SECTION_KEYWORDS.get(keyword);
    if (section === undefined) {
      throw fail(line.offset, 'section', '"roomcount", "trackcount", "obstaclecount", "doorhookcount" or "donelayout"', JSON.stringify(line.tokens[0]));
    }
    if (sections[section] !== undefined) throw fail(line.offset, keyword, 'each section once', `a second "${line.tokens[0]}"`);
    const source: LytSourceSection = { countLine: line.index, rowLines: [], rowKeys: [] };
    sections[section] = source;
    const countText = line.tokens[1] ?? '';
    if (line.tokens.length !== 2 || !/^\d{1,9}$/.test(countText)) {
      throw fail(line.offset, keyword, `"${keyword} N" with a non-negative integer N`, JSON.stringify(line.tokens.join(' ')));
    }
    const count = Number.parseInt(countText, 10);
    if (count > lines.length - i) {
      throw fail(line.offset, keyword, `a count of at most the ${lines.length - i} non-blank line(s) left`, String(count));
    }
    for (let k = 0; k < count; k++, i++) {
      const row = lines[i]!;
      const field = `${section}[${k}]`;
      let key: string;
      if (section === 'doorHooks') {
        const hook = doorHook(row, field);
        doc.doorHooks.push(hook);
        key = lytRowKey(hook);
      } else {
        const at = placement(row, field);
        doc[section].push(at);
        key = lytRowKey(at);
      }
      source.rowLines.push(row.index);
      source.rowKeys.push(key);
    }
  }
  const layout: LytSourceLayout = { lines: text.split('\n'), sections, doneLine, headerKey: doc.headerLines.join('\u0003'), lineEnding: doc.lineEnding };
  doc.preserved = { text, snapshot: lytContentKey(doc), layout };
  return doc;
}

function num(line: Line, index: number, field: string): number {
  const t = line.tokens[index]!;
  if (!NUMBER.test(t)) throw fail(line.offset, field, 'a decimal number', JSON.stringify(t));
  return Number(t);
}

function placement(line: Line, field: string): LytPlacement {
  if (line.tokens.length !== 4) {
    throw fail(line.offset, field, '4 tokens "model x y z"', `${line.tokens.length}: ${JSON.stringify(line.tokens.join(' ').slice(0, 60))}`);
  }
  return { name: line.tokens[0]!, x: num(line, 1, `${field}.x`), y: num(line, 2, `${field}.y`), z: num(line, 3, `${field}.z`) };
}

function doorHook(line: Line, field: string): LytDoorHook {
  const n = line.tokens.length;
  if (n !== 10 && n !== 9) {
    throw fail(line.offset, field, '10 tokens "room door 0 x y z q0 q1 q2 q3" (or 9, without the 0)', `${n}: ${JSON.stringify(line.tokens.join(' ').slice(0, 80))}`);
  }
  const p = n === 10 ? 3 : 2;
  return {
    room: line.tokens[0]!,
    door: line.tokens[1]!,
    unknown: n === 10 ? line.tokens[2]! : undefined,
    x: num(line, p, `${field}.x`),
    y: num(line, p + 1, `${field}.y`),
    z: num(line, p + 2, `${field}.z`),
    orientation: [num(line, p + 3, `${field}.q0`), num(line, p + 4, `${field}.q1`), num(line, p + 5, `${field}.q2`), num(line, p + 6, `${field}.q3`)],
  };
}
