import { mulberry32 } from '../support/seeded-random';

/**
 * The random walk's one source of randomness: Mulberry32, seeded. Every choice the walk
 * makes (action kind, tab, faces, values) comes from it, in order, so a seed replays the
 * same actions against the same projects.
 */
export class WalkRng {
  readonly next: () => number;

  constructor(seed: number) {
    /** A float in [0, 1). */
    this.next = mulberry32(seed);
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[this.below(items.length)]!;
  }

  /** One of the items, each as likely as its weight. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((n, [, w]) => n + w, 0);
    let r = this.next() * total;
    for (const [item, w] of items) {
      if ((r -= w) < 0) return item;
    }
    return items[items.length - 1]![0];
  }
}
