import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { portableEnvironment } from '../../../shared/formats/format-environment';
import { navFormat } from '../../../shared/formats/source/nav-format';
import { decodeFrame, encodeFrame, FrameError } from '../../../shared/ipc/mesh-payload';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import path from 'node:path';

/**
 * Exact structural equality as structured clone defines it: typed arrays by constructor
 * and bytes (so NaN payloads count), numbers by Object.is (so -0 and NaN count), objects
 * by own keys including undefined-valued ones, arrays by length and holes.
 */
function exactDifference(a: unknown, b: unknown, at = 'value'): string | null {
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b)) return `${at}: typed array vs other`;
    if (a.constructor !== b.constructor) return `${at}: ${a.constructor.name} vs ${b.constructor.name}`;
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    if (x.length !== y.length) return `${at}: ${x.length} vs ${y.length} bytes`;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return `${at}: byte ${i} differs`;
    return null;
  }
  if (typeof a === 'number' || typeof b === 'number') return Object.is(a, b) ? null : `${at}: ${String(a)} vs ${String(b)}`;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b ? null : `${at}: ${String(a)} vs ${String(b)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${at}: array vs object`;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join('\0') !== kb.join('\0')) return `${at}: keys ${ka.join(',')} vs ${kb.join(',')}`;
  if (Array.isArray(a) && Array.isArray(b) && a.length !== b.length) return `${at}: length ${a.length} vs ${b.length}`;
  for (const k of ka) {
    const d = exactDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
    if (d) return d;
  }
  return null;
}

const roundTrip = (v: unknown) => decodeFrame(encodeFrame(v));

describe('frame codec', () => {
  it('round-trips a real walkmesh and its report exactly', () => {
    const bytes = readFixture(path.join(fixturesRoot, 'source/tf2/itemtest.nav'));
    const doc = navFormat.read(bytes, portableEnvironment);
    const opened = {
      name: 'itemtest.nav',
      path: null,
      byteLength: bytes.byteLength,
      report: { summary: navFormat.summarize(doc), errors: navFormat.validate(doc) },
      walkmeshes: navFormat.toWalkmeshes(doc, 'itemtest.nav'),
    };
    expect(opened.walkmeshes[0]!.triangles.length).toBe(66 * 3);
    const back = roundTrip(opened) as typeof opened;
    expect(exactDifference(back, opened)).toBeNull();
    expect(back.walkmeshes[0]!.positions).toBeInstanceOf(Float32Array);
    expect(back.walkmeshes[0]!.faceOwner).toBeInstanceOf(Uint32Array);
    // The file bytes themselves travel as a blob too.
    expect(exactDifference(roundTrip({ bytes }), { bytes })).toBeNull();
  });

  it('keeps what JSON would lose: NaN, infinities, -0, undefined and NaN payload bits', () => {
    const floats = new Float32Array(new Uint32Array([0x7fc00001, 0xff800000, 0x80000000, 0x3f800000]).buffer);
    const value = { a: NaN, b: -0, c: [Infinity, -Infinity, undefined, 1.5], d: undefined, floats, nested: { e: [[-0]] } };
    const back = roundTrip(value) as typeof value;
    expect(exactDifference(back, value)).toBeNull();
    expect(Object.hasOwn(back, 'd')).toBe(true);
    expect(new Uint32Array(back.floats.buffer, back.floats.byteOffset, 1)[0]).toBe(0x7fc00001);
  });

  it('encodes only the bytes of a typed-array view, for every kind', () => {
    const big = new Uint8Array(64).map((_, i) => i);
    const views = {
      i8: new Int8Array(big.buffer, 3, 5),
      u8: big.subarray(7, 9),
      u8c: new Uint8ClampedArray([0, 255, 128]),
      i16: new Int16Array(big.buffer, 2, 3),
      u16: new Uint16Array([65535, 1]),
      i32: new Int32Array([-1, 2 ** 31 - 1]),
      u32: new Uint32Array(big.buffer, 8, 4),
      f32: new Float32Array([0.1, -2.5e30]),
      f64: new Float64Array([Math.PI, Number.MIN_VALUE]),
      empty: new Float32Array(0),
    };
    const frame = encodeFrame(views);
    expect(exactDifference(decodeFrame(frame), views)).toBeNull();
    // The blob section holds each view's own bytes padded to 8 (8+8+8+8+8+8+16+8+16+0),
    // not the 64-byte buffer behind the views.
    const jsonLength = new DataView(frame.buffer).getUint32(4, true);
    const blobStart = (8 + jsonLength + 7) & ~7;
    expect(frame.byteLength - blobStart).toBe(88);
  });

  it('decodes a frame that sits misaligned in a larger buffer', () => {
    const value = { f: new Float64Array([1, 2, 3]), u: new Uint32Array([7]) };
    const frame = encodeFrame(value);
    const holder = new Uint8Array(frame.byteLength + 3);
    holder.set(frame, 3);
    expect(exactDifference(decodeFrame(holder.subarray(3)), value)).toBeNull();
  });

  it('round-trips arbitrary JSON values mixed with typed arrays', () => {
    const typed = fc.oneof(
      fc.float32Array({ maxLength: 20 }),
      fc.float64Array({ maxLength: 10 }),
      fc.uint32Array({ maxLength: 20 }),
      fc.int16Array({ maxLength: 20 }),
      fc.uint8Array({ maxLength: 40 }),
    );
    const leaf = fc.oneof(fc.jsonValue({ maxDepth: 2 }), typed, fc.double(), fc.constant(undefined));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string().filter((k) => k !== '$wb'), tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(value, (v) => exactDifference(roundTrip(v), v) === null),
      { numRuns: 300 },
    );
  });

  it('refuses values it cannot carry exactly instead of mangling them', () => {
    expect(() => encodeFrame({ m: new Map() })).toThrow(/Map/);
    expect(() => encodeFrame({ d: new Date(0) })).toThrow(/Date/);
    expect(() => encodeFrame({ f: () => 1 })).toThrow(/function/);
    expect(() => encodeFrame({ n: 1n })).toThrow(/bigint/);
    expect(() => encodeFrame({ v: new DataView(new ArrayBuffer(4)) })).toThrow(/DataView/);
    expect(() => encodeFrame({ $wb: 'ta' })).toThrow(/reserved/);
  });

  it('refuses corrupt and hostile frames with a FrameError', () => {
    const good = encodeFrame({ f: new Float32Array([1, 2, 3, 4]) });
    const corrupt = (edit: (b: Uint8Array) => Uint8Array) => () => decodeFrame(edit(good.slice()));
    expect(corrupt((b) => b.subarray(0, 5))).toThrow(FrameError);
    expect(corrupt((b) => ((b[0] = 0x58), b))).toThrow(/magic/);
    expect(corrupt((b) => (new DataView(b.buffer).setUint32(4, 1e6, true), b))).toThrow(/runs past the frame end/);
    expect(corrupt((b) => b.subarray(0, b.length - 4))).toThrow(/runs past the frame end/);

    const forged = (json: string) => {
      const text = new TextEncoder().encode(json);
      const frame = new Uint8Array(8 + text.length + 64);
      frame.set([0x57, 0x42, 0x46, 0x31]);
      new DataView(frame.buffer).setUint32(4, text.length, true);
      frame.set(text, 8);
      return () => decodeFrame(frame);
    };
    expect(forged('{"a":{"$wb":"ta","t":"f32","o":4,"n":1}}')).toThrow(/multiple of 8/);
    expect(forged('{"a":{"$wb":"ta","t":"x64","o":0,"n":1}}')).toThrow(/unknown typed array kind/);
    expect(forged('{"a":{"$wb":"ta","t":"f64","o":0,"n":1000}}')).toThrow(/runs past the frame end/);
    expect(forged('{"a":{"$wb":"ta","t":"f64","o":0,"n":-1}}')).toThrow(/not a count/);
    expect(forged('{"a":{"$wb":"num","v":"1e999"}}')).toThrow(/special number/);
    expect(forged('{"a":{"$wb":"eval"}}')).toThrow(/unknown tag/);
    expect(forged('{"a":')).toThrow(/does not parse/);
    expect(forged(`${'['.repeat(300)}${']'.repeat(300)}`)).toThrow(/nest deeper/);
  });
});
