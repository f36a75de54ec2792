import { parseArgs } from 'node:util';

export interface FuzzOptions {
  /** A target name, or `all` (every format target in turn). */
  target: string;
  iterations: number;
  /** Minutes to run (each target, with `all`); undefined: until the iterations are done. */
  minutes: number | undefined;
  /** First iteration (iterations are numbered, so one can be replayed alone). */
  start: number;
  seed: number;
  timeoutMs: number;
  maxSize: number;
  all: boolean;
  heapMb: number;
  maxFailures: number;
  /** Failures printed and saved per signature; the rest are only counted. */
  maxReports: number;
  /** Run in this thread: no watchdog and no heap limit (for debugging and profiling). */
  inProcess: boolean;
  /** Seconds between progress lines on stderr (0: none). */
  progressSeconds: number;
}

/** With --minutes and no --iterations: no iteration limit (the largest the shared counters hold). */
export const UNLIMITED_ITERATIONS = 0x7fffffff;

export const USAGE = `usage: npm run fuzz -- <target>|all [options]
  all                every format target in turn (not the canary), each for --minutes
                     or --iterations, then a table of all of them
  --minutes M        run for M minutes (per target with all; decimals allowed); the
                     iterations are then unlimited unless --iterations is also given
  --iterations N     mutated inputs to try (default 10000 without --minutes)
  --seed S           run seed, 0..2^32-1 (default: from the clock; always printed)
  --start I          first iteration number (default 0); replay one failure with
                     --seed S --start I --iterations 1
  --timeout-ms T     an iteration running longer is a hang (default 10000)
  --max-size BYTES   only seed inputs up to this size (default 700000)
  --all              every seed input, whatever its size
  --heap-mb MB       the worker's old-generation heap limit (default 512)
  --max-failures N   stop after N failures (default 10)
  --max-reports N    failures printed and saved per signature (default 3)
  --in-process       no worker: no hang detection or heap limit (debugging)
  --progress S       seconds between progress lines (default 10, 0 for none)`;

export class UsageError extends Error {}

export function parseFuzzArgs(argv: readonly string[]): FuzzOptions {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      iterations: { type: 'string' },
      minutes: { type: 'string' },
      seed: { type: 'string' },
      start: { type: 'string', default: '0' },
      'timeout-ms': { type: 'string', default: '10000' },
      'max-size': { type: 'string', default: '700000' },
      all: { type: 'boolean', default: false },
      'heap-mb': { type: 'string', default: '512' },
      'max-failures': { type: 'string', default: '10' },
      'max-reports': { type: 'string', default: '3' },
      'in-process': { type: 'boolean', default: false },
      progress: { type: 'string', default: '10' },
    },
  });
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'name a target' : `one target, not ${positionals.join(' ')}`);
  const minutes = values.minutes === undefined ? undefined : positiveNumber(values.minutes, 'minutes');
  return {
    target: positionals[0]!,
    iterations: values.iterations !== undefined ? integer(values.iterations, 'iterations', 1, UNLIMITED_ITERATIONS) : minutes !== undefined ? UNLIMITED_ITERATIONS : 10000,
    minutes,
    start: integer(values.start, 'start', 0),
    seed: values.seed === undefined ? (Date.now() ^ (process.pid << 16)) >>> 0 : integer(values.seed, 'seed', 0, 0xffffffff),
    timeoutMs: integer(values['timeout-ms'], 'timeout-ms', 1),
    maxSize: integer(values['max-size'], 'max-size', 1),
    all: values.all,
    heapMb: integer(values['heap-mb'], 'heap-mb', 16),
    maxFailures: integer(values['max-failures'], 'max-failures', 1),
    maxReports: integer(values['max-reports'], 'max-reports', 0),
    inProcess: values['in-process'],
    progressSeconds: integer(values.progress, 'progress', 0),
  };
}

function integer(text: string, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, not ${text}`);
  }
  return n;
}

function positiveNumber(text: string, name: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a number above 0, not ${text}`);
  return n;
}
