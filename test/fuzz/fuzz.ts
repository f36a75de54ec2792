/**
 * `npm run fuzz -- <target> [--iterations N] [--seed S] …` (see USAGE): mutates the
 * target's seed inputs and fails (exit code 1) on anything but the malformed-input error,
 * on a hang, or on memory growing beyond the bound in fuzz-engine.ts. Every failure is
 * printed with its seed, iteration and mutation, and its input is saved to a temp file.
 *
 * `npm run fuzz -- all --minutes M` runs every format target in turn for M minutes each,
 * then prints one table of all of them and the mutators' totals.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatCount, renderTable } from '../bench/text-table';
import { FuzzEngine, type FuzzFailure } from './fuzz-engine';
import { parseFuzzArgs, USAGE, UsageError, type FuzzOptions } from './fuzz-options';
import { progressLine, summary } from './fuzz-report';
import { describeTarget, runFuzz, type RunResult } from './fuzz-run';
import type { FuzzTarget } from './fuzz-target';
import { formatTargets, fuzzTargets, targetByName } from './fuzz-targets';
import { MUTATORS } from './mutators';

function usage(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\ntargets: ${fuzzTargets.map((t) => t.name).join(', ')}, all\n`);
  process.exit(2);
}

let opts: FuzzOptions;
try {
  opts = parseFuzzArgs(process.argv.slice(2));
} catch (e) {
  if (e instanceof UsageError || (e instanceof Error && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS'))) usage(e.message);
  throw e;
}
const out = (line: string) => process.stdout.write(`${line}\n`);
const MB = 1e6;

/** Fuzzes one target with the run's options; prints its failures and summary. */
async function fuzzTarget(target: FuzzTarget<unknown>, runOpts: FuzzOptions): Promise<{ result: RunResult; engine: FuzzEngine }> {
  const engine = new FuzzEngine(target, target.loadCorpus({ maxSize: runOpts.maxSize, all: runOpts.all }), runOpts.seed);
  out(`Walkbench fuzz: ${describeTarget(target, engine)}`);
  const limit = runOpts.minutes !== undefined ? `${runOpts.minutes} minute(s)` : `iterations ${runOpts.start}..${runOpts.start + runOpts.iterations - 1}`;
  out(
    `seed ${runOpts.seed}, ${limit}, ` +
      (runOpts.inProcess ? 'in-process (no watchdog)' : `worker with a ${runOpts.heapMb} MB heap, timeout ${runOpts.timeoutMs} ms per iteration`),
  );
  const reported = new Map<string, number>();
  const report = (f: FuzzFailure): void => {
    const n = (reported.get(f.signature) ?? 0) + 1;
    reported.set(f.signature, n);
    if (n > runOpts.maxReports) return;
    const file = path.join(tmpdir(), `walkbench-fuzz-${target.name}-seed${runOpts.seed}-iter${f.iteration}.bin`);
    writeFileSync(file, engine.input(f.iteration));
    out(`\nFAILURE (${f.kind}) at seed ${runOpts.seed}, iteration ${f.iteration}`);
    out(`  input:    ${f.seedInput}, ${f.mutation}`);
    out(`  saved to: ${file}`);
    out(`  replay:   npm run fuzz -- ${target.name} --seed ${runOpts.seed} --start ${f.iteration} --iterations 1`);
    out(`  ${f.message.split('\n').join('\n  ')}`);
    if (n === runOpts.maxReports) out(`  (further failures with this signature are only counted: ${f.signature})`);
  };
  const result = await runFuzz(engine, runOpts, {
    onFailure: report,
    onProgress: (stats, ms) => process.stderr.write(`${progressLine(stats, ms, runOpts.iterations, runOpts.minutes)}\n`),
  });
  out('');
  out(summary(result, process.resourceUsage().maxRSS * 1024, target));
  if (result.stoppedEarly) out(`stopped after ${result.failureCount} failure(s) (--max-failures ${runOpts.maxFailures})`);
  out(`fuzz ${target.name}: ${result.stats.completed} iterations, ${result.failureCount} failure(s)`);
  return { result, engine };
}

if (opts.target !== 'all') {
  const target = targetByName(opts.target) ?? usage(`unknown target ${opts.target}`);
  const { result } = await fuzzTarget(target, opts);
  process.exitCode = result.failureCount > 0 ? 1 : 0;
} else {
  const started = performance.now();
  const rows: string[][] = [];
  const totals = new Map<string, [number, number, number]>(MUTATORS.map((m) => [m, [0, 0, 0]]));
  let failures = 0;
  for (const target of formatTargets) {
    out(`\n=== ${target.name} ===`);
    const { result } = await fuzzTarget(target, { ...opts, target: target.name });
    const s = result.stats;
    failures += result.failureCount;
    for (const m of MUTATORS) {
      const t = totals.get(m)!;
      t[0] += s.count(m, 'accepted');
      t[1] += s.count(m, 'rejected');
      t[2] += s.count(m, 'failed');
    }
    rows.push([
      target.name,
      formatCount(s.completed),
      formatCount(s.total('accepted')),
      formatCount(s.total('rejected')),
      formatCount(result.failureCount),
      (s.completed / (result.elapsedMs / 1000)).toFixed(0),
      (s.peakMemory / MB).toFixed(1),
      `${(s.maxBoundShare * 100).toFixed(1)}%`,
    ]);
  }
  out(`\n=== all targets: ${opts.minutes !== undefined ? `${opts.minutes} minute(s) each` : `${opts.iterations} iterations each`}, seed ${opts.seed} ===`);
  out(
    renderTable(
      [
        { header: 'target', align: 'left' },
        { header: 'iterations' },
        { header: 'read OK' },
        { header: 'rejected' },
        { header: 'failures' },
        { header: 'per s' },
        { header: 'peak MB' },
        { header: 'max of bound' },
      ],
      rows,
    ),
  );
  out('');
  out(
    renderTable(
      [{ header: 'mutator', align: 'left' }, { header: 'inputs' }, { header: 'read OK' }, { header: 'rejected' }, { header: 'failures' }],
      MUTATORS.map((m) => {
        const [a, r, f] = totals.get(m)!;
        return [m, formatCount(a + r + f), formatCount(a), formatCount(r), formatCount(f)];
      }),
    ),
  );
  out(`\nfuzz all: ${formatTargets.length} targets in ${((performance.now() - started) / 60_000).toFixed(1)} min, ${failures} failure(s)`);
  process.exitCode = failures > 0 ? 1 : 0;
}
