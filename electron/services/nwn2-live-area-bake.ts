import { AREA_BAKE_JOB, decodeAreaBakeOutput, encodeAreaBakeInput, type AreaBakeInput, type AreaBakeOutput } from '../../shared/edits/nwn2-area-bake-job';
import type { TileTableCache } from '../../shared/bakers/nwn2/tile-table-reuse';
import { BakePool, type BakePoolOptions } from './bake-pool/bake-pool';

export type LiveBakeResult =
  | { status: 'done'; output: AreaBakeOutput; /** Milliseconds from the request to the result. */ waitMs: number }
  | { status: 'superseded' }
  | { status: 'failed'; error: string };

interface Waiter {
  promise: Promise<LiveBakeResult>;
  resolve: (r: LiveBakeResult) => void;
  requestedAt: number;
  settled: boolean;
}

interface AreaState {
  running: number | undefined;
  /** The newest request not started yet; an older one still waiting is superseded. */
  pending: { ticket: number; input: Omit<AreaBakeInput, 'tileCache'> } | undefined;
  cache: TileTableCache | undefined;
}

/** How many finished results are kept for a caller that has not asked yet. */
const KEPT_RESULTS = 64;
/** An idle worker is ended after this long (its memory back); the next edit starts one again. */
const IDLE_MS = 120_000;

/**
 * NWN2 live re-bakes after cutter and placeable edits, in the background on a bake
 * worker of their own (so a long module re-bake in the jobs panel does not hold them up,
 * and the main process never runs a bake). An edit gets a ticket at once; the result is
 * fetched with the ticket. Per area one bake runs at a time: requests made while it runs
 * collapse into the newest (a drag of a placeable is many edits; only the last position
 * matters), and older waiting tickets end as `superseded`. Each bake hands its tile tables
 * to the next one of the same area, so only the tiles whose triangles changed get new
 * path tables (shared/bakers/nwn2/tile-table-reuse.ts).
 */
export class LiveAreaBaker {
  private pool: BakePool | undefined;
  private nextTicket = 1;
  private readonly areas = new Map<string, AreaState>();
  private readonly waiters = new Map<number, Waiter>();
  private closed = false;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly poolOptions: Omit<BakePoolOptions, 'concurrency'> = {}) {}

  /** Queues a bake of `area` (any key naming the area) and returns its ticket. */
  request(area: string, input: Omit<AreaBakeInput, 'tileCache'>): number {
    if (this.closed) throw new Error('the live area baker is closed');
    const ticket = this.nextTicket++;
    let resolve!: (r: LiveBakeResult) => void;
    const promise = new Promise<LiveBakeResult>((r) => (resolve = r));
    this.waiters.set(ticket, { promise, resolve, requestedAt: performance.now(), settled: false });
    const state = this.areas.get(area) ?? { running: undefined, pending: undefined, cache: undefined };
    this.areas.set(area, state);
    if (state.pending) this.settle(state.pending.ticket, { status: 'superseded' });
    state.pending = { ticket, input };
    if (state.running === undefined) this.start(area, state);
    return ticket;
  }

  /** Whether the area has been baked or is being baked (it then has, or will have, its tables). */
  knows(area: string): boolean {
    return this.areas.has(area);
  }

  /** The result of a ticket (waits for it); `unknown` tickets were never issued or were collected. */
  result(ticket: number): Promise<LiveBakeResult> | undefined {
    const w = this.waiters.get(ticket);
    if (!w) return undefined;
    void w.promise.then(() => this.waiters.delete(ticket));
    return w.promise;
  }

  /** Forgets an area's tables (its TRN changed, or the project closed). */
  forget(area: string): void {
    const state = this.areas.get(area);
    if (state) state.cache = undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const [ticket] of this.waiters) this.settle(ticket, { status: 'failed', error: 'the project was closed before the area was baked' });
    this.areas.clear();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
  }

  private start(area: string, state: AreaState): void {
    const next = state.pending;
    if (!next) return;
    state.pending = undefined;
    state.running = next.ticket;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.pool ??= new BakePool({ ...this.poolOptions, concurrency: 1, unref: true });
    const frame = encodeAreaBakeInput({ ...next.input, tileCache: state.cache ?? null });
    const job = this.pool.submit({ kind: AREA_BAKE_JOB, input: frame, label: `live bake of ${next.input.name}` });
    void job.result.then((outcome) => {
      if (this.closed) return;
      state.running = undefined;
      if (outcome.status === 'done') {
        try {
          const output = decodeAreaBakeOutput(outcome.output);
          state.cache = output.tileCache ?? undefined;
          const w = this.waiters.get(next.ticket);
          this.settle(next.ticket, { status: 'done', output, waitMs: w ? performance.now() - w.requestedAt : 0 });
        } catch (e) {
          this.settle(next.ticket, { status: 'failed', error: e instanceof Error ? e.message : String(e) });
        }
      } else {
        // The worker names the error's class first; the user reads the message.
        this.settle(next.ticket, outcome.status === 'failed' ? { status: 'failed', error: outcome.error.replace(/^(MalformedInputError|ModelMappingError): /, '') } : { status: 'failed', error: 'the bake was cancelled' });
      }
      this.start(area, state);
      this.closeWhenIdle();
    });
  }

  private closeWhenIdle(): void {
    const pool = this.pool;
    if (!pool || pool.pending > 0 || this.idleTimer) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.pool !== pool || pool.pending > 0) return;
      this.pool = undefined;
      void pool.close();
    }, IDLE_MS);
    this.idleTimer.unref?.();
  }

  private settle(ticket: number, r: LiveBakeResult): void {
    const w = this.waiters.get(ticket);
    if (!w || w.settled) return;
    w.settled = true;
    w.resolve(r);
    // Results nobody fetched must not pile up over a long session.
    if (this.waiters.size > KEPT_RESULTS) {
      for (const [t, x] of this.waiters) {
        if (this.waiters.size <= KEPT_RESULTS) break;
        if (x.settled && t !== ticket) this.waiters.delete(t);
      }
    }
  }
}
