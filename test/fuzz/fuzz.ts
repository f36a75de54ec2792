/**
 * `npm run fuzz -- <target> [--iterations N] [--seed S] …` (see USAGE): mutates the
 * target's seed inputs and fails (exit code 1) on anything but the malformed-input error,
 * on a hang, or on memory growing beyond the bound in fuzz-engine.ts. Every failure is
 * printed with its seed, iteration and mutation, and its input is saved to a temp file.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FuzzEngine, type FuzzFailure } from './fuzz-engine';
import { parseFuzzArgs, USAGE, UsageError, type FuzzOptions } from './fuzz-options';
import { progressLine, summary } from './fuzz-report';
import { describeTarget, runFuzz } from './fuzz-run';
import { fuzzTargets, targetByName } from './fuzz-targets';

function usage(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\ntargets: ${fuzzTargets.map((t) => t.name).join(', ')}\n`);
  process.exit(2);
}

let opts: FuzzOptions;
try {
  opts = parseFuzzArgs(process.argv.slice(2));
} catch (e) {
  if (e instanceof UsageError || (e instanceof Error && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS'))) usage(e.message);
  throw e;
}
const target = targetByName(opts.target) ?? usage(`unknown target ${opts.target}`);
const engine = new FuzzEngine(target, target.loadCorpus({ maxSize: opts.maxSize, all: opts.all }), opts.seed);

const out = (line: string) => process.stdout.write(`${line}\n`);
out(`Walkbench fuzz: ${describeTarget(target, engine)}`);
out(
  `seed ${opts.seed}, iterations ${opts.start}..${opts.start + opts.iterations - 1}, ` +
    (opts.inProcess ? 'in-process (no watchdog)' : `worker with a ${opts.heapMb} MB heap, timeout ${opts.timeoutMs} ms per iteration`),
);

const reported = new Map<string, number>();

function report(f: FuzzFailure): void {
  const n = (reported.get(f.signature) ?? 0) + 1;
  reported.set(f.signature, n);
  if (n > opts.maxReports) return;
  const file = path.join(tmpdir(), `walkbench-fuzz-${opts.target}-seed${opts.seed}-iter${f.iteration}.bin`);
  writeFileSync(file, engine.input(f.iteration));
  out(`\nFAILURE (${f.kind}) at seed ${opts.seed}, iteration ${f.iteration}`);
  out(`  input:    ${f.seedInput}, ${f.mutation}`);
  out(`  saved to: ${file}`);
  out(`  replay:   npm run fuzz -- ${opts.target} --seed ${opts.seed} --start ${f.iteration} --iterations 1`);
  out(`  ${f.message.split('\n').join('\n  ')}`);
  if (n === opts.maxReports) out(`  (further failures with this signature are only counted: ${f.signature})`);
}

const result = await runFuzz(engine, opts, {
  onFailure: report,
  onProgress: (stats, ms) => process.stderr.write(`${progressLine(stats, ms, opts.iterations)}\n`),
});
out('');
out(summary(result, process.resourceUsage().maxRSS * 1024));
if (result.stoppedEarly) out(`stopped after ${result.failureCount} failure(s) (--max-failures ${opts.maxFailures})`);
out(`fuzz ${opts.target}: ${result.stats.completed} iterations, ${result.failureCount} failure(s)`);
process.exitCode = result.failureCount > 0 ? 1 : 0;
