import { GCProfiler } from 'node:v8';
import { isMalformedInputError } from '../../shared/binary/malformed-input-error';
import { collectGarbage } from '../bench/measure';
import { takeInflatedBytes } from './fuzz-env';
import type { CorpusEntry, CountField, FuzzTarget } from './fuzz-target';
import type { FuzzStats } from './fuzz-stats';
import { MAX_INSERT, planMutation, type Mutation } from './mutators';
import { iterationRng, type Rng } from './prng';

/**
 * The memory bound of one parse: heap + ArrayBuffer growth over the parse may be at most
 * MEMORY_FACTOR × the input size plus MEMORY_ALLOWANCE.
 * - The factor: a typed-array reader needs about one input's worth for its document (the
 *   nav reader's columns are 1.0–1.4× the bytes they come from); 4× leaves room for a
 *   reader that builds its result through growable arrays (up to 2× plus a copy) but not
 *   for one that sizes anything from an unchecked count, or that spends a JS object (a
 *   few hundred bytes) on an item of a few bytes.
 * - The allowance covers what is not the parser's: V8 compiling or re-optimizing code
 *   mid-run (code and feedback objects live on the measured heap) and small fixed
 *   objects. On the nav fixtures this noise stayed under 0.35 MB above 1.5× the input
 *   over 6,000 mutated inputs; 1 MiB leaves a margin while a count-driven blow-up (MBs
 *   from a 2-byte field) stays far above it.
 * Growth is measured without forcing a GC (too slow per iteration). A collection during
 * the parse would hide growth (it frees earlier iterations' garbage), so a GC profiler
 * watches each parse, and one that saw a collection is measured again from a fully
 * collected heap (about 1 parse in 100; the larger figure counts). Garbage never makes
 * the check fail: only allocation raises the figure.
 */
export const MEMORY_FACTOR = 4;
export const MEMORY_ALLOWANCE = 1024 * 1024;
/** Bound per byte inflated during the parse (targets reading compressed data; see fuzz-env.ts). */
export const INFLATED_FACTOR = 4;
/** Share of iterations given to the target's structure mutators, when it has any. */
export const STRUCTURE_SHARE = 0.35;
/** Inputs below this size are left out of the growth-ratio figure, where fixed costs dominate. */
export const RATIO_FLOOR = 64 * 1024;

export type FailureKind = 'crash' | 'bad-error' | 'check' | 'memory' | 'hang' | 'out-of-memory' | 'worker-exit';

export interface FuzzFailure {
  kind: FailureKind;
  /** Groups failures with one cause: kind, mutator (and count kind), cause without numbers. */
  signature: string;
  iteration: number;
  /** The seed input's name. */
  seedInput: string;
  mutation: string;
  message: string;
}

interface PreparedEntry extends CorpusEntry {
  /** The count fields, grouped by kind. */
  countKinds: CountField[][];
  countFields: number;
  /** What the target's structure mutators know of this seed (undefined: none apply). */
  structure: unknown;
}

function groupByKind(fields: readonly CountField[]): CountField[][] {
  const groups = new Map<string, CountField[]>();
  for (const f of fields) {
    let g = groups.get(f.kind);
    if (!g) groups.set(f.kind, (g = []));
    g.push(f);
  }
  return [...groups.values()];
}

/** The memory in use as the fuzzer measures it: JS heap plus ArrayBuffer backing stores. */
export function memoryInUse(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/**
 * Runs iterations of one target: iteration i mutates a seed input chosen by the
 * generator of (seed, i), parses it, and classifies the outcome. Used by the worker and,
 * without a watchdog, in-process by the unit test.
 */
export class FuzzEngine {
  readonly target: FuzzTarget<unknown>;
  readonly seed: number;
  readonly corpus: readonly PreparedEntry[];
  /** Mutated inputs are built here, so an iteration allocates nothing before it parses. */
  private scratch: Uint8Array;
  private readonly gcWatch = new GCProfiler();
  private lastRemeasured: unknown;

  constructor(target: FuzzTarget<unknown>, corpus: readonly CorpusEntry[], seed: number) {
    if (corpus.length === 0) throw new Error(`target ${target.name} has no seed inputs`);
    this.target = target;
    this.seed = seed;
    this.corpus = corpus.map((e) => {
      const fields = target.countFields?.(e.bytes) ?? [];
      return { ...e, countKinds: groupByKind(fields), countFields: fields.length, structure: target.structure?.(e.bytes) };
    });
    this.scratch = new Uint8Array(Math.max(...corpus.map((e) => e.bytes.length)) + MAX_INSERT);
  }

  plan(iteration: number): { entry: PreparedEntry; mutation: Mutation } {
    const rng = iterationRng(this.seed, iteration);
    const entry = this.corpus[rng.below(this.corpus.length)]!;
    const structured = this.target.structureMutators;
    if (structured && structured.length > 0 && entry.structure !== undefined && rng.next() < STRUCTURE_SHARE) {
      const mutation = pickWeighted(rng, structured).plan(rng, entry.bytes, entry.structure);
      if (mutation) return { entry, mutation };
    }
    return { entry, mutation: planMutation(rng, entry.bytes, entry.countKinds) };
  }

  /** The mutated input of an iteration, as a copy of its own (for failure reports). */
  input(iteration: number): Uint8Array {
    const { entry, mutation } = this.plan(iteration);
    const out = new Uint8Array(Math.max(mutation.length, entry.bytes.length));
    mutation.write(entry.bytes, out);
    return out.slice(0, mutation.length);
  }

  /** Runs one iteration, records it in `stats`, and returns its failure if it failed. */
  run(iteration: number, stats: FuzzStats): FuzzFailure | undefined {
    const { entry, mutation } = this.plan(iteration);
    // A structure mutation may build an input larger than any seed (a longer packet table).
    if (mutation.length > this.scratch.length) this.scratch = new Uint8Array(mutation.length);
    mutation.write(entry.bytes, this.scratch);
    const input = this.scratch.subarray(0, mutation.length);
    const problem = this.evaluate(input, stats);
    stats.record(mutation.mutator, problem === undefined ? 'accepted' : problem === null ? 'rejected' : 'failed', input.length);
    if (!problem) return undefined;
    const { cause, ...rest } = problem;
    return { ...rest, signature: failureSignature(problem.kind, mutation, cause), iteration, seedInput: entry.name, mutation: mutation.description };
  }

  /**
   * undefined: accepted; null: rejected with a well-formed MalformedInputError; else the
   * failure, with a short `cause` that is the same for failures with one cause.
   */
  private evaluate(input: Uint8Array, stats: FuzzStats): Problem | null | undefined {
    const target = this.target;
    takeInflatedBytes();
    this.gcWatch.start();
    const before = memoryInUse();
    let parsed: unknown;
    let thrown: unknown;
    let threw = false;
    try {
      parsed = target.parse(input);
    } catch (e) {
      threw = true;
      thrown = e;
    }
    const after = memoryInUse();
    const inflated = takeInflatedBytes();
    const bound = (target.memoryFactor ?? MEMORY_FACTOR) * input.length + (target.inflatedFactor ?? INFLATED_FACTOR) * inflated + MEMORY_ALLOWANCE;
    let growth = after - before;
    if ((this.gcWatch.stop()?.statistics.length ?? 0) > 0) {
      stats.recordRemeasure();
      growth = Math.max(growth, this.remeasure(input));
    }
    stats.recordMemory(after, growth, input.length, RATIO_FLOOR, bound);
    if (growth > bound) {
      const how = threw ? `before throwing ${describe(thrown)}` : 'and accepted the input';
      return {
        kind: 'memory',
        message: `memory grew by ${growth} bytes over the parse (bound ${bound} for ${input.length} input bytes${inflated > 0 ? ` and ${inflated} inflated` : ''}) ${how}`,
        cause: threw ? `grew, then threw ${errorName(thrown)}` : 'grew, then accepted',
      };
    }
    if (threw) {
      if (!isMalformedInputError(thrown)) return { kind: 'crash', message: describe(thrown, true), cause: describe(thrown) };
      const flaw = malformedErrorFlaw(thrown, input.length, target.format);
      return flaw ? { kind: 'bad-error', message: `${flaw}: ${thrown.message}`, cause: flaw } : null;
    }
    try {
      target.check?.(parsed, input);
    } catch (e) {
      return { kind: 'check', message: describe(e, true), cause: describe(e) };
    }
    return undefined;
  }

  /** The parse's growth from a fully collected heap (its result or error kept until measured). */
  private remeasure(input: Uint8Array): number {
    collectGarbage();
    const before = memoryInUse();
    let result: unknown;
    try {
      result = this.target.parse(input);
    } catch (e) {
      result = e;
    }
    const growth = memoryInUse() - before;
    takeInflatedBytes();
    // Used after the measurement, so the result cannot be collected before it.
    this.lastRemeasured = result;
    this.lastRemeasured = undefined;
    return growth;
  }
}

function pickWeighted<T extends { weight: number }>(rng: Rng, items: readonly T[]): T {
  let roll = rng.next() * items.reduce((s, m) => s + m.weight, 0);
  for (const m of items) {
    roll -= m.weight;
    if (roll < 0) return m;
  }
  return items[items.length - 1]!;
}

interface Problem {
  kind: FailureKind;
  message: string;
  cause: string;
}

/** kind | mutator[:count kind] | cause, with numbers blanked so one cause gives one signature. */
export function failureSignature(kind: FailureKind, mutation: Pick<Mutation, 'mutator' | 'countKind'>, cause: string): string {
  const what = mutation.countKind ? `${mutation.mutator}:${mutation.countKind}` : mutation.mutator;
  const line = (cause.split('\n')[0] ?? '').replace(/0x[0-9a-f]+|\d+/gi, '#');
  return `${kind} | ${what} | ${line.length > 100 ? `${line.slice(0, 99)}…` : line}`;
}

function errorName(e: unknown): string {
  return e instanceof Error ? e.name : typeof e;
}

/** What is wrong with a MalformedInputError, if anything: it must say where and what. */
function malformedErrorFlaw(e: { offset: number; field: string; format: string; expected: string }, length: number, format?: string): string | undefined {
  if (!Number.isInteger(e.offset) || e.offset < 0 || e.offset > length) return `offset ${e.offset} is outside [0, ${length}]`;
  if (typeof e.field !== 'string' || e.field.trim() === '') return 'the field name is empty';
  if (typeof e.expected !== 'string' || e.expected.trim() === '') return 'the expectation is empty';
  if (format !== undefined && e.format !== format) return `format ${e.format}, not ${format}`;
  return undefined;
}

function describe(e: unknown, withStack = false): string {
  if (e instanceof Error) {
    if (withStack && e.stack) return e.stack.split('\n').slice(0, 8).join('\n');
    return `${e.name}: ${e.message}`;
  }
  return `a non-Error value: ${String(e)}`;
}
