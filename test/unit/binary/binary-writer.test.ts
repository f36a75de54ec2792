import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BinaryReader } from '../../../shared/binary/binary-reader';
import { BinaryWriter } from '../../../shared/binary/binary-writer';

type Op = { kind: 'u8' | 'u16' | 'i16' | 'u32' | 'i32' | 'f32' | 'f64'; value: number } | { kind: 'bytes'; value: Uint8Array };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('u8' as const), value: fc.integer({ min: 0, max: 0xff }) }),
  fc.record({ kind: fc.constant('u16' as const), value: fc.integer({ min: 0, max: 0xffff }) }),
  fc.record({ kind: fc.constant('i16' as const), value: fc.integer({ min: -0x8000, max: 0x7fff }) }),
  fc.record({ kind: fc.constant('u32' as const), value: fc.integer({ min: 0, max: 0xffffffff }) }),
  fc.record({ kind: fc.constant('i32' as const), value: fc.integer({ min: -0x80000000, max: 0x7fffffff }) }),
  fc.record({ kind: fc.constant('f32' as const), value: fc.float({ noNaN: true }) }),
  fc.record({ kind: fc.constant('f64' as const), value: fc.double({ noNaN: true }) }),
  fc.record({ kind: fc.constant('bytes' as const), value: fc.uint8Array({ maxLength: 100 }) }),
);

function write(w: BinaryWriter, o: Op): void {
  if (o.kind === 'bytes') w.bytes(o.value);
  else w[o.kind](o.value);
}

function readBack(r: BinaryReader, o: Op): number | Uint8Array {
  return o.kind === 'bytes' ? r.bytesCopy(o.value.length, 'bytes') : r[o.kind](o.kind);
}

describe('BinaryWriter', () => {
  it('grows across many writes from a tiny buffer and keeps every earlier byte', () => {
    const w = new BinaryWriter(1);
    const n = 50_000;
    for (let i = 0; i < n; i++) {
      w.u8(i & 0xff);
      w.u32((i * 2654435761) >>> 0);
      w.f64(i / 7);
    }
    expect(w.size).toBe(n * 13);
    const out = w.finish();
    expect(out.length).toBe(n * 13);
    const r = new BinaryReader(out, 'test');
    let firstWrong = -1;
    for (let i = 0; i < n && firstWrong < 0; i++) {
      const ok = r.u8('a') === (i & 0xff) && r.u32('b') === (i * 2654435761) >>> 0 && r.f64('c') === i / 7;
      if (!ok) firstWrong = i;
    }
    expect(firstWrong).toBe(-1);
    expect(r.remaining).toBe(0);
  });

  it('grows for one write larger than twice the capacity', () => {
    const w = new BinaryWriter(16);
    w.u32(7);
    const big = Uint8Array.from({ length: 1000 }, (_, i) => (i * 31) & 0xff);
    w.bytes(big);
    const out = w.finish();
    expect(out.length).toBe(1004);
    expect(Array.from(out.subarray(4))).toEqual(Array.from(big));
    expect(new BinaryReader(out, 'test').u32('x')).toBe(7);
  });

  it('reads back whatever sequence of values it wrote (BinaryReader is its mirror)', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.integer({ min: 1, max: 64 }), (ops, capacity) => {
        const w = new BinaryWriter(capacity);
        for (const o of ops) write(w, o);
        const r = new BinaryReader(w.finish(), 'test');
        for (const o of ops) {
          const got = readBack(r, o);
          if (o.kind === 'bytes') expect(Array.from(got as Uint8Array)).toEqual(Array.from(o.value));
          else expect(Object.is(got, o.value)).toBe(true);
        }
        expect(r.remaining).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('words32 keeps NaN payload bit patterns through read and write', () => {
    const patterns = [0x7fa00001, 0xffa00001, 0x7fc00000, 0x7f800001, 0x80000000, 0x00000001, 0x42280000];
    const source = new Uint8Array(patterns.length * 4);
    const view = new DataView(source.buffer);
    patterns.forEach((p, i) => view.setUint32(i * 4, p, true));

    const words = new Uint32Array(patterns.length);
    new BinaryReader(source, 'test').words32(words, 0, patterns.length, 'floats');
    const w = new BinaryWriter(4);
    w.u16(0xbeef);
    w.words32(words, 0, patterns.length);
    const out = w.finish();
    expect(Array.from(out.subarray(2))).toEqual(Array.from(source));
    const back = new DataView(out.buffer, out.byteOffset + 2);
    expect(back.getUint32(0, true)).toBe(0x7fa00001);
  });

  it('words32 writes a sub-range of the source', () => {
    const w = new BinaryWriter();
    w.words32(Uint32Array.from([1, 2, 3, 4, 5]), 1, 3);
    const r = new BinaryReader(w.finish(), 'test');
    expect([r.u32('a'), r.u32('b'), r.u32('c')]).toEqual([2, 3, 4]);
    expect(r.remaining).toBe(0);
  });

  it('patchU32 overwrites a size written earlier without moving the end', () => {
    const w = new BinaryWriter();
    w.u32(0);
    w.u16(5);
    w.patchU32(0, 0xdeadbeef);
    const out = w.finish();
    expect(out.length).toBe(6);
    const r = new BinaryReader(out, 'test');
    expect(r.u32('size')).toBe(0xdeadbeef);
    expect(r.u16('v')).toBe(5);
  });

  it('finish returns a copy that later writes do not change', () => {
    const w = new BinaryWriter(16);
    w.u32(1);
    const first = w.finish();
    w.u32(2);
    expect(first.length).toBe(4);
    expect(w.finish().length).toBe(8);
  });
});
