import { describe, expect, it } from 'vitest';
import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { KotorResType } from '../../../shared/formats/aurora/resource-types';
import { createRimDocument, findRimResource, putRimResource } from '../../../shared/formats/aurora/rim-document';
import { readRim, sniffRim } from '../../../shared/formats/aurora/rim-reader';
import { encodeRimCanonical, writeRim } from '../../../shared/formats/aurora/rim-writer';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { createRng } from '../../fuzz/prng';
import { caught, firstDifference, withU32 } from '../aurora/aurora-test-support';

const load = (name: string) => readFixture(`${fixturesRoot}/kotor/pykotor/${name}`);

describe('RIM V1.0', () => {
  it('writes PyKotor test.rim back byte for byte with the canonical writer', () => {
    const bytes = load('test.rim');
    expect(sniffRim(bytes)).toBe(true);
    const doc = readRim(bytes);
    expect(doc.preserved).toBeUndefined();
    expect(doc.resources.map((r) => [r.resRef, r.type, new TextDecoder().decode(r.data)])).toEqual([
      ['1', 10, 'abc'],
      ['2', 10, 'def'],
      ['3', 10, 'ghi'],
    ]);
    expect(firstDifference(encodeRimCanonical(doc), bytes)).toBeNull();
  });

  it('keeps the padded BioWare layout of capsule.rim while unedited', () => {
    const bytes = load('capsule.rim');
    const doc = readRim(bytes);
    expect(doc.preserved).toBeDefined();
    expect(doc.resources.map((r) => [r.resRef, r.type, r.data.length])).toEqual([
      ['m13aa', KotorResType.ARE, 4096],
      ['m13aa', KotorResType.GIT, 51747],
      ['module', KotorResType.IFO, 1655],
    ]);
    expect(firstDifference(writeRim(doc), bytes)).toBeNull();
    const git = findRimResource(doc, 'M13AA', KotorResType.GIT);
    expect(git).toBeDefined();
    expect(readGff(git!.data).fileType).toBe('GIT ');
  });

  it('rewrites an edited capsule.rim canonically with the other resources intact', () => {
    const doc = readRim(load('capsule.rim'));
    putRimResource(doc, { resRef: 'm13aa', type: KotorResType.LYT, data: new Uint8Array([1, 2, 3]) });
    const out = writeRim(doc);
    const again = readRim(out);
    expect(again.preserved).toBeUndefined();
    expect(again.resources).toHaveLength(4);
    for (const r of doc.resources) expect(findRimResource(again, r.resRef, r.type)!.data).toEqual(r.data);
    expect(out.length).toBe(120 + 4 * 32 + 4096 + 51747 + 1655 + 3);
  });

  it('builds a new archive and refuses resrefs longer than 16 characters', () => {
    const doc = createRimDocument();
    putRimResource(doc, { resRef: 'm01aa_01a', type: KotorResType.WOK, data: new Uint8Array(5) });
    putRimResource(doc, { resRef: 'M01AA_01A', type: KotorResType.WOK, data: new Uint8Array(7) });
    expect(readRim(writeRim(doc)).resources.map((r) => [r.resRef, r.data.length])).toEqual([['M01AA_01A', 7]]);
    doc.resources.push({ resRef: 'a'.repeat(17), type: 1, data: new Uint8Array() });
    expect(() => writeRim(doc)).toThrow(RangeError);
  });

  it('refuses test_corrupted.rim with a message naming entryCount', () => {
    const e = caught(() => readRim(load('test_corrupted.rim')));
    expect([e.format, e.field, e.offset]).toEqual(['rim', 'entryCount', 12]);
    expect(e.message).toContain('entryCount');
  });

  it('refuses bad signatures, key offsets, data offsets and sizes', () => {
    const bytes = load('test.rim');
    const signature = bytes.slice();
    signature[4] = 0x58;
    expect(caught(() => readRim(signature)).field).toBe('signature');
    expect(caught(() => readRim(withU32(bytes, 16, 5000))).field).toBe('keyListOffset');
    expect(caught(() => readRim(withU32(bytes, 120 + 32 + 24, 226))).field).toBe('resources[1].offset');
    expect(caught(() => readRim(withU32(bytes, 120 + 28, 10))).field).toBe('resources[0].size');
    expect(caught(() => readRim(bytes.subarray(0, 100))).field).toBe('header');
  });

  it('every truncation of both fixtures reads or fails with MalformedInputError', () => {
    for (const name of ['test.rim', 'capsule.rim']) {
      const bytes = load(name);
      const step = Math.max(1, Math.floor(bytes.length / 300));
      for (let n = 0; n < bytes.length; n += n < 400 ? 1 : step) {
        try {
          readRim(bytes.subarray(0, n));
        } catch (e) {
          expect(e).toBeInstanceOf(MalformedInputError);
        }
      }
    }
  });

  it('random header and key corruptions never throw anything but MalformedInputError', () => {
    const rng = createRng(0x51a);
    const base = load('test.rim');
    let refused = 0;
    for (let t = 0; t < 2000; t++) {
      const b = base.slice();
      // The header and key table (bytes 8–215) hold every count, offset and size.
      const at = 8 + 4 * rng.below((216 - 8) / 4);
      const values = [0xffffffff, 0x7fffffff, base.length, base.length + 1, rng.below(0x100000000)];
      new DataView(b.buffer).setUint32(at, rng.pick(values), true);
      try {
        const doc = readRim(b);
        expect(writeRim(doc).length).toBeGreaterThan(0);
      } catch (e) {
        expect(e).toBeInstanceOf(MalformedInputError);
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(0);
  });
});
