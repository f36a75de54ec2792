/** Append-only typed arrays for readers that learn sizes only while parsing. */
export class GrowableU32 {
  private data: Uint32Array;
  length = 0;

  constructor(capacity = 64) {
    this.data = new Uint32Array(Math.max(4, capacity));
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }

  /** Makes room for `extra` more values and returns the index to write them at. */
  reserve(extra: number): number {
    if (this.length + extra > this.data.length) this.grow(this.length + extra);
    const at = this.length;
    this.length += extra;
    return at;
  }

  get array(): Uint32Array {
    return this.data;
  }

  private grow(min: number): void {
    let cap = this.data.length * 2;
    while (cap < min) cap *= 2;
    const next = new Uint32Array(cap);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }

  /** The values, trimmed to length (a copy). */
  finish(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}

export class GrowableU8 {
  private data: Uint8Array;
  length = 0;

  constructor(capacity = 64) {
    this.data = new Uint8Array(Math.max(4, capacity));
  }

  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Uint8Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }

  finish(): Uint8Array {
    return this.data.slice(0, this.length);
  }
}
