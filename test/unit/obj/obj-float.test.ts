import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFloat32 } from '../../../shared/formats/obj/obj-float';

const bits = new Uint32Array(1);
const asFloat = new Float32Array(bits.buffer);

function fromBits(b: number): number {
  bits[0] = b;
  return asFloat[0]!;
}

function significantDigits(s: string): number {
  const mantissa = s.replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '');
  return mantissa.replace(/0+$/, '').length;
}

/** The fewest significant digits any decimal needs to read back as v (the definition). */
function fewestDigits(v: number): number {
  for (let p = 1; p <= 9; p++) if (Math.fround(Number(v.toPrecision(p))) === v) return p;
  throw new Error(`no decimal of up to 9 digits reads back as ${v}`);
}

const finiteFloat32 = fc
  .integer({ min: 0, max: 0xffffffff })
  .map(fromBits)
  .filter((v) => Number.isFinite(v));

describe('formatFloat32', () => {
  it('reads back as the same float32, bit for bit, with the fewest digits', () => {
    fc.assert(
      fc.property(finiteFloat32, (v) => {
        const s = formatFloat32(v);
        expect(Object.is(Math.fround(Number(s)), v)).toBe(true);
        if (v !== 0) expect(significantDigits(s)).toBe(fewestDigits(v));
      }),
      { numRuns: 5000 },
    );
  });

  it('is exact and short on coordinates typical of level data', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 24), max: 2 ** 24 }), fc.integer({ min: 0, max: 10 }), (n, shift) => {
        const v = Math.fround(n / 2 ** shift);
        const s = formatFloat32(v);
        expect(Math.fround(Number(s))).toBe(v);
        expect(significantDigits(s)).toBe(v === 0 ? 0 : fewestDigits(v));
      }),
    );
  });

  it.each([
    [0.1, '0.1'],
    [80.03125, '80.03125'],
    [-335.96875, '-335.96875'],
    [3425, '3425'],
    [-0, '-0'],
    [0, '0'],
    [16777216, '16777216'],
  ])('%d is written %s', (v, s) => {
    expect(formatFloat32(v)).toBe(s);
  });

  it('handles the extremes of the float32 range', () => {
    for (const v of [fromBits(1), fromBits(0x80000001), fromBits(0x7f7fffff), fromBits(0xff7fffff), fromBits(0x00800000)]) {
      expect(Math.fround(Number(formatFloat32(v)))).toBe(v);
    }
  });

  it('refuses non-finite values', () => {
    expect(() => formatFloat32(NaN)).toThrow(/not a finite number/);
    expect(() => formatFloat32(Infinity)).toThrow(/not a finite number/);
    expect(() => formatFloat32(-Infinity)).toThrow(/not a finite number/);
    expect(() => formatFloat32(1e39)).toThrow(/not a finite number/); // overflows float32
  });
});
