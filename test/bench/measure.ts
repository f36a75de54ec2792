import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The p-th percentile (0..100, nearest rank) of a non-empty list. */
export function percentile(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

let gcFunction: (() => void) | undefined;

/**
 * A full garbage collection, so memory figures are not blurred by earlier garbage. The
 * scripts run as `node --import tsx …` without `--expose-gc`, so the flag is switched on
 * at run time and `gc` is fetched from a fresh context (which sees the flag).
 */
export function collectGarbage(): void {
  if (!gcFunction) {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    if (typeof gc !== 'function') throw new Error('could not enable the garbage collector hook');
    gcFunction = gc as () => void;
  }
  // Twice: V8 frees ArrayBuffer backing stores on a background sweeper, and the second
  // collection finalizes what the first one swept (one call alone leaves stale figures).
  gcFunction();
  gcFunction();
}

/** JS heap plus ArrayBuffer backing stores (where typed-array documents live). */
export function heapAndBuffers(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Peak resident set size of the process so far, in bytes. */
export function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

/**
 * Bytes of the distinct ArrayBuffers reachable from `value` through plain objects and
 * arrays: the exact size of a typed-array document, free of GC noise.
 */
export function bufferBytes(value: unknown): number {
  const seenBuffers = new Set<ArrayBufferLike>();
  const seenObjects = new Set<object>();
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (ArrayBuffer.isView(v)) {
      if (!seenBuffers.has(v.buffer)) {
        seenBuffers.add(v.buffer);
        total += v.buffer.byteLength;
      }
    } else if (!seenObjects.has(v)) {
      seenObjects.add(v);
      for (const child of Object.values(v)) stack.push(child);
    }
  }
  return total;
}

/**
 * Times `pass` (one pass over a group of inputs) and returns milliseconds per pass: the
 * median of `runs` samples. A sample repeats the pass until it lasts at least
 * `minSampleMs`, so small inputs are not timed at the timer's resolution.
 */
export function timePasses(pass: () => void, runs: number, warmups: number, minSampleMs = 40, minWarmupMs = 250): number {
  // Warm up for a number of passes and a minimum time, so the optimizing compiler has
  // settled (a single small file needs many passes before its code is optimized).
  const warmStart = performance.now();
  let passes = 0;
  let ms = 0;
  while (passes < warmups || performance.now() - warmStart < minWarmupMs) {
    const t0 = performance.now();
    pass();
    ms = performance.now() - t0;
    passes++;
  }
  const repeat = ms >= minSampleMs ? 1 : Math.ceil(minSampleMs / Math.max(ms, 0.001));
  const samples: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    for (let k = 0; k < repeat; k++) pass();
    samples.push((performance.now() - t0) / repeat);
  }
  return median(samples);
}
