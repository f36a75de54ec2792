import { describe, expect, it } from 'vitest';
import { FuzzEngine } from '../../fuzz/fuzz-engine';
import { FuzzStats } from '../../fuzz/fuzz-stats';
import { aswmTarget, bwmTarget, erfTarget, gffTarget, pluginTarget, trxTarget } from '../../fuzz/targets/format-targets';

/**
 * A short in-process run per reader (the long runs are `npm run fuzz -- <target>`): every
 * mutated fixture is either rejected with a well-formed MalformedInputError or accepted,
 * written back (byte for byte where the format keeps its bytes) and validated.
 */
// A TRX is mostly one zlib stream, which nearly every mutation breaks: its walkmesh is
// fuzzed decompressed by the aswm target, and the container run only has to reject well.
describe.each([
  [trxTarget, 100, 200_000, false],
  [aswmTarget, 300, 200_000, true],
  [bwmTarget, 300, 100_000, true],
  [pluginTarget, 120, 200_000, true],
  [gffTarget, 200, 100_000, true],
  [erfTarget, 200, 100_000, true],
] as const)('fuzzing %s', (target, iterations, maxSize, someAccepted) => {
  it(`${iterations} mutated fixtures give no failure${someAccepted ? ', and some are accepted and some rejected' : ''}`, () => {
    const corpus = target.loadCorpus({ maxSize, all: false });
    expect(corpus.length).toBeGreaterThan(0);
    const engine = new FuzzEngine(target, corpus, 11);
    const stats = new FuzzStats();
    const failures: string[] = [];
    for (let i = 0; i < iterations; i++) {
      const f = engine.run(i, stats);
      if (f) failures.push(`${f.kind} at iteration ${f.iteration} (${f.seedInput}, ${f.mutation}): ${f.message}`);
    }
    expect(failures).toEqual([]);
    if (someAccepted) expect(stats.total('accepted')).toBeGreaterThan(0);
    expect(stats.total('rejected')).toBeGreaterThan(0);
  });
});
