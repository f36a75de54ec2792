import { describe, expect, it } from 'vitest';
import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { bifResourceAt, readBif, sniffBif } from '../../../shared/formats/aurora/bif-reader';
import { KeyIndex } from '../../../shared/formats/aurora/key-document';
import { readKey, sniffKey } from '../../../shared/formats/aurora/key-reader';
import { KotorResType } from '../../../shared/formats/aurora/resource-types';
import { createRng } from '../../fuzz/prng';
import { caught, withU32 } from '../aurora/aurora-test-support';
import { buildBif, buildKey } from './key-bif-builder';

const bytesOf = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

function sampleKey(): Uint8Array {
  return buildKey(['data\\models.bif', 'data\\2da.bif'], [
    { resRef: 'm10aa_01c', type: KotorResType.WOK, bif: 0, index: 1 },
    { resRef: 'm10aa_01c', type: KotorResType.MDL, bif: 0, index: 0 },
    { resRef: 'placeables', type: KotorResType.TWODA, bif: 1, index: 0 },
  ]);
}

function sampleBif(): Uint8Array {
  return buildBif([
    { type: KotorResType.MDL, data: bytesOf('model') },
    { type: KotorResType.WOK, data: bytesOf('walkmesh bytes') },
    { type: KotorResType.WOK, data: new Uint8Array() },
  ]);
}

function expectOnlyMalformed(read: () => unknown): void {
  try {
    read();
  } catch (e) {
    expect(e).toBeInstanceOf(MalformedInputError);
  }
}

describe('KEY V1', () => {
  it('reads the file table and splits ids into BIF and resource indices', () => {
    const bytes = sampleKey();
    expect(sniffKey(bytes)).toBe(true);
    const key = readKey(bytes);
    expect([key.buildYear, key.buildDay]).toEqual([103, 150]);
    expect(key.bifs).toEqual([
      { fileName: 'data\\models.bif', fileSize: 1000, drives: 1 },
      { fileName: 'data\\2da.bif', fileSize: 1001, drives: 1 },
    ]);
    expect(key.keys[2]).toEqual({ resRef: 'placeables', type: KotorResType.TWODA, bifIndex: 1, resourceIndex: 0 });
    const index = new KeyIndex(key);
    expect(index.get('M10AA_01C', KotorResType.WOK)).toEqual({ resRef: 'm10aa_01c', type: KotorResType.WOK, bifIndex: 0, resourceIndex: 1 });
    expect(index.get('m10aa_01c', KotorResType.PWK)).toBeUndefined();
  });

  it('refuses bad signatures, inflated counts, offsets past the end and dangling BIF indices', () => {
    const bytes = sampleKey();
    const v11 = bytes.slice();
    v11.set(bytesOf('V1.1'), 4);
    expect(caught(() => readKey(v11)).message).toContain('KEY V1.1');
    expect(caught(() => readKey(withU32(bytes, 8, 0xffffffff))).field).toBe('fileCount');
    expect(caught(() => readKey(withU32(bytes, 12, 100000))).field).toBe('keyCount');
    expect(caught(() => readKey(withU32(bytes, 20, bytes.length + 4))).field).toBe('keyTableOffset');
    expect(caught(() => readKey(withU32(bytes, 16, bytes.length - 4))).field).toBe('fileCount');
    expect(caught(() => readKey(withU32(bytes, 64 + 4, 1 << 30))).field).toBe('bifs[0].name');
    const keyTable = new DataView(bytes.buffer).getUint32(20, true);
    const e = caught(() => readKey(withU32(bytes, keyTable + 22 + 18, (5 << 20) | 3)));
    expect([e.format, e.field, e.offset]).toEqual(['key', 'keys[1].id', keyTable + 22 + 18]);
    expect(caught(() => readKey(bytes.subarray(0, 63))).field).toBe('header');
  });

  it('every truncation and random corruption fails only with MalformedInputError', () => {
    const bytes = sampleKey();
    for (let n = 0; n < bytes.length; n++) expectOnlyMalformed(() => readKey(bytes.subarray(0, n)));
    expect(caught(() => readKey(bytes.subarray(0, bytes.length - 1))).format).toBe('key');
    const rng = createRng(0x6b6579);
    for (let t = 0; t < 2000; t++) {
      const b = bytes.slice();
      const at = 8 + rng.below(b.length - 12);
      new DataView(b.buffer).setUint32(at, rng.pick([0xffffffff, 0x7fffffff, b.length, rng.below(0x100000000)]), true);
      expectOnlyMalformed(() => readKey(b));
    }
  });
});

describe('BIF V1', () => {
  it('reads the variable table as views and addresses resources by position', () => {
    const bytes = sampleBif();
    expect(sniffBif(bytes)).toBe(true);
    const bif = readBif(bytes);
    expect(bif.resources.map((r) => [r.id, r.type, r.data.length])).toEqual([[0, KotorResType.MDL, 5], [1, KotorResType.WOK, 14], [2, KotorResType.WOK, 0]]);
    expect(new TextDecoder().decode(bifResourceAt(bif, 1)!.data)).toBe('walkmesh bytes');
    expect(bifResourceAt(bif, 1)!.data.buffer).toBe(bytes.buffer);
    expect(bifResourceAt(bif, 3)).toBeUndefined();
  });

  it('refuses inflated counts and data outside the file', () => {
    const bytes = sampleBif();
    expect(caught(() => readBif(withU32(bytes, 8, 0x10000000))).field).toBe('variableCount');
    expect(caught(() => readBif(withU32(bytes, 16, 1 << 20))).field).toBe('variableTableOffset');
    expect(caught(() => readBif(withU32(bytes, 16, bytes.length - 8))).field).toBe('variableCount');
    expect(caught(() => readBif(withU32(bytes, 20 + 16 + 4, bytes.length + 1))).field).toBe('resources[1].offset');
    const e = caught(() => readBif(withU32(bytes, 20 + 16 + 8, 15)));
    expect([e.format, e.field]).toEqual(['bif', 'resources[1].size']);
    const bzf = bytes.slice();
    bzf.set(bytesOf('BZF '), 0);
    expect(caught(() => readBif(bzf)).message).toContain('BZF');
  });

  it('every truncation and random corruption fails only with MalformedInputError', () => {
    const bytes = sampleBif();
    for (let n = 0; n < bytes.length; n++) expectOnlyMalformed(() => readBif(bytes.subarray(0, n)));
    expect(caught(() => readBif(bytes.subarray(0, bytes.length - 1))).field).toBe('resources[1].size');
    const rng = createRng(0xb1f);
    for (let t = 0; t < 2000; t++) {
      const b = bytes.slice();
      const at = 8 + rng.below(b.length - 12);
      new DataView(b.buffer).setUint32(at, rng.pick([0xffffffff, 0x7fffffff, b.length, rng.below(0x100000000)]), true);
      expectOnlyMalformed(() => readBif(b));
    }
  });
});
