import { parseArgs } from 'node:util';

export interface FuzzOptions {
  target: string;
  iterations: number;
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

export const USAGE = `usage: npm run fuzz -- <target> [options]
  --iterations N     mutated inputs to try (default 10000)
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
      iterations: { type: 'string', default: '10000' },
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
  return {
    target: positionals[0]!,
    iterations: integer(values.iterations, 'iterations', 1),
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
