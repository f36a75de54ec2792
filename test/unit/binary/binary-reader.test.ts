import { describe, expect, it } from 'vitest';
import { BinaryReader } from '../../../shared/binary/binary-reader';
import { MalformedInputError } from '../../../shared/binary/malformed-input-error';

function caught(fn: () => unknown): MalformedInputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof MalformedInputError) return e;
    throw e;
  }
  throw new Error('expected a MalformedInputError, nothing was thrown');
}

describe('BinaryReader', () => {
  it('reads little-endian values and advances', () => {
    const bytes = Uint8Array.from([0x01, 0x02, 0x03, 0x04, 0xfe, 0xff, 0x00, 0x00, 0x80, 0x3f]);
    const r = new BinaryReader(bytes, 'test');
    expect(r.u32('a')).toBe(0x04030201);
    expect(r.i16('b')).toBe(-2);
    expect(r.u16('c')).toBe(0);
    expect(r.offset).toBe(8);
    expect(r.remaining).toBe(2);
  });

  it.each([
    ['u8', 0, (r: BinaryReader) => r.u8('hdr.flag')],
    ['u16', 1, (r: BinaryReader) => r.u16('hdr.flag')],
    ['u32', 3, (r: BinaryReader) => r.u32('hdr.flag')],
    ['i32', 2, (r: BinaryReader) => r.i32('hdr.flag')],
    ['f32', 3, (r: BinaryReader) => r.f32('hdr.flag')],
    ['f64', 7, (r: BinaryReader) => r.f64('hdr.flag')],
  ])('%s past the end throws naming the field and offset', (_kind, available, read) => {
    const bytes = new Uint8Array(5 + available);
    const r = new BinaryReader(bytes, 'test-format');
    r.skip(5, 'pad');
    const err = caught(() => read(r));
    expect(err.format).toBe('test-format');
    expect(err.field).toBe('hdr.flag');
    expect(err.offset).toBe(5);
    expect(err.found).toContain(`${available} byte(s)`);
    expect(err.message).toContain('hdr.flag');
    expect(err.message).toContain('offset 5');
    expect(r.offset).toBe(5); // nothing consumed by the failed read
  });

  it('respects a sub-range end, not just the end of the buffer', () => {
    const r = new BinaryReader(new Uint8Array(16), 'test', 4, 8);
    r.u32('inside');
    const err = caught(() => r.u8('beyond'));
    expect(err.offset).toBe(8);
    expect(err.field).toBe('beyond');
  });

  it('words32, bytesCopy, bytesView and skip refuse to cross the end', () => {
    const r = new BinaryReader(new Uint8Array(10), 'test');
    expect(caught(() => r.words32(new Uint32Array(3), 0, 3, 'corners')).field).toBe('corners');
    expect(caught(() => r.bytesCopy(11, 'blob')).field).toBe('blob');
    expect(caught(() => r.bytesView(11, 'view')).field).toBe('view');
    expect(caught(() => r.skip(11, 'gap')).field).toBe('gap');
    expect(r.offset).toBe(0);
  });

  it('checkCount accepts counts whose items fit and refuses the rest before any allocation', () => {
    const bytes = new Uint8Array(4 + 40);
    new DataView(bytes.buffer).setUint32(0, 10, true);
    const r = new BinaryReader(bytes, 'test');
    expect(r.checkCount(r.u32('areas.count'), 4, 'areas.count')).toBe(10);
    expect(r.checkCount(5, 8, 'pairs')).toBe(5);
    const err = caught(() => r.checkCount(11, 4, 'areas.count'));
    expect(err.field).toBe('areas.count');
    expect(err.offset).toBe(0); // the count field itself, just read
    expect(err.found).toBe('11');
    expect(err.expected).toContain('40 byte(s)');
  });

  it('checkCount refuses a count near 2^32 (a typical corrupted field)', () => {
    const r = new BinaryReader(new Uint8Array(8), 'test');
    r.u32('count');
    const err = caught(() => r.checkCount(0xffffffff, 12, 'count', 0));
    expect(err.found).toBe(String(0xffffffff));
    expect(err.offset).toBe(0);
  });

  it('words32 copies float bit patterns, NaN payloads and negative zero included', () => {
    const patterns = [0x7fa00001, 0xffc00000, 0x7f800001, 0x80000000, 0x3f800000, 0xff800000];
    const bytes = new Uint8Array(patterns.length * 4);
    const view = new DataView(bytes.buffer);
    patterns.forEach((p, i) => view.setUint32(i * 4, p, true));
    const out = new Uint32Array(patterns.length + 2);
    const r = new BinaryReader(bytes, 'test');
    r.words32(out, 1, patterns.length, 'corners');
    expect(Array.from(out.subarray(1, 1 + patterns.length))).toEqual(patterns);
    expect(out[0]).toBe(0);
    expect(r.offset).toBe(bytes.length);
  });

  it('reads from a view that does not start at the buffer start', () => {
    const backing = Uint8Array.from([0xaa, 0xbb, 0x01, 0x00, 0x00, 0x00]);
    const r = new BinaryReader(backing.subarray(2), 'test');
    expect(r.u32('x')).toBe(1);
  });
});
