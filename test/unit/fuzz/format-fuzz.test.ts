import { describe, expect, it } from 'vitest';
import { FuzzEngine } from '../../fuzz/fuzz-engine';
import { FuzzStats } from '../../fuzz/fuzz-stats';
import { formatTargets } from '../../fuzz/fuzz-targets';
import { GENERIC_MUTATORS } from '../../fuzz/mutators';
import { aswmTarget, bwmTarget, erfTarget, gffTarget, mdbTarget, nvnmTarget, pluginTarget, trxTarget } from '../../fuzz/targets/format-targets';
import { bspTarget } from '../../fuzz/targets/bsp-target';
import { landTarget, mdbMeshTarget, trrnContextTarget } from '../../fuzz/targets/level-context-targets';
import { mdlTarget } from '../../fuzz/targets/mdl-target';
import { navTarget } from '../../fuzz/targets/nav-target';
import { zipTarget } from '../../fuzz/targets/zip-target';
import { ddsTarget, tgaTarget } from '../../fuzz/targets/image-targets';

/**
 * A short in-process run per reader (the long runs are `npm run fuzz -- <target>` and
 * `npm run fuzz -- all --minutes M`): every mutated fixture is either rejected with a
 * well-formed MalformedInputError or accepted, written back (byte for byte where the
 * format keeps its bytes) and validated (with an error when its geometry is not finite),
 * within the target's memory bound. The structure-aware mutators (table repeats and
 * overlaps, sparse structures inflated, zlib bombs, NaN/Inf geometry) each run too.
 */
// A TRX is mostly one zlib stream, which nearly every byte mutation breaks: its walkmesh is
// fuzzed decompressed by the aswm target, and the container run only has to reject well.
const runs = [
  [trxTarget, 100, 200_000, false],
  [aswmTarget, 200, 200_000, true],
  [mdbTarget, 150, 200_000, true],
  [bwmTarget, 200, 100_000, true],
  [mdlTarget, 150, 260_000, true],
  [pluginTarget, 60, 200_000, true],
  [nvnmTarget, 150, 200_000, true],
  [gffTarget, 150, 100_000, true],
  [erfTarget, 150, 100_000, true],
  [navTarget, 150, 100_000, true],
  [zipTarget, 200, 200_000, true],
  [bspTarget, 100, 400_000, true],
  [mdbMeshTarget, 150, 200_000, true],
  [trrnContextTarget, 100, 2_000_000, true],
  // Each run reads the whole 540 KB plugin with its LAND: few iterations here, the long run is `npm run fuzz -- land`.
  [landTarget, 60, 600_000, true],
  [ddsTarget, 200, 100_000, true],
  [tgaTarget, 200, 100_000, true],
] as const;

// Fuzzed in a test of their own: project files are SQLite databases, opened from disk.
const ownTests = ['project'];

describe('every format target is fuzzed here', () => {
  it('lists each target of `npm run fuzz -- all`', () => {
    expect([...runs.map(([t]) => t.name), ...ownTests].sort()).toEqual(formatTargets.map((t) => t.name).sort());
  });
});

describe.each(runs)('fuzzing %s', (target, iterations, maxSize, someAccepted) => {
  it(`${iterations} mutated fixtures give no failure${someAccepted ? ', and some are accepted and some rejected' : ''}; every structure mutator runs`, () => {
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
    for (const m of target.structureMutators ?? []) expect(stats.count(m.name, 'accepted') + stats.count(m.name, 'rejected'), m.name).toBeGreaterThan(0);
    const generic = GENERIC_MUTATORS.reduce((s, m) => s + stats.count(m, 'accepted') + stats.count(m, 'rejected'), 0);
    expect(generic).toBeGreaterThan(0);
  });
});
