/**
 * Of the bytes a batch queues, the share baked first, smallest file first, before the rest
 * goes largest first (bakeQueueOrder).
 */
export const WARM_UP_SHARE = 0.1;

/**
 * The order a batch of bakes is queued in: the smallest inputs, smallest first, until they
 * hold WARM_UP_SHARE of the batch's bytes; then the rest largest first.
 *
 * Largest first (LPT scheduling) keeps a big area from starting last and leaving the other
 * workers idle while it finishes. But every worker is a new V8 isolate whose code starts
 * cold: a big area baked first runs its long loops unoptimised and gets them compiled
 * through on-stack replacement, then again normally, on compiler threads that take the
 * other workers' cores. A few small areas first get the bake code optimised the ordinary
 * way, at a fraction of the cost, before the big ones run. Measured on one set, the 24 NWN2
 * fixture TRX (test/bench/bake-pool-bench.ts): a cold 2-worker run took 2.7–3.3 s of CPU in
 * all threads largest first and 2.4–2.6 s with this order (1 worker: 2.3–2.5 s and 2.0–2.1 s),
 * the same 24 bakes once warm 1.5 s; V8 compiled 106 functions, 68 of them through on-stack
 * replacement, in a cold thread baking them largest first and 40 (5) smallest first.
 * The prefix is small files only, so the largest ones still start early enough to balance:
 * on that set, the warm bake times dealt in this order end 749 ms after the start on 2 workers,
 * against 738 ms largest first (the bound is 736 ms).
 */
export function bakeQueueOrder<T>(items: readonly T[], sizeOf: (item: T) => number): T[] {
  const ascending = [...items].sort((a, b) => sizeOf(a) - sizeOf(b));
  const total = ascending.reduce((sum, item) => sum + sizeOf(item), 0);
  const budget = total * WARM_UP_SHARE;
  let warm = 0;
  let bytes = 0;
  while (warm < ascending.length && bytes + sizeOf(ascending[warm]!) <= budget) bytes += sizeOf(ascending[warm++]!);
  return [...ascending.slice(0, warm), ...ascending.slice(warm).reverse()];
}
