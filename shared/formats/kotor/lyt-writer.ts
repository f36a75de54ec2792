import { byteStringToBytes } from '../aurora/byte-string';
import { lytContentKey, lytRowKey, type LytDocument, type LytDoorHook, type LytPlacement, type LytSection, type LytSourceLayout } from './lyt-document';

const SECTIONS: readonly (readonly [LytSection, string])[] = [
  ['rooms', 'roomcount'],
  ['tracks', 'trackcount'],
  ['obstacles', 'obstaclecount'],
  ['doorHooks', 'doorhookcount'],
];

/**
 * Writes a LYT. A document read from a file and left unedited is written back as read,
 * byte for byte (indentation, tabs, CRLF/LF, number spellings such as `3.84015e-007`).
 * An edited one keeps every line it did not change: changed rows are re-rendered with
 * their line's indentation, counts are updated in place, added rows follow the section's
 * last row. A new document (or one whose header lines or line break changed) is written
 * in the layout of the game files.
 */
export function writeLyt(doc: LytDocument): Uint8Array {
  const kept = doc.preserved;
  if (kept !== undefined && kept.snapshot === lytContentKey(doc)) return byteStringToBytes(kept.text, 'LYT text');
  const patched = kept !== undefined ? patchLytText(doc, kept.layout) : undefined;
  return byteStringToBytes(patched ?? lytToCanonicalText(doc), 'LYT text');
}

export function lytToCanonicalText(doc: LytDocument): string {
  const out: string[] = [...doc.headerLines, 'beginlayout'];
  for (const [section, keyword] of SECTIONS) {
    const rows = renderRows(doc, section);
    out.push(`   ${keyword} ${rows.length}`);
    for (const r of rows) out.push(`      ${r}`);
  }
  out.push('donelayout');
  for (const line of out) checkLine(line);
  return out.join(doc.lineEnding) + doc.lineEnding;
}

/** The edited document over the lines it was read from, or undefined when that cannot be done. */
function patchLytText(doc: LytDocument, layout: LytSourceLayout): string | undefined {
  if (doc.headerLines.join('\u0003') !== layout.headerKey || doc.lineEnding !== layout.lineEnding) return undefined;
  const cr = doc.lineEnding === '\r\n' ? '\r' : '';
  // Each original line becomes zero or more lines (without their '\n').
  const out: string[][] = layout.lines.map((l) => [l]);
  for (const [section, keyword] of SECTIONS) {
    const rows = section === 'doorHooks' ? doc.doorHooks : doc[section];
    const source = layout.sections[section];
    if (source === undefined) {
      if (rows.length === 0) continue;
      const lines = [`   ${keyword} ${rows.length}${cr}`, ...renderRows(doc, section).map((r) => `      ${r}${cr}`)];
      out[layout.doneLine]!.unshift(...lines);
      continue;
    }
    const old = source.rowLines.length;
    if (rows.length !== old) {
      const countLine = layout.lines[source.countLine]!;
      out[source.countLine] = [countLine.replace(/^(\s*\S+\s+)\d+/, (_m, head: string) => `${head}${rows.length}`)];
    }
    const rendered = renderRows(doc, section);
    for (let i = 0; i < old; i++) {
      const at = source.rowLines[i]!;
      if (i >= rows.length) out[at] = [];
      else if (lytRowKey(rows[i]!) !== source.rowKeys[i]) {
        const line = layout.lines[at]!;
        out[at] = [`${/^[ \t]*/.exec(line)![0]}${rendered[i]}${line.endsWith('\r') ? '\r' : ''}`];
      }
    }
    if (rows.length > old) {
      const after = old > 0 ? source.rowLines[old - 1]! : source.countLine;
      const indent = old > 0 ? /^[ \t]*/.exec(layout.lines[after]!)![0] : '      ';
      out[after]!.push(...rendered.slice(old).map((r) => `${indent}${r}${cr}`));
    }
  }
  return out.flat().join('\n');
}

function renderRows(doc: LytDocument, section: LytSection): string[] {
  const lines = section === 'doorHooks' ? doc.doorHooks.map(doorHookLine) : doc[section].map(placementLine);
  for (const line of lines) checkLine(line);
  return lines;
}

/** Whole numbers as `100.0` (as the game files write them), others in shortest form. */
export function formatLytNumber(v: number): string {
  if (!Number.isFinite(v)) throw new RangeError(`LYT numbers must be finite, got ${v}`);
  if (Object.is(v, -0)) return '-0.0';
  return Number.isInteger(v) && Math.abs(v) < 1e21 ? `${v}.0` : String(v);
}

function name(s: string, what: string): string {
  if (s.length === 0 || /\s/.test(s)) throw new RangeError(`LYT ${what} ${JSON.stringify(s)} must be one non-empty token without spaces`);
  return s;
}

function placementLine(r: LytPlacement): string {
  return [name(r.name, 'model name'), formatLytNumber(r.x), formatLytNumber(r.y), formatLytNumber(r.z)].join(' ');
}

function doorHookLine(d: LytDoorHook): string {
  const head = [name(d.room, 'door hook room'), name(d.door, 'door hook name')];
  if (d.unknown !== undefined) head.push(name(d.unknown, 'door hook third token'));
  return [...head, ...[d.x, d.y, d.z, ...d.orientation].map(formatLytNumber)].join(' ');
}

function checkLine(line: string): void {
  if (/[\r\n]/.test(line)) throw new RangeError(`LYT line ${JSON.stringify(line)} cannot hold a line break`);
}
