import { describe, expect, it } from 'vitest';
import { bytesEqual } from '../../../shared/formats/nwn2/le-words';

describe('bytesEqual', () => {
  it('finds a difference at any byte, in word-aligned and unaligned views alike', () => {
    const backing = new Uint8Array(1024 + 8).map((_, i) => (i * 31 + 7) & 0xff);
    for (const offset of [0, 1, 2, 4]) {
      for (const length of [0, 3, 63, 64, 65, 257]) {
        const a = backing.subarray(offset, offset + length);
        const copy = new Uint8Array(length + 8);
        for (const at of [0, 4]) {
          const b = copy.subarray(at, at + length);
          b.set(a);
          expect(bytesEqual(a, b)).toBe(true);
          for (const k of [0, length >> 1, length - 1]) {
            if (k < 0 || k >= length) continue;
            b[k] ^= 0x80;
            expect(bytesEqual(a, b), `offset ${offset} length ${length} at ${at} byte ${k}`).toBe(false);
            b[k] ^= 0x80;
          }
        }
      }
    }
  });

  it('compares lengths first and a view with itself as equal', () => {
    const a = new Uint8Array(100).fill(5);
    expect(bytesEqual(a, a)).toBe(true);
    expect(bytesEqual(a, a.subarray(0, 99))).toBe(false);
    expect(bytesEqual(a.subarray(1), a.subarray(0, 99))).toBe(true);
  });
});
