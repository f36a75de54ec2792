import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { BakeWorkerData, JobOutcome, JobSpec, PoolEvent, RunJobMessage, WorkerReply } from './bake-job-types';
import { defaultWorkerEntry, type WorkerEntry } from './worker-entry';

export interface BakePoolOptions {
  /** Workers running at once (default: one per core). */
  concurrency?: number;
  /** Old-generation heap limit of each worker in MB; a job passing it fails alone (default 2048). */
  maxWorkerMemoryMb?: number;
  /** Extra job kinds: module URLs whose `jobs` export each worker adds to the built-in kinds. */
  jobModules?: readonly string[];
  /** Where the worker code is (default: next to the bundle, or the .ts source through tsx). */
  entry?: WorkerEntry;
  /** Workers do not keep the process alive (a background pool whose owner may never close it). */
  unref?: boolean;
}

export interface JobHandle {
  id: number;
  /** Never rejects: a failure or a cancel is an outcome. */
  result: Promise<JobOutcome>;
}

export type PoolListener = (event: PoolEvent) => void;

interface QueuedJob {
  id: number;
  label: string;
  spec: JobSpec;
  resolve: (o: JobOutcome) => void;
}

interface Slot {
  index: number;
  worker: Worker;
  job: (QueuedJob & { startedAt: number }) | undefined;
  /** Why the pool is ending this worker, so its exit is not reported as a crash. */
  ending: 'cancel' | 'close' | undefined;
  crash: string | undefined;
}

export const DEFAULT_WORKER_MEMORY_MB = 2048;

/**
 * A pool of bake workers on worker_threads with a FIFO queue. Each worker runs one job at
 * a time; input and output bytes move by transfer, not copy. A job that throws fails with
 * its message and the worker goes on; a worker that dies (heap limit, crash) fails the job
 * it held and is replaced; `cancel` drops a queued job or terminates the worker running
 * it. Jobs are pure functions of their input, so the bytes do not depend on how many
 * workers there are or which one ran a job. Workers start when a job needs one and stay
 * until `close()`, which the owner must call (idle workers keep the process alive).
 */
export class BakePool {
  readonly concurrency: number;
  readonly maxWorkerMemoryMb: number;
  private readonly entry: WorkerEntry;
  private readonly jobModules: readonly string[];
  private readonly unref: boolean;
  private readonly queue: QueuedJob[] = [];
  private readonly slots: (Slot | undefined)[];
  private readonly listeners = new Set<PoolListener>();
  private nextId = 1;
  private closed = false;

  constructor(options: BakePoolOptions = {}) {
    const concurrency = options.concurrency ?? availableParallelism();
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a whole number ≥ 1, not ${concurrency}`);
    this.concurrency = concurrency;
    this.maxWorkerMemoryMb = options.maxWorkerMemoryMb ?? DEFAULT_WORKER_MEMORY_MB;
    this.entry = options.entry ?? defaultWorkerEntry();
    this.jobModules = options.jobModules ?? [];
    this.unref = options.unref ?? false;
    this.slots = new Array<Slot | undefined>(concurrency).fill(undefined);
  }

  /** Listens to every job's events; returns the function that stops listening. */
  on(listener: PoolListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  submit(spec: JobSpec): JobHandle {
    if (this.closed) throw new Error('the bake pool is closed');
    const id = this.nextId++;
    const label = spec.label ?? `${spec.kind} #${id}`;
    let resolve!: (o: JobOutcome) => void;
    const result = new Promise<JobOutcome>((r) => (resolve = r));
    this.queue.push({ id, label, spec, resolve });
    this.emit({ type: 'queued', id, label });
    this.dispatch();
    return { id, result };
  }

  /** Cancels a queued or running job; false when it already finished (or never existed). */
  cancel(id: number): boolean {
    const q = this.queue.findIndex((j) => j.id === id);
    if (q >= 0) {
      const [job] = this.queue.splice(q, 1);
      this.finish(job!, { status: 'cancelled', id });
      return true;
    }
    const slot = this.slots.find((s) => s?.job?.id === id);
    if (!slot) return false;
    // A job is synchronous code in its worker: only ending the thread stops it.
    slot.ending = 'cancel';
    void slot.worker.terminate();
    return true;
  }

  /** Jobs waiting plus jobs running. */
  get pending(): number {
    return this.queue.length + this.slots.filter((s) => s?.job).length;
  }

  /** Cancels what is left and ends every worker. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.finish(job, { status: 'cancelled', id: job.id });
    const ending: Promise<number>[] = [];
    for (const slot of this.slots) {
      if (!slot) continue;
      slot.ending = 'close';
      ending.push(slot.worker.terminate());
    }
    await Promise.all(ending);
  }

  private emit(event: PoolEvent): void {
    for (const l of this.listeners) l(event);
  }

  private finish(job: QueuedJob, outcome: JobOutcome): void {
    job.resolve(outcome);
    this.emit({ type: 'finished', id: job.id, label: job.label, outcome });
  }

  private dispatch(): void {
    for (let i = 0; i < this.concurrency && this.queue.length > 0; i++) {
      const slot = this.slots[i] ?? this.startWorker(i);
      if (slot.job) continue;
      const job = this.queue.shift()!;
      slot.job = { ...job, startedAt: performance.now() };
      this.emit({ type: 'started', id: job.id, label: job.label, worker: i });
      const input = job.spec.input;
      const message: RunJobMessage = { type: 'run', id: job.id, kind: job.spec.kind, input, options: job.spec.options ?? null };
      // Transfer the whole buffer only when the view is all of it; otherwise the part is copied.
      const transferable = input.byteOffset === 0 && input.byteLength === input.buffer.byteLength && input.buffer instanceof ArrayBuffer;
      slot.worker.postMessage(message, transferable ? [input.buffer] : []);
    }
  }

  private startWorker(index: number): Slot {
    const data: BakeWorkerData = { jobModules: this.jobModules };
    const resourceLimits = { maxOldGenerationSizeMb: this.maxWorkerMemoryMb };
    const worker =
      'file' in this.entry
        ? new Worker(this.entry.file, { workerData: data, resourceLimits })
        : new Worker(this.entry.evalModule, { eval: true, workerData: data, execArgv: [], resourceLimits });
    if (this.unref) worker.unref();
    const slot: Slot = { index, worker, job: undefined, ending: undefined, crash: undefined };
    this.slots[index] = slot;
    worker.on('message', (m: WorkerReply) => this.onReply(slot, m));
    worker.on('error', (e: Error & { code?: string }) => {
      slot.crash =
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `the worker ran out of memory (limit ${this.maxWorkerMemoryMb} MB): ${e.message}`
          : `the worker crashed: ${e.name}: ${e.message}`;
    });
    worker.on('exit', (code) => this.onExit(slot, code));
    return slot;
  }

  private onReply(slot: Slot, m: WorkerReply): void {
    if (m.type === 'ready') return;
    const job = slot.job;
    if (!job || job.id !== m.id || slot.ending) return;
    if (m.type === 'progress') {
      this.emit({ type: 'progress', id: job.id, label: job.label, stage: m.stage, fraction: m.fraction });
      return;
    }
    slot.job = undefined;
    const elapsedMs = performance.now() - job.startedAt;
    if (m.type === 'done') this.finish(job, { status: 'done', id: job.id, output: m.output, outputSha256: m.outputSha256, summary: m.summary, elapsedMs });
    else this.finish(job, { status: 'failed', id: job.id, error: m.error, elapsedMs });
    if (!this.closed) this.dispatch();
  }

  private onExit(slot: Slot, code: number): void {
    if (this.slots[slot.index] === slot) this.slots[slot.index] = undefined;
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      if (slot.ending === 'cancel' || slot.ending === 'close') this.finish(job, { status: 'cancelled', id: job.id });
      else {
        const error = slot.crash ?? `the worker exited with code ${code} while running the job`;
        this.finish(job, { status: 'failed', id: job.id, error, elapsedMs: performance.now() - job.startedAt });
      }
    }
    // The replacement starts when the next job needs it.
    if (!this.closed) this.dispatch();
  }
}
