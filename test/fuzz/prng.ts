/**
 * Seeded pseudo-random numbers. Each iteration gets its own generator, derived from the
 * run seed and the iteration number, so any single iteration can be replayed alone
 * (`--seed S --start I --iterations 1`) and a restarted worker continues the same run.
 */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  below(n: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
}

/** Mulberry32: small, fast, and good enough to drive mutations. */
export function createRng(seed: number): Rng {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    below: (n) => Math.floor(next() * n),
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}

/** The generator of one iteration of a run (a hash of seed and iteration, not a sequence). */
export function iterationRng(seed: number, iteration: number): Rng {
  let h = Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(iteration >>> 0, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return createRng((h ^ (h >>> 16)) ^ Math.floor(iteration / 4294967296));
}
