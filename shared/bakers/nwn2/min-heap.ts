/**
 * A binary min-heap of (key, item) pairs over typed arrays, ordered by key and then by
 * item (so equal keys come out lowest item first, as a linear scan for the minimum would
 * give them: the order the toolset's searches settle nodes in), with lazy deletion: an item
 * may be pushed again with a smaller key and the stale entry is skipped when it surfaces
 * (the caller compares the popped key with its own distance). Reused across runs, so a
 * bake of thousands of small graphs allocates it once.
 */
export class MinHeap {
  private keys: Float64Array;
  private items: Int32Array;
  size = 0;

  constructor(capacity = 64) {
    this.keys = new Float64Array(capacity);
    this.items = new Int32Array(capacity);
  }

  clear(): void {
    this.size = 0;
  }

  push(key: number, item: number): void {
    if (this.size === this.keys.length) this.grow();
    const keys = this.keys;
    const items = this.items;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pk = keys[parent]!;
      if (pk < key || (pk === key && items[parent]! < item)) break;
      keys[i] = pk;
      items[i] = items[parent]!;
      i = parent;
    }
    keys[i] = key;
    items[i] = item;
  }

  /** The smallest key (only while size > 0). */
  topKey(): number {
    return this.keys[0]!;
  }

  /** Removes the entry with the smallest key and returns its item (only while size > 0). */
  pop(): number {
    const keys = this.keys;
    const items = this.items;
    const top = items[0]!;
    const n = --this.size;
    if (n === 0) return top;
    const key = keys[n]!;
    const item = items[n]!;
    let i = 0;
    while (true) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n) {
        const a = keys[child]!;
        const b = keys[child + 1]!;
        if (b < a || (b === a && items[child + 1]! < items[child]!)) child++;
      }
      const ck = keys[child]!;
      if (ck > key || (ck === key && items[child]! > item)) break;
      keys[i] = ck;
      items[i] = items[child]!;
      i = child;
    }
    keys[i] = key;
    items[i] = item;
    return top;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    const items = new Int32Array(this.items.length * 2);
    keys.set(this.keys);
    items.set(this.items);
    this.keys = keys;
    this.items = items;
  }
}
