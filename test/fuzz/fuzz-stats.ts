import { MUTATORS, type MutatorName } from './mutators';

export const OUTCOMES = ['accepted', 'rejected', 'failed'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const WorkerState = { Idle: 0, Loading: 1, Running: 2, Done: 3 } as const;

const INT_SLOTS = 2;
/** Float64 slots; the per-mutator outcome counts start at `Counts`. */
const Slot = { Completed: 0, PeakMemory: 1, MaxGrowth: 2, MaxGrowthInput: 3, MaxRatio: 4, BytesParsed: 5, MaxBoundShare: 6, Remeasured: 7, Counts: 8 } as const;

/**
 * Run statistics in one (Shared)ArrayBuffer: the worker writes them, the main thread reads
 * them, and they survive the worker being killed by the watchdog. The iteration in
 * progress and the worker state are Int32 slots read with Atomics (the watchdog's
 * heartbeat); the rest are Float64 slots written only by the worker thread.
 */
export class FuzzStats {
  readonly buffer: SharedArrayBuffer | ArrayBuffer;
  private readonly ints: Int32Array;
  private readonly f: Float64Array;

  constructor(buffer?: SharedArrayBuffer | ArrayBuffer) {
    const size = 8 * (1 + Slot.Counts + MUTATORS.length * OUTCOMES.length);
    this.buffer = buffer ?? new SharedArrayBuffer(size);
    this.ints = new Int32Array(this.buffer, 0, INT_SLOTS);
    this.f = new Float64Array(this.buffer, 8);
  }

  get iteration(): number {
    return Atomics.load(this.ints, 0);
  }

  set iteration(i: number) {
    Atomics.store(this.ints, 0, i);
  }

  get state(): number {
    return Atomics.load(this.ints, 1);
  }

  set state(s: number) {
    Atomics.store(this.ints, 1, s);
  }

  record(mutator: MutatorName, outcome: Outcome, inputLength: number): void {
    this.f[Slot.Completed]!++;
    this.f[Slot.BytesParsed]! += inputLength;
    this.f[Slot.Counts + MUTATORS.indexOf(mutator) * OUTCOMES.length + OUTCOMES.indexOf(outcome)]!++;
  }

  /** Notes the memory after one parse: `current` in use, `growth` over the parse, against `bound`. */
  recordMemory(current: number, growth: number, inputLength: number, ratioFloor: number, bound: number): void {
    const f = this.f;
    if (growth / bound > f[Slot.MaxBoundShare]!) f[Slot.MaxBoundShare] = growth / bound;
    if (current > f[Slot.PeakMemory]!) f[Slot.PeakMemory] = current;
    if (growth > f[Slot.MaxGrowth]!) {
      f[Slot.MaxGrowth] = growth;
      f[Slot.MaxGrowthInput] = inputLength;
    }
    if (inputLength >= ratioFloor && growth / inputLength > f[Slot.MaxRatio]!) f[Slot.MaxRatio] = growth / inputLength;
  }

  /** Notes a parse measured again because a collection ran during it. */
  recordRemeasure(): void {
    this.f[Slot.Remeasured]!++;
  }

  get remeasured(): number {
    return this.f[Slot.Remeasured]!;
  }

  count(mutator: MutatorName, outcome: Outcome): number {
    return this.f[Slot.Counts + MUTATORS.indexOf(mutator) * OUTCOMES.length + OUTCOMES.indexOf(outcome)]!;
  }

  total(outcome: Outcome): number {
    return MUTATORS.reduce((s, m) => s + this.count(m, outcome), 0);
  }

  get completed(): number {
    return this.f[Slot.Completed]!;
  }

  get bytesParsed(): number {
    return this.f[Slot.BytesParsed]!;
  }

  get peakMemory(): number {
    return this.f[Slot.PeakMemory]!;
  }

  get maxGrowth(): { bytes: number; inputLength: number } {
    return { bytes: this.f[Slot.MaxGrowth]!, inputLength: this.f[Slot.MaxGrowthInput]! };
  }

  /** The largest growth as a share of its bound (above 1 is a failure). */
  get maxBoundShare(): number {
    return this.f[Slot.MaxBoundShare]!;
  }

  get maxRatio(): number {
    return this.f[Slot.MaxRatio]!;
  }
}
