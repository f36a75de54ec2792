import { BWM_FORMAT } from '../../../shared/formats/kotor/bwm-document';
import { TRX_FORMAT } from '../../../shared/formats/nwn2/trx-document';
import { PLUGIN_FORMAT } from '../../../shared/formats/skyrim/plugin-document';
import type { BakeSpec } from '../project/content-hash';
import type { ProjectStore } from '../project/project-store';
import type { FileRecord } from '../project/project-types';
import type { JobOutcome, PoolEvent } from './bake-job-types';
import { BakePool, type BakePoolOptions } from './bake-pool';
import { bakeQueueOrder } from './bake-order';
import { nwn2AreaBakeJob, nwn2AreaSourcesOf } from '../project/nwn2-area-bake-source';
import { writePendingEdits } from '../project/pending-edit-writes';
import { BAKER_VERSIONS, encodeEditedTrxInput, type BuiltinJobKind } from './builtin-jobs';
import { encodeModelBakeInput, kotorRoomModelOf } from './kotor-room-model';

/**
 * Every job kind a project file is baked with: the per-file kinds, NWN2's TRN + GIT bake,
 * and an edited NWN2 TRX's re-bake that keeps the imported file's tables where it is unchanged.
 */
export type BakeJobKind = BuiltinJobKind | 'nwn2-trn-bake' | 'nwn2-rebake-edit';

export interface RebakeOptions {
  /** Only this module's files. */
  module?: string;
  /** Only this project file (by id). */
  fileId?: number;
  /** Stops the run: queued files are not started and running bakes are ended (reported as failed, reason 'cancelled'). */
  signal?: AbortSignal;
  /** Workers (default: one per core). */
  jobs?: number;
  /** Bake even what has a bake for exactly these inputs. */
  force?: boolean;
  /** Pool settings other than the worker count (tests point it at a worker entry). */
  pool?: Omit<BakePoolOptions, 'concurrency'>;
  /**
   * A running pool to bake on instead of starting one (`jobs` and `pool` are then ignored):
   * the app keeps one warm between rebakes. It is left open.
   */
  sharedPool?: BakePool;
  /**
   * Bake results recorded per transaction. A result is reported (`onFile`, the report)
   * only once its transaction has committed: see BakeRecorder. Default: RECORD_BATCH on a
   * pool of the run's own (the CLI, scripts: throughput); 1 on a `sharedPool` (the app,
   * whose progress shows each file as it lands while the designer waits on it).
   */
  recordBatch?: number;
  /** Called as each file is skipped or its bake is recorded (or fails), and with every pool event. */
  onFile?(entry: RebakeEntry, done: number, total: number): void;
  onEvent?(event: PoolEvent): void;
}

export type RebakeEntry =
  | { file: string; status: 'baked'; bakeId: number; outputSha256: string; elapsedMs: number }
  | { file: string; status: 'skipped'; bakeId: number }
  | { file: string; status: 'failed'; reason: string };

export interface RebakeReport {
  entries: RebakeEntry[];
  counts: { baked: number; skipped: number; failed: number };
}

/**
 * The job kind that bakes a project file, or undefined for files no bake-pool baker takes
 * (unbaked-reasons.ts says why, in the game's terms).
 *
 * Skyrim masters (kind `master`) are neither baked nor inputs of a plugin's bake: the rebake
 * derives each navmesh's data from that navmesh alone and keeps edge links into other
 * navmeshes (a master's too) as stored, so a master's bytes cannot change its output. Only
 * validation reads masters (`--master` of `walkbench bake` and `validate`), and that is not
 * part of the bake; so a plugin's spec holds its own bytes only, and a new or changed master
 * does not bake it again.
 */
export function bakeKindOf(file: FileRecord): BuiltinJobKind | undefined {
  if (file.kind !== 'walkmesh') return undefined;
  if (file.format === TRX_FORMAT) return 'nwn2-rebake';
  if (file.format === BWM_FORMAT) return 'kotor-bake';
  if (file.format === PLUGIN_FORMAT) return 'skyrim-rebake';
  return undefined;
}

/** The format of what a job kind bakes. */
function outputFormatOf(kind: string): string {
  if (kind === 'kotor-bake') return BWM_FORMAT;
  if (kind === 'skyrim-rebake') return PLUGIN_FORMAT;
  return TRX_FORMAT;
}

/**
 * The bytes a file is baked from: its saved edit when there is one made on the bytes the
 * file holds now (the designer's work), else the imported bytes. A stale edit (the file was
 * imported again since) is not baked: the import wins until the edit is redone or dropped.
 */
export function bakeSourceOf(file: FileRecord): 'edit' | 'import' {
  return file.edited && !file.editStale && file.editSha256 !== null ? 'edit' : 'import';
}

/** What a file's bake is made from: the content hash of its current bytes and the baker's version. */
export function bakeSpecOf(file: FileRecord, kind: BuiltinJobKind): BakeSpec {
  const sha256 = bakeSourceOf(file) === 'edit' ? file.editSha256! : file.sha256;
  return { bakerId: kind, bakerVersion: BAKER_VERSIONS[kind], inputs: [{ name: `${file.module}/${file.name}`, sha256 }] };
}

export interface ProjectBakeJob {
  kind: BakeJobKind;
  spec: BakeSpec;
  input: () => Uint8Array;
  /** The job's JSON options (not part of the spec: they never change the output bytes). */
  options?: unknown;
}

/** What job bakes a project file (undefined for files no baker takes), from which input, recorded under which spec. */
export function bakeJobOf(store: ProjectStore, file: FileRecord): ProjectBakeJob | undefined {
  const kind = bakeKindOf(file);
  if (kind === undefined) return undefined;
  const area = kind === 'nwn2-rebake' ? nwn2AreaSourcesOf(store, file) : undefined;
  if (area) return { kind: 'nwn2-trn-bake', ...nwn2AreaBakeJob(store, file, area) };
  if (kind === 'nwn2-rebake' && bakeSourceOf(file) === 'edit') {
    // The imported TRX (the toolset's) is an input too: tiles the edit left as they were keep its tables.
    const own = bakeSpecOf(file, kind);
    const spec: BakeSpec = { ...own, inputs: [...own.inputs, { name: `${file.module}/${file.name} as imported`, sha256: file.sha256 }] };
    return { kind: 'nwn2-rebake-edit', spec, input: () => encodeEditedTrxInput(bakeInputOf(store, file), store.loadFileBytes(file.id)) };
  }
  if (kind === 'kotor-bake') {
    // A room with its model at hand is baked with it, and the model is an input of the bake.
    const model = kotorRoomModelOf(store, file);
    if (model) {
      const own = bakeSpecOf(file, kind);
      const spec: BakeSpec = { ...own, inputs: [...own.inputs, { name: `${file.module}/${model.name} (room model)`, sha256: model.sha256 }] };
      return { kind, spec, input: () => encodeModelBakeInput(bakeInputOf(store, file), model.read()) };
    }
  }
  const job: ProjectBakeJob = { kind, spec: bakeSpecOf(file, kind), input: () => bakeInputOf(store, file) };
  // The plugin baker names the file and navmesh it cannot rebake; it has no other way to know the file.
  if (kind === 'skyrim-rebake') job.options = { file: `${file.module}/${file.name}` };
  return job;
}

function bakeInputOf(store: ProjectStore, file: FileRecord): Uint8Array {
  if (bakeSourceOf(file) === 'edit') {
    const edit = store.loadEdit(file.id);
    if (edit) return edit.bytes;
  }
  return store.loadFileBytes(file.id);
}

/**
 * Re-bakes the project's walkmeshes on a bake pool, skipping each one whose bake for
 * exactly its current bytes and baker version is already recorded (unless `force`).
 * File bytes are loaded only when a job is about to be queued, and at most two jobs per
 * worker wait at once, so a large project is not held in memory whole.
 */
export async function rebakeProject(store: ProjectStore, options: RebakeOptions = {}): Promise<RebakeReport> {
  const unwritable = new Map(writePendingEdits(store).map((f) => [f.fileId, f.message]));
  const candidates = store
    .listFiles(options.module !== undefined ? { module: options.module } : {})
    .map((file) => ({ file, kind: bakeKindOf(file) }))
    .filter((c): c is { file: FileRecord; kind: BuiltinJobKind } => c.kind !== undefined && (options.fileId === undefined || c.file.id === options.fileId));
  const entries: RebakeEntry[] = [];
  const total = candidates.length;
  const add = (e: RebakeEntry) => {
    entries.push(e);
    options.onFile?.(e, entries.length, total);
  };
  const todo: (ProjectBakeJob & { file: FileRecord })[] = [];
  for (const c of candidates) {
    const failure = unwritable.get(c.file.id);
    if (failure !== undefined) {
      add({ file: `${c.file.module}/${c.file.name}`, status: 'failed', reason: failure });
      continue;
    }
    const job = bakeJobOf(store, c.file)!;
    const previous = options.force ? undefined : store.lookupBake(job.spec);
    if (previous) add({ file: `${c.file.module}/${c.file.name}`, status: 'skipped', bakeId: previous.id });
    else todo.push({ file: c.file, ...job });
  }
  // A few small files first (they warm each worker's code), then largest first: bake-order.ts.
  const queue = bakeQueueOrder(todo, (t) => t.file.size);
  if (queue.length > 0) {
    // A failure to record a bake (the project file, not the baker) stops the run; it is
    // kept here so no in-flight promise rejects unobserved, and thrown once all settle.
    let fatal: { error: unknown } | undefined;
    const recorder = new BakeRecorder(store, add, options.recordBatch ?? (options.sharedPool ? 1 : RECORD_BATCH), (error) => void (fatal ??= { error }));
    const pool = options.sharedPool ?? new BakePool({ ...options.pool, concurrency: options.jobs });
    const stopListening = options.onEvent ? pool.on(options.onEvent) : undefined;
    // Ending this run's jobs (or the whole pool when it is ours) settles them as cancelled;
    // a shared pool stays open for its owner.
    const submitted = new Set<number>();
    const onAbort = () => {
      if (options.sharedPool) for (const id of submitted) pool.cancel(id);
      else void pool.close();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const inFlight = new Set<Promise<void>>();
      const limit = pool.concurrency * 2;
      for (const t of queue) {
        if (fatal || options.signal?.aborted) break;
        const name = `${t.file.module}/${t.file.name}`;
        const handle = pool.submit({ kind: t.kind, input: t.input(), label: name, ...(t.options !== undefined ? { options: t.options } : {}) });
        submitted.add(handle.id);
        const settled: Promise<void> = handle.result
          .finally(() => submitted.delete(handle.id))
          .then((o) => recorder.push(name, t.spec, o))
          .catch((error: unknown) => void (fatal ??= { error }))
          .finally(() => inFlight.delete(settled));
        inFlight.add(settled);
        if (inFlight.size >= limit) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
      // The rest of the last batch (what an abort left baked too); not after a failed write.
      if (!fatal) recorder.flush();
      if (fatal) throw fatal.error;
    } finally {
      recorder.close();
      options.signal?.removeEventListener('abort', onAbort);
      stopListening?.();
      if (!options.sharedPool) await pool.close();
    }
  }
  const counts = { baked: 0, skipped: 0, failed: 0 };
  for (const e of entries) counts[e.status]++;
  // Finish order depends on the workers; the report does not.
  entries.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { entries, counts };
}

/** Bake results per project transaction when the caller does not say (RebakeOptions.recordBatch). */
export const RECORD_BATCH = 8;
/** A result waits at most this long for the rest of its batch, so progress keeps moving in the app. */
const RECORD_DELAY_MS = 1000;
/** Nor is more than this much output held waiting. */
const RECORD_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Records finished bakes in the project a batch at a time: one transaction (so one fsync
 * of the write-ahead log, project-database.ts) per RECORD_BATCH results instead of per
 * result, which keeps the main thread, whose time the workers share on a small machine,
 * nearly idle. The output hashes come from the workers (bake-worker.ts).
 *
 * What is durable when: a bake is in the project file once the transaction of its batch
 * has committed, and not before. A result is reported (onFile, the report's entries) only
 * after that commit, so nothing reported can be lost: if the process dies with a batch
 * open, the bakes of that batch were never reported, the project holds no bake for their
 * inputs, and the next rebake bakes them again. A batch commits when it is full, when it
 * holds RECORD_MAX_BYTES of output, RECORD_DELAY_MS after its first result, and when the
 * run ends (the last result arrived, or the run was aborted: what was baked is kept). A failed or cancelled job writes nothing and is reported at once.
 */
class BakeRecorder {
  private pending: { file: string; spec: BakeSpec; outcome: Extract<JobOutcome, { status: 'done' }> }[] = [];
  private pendingBytes = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: ProjectStore,
    private readonly report: (e: RebakeEntry) => void,
    private readonly batch: number,
    private readonly onError: (error: unknown) => void,
  ) {
    if (!Number.isInteger(batch) || batch < 1) throw new RangeError(`recordBatch must be a whole number ≥ 1, not ${batch}`);
  }

  push(file: string, spec: BakeSpec, outcome: JobOutcome): void {
    if (outcome.status !== 'done') {
      this.report({ file, status: 'failed', reason: outcome.status === 'failed' ? outcome.error : 'cancelled' });
      return;
    }
    this.pending.push({ file, spec, outcome });
    this.pendingBytes += outcome.output.length;
    if (this.pending.length >= this.batch || this.pendingBytes >= RECORD_MAX_BYTES) this.flush();
    else this.timer ??= setTimeout(() => {
      try {
        this.flush();
      } catch (e) {
        this.onError(e);
      }
    }, RECORD_DELAY_MS);
  }

  /** Commits the open batch, then reports its results. Throws when the project cannot be written (nothing of the batch is then reported). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.pendingBytes = 0;
    const entries = this.store.transaction(() =>
      batch.map(({ file, spec, outcome }): RebakeEntry => {
        const bake = this.store.recordBake({ ...spec, outputFormat: outputFormatOf(spec.bakerId), output: outcome.output, outputSha256: outcome.outputSha256 });
        return { file, status: 'baked', bakeId: bake.id, outputSha256: bake.outputSha256, elapsedMs: outcome.elapsedMs };
      }),
    );
    for (const e of entries) this.report(e);
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
