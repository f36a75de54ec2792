import { MalformedInputError } from './malformed-input-error';

/**
 * Little-endian reader over a byte array. Every read is checked against the end of the
 * buffer and fails with a MalformedInputError naming the field, so a truncated or
 * corrupted file can never read past its end or be misread silently.
 */
export class BinaryReader {
  readonly bytes: Uint8Array;
  readonly format: string;
  private readonly view: DataView;
  /** Current read position. */
  offset: number;
  /** One past the last readable byte (a reader may be limited to a sub-range). */
  readonly end: number;

  constructor(bytes: Uint8Array, format: string, start = 0, end = bytes.byteLength) {
    this.bytes = bytes;
    this.format = format;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.offset = start;
    this.end = end;
  }

  get remaining(): number {
    return this.end - this.offset;
  }

  /** Throws unless `size` more bytes can be read. */
  need(size: number, field: string): void {
    if (size > this.end - this.offset) {
      throw this.error(field, `${size} more byte(s)`, `${Math.max(0, this.end - this.offset)} byte(s) before the end of the data`);
    }
  }

  u8(field: string): number {
    this.need(1, field);
    return this.view.getUint8(this.offset++);
  }

  u16(field: string): number {
    this.need(2, field);
    const v = this.view.getUint16(this.offset, true);
    this.offset += 2;
    return v;
  }

  i16(field: string): number {
    this.need(2, field);
    const v = this.view.getInt16(this.offset, true);
    this.offset += 2;
    return v;
  }

  u32(field: string): number {
    this.need(4, field);
    const v = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return v;
  }

  i32(field: string): number {
    this.need(4, field);
    const v = this.view.getInt32(this.offset, true);
    this.offset += 4;
    return v;
  }

  f32(field: string): number {
    this.need(4, field);
    const v = this.view.getFloat32(this.offset, true);
    this.offset += 4;
    return v;
  }

  f64(field: string): number {
    this.need(8, field);
    const v = this.view.getFloat64(this.offset, true);
    this.offset += 8;
    return v;
  }

  /**
   * Copies `count` little-endian 32-bit words into `target` at `targetIndex`. Floats are
   * copied as bit patterns, so NaN payloads and negative zeros survive a round trip.
   */
  words32(target: Uint32Array, targetIndex: number, count: number, field: string): void {
    this.need(count * 4, field);
    const v = this.view;
    let o = this.offset;
    for (let i = 0; i < count; i++) {
      target[targetIndex + i] = v.getUint32(o, true);
      o += 4;
    }
    this.offset = o;
  }

  /** A copy of the next `size` bytes. */
  bytesCopy(size: number, field: string): Uint8Array {
    this.need(size, field);
    const out = this.bytes.slice(this.offset, this.offset + size);
    this.offset += size;
    return out;
  }

  /** A view (no copy) of the next `size` bytes. */
  bytesView(size: number, field: string): Uint8Array {
    this.need(size, field);
    const out = this.bytes.subarray(this.offset, this.offset + size);
    this.offset += size;
    return out;
  }

  skip(size: number, field: string): void {
    this.need(size, field);
    this.offset += size;
  }

  /**
   * Validates a count field before anything is allocated from it: `count` items of at
   * least `minItemSize` bytes each must fit in what is left of the data.
   */
  checkCount(count: number, minItemSize: number, field: string, countOffset = this.offset - 4): number {
    if (count * minItemSize > this.end - this.offset) {
      throw new MalformedInputError({
        format: this.format,
        offset: countOffset,
        field,
        expected: `a count whose ${minItemSize}-byte items fit in the ${this.end - this.offset} byte(s) left`,
        found: String(count),
      });
    }
    return count;
  }

  error(field: string, expected: string, found: string, offset = this.offset): MalformedInputError {
    return new MalformedInputError({ format: this.format, offset, field, expected, found });
  }
}
