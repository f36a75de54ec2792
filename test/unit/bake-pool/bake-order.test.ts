import { describe, expect, it } from 'vitest';
import { bakeQueueOrder, WARM_UP_SHARE } from '../../../electron/services/bake-pool/bake-order';

const size = (n: number) => n;

describe('bakeQueueOrder', () => {
  it('bakes the smallest files first, up to the warm-up share of the bytes, then the rest largest first', () => {
    // 1000 bytes in all: 10 % is 100, which 10 + 20 + 30 fit and 10 + 20 + 30 + 50 do not.
    const sizes = [300, 10, 200, 50, 30, 20, 390];
    expect(sizes.reduce((s, n) => s + n, 0) * WARM_UP_SHARE).toBe(100);
    expect(bakeQueueOrder(sizes, size)).toEqual([10, 20, 30, 390, 300, 200, 50]);
  });

  it('is largest first after the files that fit the warm-up share, if any', () => {
    // 10 % of 1105 is 110.5: the 5-byte file fits, the 200-byte one does not.
    expect(bakeQueueOrder([5, 900, 200], size)).toEqual([5, 900, 200]);
    expect(bakeQueueOrder([150, 900, 200], size)).toEqual([900, 200, 150]);
    expect(bakeQueueOrder([700], size)).toEqual([700]);
    expect(bakeQueueOrder([], size)).toEqual([]);
  });

  it('keeps every item once and leaves the input as it was', () => {
    const items = [{ n: 3 }, { n: 1 }, { n: 3 }, { n: 2 }, { n: 50 }];
    const before = [...items];
    const out = bakeQueueOrder(items, (i) => i.n);
    expect(items).toEqual(before);
    expect(out).toHaveLength(items.length);
    expect(new Set(out)).toEqual(new Set(items));
  });

});
