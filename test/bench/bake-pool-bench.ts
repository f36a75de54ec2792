/**
 * Bake pool throughput: every NWN2 fixture TRX re-baked on a pool of 1 worker, then of 2
 * (or the counts given), largest first, with the speed-up. Workers are started and warmed (one small
 * bake each) before the clock starts, so the figure is baking, not thread start-up. The
 * outputs of every run are compared byte for byte; the timings are printed, never asserted.
 * Run alone with `node --import tsx test/bench/bake-pool-bench.ts [--workers 1,2]`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { BakePool } from '../../electron/services/bake-pool/bake-pool';
import { listFixtures, readFixture } from '../support/fixtures';

export interface BakePoolBenchOptions {
  workers?: readonly number[];
  out?: (text: string) => void;
}

export interface BakePoolBenchRun {
  workers: number;
  ms: number;
}

export interface BakePoolBenchResult {
  files: number;
  bytes: number;
  runs: BakePoolBenchRun[];
}

async function timeRun(workers: number, inputs: readonly Uint8Array[], warmup: Uint8Array): Promise<{ ms: number; outputs: Uint8Array[] }> {
  const pool = new BakePool({ concurrency: workers });
  try {
    const warm = Array.from({ length: workers }, () => pool.submit({ kind: 'nwn2-rebake', input: warmup.slice() }).result);
    await Promise.all(warm);
    const t0 = performance.now();
    const outcomes = await Promise.all(inputs.map((b) => pool.submit({ kind: 'nwn2-rebake', input: b.slice() }).result));
    const ms = performance.now() - t0;
    const outputs = outcomes.map((o) => {
      if (o.status !== 'done') throw new Error(`a bake did not finish: ${JSON.stringify(o)}`);
      return o.output;
    });
    return { ms, outputs };
  } finally {
    await pool.close();
  }
}

export async function runBakePoolBench(options: BakePoolBenchOptions = {}): Promise<BakePoolBenchResult> {
  const out = options.out ?? ((t: string) => void process.stdout.write(t));
  const counts = options.workers ?? [1, 2];
  // Largest first, as `project rebake` queues them: a big area started last would leave the other worker idle.
  const inputs = listFixtures('nwn2', ['.trx'])
    .map(readFixture)
    .sort((a, b) => b.length - a.length);
  const bytes = inputs.reduce((s, b) => s + b.length, 0);
  const warmup = inputs.reduce((s, b) => (b.length < s.length ? b : s));
  const runs: BakePoolBenchRun[] = [];
  let reference: Uint8Array[] | undefined;
  for (const workers of counts) {
    const { ms, outputs } = await timeRun(workers, inputs, warmup);
    if (reference && outputs.some((o, i) => Buffer.compare(o, reference![i]!) !== 0)) throw new Error(`${workers} workers gave other bytes than ${counts[0]}`);
    reference ??= outputs;
    runs.push({ workers, ms });
  }
  out(`bake pool: re-bake of ${inputs.length} NWN2 TRX (${(bytes / 1e6).toFixed(1)} MB), identical bytes for every worker count\n`);
  const base = runs[0]!;
  for (const r of runs) out(`  ${r.workers} worker${r.workers === 1 ? ' ' : 's'}: ${r.ms.toFixed(0)} ms, speed-up ×${(base.ms / r.ms).toFixed(2)} over ${base.workers}\n`);
  const ceiling = await machineCeiling(Math.max(...counts));
  out(`  the machine's own ceiling: ${ceiling.threads} threads of a pure arithmetic loop (no allocation, no I/O) run ×${ceiling.speedUp.toFixed(2)} faster than one doing the same work; a pool cannot scale past it\n`);
  return { files: inputs.length, bytes, runs };
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
  const { values } = parseArgs({ options: { workers: { type: 'string', default: '1,2' } } });
  const workers = values.workers.split(',').map(Number);
  if (workers.some((w) => !Number.isInteger(w) || w < 1)) throw new Error('--workers takes whole numbers ≥ 1, e.g. 1,2');
  await runBakePoolBench({ workers });
}
