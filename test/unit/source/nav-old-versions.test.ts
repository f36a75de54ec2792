import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { navFormat } from '../../../shared/formats/source/nav-format';
import { navFromWalkmesh } from '../../../shared/formats/source/nav-from-walkmesh';
import { navToWalkmesh } from '../../../shared/formats/source/nav-walkmesh';
import type { NavDocument } from '../../../shared/formats/source/nav-document';
import { readNav } from '../../../shared/formats/source/nav-reader';
import { validateNav } from '../../../shared/formats/source/nav-validate';
import { writeNav } from '../../../shared/formats/source/nav-writer';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';
import { navAsOldVersion } from '../../support/nav-test-files';

/**
 * `.nav` versions 1 to 4 (CS 1.6 / CZ bots). The real files are the version 3 and 4 ones
 * among the fixtures, found by reading each file's version; versions 1 and 2 have no real
 * file we know of and are tested with files generated to the loaders' rules from them.
 */
const version = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
const old = [...listFixtures('source', ['.nav']), ...listFixtures('source-maps', ['.nav'])].filter((f) => version(readFixture(f)) <= 4);
const equalBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

interface Walked {
  areas: number;
  connections: number;
  hidingSpots: number;
  approaches: number;
  encounterPaths: number;
  encounterSpots: number;
  places: number;
  /** Offset just after the last area. */
  end: number;
}

/**
 * A plain field-by-field walk of a GoldSrc-era file (versions 1–5, which end after the
 * areas), written from the spec's tables independently of readNav's two-pass reader.
 */
function walk(bytes: Uint8Array): Walked {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const v = dv.getUint32(4, true);
  let o = 8 + (v >= 4 ? 4 : 0);
  let places = 0;
  if (v >= 5) {
    places = dv.getUint16(o, true);
    o += 2;
    for (let i = 0; i < places; i++) o += 2 + dv.getUint16(o, true);
  }
  const w: Walked = { areas: dv.getUint32(o, true), connections: 0, hidingSpots: 0, approaches: 0, encounterPaths: 0, encounterSpots: 0, places, end: 0 };
  o += 4;
  for (let a = 0; a < w.areas; a++) {
    o += 4 + 1 + 24 + 8; // id, u8 attributes, extent, two implicit corner heights
    for (let d = 0; d < 4; d++) {
      const n = dv.getUint32(o, true);
      o += 4 + 4 * n;
      w.connections += n;
    }
    const spots = dv.getUint8(o);
    o += 1 + spots * (v === 1 ? 12 : 17);
    w.hidingSpots += spots;
    const approaches = dv.getUint8(o);
    o += 1 + approaches * 14;
    w.approaches += approaches;
    const paths = dv.getUint32(o, true);
    o += 4;
    w.encounterPaths += paths;
    for (let p = 0; p < paths; p++) {
      o += v < 3 ? 32 : 10;
      const n = dv.getUint8(o);
      o += 1 + n * (v < 3 ? 16 : 5);
      w.encounterSpots += n;
    }
    if (v >= 5) o += 2;
  }
  w.end = o;
  return w;
}

function counts(doc: NavDocument): Walked {
  const A = doc.areas;
  return {
    areas: A.count,
    connections: A.connectionTarget.length,
    hidingSpots: A.hidingSpotPosition.length / 3,
    approaches: A.approachHere.length,
    encounterPaths: A.encounterFrom.length,
    encounterSpots: A.encounterSpotStart[A.encounterFrom.length]!,
    places: doc.places.count,
    end: 0,
  };
}

describe('.nav versions 3 and 4 (real CS 1.6 bot files)', () => {
  it('finds real files of both versions', () => {
    const versions = old.map((f) => version(readFixture(f)));
    expect(versions).toContain(3);
    expect(versions).toContain(4);
  });

  it.each(old.map((f) => [fixtureName(f), f]))('%s is written back byte for byte', (_n, file) => {
    const bytes = readFixture(file);
    expect(equalBytes(writeNav(readNav(bytes)), bytes)).toBe(true);
  });

  it.each(old.map((f) => [fixtureName(f), f]))('%s: counts match a plain walk of the file, and every reference resolves inside it', (_n, file) => {
    const bytes = readFixture(file);
    const doc = readNav(bytes);
    const walked = walk(bytes);
    expect({ ...counts(doc), end: walked.end }).toEqual(walked);
    expect(doc.trailing.length).toBe(bytes.length - walked.end);
    expect(walked.areas).toBeGreaterThan(50);
    expect(walked.encounterPaths).toBeGreaterThan(walked.areas);

    // A misread field would scramble what follows it; a file read right names only what it holds.
    const A = doc.areas;
    const ids = new Set(A.id);
    expect(Array.from(A.id).every((id, i) => i === 0 || id > A.id[i - 1]!)).toBe(true);
    const unresolved = (col: ArrayLike<number>, ok: (id: number) => boolean) => Array.from(col).filter((id) => !ok(id));
    expect(unresolved(A.connectionTarget, (t) => ids.has(t))).toEqual([]);
    for (const col of [A.approachHere, A.approachPrev, A.approachNext]) expect(unresolved(col, (t) => t === 0 || ids.has(t))).toEqual([]);
    expect(unresolved(A.encounterFrom, (t) => ids.has(t))).toEqual([]);
    expect(unresolved(A.encounterTo, (t) => ids.has(t))).toEqual([]);
    expect(Math.max(...A.encounterFromDir, ...A.encounterToDir)).toBeLessThan(4);
    const spots = new Set(A.hidingSpotId);
    expect(spots.size).toBe(A.hidingSpotId.length);
    expect(unresolved(A.encounterSpotId, (s) => spots.has(s))).toEqual([]);
    expect(unresolved(A.hidingSpotFlags, (f) => (f & ~0x0f) === 0)).toEqual([]);
    expect(doc.places.count).toBe(0);
    expect(Array.from(A.place).every((p) => p === 0)).toBe(true);
  });

  it.each(old.map((f) => [fixtureName(f), f]))('%s: the version-4 bspSize names its map, version 3 has none', (_n, file) => {
    const bytes = readFixture(file);
    const doc = readNav(bytes);
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (doc.version === 3) {
      expect(doc.bspSize).toBe(0);
      expect(dv.getUint32(8, true)).toBe(doc.areas.count); // the area count follows the version
    } else {
      expect(doc.bspSize).toBe(dv.getUint32(8, true));
      const bsp = file.replace(/\.nav$/i, '.bsp');
      if (existsSync(bsp)) expect(doc.bspSize).toBe(statSync(bsp).size);
    }
  });

  it.each(old.map((f) => [fixtureName(f), f]))('%s validates without errors and is summarized as GoldSrc', (_n, file) => {
    const doc = readNav(readFixture(file));
    expect(validateNav(doc).filter((f) => f.severity === 'error')).toEqual([]);
    const summary = navFormat.summarize(doc);
    expect(summary.version).toBe(String(doc.version));
    expect(summary.details?.game).toContain('GoldSrc');
  });

  it('reports trailing bytes as a warning only', () => {
    const withTail = old.map((f) => readNav(readFixture(f))).find((d) => d.trailing.length > 0);
    expect(withTail).toBeDefined();
    const findings = validateNav(withTail!).filter((f) => f.code === 'nav.trailing-bytes');
    expect(findings.map((f) => f.severity)).toEqual(['warning']);
  });
});

describe('.nav versions 1 and 2 (generated: no real file is known)', () => {
  const sourceFile = old.reduce((a, b) => (statSync(a).size <= statSync(b).size ? a : b));
  const source = readNav(readFixture(sourceFile));

  it.each([1, 2] as const)('version %i: a file generated from the smallest real old file reads back with the same counts and bytes', (v) => {
    const bytes = writeNav(navAsOldVersion(source, v));
    const doc = readNav(bytes);
    expect(doc.version).toBe(v);
    expect(equalBytes(writeNav(doc), bytes)).toBe(true);
    const walked = walk(bytes);
    expect(walked.end).toBe(bytes.length);
    expect({ ...counts(doc), end: walked.end }).toEqual(walked);
    expect({ ...counts(doc), places: 0 }).toEqual({ ...counts(source), places: 0 });
    expect(Array.from(doc.areas.hidingSpotPosition)).toEqual(Array.from(source.areas.hidingSpotPosition));
    expect(validateNav(doc).filter((f) => f.severity === 'error')).toEqual([]);
  });

  it.each([1, 2] as const)('version %i: comes back byte for byte through the common model, unedited and with one area raised', (v) => {
    const bytes = writeNav(navAsOldVersion(source, v));
    const doc = readNav(bytes);
    expect(equalBytes(writeNav(navFromWalkmesh(navToWalkmesh(doc, 'x'), doc)), bytes)).toBe(true);
    const mesh = navToWalkmesh(doc, 'x');
    for (let k = 2; k < 12; k += 3) mesh.positions[k]! += 8; // area #0's four corners, z only
    const raised = writeNav(navFromWalkmesh(mesh, doc));
    expect(raised.length).toBe(bytes.length);
    const corners = 8 + 4 + 4 + 1; // header (magic, version, area count), area id, u8 attributes
    expect(equalBytes(raised.subarray(corners + 32), bytes.subarray(corners + 32))).toBe(true);
    expect(equalBytes(raised.subarray(corners, corners + 32), bytes.subarray(corners, corners + 32))).toBe(false);
  });

  it('stores version-1 hiding spots in 12 bytes and version-2 ones in 17', () => {
    const v1 = writeNav(navAsOldVersion(source, 1));
    const v2 = writeNav(navAsOldVersion(source, 2));
    expect(source.areas.hidingSpotId.length).toBeGreaterThan(0);
    expect(v2.length - v1.length).toBe(5 * source.areas.hidingSpotId.length);
  });

  it('keeps the obsolete encounter layout: two positions per path and a position and t per spot', () => {
    const doc = readNav(writeNav(navAsOldVersion(source, 2)));
    const A = doc.areas;
    expect(A.encounterPathWords.length).toBe(6 * A.encounterFrom.length);
    expect(A.encounterSpotWords.length).toBe(4 * A.encounterSpotId.length);
    expect(Array.from(A.encounterFrom)).toEqual(Array.from(source.areas.encounterFrom));
    // A path's spots carry the position of the hiding spot they named in the version-3 file.
    const position = new Map<number, number[]>();
    for (let k = 0; k < source.areas.hidingSpotId.length; k++) position.set(source.areas.hidingSpotId[k]!, Array.from(source.areas.hidingSpotPosition.subarray(k * 3, k * 3 + 3)));
    const s = source.areas.encounterSpotId.length - 1;
    expect(Array.from(A.encounterSpotWords.subarray(s * 4, s * 4 + 3))).toEqual(position.get(source.areas.encounterSpotId[s]!));
  });

  it('refuses a truncated version-1 file with the field and offset', () => {
    const bytes = writeNav(navAsOldVersion(source, 1));
    expect(() => readNav(bytes.subarray(0, bytes.length - 3))).toThrow(/offset \d+/);
    expect(path.basename(sourceFile)).toMatch(/\.nav$/);
  });
});
