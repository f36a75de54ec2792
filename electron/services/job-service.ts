import path from 'node:path';
import type { ContractHandlers } from '../../shared/ipc/contract';
import type { EventSink } from '../../shared/ipc/event-hub';
import { MAX_REPORTED_FAILURES, type BakeJobParams, type JobFailure, type JobProgress } from '../../shared/ipc/jobs-contract';
import { ServiceError } from '../../shared/ipc/rpc-error';
import { BakePool, type BakePoolOptions } from './bake-pool/bake-pool';
import { bakeKindOf, rebakeProject, type RebakeEntry } from './bake-pool/project-rebake';
import { nothingToBakeLabel, whyNotBaked } from './bake-pool/unbaked-reasons';
import { ProjectFileError } from './project/project-file-error';
import { ProjectStore } from './project/project-store';
import { nwn2AreaFiles } from './project/nwn2-area-bake-source';
import type { FileRecord } from './project/project-types';

export type JobHandlers = Pick<ContractHandlers, 'jobs.bake' | 'jobs.cancel' | 'jobs.list'>;

export interface JobServiceOptions {
  /** Where `jobs.progress` events go (the transports' event hub). */
  emit: EventSink;
  /**
   * The project file a bake is about (project-service.ts `resolve`): the app's open project
   * by its session, or one named by path. Without it only `params.project` is taken.
   */
  resolveProject?: (params: { session?: string | undefined; project?: string | undefined }, method: string) => string;
  /** Bake workers per job (default: one per core). */
  concurrency?: number;
  /** Pool settings other than the worker count (the Electron main process passes the worker entry). */
  pool?: Omit<BakePoolOptions, 'concurrency'>;
  /** Shortest time between two progress events of one job; state changes are sent at once. */
  progressIntervalMs?: number;
  /** Finished jobs `jobs.list` still reports. */
  keepFinished?: number;
  /**
   * How long the workers stay up after the last job (default 60 s), so baking one file
   * after another does not start threads each time; 0 ends them with each job.
   */
  poolIdleMs?: number;
}

export interface JobService {
  handlers: JobHandlers;
  /** Resolves with the job's final state (tests, shutdown). */
  settled(jobId: number): Promise<JobProgress>;
  /** Cancels every job and waits for them to end. */
  close(): Promise<void>;
}

/**
 * The face a baker's message names ("face 12 uses vertex…", "triangle 7 has…"), so the
 * UI can take the user to it. Messages without one give undefined.
 */
export function faceNamedIn(message: string): number | undefined {
  const m = /\b(?:face|triangle)\s+#?(\d{1,9})\b/i.exec(message);
  return m ? Number(m[1]) : undefined;
}

/** `Baking a, b and 3 more`: what the workers are on. */
function bakingLabel(files: ReadonlySet<string>): string {
  const names = [...files];
  const shown = names.slice(0, 2).join(', ');
  return `Baking ${shown}${names.length > 2 ? ` and ${names.length - 2} more` : ''}`;
}

interface Job {
  /** The working state, changed as the run goes. */
  state: JobProgress;
  /** The state last published: events and `jobs.list` hand out copies that never change. */
  published: JobProgress;
  params: BakeJobParams;
  project: string;
  abort: AbortController;
  /** Candidates by `module/name`, for the file ids of failures. */
  ids: Map<string, number>;
  finished: Promise<JobProgress>;
  finish: (s: JobProgress) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  lastSent: number;
}

function titleOf(params: BakeJobParams, file: FileRecord | undefined): string {
  if (params.scope === 'file') return `Bake ${file ? `${file.module}/${file.name}` : `file ${params.fileId}`}`;
  if (params.scope === 'module') return `Bake module ${params.module}`;
  return 'Bake everything';
}

/**
 * Bake jobs for the UI, on top of the project rebake (bake pool + skip of unchanged
 * bakes). Jobs run one after another, each with its own pool and its own connection to
 * the project file (SQLite in WAL mode lets the app's other connection go on reading),
 * so two jobs never bake the same file at once. Every change of a job is published as
 * its whole state in a `jobs.progress` event; `jobs.list` gives the same states.
 */
export function createJobService(options: JobServiceOptions): JobService {
  const jobs = new Map<number, Job>();
  const interval = options.progressIntervalMs ?? 100;
  const keep = options.keepFinished ?? 50;
  const idleMs = options.poolIdleMs ?? 60_000;
  let nextId = 1;
  let queue: Promise<void> = Promise.resolve();
  let pool: BakePool | null = null;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;

  /** The warm pool, started when a job needs it. */
  function takePool(): BakePool {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    pool ??= new BakePool({ ...options.pool, ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}) });
    return pool;
  }

  /** Ends the workers once no job has wanted them for a while (idle workers hold memory). */
  function releasePool(): void {
    const p = pool;
    if (!p) return;
    const end = () => {
      if (pool === p) pool = null;
      void p.close();
    };
    if (idleMs <= 0) return end();
    idleTimer = setTimeout(end, idleMs);
    idleTimer.unref?.();
  }

  function publish(job: Job): void {
    if (job.timer) clearTimeout(job.timer);
    job.timer = undefined;
    job.lastSent = performance.now();
    job.state.seq++;
    job.published = { ...job.state, failures: job.state.failures.slice() };
    options.emit('jobs.progress', job.published);
  }

  /** Progress within a run is coalesced; the first and last events are never delayed. */
  function touch(job: Job): void {
    const wait = job.lastSent + interval - performance.now();
    if (wait <= 0) publish(job);
    else job.timer ??= setTimeout(() => publish(job), wait);
  }

  function prune(): void {
    const finished = [...jobs.values()].filter((j) => j.state.state !== 'running');
    for (const j of finished.slice(0, Math.max(0, finished.length - keep))) jobs.delete(j.state.jobId);
  }

  function addFailure(job: Job, failure: JobFailure): void {
    job.state.failed++;
    if (job.state.failures.length < MAX_REPORTED_FAILURES) job.state.failures.push(failure);
  }

  function end(job: Job, state: JobProgress['state'], label: string): void {
    job.state.state = state;
    job.state.label = label;
    publish(job);
    job.finish(job.published);
    prune();
  }

  async function run(job: Job): Promise<void> {
    if (job.abort.signal.aborted) return end(job, 'cancelled', 'Cancelled before it started');
    job.state.label = 'Starting';
    publish(job);
    let store: ProjectStore;
    try {
      store = ProjectStore.open(job.project);
    } catch (e) {
      addFailure(job, { file: path.basename(job.project), message: e instanceof Error ? e.message : String(e) });
      return end(job, 'failed', 'The project could not be opened');
    }
    /** Files on a worker right now, by label (`module/name`). */
    const baking = new Set<string>();
    try {
      const report = await rebakeProject(store, {
        ...(job.params.scope === 'module' && job.params.module !== undefined ? { module: job.params.module } : {}),
        ...(job.params.scope === 'file' && job.params.fileId !== undefined ? { fileId: job.params.fileId } : {}),
        force: job.params.force === true,
        signal: job.abort.signal,
        sharedPool: takePool(),
        onEvent: (event) => {
          if (event.type === 'started') baking.add(event.label);
          else if (event.type === 'finished') baking.delete(event.label);
          else return;
          if (job.abort.signal.aborted || baking.size === 0) return;
          job.state.label = bakingLabel(baking);
          touch(job);
        },
        onFile: (entry: RebakeEntry, _done, total) => {
          job.state.total = total;
          // A bake ended by the cancel is neither done nor a failure of its input.
          if (entry.status === 'failed' && entry.reason === 'cancelled' && job.abort.signal.aborted) return;
          job.state.done++;
          if (entry.status === 'baked') job.state.baked++;
          else if (entry.status === 'skipped') job.state.skipped++;
          else {
            const face = faceNamedIn(entry.reason);
            const fileId = job.ids.get(entry.file);
            addFailure(job, { file: entry.file, message: entry.reason, ...(fileId !== undefined ? { fileId } : {}), ...(face !== undefined ? { face } : {}) });
          }
          // While other files bake, the label keeps naming them; the last result shows otherwise.
          job.state.label =
            baking.size > 0 ? bakingLabel(baking) : entry.status === 'failed' ? `${entry.file} failed` : `${entry.file} ${entry.status === 'baked' ? 'baked' : 'unchanged'}`;
          touch(job);
        },
      });
      const { baked, skipped } = report.counts;
      const summary = `${baked} baked, ${skipped} unchanged, ${job.state.failed} failed`;
      if (job.abort.signal.aborted) end(job, 'cancelled', `Cancelled after ${summary}`);
      else if (report.entries.length === 0) end(job, 'done', nothingToBakeLabel(store.info().game, job.params.scope === 'module' ? job.params.module : undefined));
      else end(job, job.state.failed > 0 ? 'failed' : 'done', summary);
    } catch (e) {
      // Recording a bake failed (the project file, not a baker): the run stopped there.
      addFailure(job, { file: path.basename(job.project), message: e instanceof Error ? e.message : String(e) });
      end(job, 'failed', 'The project file could not record a bake');
    } finally {
      store.close();
      releasePool();
    }
  }

  /** Checks what the job is to bake before it is queued, so a bad request fails the call. */
  function plan(params: BakeJobParams): { project: string; title: string; total: number; ids: Map<string, number>; fileId?: number } {
    const project = options.resolveProject ? options.resolveProject(params, 'jobs.bake') : (params.project ?? null);
    if (project === null) throw new ServiceError('invalid-params', 'jobs.bake: name the project to bake (params.project)', 'params.project');
    if (!path.isAbsolute(project)) throw new ServiceError('invalid-params', `jobs.bake: params.project must be an absolute path, not ${JSON.stringify(project)}`, 'params.project');
    if (params.scope === 'file' && params.fileId === undefined) throw new ServiceError('invalid-params', "jobs.bake: scope 'file' needs params.fileId", 'params.fileId');
    if (params.scope === 'module' && params.module === undefined) throw new ServiceError('invalid-params', "jobs.bake: scope 'module' needs params.module", 'params.module');
    let store: ProjectStore;
    try {
      store = ProjectStore.open(project);
    } catch (e) {
      if (e instanceof ProjectFileError) throw new ServiceError(/no such project file/.test(e.message) ? 'not-found' : 'unreadable', e.message);
      const code = (e as { code?: unknown }).code;
      if (code === 'ENOENT') throw new ServiceError('not-found', `${project}: no such project file`);
      throw new ServiceError('unreadable', `${project}: ${e instanceof Error ? e.message : String(e)}`);
    }
    try {
      const files = store.listFiles(params.scope === 'module' && params.module !== undefined ? { module: params.module } : {});
      let target = params.scope === 'file' ? files.find((f) => f.id === params.fileId) : undefined;
      // An NWN2 TRN or GIT is baked into its area's TRX: "bake this file" on one bakes that.
      const areaTrx = target && !bakeKindOf(target) && (target.kind === 'trn' || target.kind === 'git') ? nwn2AreaFiles(store, target).trx : undefined;
      if (areaTrx) target = areaTrx;
      if (params.scope === 'file') {
        if (!target) throw new ServiceError('not-found', `${project}: there is no file ${params.fileId}`, 'params.fileId');
        if (!bakeKindOf(target)) {
          throw new ServiceError('invalid-params', `${target.module}/${target.name} is a ${target.kind} file (${target.format ?? 'unknown format'}); ${whyNotBaked(target)}`, 'params.fileId');
        }
      }
      if (params.scope === 'module' && files.length === 0) {
        throw new ServiceError('not-found', `${project}: there is no module ${JSON.stringify(params.module)} (or it holds no file)`, 'params.module');
      }
      const candidates = files.filter((f) => bakeKindOf(f) !== undefined && (target === undefined || f.id === target.id));
      const ids = new Map(candidates.map((f) => [`${f.module}/${f.name}`, f.id]));
      return { project, title: titleOf(params, target), total: candidates.length, ids, ...(target ? { fileId: target.id } : {}) };
    } finally {
      store.close();
    }
  }

  const handlers: JobHandlers = {
    'jobs.bake': async (params) => {
      const planned = plan(params);
      const { project, title, total, ids } = planned;
      const jobId = nextId++;
      let finish!: (s: JobProgress) => void;
      const finished = new Promise<JobProgress>((resolve) => (finish = resolve));
      const state: JobProgress = { jobId, project, title, done: 0, total, label: 'Waiting for the jobs before it', state: 'running', baked: 0, skipped: 0, failed: 0, failures: [], seq: 0 };
      const job: Job = {
        state,
        published: state,
        params: planned.fileId !== undefined ? { ...params, fileId: planned.fileId } : params,
        project,
        abort: new AbortController(),
        ids,
        finished,
        finish,
        timer: undefined,
        lastSent: 0,
      };
      jobs.set(jobId, job);
      publish(job);
      queue = queue.then(() => run(job)).catch((e: unknown) => end(job, 'failed', `The job stopped: ${e instanceof Error ? e.message : String(e)}`));
      return { jobId };
    },
    'jobs.cancel': async ({ jobId }) => {
      const job = jobs.get(jobId);
      if (!job || job.state.state !== 'running' || job.abort.signal.aborted) return { cancelled: false };
      job.abort.abort();
      job.state.label = 'Cancelling';
      publish(job);
      return { cancelled: true };
    },
    'jobs.list': async () => ({ jobs: [...jobs.values()].map((j) => j.published) }),
  };

  return {
    handlers,
    settled(jobId) {
      const job = jobs.get(jobId);
      if (!job) return Promise.reject(new Error(`there is no job ${jobId}`));
      return job.finished;
    },
    async close() {
      const running = [...jobs.values()].filter((j) => j.state.state === 'running');
      for (const j of running) j.abort.abort();
      await Promise.all(running.map((j) => j.finished));
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = undefined;
      const p = pool;
      pool = null;
      await p?.close();
    },
  };
}
