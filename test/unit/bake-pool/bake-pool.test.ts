import { afterEach, describe, expect, it } from 'vitest';
import { BakePool } from '../../../electron/services/bake-pool/bake-pool';
import type { JobOutcome, PoolEvent } from '../../../electron/services/bake-pool/bake-job-types';

const testJobs = new URL('./test-jobs.ts', import.meta.url).href;
let pool: BakePool | undefined;

afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

function bytes(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed) & 0xff;
  return b;
}

function expectDone(o: JobOutcome): Extract<JobOutcome, { status: 'done' }> {
  if (o.status !== 'done') throw new Error(`expected done, got ${JSON.stringify(o)}`);
  return o;
}

describe('BakePool', () => {
  it('runs jobs on several workers, transferring input and output buffers', async () => {
    pool = new BakePool({ concurrency: 2, jobModules: [testJobs] });
    const inputs = [0, 1, 2, 3, 4].map((s) => bytes(1000 + s, s));
    const expected = inputs.map((b) => b.slice().reverse());
    const handles = inputs.map((input) => pool!.submit({ kind: 'test-reverse', input }));
    const outcomes = await Promise.all(handles.map((h) => h.result));
    // Transferred, not copied: the caller's buffers were detached when their jobs started.
    expect(inputs.map((b) => b.byteLength)).toEqual([0, 0, 0, 0, 0]);
    outcomes.forEach((o, i) => {
      const done = expectDone(o);
      expect(done.id).toBe(handles[i]!.id);
      expect(Array.from(done.output)).toEqual(Array.from(expected[i]!));
      expect(done.summary.length).toBe(expected[i]!.length);
    });
  });

  it('delivers every progress event of a job in order, between started and finished', async () => {
    pool = new BakePool({ concurrency: 2, jobModules: [testJobs] });
    const events: PoolEvent[] = [];
    pool.on((e) => events.push(e));
    const a = pool.submit({ kind: 'test-steps', input: bytes(10, 1), options: 25, label: 'a' });
    const b = pool.submit({ kind: 'test-steps', input: bytes(10, 2), options: 40, label: 'b' });
    await Promise.all([a.result, b.result]);
    for (const [h, steps] of [[a, 25], [b, 40]] as const) {
      const mine = events.filter((e) => e.id === h.id);
      expect(mine[0]!.type).toBe('queued');
      expect(mine[1]!.type).toBe('started');
      expect(mine.at(-1)!.type).toBe('finished');
      const stages = mine.filter((e) => e.type === 'progress').map((e) => (e.type === 'progress' ? e.stage : ''));
      expect(stages).toEqual(Array.from({ length: steps }, (_, i) => `step ${i}`));
    }
  });

  it('fails a throwing job alone with its message; the worker takes the next job', async () => {
    pool = new BakePool({ concurrency: 1, jobModules: [testJobs] });
    const bad = pool.submit({ kind: 'test-throw', input: bytes(4, 0), options: 'the reason' });
    const good = pool.submit({ kind: 'test-reverse', input: bytes(8, 3) });
    const unknown = pool.submit({ kind: 'no-such-kind', input: bytes(4, 0) });
    const o = await bad.result;
    expect(o.status).toBe('failed');
    expect(o.status === 'failed' && o.error).toContain('deliberate failure: the reason');
    expect(expectDone(await good.result).output.length).toBe(8);
    const u = await unknown.result;
    expect(u.status === 'failed' && u.error).toContain("unknown job kind 'no-such-kind'");
  });

  it('fails a job that runs its worker out of memory alone and replaces the worker', async () => {
    pool = new BakePool({ concurrency: 2, maxWorkerMemoryMb: 96, jobModules: [testJobs] });
    const oom = pool.submit({ kind: 'test-oom', input: bytes(4, 0) });
    const others = [1, 2, 3, 4].map((s) => pool!.submit({ kind: 'test-reverse', input: bytes(100, s) }));
    const o = await oom.result;
    expect(o.status).toBe('failed');
    expect(o.status === 'failed' && o.error).toMatch(/out of memory/);
    for (const h of others) expect(expectDone(await h.result).output.length).toBe(100);
    // The pool still works after the crash, on both slots.
    const after = await Promise.all([5, 6].map((s) => pool!.submit({ kind: 'test-reverse', input: bytes(50, s) }).result));
    for (const a of after) expect(expectDone(a).output.length).toBe(50);
  });

  it('cancels a running job by ending its worker, and a queued job before it starts', async () => {
    pool = new BakePool({ concurrency: 1, jobModules: [testJobs] });
    const started = new Promise<void>((resolve) =>
      pool!.on((e) => {
        if (e.type === 'progress' && e.stage === 'looping') resolve();
      }),
    );
    const loop = pool.submit({ kind: 'test-loop', input: bytes(4, 0) });
    const queued = pool.submit({ kind: 'test-reverse', input: bytes(4, 1) });
    const next = pool.submit({ kind: 'test-reverse', input: bytes(6, 2) });
    expect(pool.cancel(queued.id)).toBe(true);
    expect((await queued.result).status).toBe('cancelled');
    await started;
    expect(pool.cancel(loop.id)).toBe(true);
    expect(await loop.result).toEqual({ status: 'cancelled', id: loop.id });
    expect(expectDone(await next.result).output.length).toBe(6);
    expect(pool.cancel(next.id)).toBe(false);
    expect(pool.pending).toBe(0);
  });

  it('cancels what is left on close', async () => {
    pool = new BakePool({ concurrency: 1, jobModules: [testJobs] });
    const loop = pool.submit({ kind: 'test-loop', input: bytes(4, 0) });
    const queued = pool.submit({ kind: 'test-reverse', input: bytes(4, 1) });
    await pool.close();
    expect((await loop.result).status).toBe('cancelled');
    expect((await queued.result).status).toBe('cancelled');
    expect(() => pool!.submit({ kind: 'test-reverse', input: bytes(1, 0) })).toThrow(/closed/);
  });

  it('rejects a concurrency that is not a whole number ≥ 1', () => {
    expect(() => new BakePool({ concurrency: 0 })).toThrow(RangeError);
    expect(() => new BakePool({ concurrency: 1.5 })).toThrow(RangeError);
  });
});
