import { describe, expect, it } from 'vitest';
import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import type { BifDocument } from '../../../shared/formats/aurora/bif-document';
import { readBif } from '../../../shared/formats/aurora/bif-reader';
import { encodeBifCanonical, writeBif } from '../../../shared/formats/aurora/bif-writer';
import type { KeyDocument } from '../../../shared/formats/aurora/key-document';
import { readKey } from '../../../shared/formats/aurora/key-reader';
import { encodeKeyCanonical, writeKey } from '../../../shared/formats/aurora/key-writer';
import { KotorResType } from '../../../shared/formats/aurora/resource-types';
import { createRng } from '../../fuzz/prng';
import { firstDifference } from '../aurora/aurora-test-support';
import { buildBif, buildKey } from './key-bif-builder';

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const hex = (s: string) => Uint8Array.from(s.replace(/\s+/g, '').match(/../g)!, (b) => parseInt(b, 16));

/** What a document holds, without the reader's layout (to compare documents read from different bytes). */
const keyContent = (d: KeyDocument) => ({ buildYear: d.buildYear, buildDay: d.buildDay, bifs: d.bifs, keys: d.keys });
const bifContent = (d: BifDocument) => d.resources.map((r) => ({ id: r.id, type: r.type, data: Array.from(r.data) }));

/**
 * A KEY laid out unlike the canonical writer would: non-zero reserved header bytes, the key
 * table before the file table, the names after both in reverse order, with garbage after
 * their NULs and a gap of 0xEE bytes, resrefs with bytes after their NUL, a 16-character
 * resref with no NUL, a name with a Windows-1252 byte, an empty name, and 0xCC trailing bytes.
 */
function oddKey(): Uint8Array {
  const names = ['data\\Models.BIF', 'data\\2da.bif', 'lips\\caf\xe9.bif', ''];
  const keys = [
    { resRef: 'm10aa_01c', type: KotorResType.WOK, id: (0 << 20) | 1, tail: [0, 0x41, 0x42] },
    { resRef: 'ABCDEFGHIJKLMNOP', type: KotorResType.MDL, id: (0 << 20) | 0, tail: [] },
    { resRef: 'placeables', type: KotorResType.TWODA, id: (1 << 20) | 7, tail: [0, 0, 0, 0x7f] },
    { resRef: '', type: 0xffff, id: (2 << 20) | 0xfffff, tail: [0, 0xff] },
    { resRef: 'DupE', type: KotorResType.WOK, id: (0 << 20) | 1, tail: [] },
  ];
  const keyTable = 64;
  const fileTable = keyTable + keys.length * 22 + 6; // 6 garbage bytes between the tables
  let at = fileTable + names.length * 12 + 9; // a 9-byte gap before the names
  const slots: { offset: number; size: number }[] = [];
  for (let i = names.length - 1; i >= 0; i--) {
    const size = names[i]!.length === 0 ? 0 : names[i]!.length + 1 + (i % 2) * 3; // odd ones have 3 garbage bytes after the NUL
    slots[i] = { offset: at, size };
    at += size + 2; // 2 bytes of padding after each name
  }
  const out = new Uint8Array(at + 5).fill(0xee);
  out.fill(0xcc, at);
  const v = new DataView(out.buffer);
  out.set(ascii('KEY V1  '), 0);
  v.setUint32(8, names.length, true);
  v.setUint32(12, keys.length, true);
  v.setUint32(16, fileTable, true);
  v.setUint32(20, keyTable, true);
  v.setUint32(24, 102, true);
  v.setUint32(28, 317, true);
  for (let i = 32; i < 64; i++) out[i] = (i * 37) & 0xff;
  names.forEach((n, i) => {
    const e = fileTable + i * 12;
    v.setUint32(e, 123456 + i, true);
    v.setUint32(e + 4, slots[i]!.offset, true);
    v.setUint16(e + 8, slots[i]!.size, true);
    v.setUint16(e + 10, i === 2 ? 0x8001 : 1, true);
    if (slots[i]!.size > 0) {
      out.set(ascii(n), slots[i]!.offset);
      out[slots[i]!.offset + n.length] = 0;
      for (let j = n.length + 1; j < slots[i]!.size; j++) out[slots[i]!.offset + j] = 0x55 + j;
    }
  });
  keys.forEach((k, i) => {
    const e = keyTable + i * 22;
    out.fill(0, e, e + 16);
    out.set(ascii(k.resRef), e);
    out.set(k.tail, e + k.resRef.length);
    v.setUint16(e + 16, k.type, true);
    v.setUint32(e + 18, k.id >>> 0, true);
  });
  return out;
}

/**
 * A BIF laid out unlike the canonical writer would: a fixed count of 2 with 40 garbage bytes
 * where a fixed table would be, the variable table after a gap, data 16-byte aligned with
 * 0xAB padding, data in reverse table order, two entries sharing data, an empty resource,
 * ids that are not positions, and trailing bytes no entry names.
 */
function oddBif(): Uint8Array {
  const data = [ascii('model bytes'), ascii('walkmesh!'), new Uint8Array(), ascii('2da table data..x')];
  const table = 20 + 8;
  const count = 5;
  let at = table + count * 16 + 40;
  const offsets: number[] = [];
  for (let i = data.length - 1; i >= 0; i--) {
    at = (at + 15) & ~15;
    offsets[i] = at;
    at += data[i]!.length;
  }
  const out = new Uint8Array(at + 7).fill(0xab);
  const v = new DataView(out.buffer);
  out.set(ascii('BIFFV1  '), 0);
  v.setUint32(8, count, true);
  v.setUint32(12, 2, true);
  v.setUint32(16, table, true);
  const entries = [
    { id: (3 << 20) | 0, off: offsets[0]!, size: data[0]!.length, type: KotorResType.MDL },
    { id: (3 << 20) | 1, off: offsets[1]!, size: data[1]!.length, type: KotorResType.WOK },
    { id: 0xdeadbeef, off: offsets[2]!, size: 0, type: KotorResType.PWK },
    { id: (3 << 20) | 3, off: offsets[3]!, size: data[3]!.length, type: KotorResType.TWODA },
    { id: (3 << 20) | 4, off: offsets[1]! + 4, size: 5, type: 0x12345678 }, // shares the walkmesh's bytes
  ];
  entries.forEach((e, i) => {
    const p = table + i * 16;
    v.setUint32(p, e.id >>> 0, true);
    v.setUint32(p + 4, e.off, true);
    v.setUint32(p + 8, e.size, true);
    v.setUint32(p + 12, e.type, true);
  });
  data.forEach((d, i) => out.set(d, offsets[i]!));
  return out;
}

function expectMalformedOrIdentical(bytes: Uint8Array, read: (b: Uint8Array) => unknown, write: (d: never) => Uint8Array): 'accepted' | 'rejected' {
  let doc: unknown;
  try {
    doc = read(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(MalformedInputError);
    return 'rejected';
  }
  expect(firstDifference(write(doc as never), bytes)).toBeNull();
  return 'accepted';
}

describe('KEY V1 writer', () => {
  it('gives an oddly laid out file back byte for byte: reserved bytes, table order, gaps, garbage after NULs', () => {
    const bytes = oddKey();
    const doc = readKey(bytes);
    expect(doc.bifs.map((b) => b.fileName)).toEqual(['data\\Models.BIF', 'data\\2da.bif', 'lips\\caf\xe9.bif', '']);
    expect(doc.keys.map((k) => k.resRef)).toEqual(['m10aa_01c', 'ABCDEFGHIJKLMNOP', 'placeables', '', 'DupE']);
    expect(firstDifference(writeKey(doc), bytes)).toBeNull();
    // Not the canonical layout, which reads back as the same document.
    const canonical = encodeKeyCanonical(doc);
    expect(canonical.length).toBeLessThan(bytes.length);
    expect(keyContent(readKey(canonical))).toEqual(keyContent(doc));
    // The reserved header bytes are kept in the canonical layout too.
    expect(Array.from(canonical.subarray(32, 64))).toEqual(Array.from(bytes.subarray(32, 64)));
  });

  it('writes a new document in the layout of the public descriptions (hand-laid bytes)', () => {
    // KEY V1 per BioWare's "Key and BIF File Formats" / the IESDP: 64-byte header, file table
    // at 64, the NUL-terminated name (size counts the NUL), then 22-byte key entries.
    const expected = hex(`
      4b455920 56312020  01000000 02000000 40000000 5c000000 67000000 2a000000
      ${'00'.repeat(32)}
      d2040000 4c000000 1000 0100
      64617461 5c6d6f64 656c732e 62696600
      6d313061 615f3031 63000000 00000000 d007 01000000
      726f6f6d 00000000 00000000 00000000 d107 05000000`);
    const doc: KeyDocument = {
      buildYear: 103,
      buildDay: 42,
      bifs: [{ fileName: 'data\\models.bif', fileSize: 1234, drives: 1 }],
      keys: [
        { resRef: 'm10aa_01c', type: 2000, bifIndex: 0, resourceIndex: 1 },
        { resRef: 'room', type: 2001, bifIndex: 0, resourceIndex: 5 },
      ],
    };
    expect(firstDifference(writeKey(doc), expected)).toBeNull();
    expect(keyContent(readKey(expected))).toEqual(doc);
    expect(firstDifference(writeKey(readKey(expected)), expected)).toBeNull();
  });

  it("the test builder's files are in the canonical layout", () => {
    const bytes = buildKey(['data\\models.bif', 'data\\2da.bif'], [
      { resRef: 'a', type: KotorResType.WOK, bif: 1, index: 3 },
      { resRef: 'sixteen_chars_ok', type: KotorResType.MDL, bif: 0, index: 0xfffff },
    ]);
    const doc = readKey(bytes);
    expect(firstDifference(encodeKeyCanonical(doc), bytes)).toBeNull();
    expect(firstDifference(writeKey({ ...keyContent(doc) }), bytes)).toBeNull();
  });

  it('edits in place where they fit, and in the canonical layout where they do not', () => {
    const bytes = oddKey();
    const doc = readKey(bytes);
    doc.keys[0]!.resRef = 'm10';
    doc.keys[2]!.type = KotorResType.WOK;
    doc.bifs[0]!.fileName = 'data\\x.bif';
    doc.bifs[1]!.fileSize = 99;
    const inPlace = writeKey(doc);
    expect(inPlace.length).toBe(bytes.length);
    expect(keyContent(readKey(inPlace))).toEqual(keyContent(doc));
    // Only the edited fields changed: the 0xCC tail and the reserved bytes are the file's.
    expect(Array.from(inPlace.subarray(32, 64))).toEqual(Array.from(bytes.subarray(32, 64)));
    expect(Array.from(inPlace.subarray(bytes.length - 5))).toEqual([0xcc, 0xcc, 0xcc, 0xcc, 0xcc]);
    let changed = 0;
    for (let i = 0; i < bytes.length; i++) if (inPlace[i] !== bytes[i]) changed++;
    expect(changed).toBeLessThan(40);

    doc.bifs[2]!.fileName = 'a much longer name than the slot holds.bif';
    doc.keys.push({ resRef: 'new', type: KotorResType.LYT, bifIndex: 3, resourceIndex: 9 });
    const grown = writeKey(doc);
    expect(firstDifference(grown, encodeKeyCanonical(doc))).toBeNull();
    expect(keyContent(readKey(grown))).toEqual(keyContent(doc));
  });

  it('an edit to a file whose tables overlap is written in the canonical layout', () => {
    // The key table laid over the reserved header bytes (at 40), a layout the reader accepts.
    const bytes = buildKey(['data\\a.bif'], [{ resRef: 'x', type: 1, bif: 0, index: 0 }]);
    const moved = new Uint8Array(bytes.length);
    moved.set(bytes);
    const v = new DataView(moved.buffer);
    const keyAt = v.getUint32(20, true);
    moved.copyWithin(40, keyAt, keyAt + 22);
    v.setUint32(20, 40, true);
    const doc = readKey(moved);
    expect(firstDifference(writeKey(doc), moved)).toBeNull();
    doc.buildDay = 7; // the header field does not overlap the key entry, but the layout is not trusted once edited
    doc.keys[0]!.resRef = 'renamed';
    const out = writeKey(doc);
    expect(keyContent(readKey(out))).toEqual(keyContent(doc));
    expect(firstDifference(out, encodeKeyCanonical(doc))).toBeNull();
  });

  it('refuses values that do not fit their fields', () => {
    const doc = readKey(oddKey());
    expect(() => writeKey({ ...doc, keys: [{ ...doc.keys[0]!, resRef: 'seventeen_chars_x' }] })).toThrow(/longer than 16/);
    expect(() => writeKey({ ...doc, keys: [{ ...doc.keys[0]!, bifIndex: 4 }] })).toThrow(/bifIndex/);
    expect(() => writeKey({ ...doc, keys: [{ ...doc.keys[0]!, resourceIndex: 1 << 20 }] })).toThrow(/resourceIndex/);
    expect(() => writeKey({ ...doc, keys: [{ ...doc.keys[0]!, type: 0x10000 }] })).toThrow(/type/);
    expect(() => writeKey({ ...doc, bifs: [{ ...doc.bifs[0]!, fileName: 'a\0b' }, ...doc.bifs.slice(1)] })).toThrow(/NUL/);
    expect(() => writeKey({ ...doc, bifs: [{ ...doc.bifs[0]!, fileName: 'caf\u20ac' }, ...doc.bifs.slice(1)] })).toThrow(/not a byte/);
  });

  it('every random corruption is refused with MalformedInputError or written back byte for byte', () => {
    const bytes = oddKey();
    const rng = createRng(0x6b6579);
    const seen = { accepted: 0, rejected: 0 };
    for (let t = 0; t < 1500; t++) {
      const b = bytes.slice();
      const at = 8 + rng.below(b.length - 12);
      if (rng.below(2) === 0) new DataView(b.buffer).setUint32(at, rng.pick([0xffffffff, 0, b.length, rng.below(0x100000000), rng.below(b.length)]), true);
      else b[at] = rng.below(256);
      seen[expectMalformedOrIdentical(b, readKey, writeKey)]++;
    }
    expect(seen.accepted).toBeGreaterThan(100);
    expect(seen.rejected).toBeGreaterThan(100);
  });
});

describe('BIF V1 writer', () => {
  it('gives an oddly laid out file back byte for byte: fixed count, gaps, padding, shared and reordered data', () => {
    const bytes = oddBif();
    const doc = readBif(bytes);
    expect(doc.resources.map((r) => new TextDecoder().decode(r.data))).toEqual(['model bytes', 'walkmesh!', '', '2da table data..x', 'mesh!']);
    expect(firstDifference(writeBif(doc), bytes)).toBeNull();
    const canonical = encodeBifCanonical(doc);
    expect(canonical.length).toBeLessThan(bytes.length);
    expect(bifContent(readBif(canonical))).toEqual(bifContent(doc));
  });

  it('writes a new document in the layout of the public descriptions (hand-laid bytes)', () => {
    // BIFF V1: 20-byte header (variable count, fixed count 0, table offset 20), 16-byte
    // entries (id, offset, size, type), then the data.
    const expected = hex(`
      42494646 56312020 02000000 00000000 14000000
      00003000 34000000 03000000 d0070000
      01003000 37000000 02000000 d1070000
      616263 7879`);
    const doc: BifDocument = {
      resources: [
        { id: (3 << 20) | 0, type: 2000, data: ascii('abc') },
        { id: (3 << 20) | 1, type: 2001, data: ascii('xy') },
      ],
    };
    expect(firstDifference(writeBif(doc), expected)).toBeNull();
    expect(bifContent(readBif(expected))).toEqual(bifContent(doc));
    expect(firstDifference(writeBif(readBif(expected)), expected)).toBeNull();
  });

  it("the test builder's files are in the canonical layout", () => {
    const bytes = buildBif([{ type: KotorResType.MDL, data: ascii('m') }, { type: KotorResType.WOK, data: new Uint8Array(9).fill(7) }], 2);
    const doc = readBif(bytes);
    expect(firstDifference(encodeBifCanonical(doc), bytes)).toBeNull();
    expect(firstDifference(writeBif({ resources: doc.resources }), bytes)).toBeNull();
  });

  it('table edits stay in place; data edits are written in the canonical layout', () => {
    const bytes = oddBif();
    const doc = readBif(bytes);
    doc.resources[1]!.type = KotorResType.PWK;
    doc.resources[2]!.id = 2;
    doc.resources[0]!.data = doc.resources[0]!.data.slice(); // a copy of the same bytes is unchanged data
    const inPlace = writeBif(doc);
    expect(inPlace.length).toBe(bytes.length);
    expect(bifContent(readBif(inPlace))).toEqual(bifContent(doc));
    expect(new DataView(inPlace.buffer).getUint32(12, true)).toBe(2);

    doc.resources[3]!.data = ascii('a new table');
    const edited = writeBif(doc);
    expect(firstDifference(edited, encodeBifCanonical(doc))).toBeNull();
    expect(bifContent(readBif(edited))).toEqual(bifContent(doc));
  });

  it('the reader bounds the data entries may share: 8 times the file, as for ERF and RIM', () => {
    // 600 entries naming one 1,000-byte blob: 600,000 bytes of views over a file of about 10,600.
    const blob = new Uint8Array(1000).fill(9);
    const bytes = buildBif(Array.from({ length: 600 }, () => ({ type: KotorResType.WOK, data: new Uint8Array() })).concat([{ type: KotorResType.WOK, data: blob }]));
    const v = new DataView(bytes.buffer);
    const blobAt = v.getUint32(20 + 600 * 16 + 4, true);
    for (let i = 0; i < 600; i++) {
      v.setUint32(20 + i * 16 + 4, blobAt, true);
      v.setUint32(20 + i * 16 + 8, blob.length, true);
    }
    const e = (() => {
      try {
        readBif(bytes);
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(e).toBeInstanceOf(MalformedInputError);
    const m = e as MalformedInputError;
    const limit = 8 * bytes.length + 65536;
    expect([m.format, m.field, m.offset]).toEqual(['bif', `resources[${Math.floor(limit / 1000)}].size`, 20 + Math.floor(limit / 1000) * 16 + 8]);
    // Fewer shared entries are read, and written back as they lay.
    const few = bytes.slice();
    for (let i = 50; i < 600; i++) new DataView(few.buffer).setUint32(20 + i * 16 + 8, 0, true);
    expect(firstDifference(writeBif(readBif(few)), few)).toBeNull();
  });

  it('refuses ids and types that are not u32', () => {
    const doc = readBif(oddBif());
    expect(() => writeBif({ resources: [{ ...doc.resources[0]!, id: -1 }] })).toThrow(/id/);
    expect(() => writeBif({ resources: [{ ...doc.resources[0]!, type: 2 ** 32 }] })).toThrow(/type/);
  });

  it('every random corruption is refused with MalformedInputError or written back byte for byte', () => {
    const bytes = oddBif();
    const rng = createRng(0xb1f);
    const seen = { accepted: 0, rejected: 0 };
    for (let t = 0; t < 1500; t++) {
      const b = bytes.slice();
      const at = 8 + rng.below(b.length - 12);
      if (rng.below(2) === 0) new DataView(b.buffer).setUint32(at, rng.pick([0xffffffff, 0, b.length, rng.below(0x100000000), rng.below(b.length)]), true);
      else b[at] = rng.below(256);
      seen[expectMalformedOrIdentical(b, readBif, writeBif)]++;
    }
    expect(seen.accepted).toBeGreaterThan(100);
    expect(seen.rejected).toBeGreaterThan(100);
  });
});
