import { error, warning, type Finding } from '../../validation/finding';
import type { FileSummary, FormatHandler } from '../format-handler';
import { LYT_FORMAT, type LytDocument } from './lyt-document';
import { readLyt, sniffLyt } from './lyt-reader';
import { writeLyt } from './lyt-writer';

/** The longest resref the game loads (kotor-bwm.md §8.4). */
const RESREF_MAX = 16;

export function summarizeLyt(doc: LytDocument): FileSummary {
  const details: Record<string, string | number | boolean> = { lineEnding: doc.lineEnding === '\r\n' ? 'CRLF' : 'LF' };
  const dependency = doc.headerLines.find((l) => /^filedepend[ae]ncy\s/i.test(l));
  if (dependency !== undefined) details.fileDependency = dependency.replace(/^\S+\s+/, '');
  return {
    version: 'ASCII layout',
    counts: { rooms: doc.rooms.length, tracks: doc.tracks.length, obstacles: doc.obstacles.length, doorHooks: doc.doorHooks.length },
    details,
  };
}

/**
 * What breaks composition: a room resref the game cannot load (over 16 characters), the
 * same room twice apart from `****` placeholders (WOK transitions are room indices, so a duplicate shifts nothing but
 * loads one walkmesh twice), and door hooks naming a room the layout does not list.
 */
export function validateLyt(doc: LytDocument): Finding[] {
  const out: Finding[] = [];
  const firstIndex = new Map<string, number>();
  doc.rooms.forEach((r, i) => {
    if (r.name.length > RESREF_MAX) {
      out.push(error('lyt.room.name-too-long', `room ${i} "${r.name}" is longer than the ${RESREF_MAX} characters of a resref`, { kind: 'room', id: i }));
    }
    // Cut-scene ("stunt") layouts blank the rooms they do not load as `****`.
    if (r.name === '****') return;
    const key = r.name.toLowerCase();
    const first = firstIndex.get(key);
    if (first === undefined) firstIndex.set(key, i);
    else out.push(warning('lyt.room.duplicate', `room ${i} "${r.name}" repeats room ${first} (names ignore case)`, { kind: 'room', id: i }));
  });
  // Room positions place the rooms' walkmeshes in the world: an overflowing number (1e999) is infinite.
  const place = (kind: string, list: readonly { name: string; x: number; y: number; z: number }[], subject: boolean) =>
    list.forEach((r, i) => {
      if (Number.isFinite(r.x) && Number.isFinite(r.y) && Number.isFinite(r.z)) return;
      const message = `${kind} ${i} "${r.name}" is at (${r.x}, ${r.y}, ${r.z}); every coordinate must be a finite number`;
      out.push(subject ? error('lyt.position-not-finite', message, { kind: 'room', id: i }) : error('lyt.position-not-finite', message));
    });
  place('room', doc.rooms, true);
  place('track', doc.tracks, false);
  place('obstacle', doc.obstacles, false);
  doc.doorHooks.forEach((d, i) => {
    if (![d.x, d.y, d.z, ...d.orientation].every(Number.isFinite)) {
      out.push(error('lyt.position-not-finite', `door hook ${i} "${d.door}" is at (${d.x}, ${d.y}, ${d.z}) turned by (${d.orientation.join(', ')}); every number must be finite`));
    }
  });
  doc.doorHooks.forEach((d, i) => {
    if (!firstIndex.has(d.room.toLowerCase())) {
      out.push(warning('lyt.doorhook.unknown-room', `door hook ${i} "${d.door}" names room "${d.room}", which the layout does not list`));
    }
  });
  return out;
}

/**
 * KotOR area layout (`.lyt`). A LYT holds no walkmesh of its own: it places the rooms whose
 * `.wok` files make up the area, so `toWalkmeshes` returns none.
 */
export const lytFormat: FormatHandler<LytDocument> = {
  id: LYT_FORMAT,
  game: 'kotor',
  label: 'KotOR area layout (LYT)',
  extensions: ['.lyt'],
  sniff: sniffLyt,
  read: (bytes) => readLyt(bytes),
  write: (doc) => writeLyt(doc),
  summarize: summarizeLyt,
  validate: validateLyt,
  toWalkmeshes: () => [],
};
