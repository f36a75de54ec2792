import { Worker } from 'node:worker_threads';
import { failureSignature, type FailureKind, type FuzzEngine, type FuzzFailure } from './fuzz-engine';
import type { FuzzOptions } from './fuzz-options';
import { FuzzStats, WorkerState } from './fuzz-stats';
import type { FuzzTarget } from './fuzz-target';
import type { WorkerInput, WorkerMessage } from './fuzz-worker';

export interface SignatureCount {
  count: number;
  first: FuzzFailure;
}

export interface RunResult {
  stats: FuzzStats;
  failureCount: number;
  /** Failures grouped by signature (one cause), in order of first appearance. */
  signatures: Map<string, SignatureCount>;
  elapsedMs: number;
  /** Iterations not run because the failure limit was reached. */
  stoppedEarly: boolean;
  /** The run ended because its --minutes were up. */
  timeUp: boolean;
}

export interface RunHooks {
  /** Called as each failure is found (the engine rebuilds its input from the iteration). */
  onFailure?(failure: FuzzFailure): void;
  /** Called every `progressSeconds`. */
  onProgress?(stats: FuzzStats, elapsedMs: number): void;
}

/**
 * Runs iterations [start, start + iterations) of a target. In worker mode each range runs
 * in a worker thread with a heap limit; a watchdog polls the iteration the worker is on
 * and kills it when one iteration outlasts the timeout, and a killed or crashed worker is
 * replaced by a new one that resumes after the failing iteration. `engine` is the main
 * thread's copy, used to describe iterations the worker could not report itself.
 */
export async function runFuzz(engine: FuzzEngine, opts: FuzzOptions, hooks: RunHooks = {}): Promise<RunResult> {
  const stats = new FuzzStats();
  const signatures = new Map<string, SignatureCount>();
  let failureCount = 0;
  const started = performance.now();
  const end = Math.min(opts.start + opts.iterations, 0x7fffffff);
  const deadline = opts.minutes !== undefined ? started + opts.minutes * 60_000 : Infinity;
  const timeUp = () => performance.now() >= deadline;
  let stop = false;
  const fail = (f: FuzzFailure) => {
    failureCount++;
    const seen = signatures.get(f.signature);
    if (seen) seen.count++;
    else signatures.set(f.signature, { count: 1, first: f });
    hooks.onFailure?.(f);
    if (failureCount >= opts.maxFailures) stop = true;
  };
  const progress =
    hooks.onProgress && opts.progressSeconds > 0
      ? setInterval(() => hooks.onProgress?.(stats, performance.now() - started), opts.progressSeconds * 1000)
      : undefined;
  try {
    if (opts.inProcess) {
      for (let i = opts.start; i < end && !stop && !timeUp(); i++) {
        const f = engine.run(i, stats);
        if (f) fail(f);
        // Let the progress timer run now and then.
        if ((i & 0x3ff) === 0x3ff) await new Promise((resolve) => setImmediate(resolve));
      }
    } else {
      let next = opts.start;
      while (next < end && !stop && !timeUp()) {
        const lost = await runWorker(opts, stats, next, end, fail, () => stop, deadline);
        if (!lost) break;
        // The worker died on iteration `lost.iteration`: count it, report it, resume after it.
        const { entry, mutation } = engine.plan(lost.iteration);
        stats.record(mutation.mutator, 'failed', mutation.length);
        fail({ ...lost, signature: failureSignature(lost.kind, mutation, lost.cause), seedInput: entry.name, mutation: mutation.description });
        next = lost.iteration + 1;
      }
    }
  } finally {
    if (progress) clearInterval(progress);
  }
  const done = stats.completed >= opts.iterations;
  return { stats, failureCount, signatures, elapsedMs: performance.now() - started, stoppedEarly: stop && !done, timeUp: !stop && !done && timeUp() };
}

/**
 * The worker's entry code. A worker does not get the TypeScript loader this script runs
 * under (Node 20 loads a worker's `.ts` entry before an `--import tsx` in its execArgv
 * has registered), so a small evaluated module registers tsx first, then imports the
 * TypeScript entry.
 */
function workerBootstrap(): string {
  const tsxApi = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const entry = JSON.stringify(new URL('./fuzz-worker.ts', import.meta.url).href);
  return `import(${tsxApi}).then((tsx) => { tsx.register(); return import(${entry}); });`;
}

const STARTUP_TIMEOUT_MS = 120_000;

interface LostIteration {
  kind: FailureKind;
  iteration: number;
  message: string;
  cause: string;
}

/** Runs [from, to) in one worker; resolves undefined when it finished, or with the iteration it died on. */
function runWorker(
  opts: FuzzOptions,
  stats: FuzzStats,
  from: number,
  to: number,
  fail: (f: FuzzFailure) => void,
  shouldStop: () => boolean,
  deadline: number,
): Promise<LostIteration | undefined> {
  stats.state = WorkerState.Idle;
  stats.iteration = from;
  const workerData: WorkerInput = {
    target: opts.target,
    seed: opts.seed,
    from,
    to,
    corpus: { maxSize: opts.maxSize, all: opts.all },
    stats: stats.buffer as SharedArrayBuffer,
  };
  const worker = new Worker(workerBootstrap(), {
    eval: true,
    workerData,
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: opts.heapMb },
  });
  return new Promise((resolve, reject) => {
    let lost: LostIteration | undefined;
    let startupError: Error | undefined;
    let finished = false;
    let stopping = false;
    // The watchdog: the iteration counter must move at least once per timeout.
    let seen = -1;
    const startedAt = performance.now();
    let seenAt = startedAt;
    const watchdog = setInterval(
      () => {
        const now = performance.now();
        if (now >= deadline && !stopping && !lost) {
          // Time is up: the iteration in progress is dropped, not counted.
          stopping = true;
          void worker.terminate();
          return;
        }
        const state = stats.state;
        const i = stats.iteration;
        if (state !== WorkerState.Running) {
          // Loading the target and its seed inputs gets a generous, fixed allowance.
          if (state !== WorkerState.Done && now - startedAt > STARTUP_TIMEOUT_MS && !startupError) {
            startupError = new Error(`the fuzz worker did not start within ${STARTUP_TIMEOUT_MS} ms`);
            void worker.terminate();
          }
          seenAt = now;
          return;
        }
        if (i !== seen) {
          seen = i;
          seenAt = now;
        } else if (now - seenAt > opts.timeoutMs && !lost) {
          lost = {
            kind: 'hang',
            iteration: i,
            message: `iteration ${i} ran for more than ${opts.timeoutMs} ms; the worker was terminated`,
            cause: 'ran past the timeout',
          };
          void worker.terminate();
        }
      },
      Math.max(10, Math.min(250, opts.timeoutMs / 4)),
    );
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'done') finished = true;
      else {
        fail(m.failure);
        if (shouldStop() && !stopping) {
          stopping = true;
          void worker.terminate();
        }
      }
    });
    worker.on('error', (e: Error & { code?: string }) => {
      const i = stats.iteration;
      if (lost || startupError) return;
      if (stats.state !== WorkerState.Running) {
        startupError = new Error(`the fuzz worker failed before running: ${e.stack ?? e.message}`);
        return;
      }
      lost =
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { kind: 'out-of-memory', iteration: i, message: `the worker ran out of its ${opts.heapMb} MB heap: ${e.message}`, cause: 'heap limit reached' }
          : { kind: 'worker-exit', iteration: i, message: e.stack ?? e.message, cause: `${e.name}: ${e.message}` };
    });
    worker.on('exit', (code) => {
      clearInterval(watchdog);
      if (startupError) reject(startupError);
      else if (finished || stopping) resolve(undefined);
      else if (lost) resolve(lost);
      else {
        const message = `the worker exited with code ${code} before finishing`;
        resolve({ kind: 'worker-exit', iteration: stats.iteration, message, cause: message });
      }
    });
  });
}

export function describeTarget(target: FuzzTarget<unknown>, engine: FuzzEngine): string {
  const bytes = engine.corpus.reduce((s, e) => s + e.bytes.length, 0);
  const counts = engine.corpus.reduce((s, e) => s + e.countFields, 0);
  return `${target.name} (${target.description}); ${engine.corpus.length} seed input(s), ${bytes.toLocaleString('en-US')} bytes, ${counts.toLocaleString('en-US')} count fields`;
}
