import type { JobRegistry } from '../../../electron/services/bake-pool/bake-job-types';

/**
 * Job kinds the bake-pool tests load into the workers (BakePoolOptions.jobModules): jobs
 * that throw, never end, or allocate without bound, beside a small real computation.
 */
export const jobs: JobRegistry = {
  /** Output: the input bytes reversed, so the test can check it went through the worker. */
  'test-reverse': (input, _options, progress) => {
    progress('reverse', 0);
    const output = new Uint8Array(input.length);
    for (let i = 0; i < input.length; i++) output[i] = input[input.length - 1 - i]!;
    progress('reverse', 1);
    return { output, summary: { length: input.length } };
  },
  'test-throw': (_input, options) => {
    throw new Error(`deliberate failure: ${String(options)}`);
  },
  'test-steps': (input, options, progress) => {
    const steps = typeof options === 'number' ? options : 10;
    for (let i = 0; i < steps; i++) progress(`step ${i}`, i / steps);
    return { output: input.slice(), summary: { steps } };
  },
  'test-loop': (_input, _options, progress) => {
    progress('looping', 0);
    let x = 0;
    for (;;) x = (x + 1) | 0;
  },
  'test-oom': (_input, _options, progress) => {
    progress('allocating', 0);
    // Plain JS arrays live on the JS heap (typed array storage would not count toward the limit).
    const hoard: number[][] = [];
    for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => i + hoard.length + 0.5));
  },
};
