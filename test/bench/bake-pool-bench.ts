/**
 * Bake pool throughput: every NWN2 fixture TRX re-baked on a pool of 1 worker, then of 2
 * (or the counts given), queued as `project rebake` queues them (bake-order.ts), with the
 * speed-up. Workers are started (one small bake each) before the clock starts, so the figure
 * is baking, not thread start-up; their code is still cold, as in a `project rebake`, unless
 * `--warm-pass` bakes the whole set once, untimed, first. Counts alternate (1 2 1 2 …, `--reps`
 * rounds) and the median of each is shown. The outputs of every run are compared byte for
 * byte; the timings are printed, never asserted.
 *
 * Beside the speed-up it prints the CPU time of the whole process (every thread: workers,
 * V8's compiler and GC threads, the main thread), and two ceilings: the ideal makespan of the
 * 1-worker run's bake times on N workers (the queue order dealt to whichever worker is free,
 * as the pool does, and the bound max(longest bake, sum / N)), which is as far as the set's
 * mix of sizes lets N workers go, and the machine's own limit for N threads.
 * Run alone with `node --import tsx test/bench/bake-pool-bench.ts [--workers 1,2] [--reps 3]
 * [--warm-pass] [--order queue|largest]` (`largest`: the order before bake-order.ts, largest first).
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { bakeQueueOrder } from '../../electron/services/bake-pool/bake-order';
import { BakePool } from '../../electron/services/bake-pool/bake-pool';
import { listFixtures, readFixture } from '../support/fixtures';

export interface BakePoolBenchOptions {
  workers?: readonly number[];
  /** Rounds of every count, alternating (default 1). */
  reps?: number;
  /** Bake the whole set once, untimed, before timing (warm code in every worker). */
  warmPass?: boolean;
  /** `queue`: bake-order.ts, as `project rebake` (default); `largest`: largest first. */
  order?: 'queue' | 'largest';
  out?: (text: string) => void;
}

export interface BakePoolBenchRun {
  workers: number;
  /** Median wall time of the rounds. */
  ms: number;
  /** Median CPU time of the whole process (all threads) over the timed part. */
  cpuMs: number;
}

export interface BakePoolBenchResult {
  files: number;
  bytes: number;
  runs: BakePoolBenchRun[];
  /** The 1-worker run's bake times dealt to the largest worker count: makespan and the speed-up it allows. */
  ideal?: { workers: number; makespanMs: number; boundMs: number; speedUp: number };
}

interface TimedRun {
  ms: number;
  cpuMs: number;
  /** Each bake's time in the worker, in queue order. */
  jobMs: number[];
  outputs: Uint8Array[];
}

async function timeRun(workers: number, inputs: readonly Uint8Array[], warmup: Uint8Array, warmPass: boolean): Promise<TimedRun> {
  const pool = new BakePool({ concurrency: workers });
  const bakeAll = () => Promise.all(inputs.map((b) => pool.submit({ kind: 'nwn2-rebake', input: b.slice() }).result));
  try {
    const warm = Array.from({ length: workers }, () => pool.submit({ kind: 'nwn2-rebake', input: warmup.slice() }).result);
    await Promise.all(warm);
    if (warmPass) await bakeAll();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const outcomes = await bakeAll();
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const done = outcomes.map((o) => {
      if (o.status !== 'done') throw new Error(`a bake did not finish: ${JSON.stringify(o)}`);
      return o;
    });
    return { ms, cpuMs: (cpu.user + cpu.system) / 1000, jobMs: done.map((o) => o.elapsedMs), outputs: done.map((o) => o.output) };
  } finally {
    await pool.close();
  }
}

/**
 * `jobMs` (in queue order) on `workers` workers, each job going to the first worker free, as
 * the pool deals them: the makespan, and the bound no order beats.
 */
export function idealMakespan(jobMs: readonly number[], workers: number): { makespanMs: number; boundMs: number } {
  const free = new Array<number>(workers).fill(0);
  for (const ms of jobMs) {
    let w = 0;
    for (let i = 1; i < workers; i++) if (free[i]! < free[w]!) w = i;
    free[w]! += ms;
  }
  const sum = jobMs.reduce((s, ms) => s + ms, 0);
  return { makespanMs: Math.max(...free), boundMs: Math.max(Math.max(...jobMs), sum / workers) };
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export async function runBakePoolBench(options: BakePoolBenchOptions = {}): Promise<BakePoolBenchResult> {
  const out = options.out ?? ((t: string) => void process.stdout.write(t));
  const counts = options.workers ?? [1, 2];
  const reps = options.reps ?? 1;
  const order = options.order ?? 'queue';
  const files = listFixtures('nwn2', ['.trx']).map(readFixture);
  const inputs = order === 'largest' ? files.sort((a, b) => b.length - a.length) : bakeQueueOrder(files, (b) => b.length);
  const bytes = inputs.reduce((s, b) => s + b.length, 0);
  const warmup = inputs.reduce((s, b) => (b.length < s.length ? b : s));
  const timed = new Map<number, TimedRun[]>(counts.map((c) => [c, []]));
  let reference: Uint8Array[] | undefined;
  for (let r = 0; r < reps; r++) {
    for (const workers of counts) {
      const run = await timeRun(workers, inputs, warmup, options.warmPass ?? false);
      if (reference && run.outputs.some((o, i) => Buffer.compare(o, reference![i]!) !== 0)) throw new Error(`${workers} workers gave other bytes than ${counts[0]}`);
      reference ??= run.outputs;
      timed.get(workers)!.push(run);
    }
  }
  const runs: BakePoolBenchRun[] = counts.map((workers) => {
    const rounds = timed.get(workers)!;
    return { workers, ms: median(rounds.map((t) => t.ms)), cpuMs: median(rounds.map((t) => t.cpuMs)) };
  });
  const code = options.warmPass ? 'warm code (one untimed pass first)' : 'cold code, as in a project rebake';
  out(`bake pool: re-bake of ${inputs.length} NWN2 TRX (${(bytes / 1e6).toFixed(1)} MB), ${order === 'largest' ? 'largest first' : 'queued as project rebake does'}, ${code}; median of ${reps}; identical bytes for every worker count\n`);
  const base = runs[0]!;
  const cores = availableParallelism();
  for (const r of runs) {
    // CPU time spread over the cores is a floor for the wall time that other load on the machine cannot lower.
    const floor = r.workers > 1 ? ` (at least ${(r.cpuMs / Math.min(r.workers, cores)).toFixed(0)} ms on ${Math.min(r.workers, cores)} cores)` : '';
    out(`  ${r.workers} worker${r.workers === 1 ? ' ' : 's'}: ${r.ms.toFixed(0)} ms, speed-up ×${(base.ms / r.ms).toFixed(2)} over ${base.workers}; CPU of all threads ${r.cpuMs.toFixed(0)} ms${floor}\n`);
  }
  const result: BakePoolBenchResult = { files: inputs.length, bytes, runs };
  const most = Math.max(...counts);
  const one = timed.get(1);
  if (one && most > 1) {
    // The median round's bake times (the round whose wall time is the median, or the first of the two middle ones).
    const mid = [...one].sort((a, b) => a.ms - b.ms)[(one.length - 1) >> 1]!;
    const { makespanMs, boundMs } = idealMakespan(mid.jobMs, most);
    const longest = Math.max(...mid.jobMs);
    result.ideal = { workers: most, makespanMs, boundMs, speedUp: mid.ms / makespanMs };
    out(
      `  the set's ceiling: the 1-worker bakes (longest ${longest.toFixed(0)} ms of ${mid.jobMs.reduce((s, ms) => s + ms, 0).toFixed(0)} ms) dealt in queue order to ${most} workers end after ${makespanMs.toFixed(0)} ms (no order under ${boundMs.toFixed(0)} ms): at most ×${result.ideal.speedUp.toFixed(2)} with ${most} workers whose code costs what it did in 1\n`,
    );
  }
  const ceiling = await machineCeiling(most);
  out(`  the machine's own ceiling: ${ceiling.threads} threads of a pure arithmetic loop (no allocation, no I/O) run ×${ceiling.speedUp.toFixed(2)} faster than one doing the same work; a pool cannot scale past it\n`);
  return result;
}

/**
 * How much faster `threads` threads finish a fixed amount of pure arithmetic than one
 * thread does: the hardware's limit for the pool (virtual cores sharing a physical core or
 * its caches give much less than the thread count). Best of three of each.
 */
export async function machineCeiling(threads: number): Promise<{ threads: number; speedUp: number }> {
  // An xorshift loop: integer work in registers, optimised at once, the same on every run.
  // Each thread says it is up, then waits for the start, so thread start-up is not timed.
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    parentPort.once('message', () => {
      let x = 0x9e3779b9 | 0;
      for (let i = 0; i < workerData; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; }
      parentPort.postMessage(x);
    });
    parentPort.postMessage('up');`;
  const units = 4;
  const perUnit = 60_000_000;
  const run = async (workers: number): Promise<number> => {
    const started = Array.from({ length: workers }, () => new Worker(code, { eval: true, workerData: (perUnit * units) / workers }));
    const message = (w: Worker) => new Promise((resolve, reject) => w.once('message', resolve).once('error', reject));
    await Promise.all(started.map(message));
    const t0 = performance.now();
    const done = started.map(message);
    for (const w of started) w.postMessage('go');
    await Promise.all(done);
    const ms = performance.now() - t0;
    await Promise.all(started.map((w) => w.terminate()));
    return ms;
  };
  let one = Infinity;
  let many = Infinity;
  for (let i = 0; i < 3; i++) {
    one = Math.min(one, await run(1));
    many = Math.min(many, await run(threads));
  }
  return { threads, speedUp: one / many };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { workers: { type: 'string', default: '1,2' }, reps: { type: 'string', default: '1' }, 'warm-pass': { type: 'boolean', default: false }, order: { type: 'string', default: 'queue' } },
  });
  const workers = values.workers.split(',').map(Number);
  if (workers.some((w) => !Number.isInteger(w) || w < 1)) throw new Error('--workers takes whole numbers ≥ 1, e.g. 1,2');
  const reps = Number(values.reps);
  if (!Number.isInteger(reps) || reps < 1) throw new Error('--reps takes a whole number ≥ 1');
  if (values.order !== 'queue' && values.order !== 'largest') throw new Error('--order takes queue or largest');
  await runBakePoolBench({ workers, reps, warmPass: values['warm-pass'], order: values.order });
}
