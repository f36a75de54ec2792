/** Growable little-endian writer; the mirror of BinaryReader. */
export class BinaryWriter {
  private buf: Uint8Array;
  private view: DataView;
  private length = 0;

  constructor(initialCapacity = 1024) {
    this.buf = new Uint8Array(Math.max(16, initialCapacity));
    this.view = new DataView(this.buf.buffer);
  }

  get size(): number {
    return this.length;
  }

  private reserve(extra: number): void {
    const needed = this.length + extra;
    if (needed <= this.buf.byteLength) return;
    let cap = this.buf.byteLength * 2;
    while (cap < needed) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.reserve(1);
    this.view.setUint8(this.length, v);
    this.length += 1;
  }

  u16(v: number): void {
    this.reserve(2);
    this.view.setUint16(this.length, v, true);
    this.length += 2;
  }

  i16(v: number): void {
    this.reserve(2);
    this.view.setInt16(this.length, v, true);
    this.length += 2;
  }

  u32(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }

  i32(v: number): void {
    this.reserve(4);
    this.view.setInt32(this.length, v, true);
    this.length += 4;
  }

  f32(v: number): void {
    this.reserve(4);
    this.view.setFloat32(this.length, v, true);
    this.length += 4;
  }

  f64(v: number): void {
    this.reserve(8);
    this.view.setFloat64(this.length, v, true);
    this.length += 8;
  }

  /** Writes `count` 32-bit words from `source` (bit patterns, see BinaryReader.words32). */
  words32(source: Uint32Array, sourceIndex: number, count: number): void {
    this.reserve(count * 4);
    const v = this.view;
    let o = this.length;
    for (let i = 0; i < count; i++) {
      v.setUint32(o, source[sourceIndex + i], true);
      o += 4;
    }
    this.length = o;
  }

  bytes(data: Uint8Array): void {
    this.reserve(data.byteLength);
    this.buf.set(data, this.length);
    this.length += data.byteLength;
  }

  /** Overwrites a u32 already written (for sizes known only afterwards). */
  patchU32(offset: number, v: number): void {
    this.view.setUint32(offset, v, true);
  }

  /** The written bytes (a copy sized exactly). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}
