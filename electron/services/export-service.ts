import path from 'node:path';
import { isMalformedInputError } from '../../shared/binary/malformed-input-error';
import type { ContractHandlers } from '../../shared/ipc/contract';
import type { EventSink } from '../../shared/ipc/event-hub';
import type { ExportParams, ExportPlanResult, ExportProgress } from '../../shared/ipc/export-contract';
import { ServiceError } from '../../shared/ipc/rpc-error';
import { FileAccessError } from './file-access';
import { restoreLastExport } from './project/export-backups';
import { exportRunKey } from './project/export-target';
import { exportProject } from './project/project-export';
import { planExport, type ExportPlan } from './project/project-export-plan';
import { ProjectFileError } from './project/project-file-error';
import { ProjectStore } from './project/project-store';

export type ExportHandlers = Pick<ContractHandlers, 'export.plan' | 'export.run' | 'export.cancel' | 'export.status' | 'export.restore'>;

export interface ExportServiceOptions {
  /** Where `export.progress` events go (the transports' event hub). */
  emit: EventSink;
  /** The project file a call is about (project-service.ts `resolve`): by session, or named by path. */
  resolveProject: (params: { session?: string | undefined; project?: string | undefined }, method: string) => string;
  /** Shortest time between two progress events of one run; state changes are sent at once. */
  progressIntervalMs?: number;
}

export interface ExportService {
  handlers: ExportHandlers;
  /** Resolves with the run's final state (tests, shutdown). */
  settled(jobId: number): Promise<ExportProgress>;
  /** Stops the running export between two files and waits for it. */
  close(): Promise<void>;
}

const KEEP_FINISHED = 20;

interface Run {
  state: ExportProgress;
  abort: AbortController;
  finished: Promise<ExportProgress>;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A failure of the project, the game folder or a file in it, as the error a call reports. */
function serviceErrorOf(e: unknown, parameter?: string): ServiceError {
  if (e instanceof ServiceError) return e;
  if (e instanceof ProjectFileError) return new ServiceError(/no such/.test(e.message) ? 'not-found' : 'unreadable', e.message);
  if (e instanceof FileAccessError) return new ServiceError(/no such/.test(e.message) ? 'not-found' : 'unreadable', e.message, parameter);
  if (isMalformedInputError(e)) return new ServiceError('unreadable', e.message, parameter);
  const code = (e as { code?: unknown }).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new ServiceError('not-found', messageOf(e), parameter);
  if (code === 'EACCES' || code === 'EPERM') return new ServiceError('forbidden', messageOf(e), parameter);
  throw e;
}

/** After a failed run: the files it wrote before failing, from the project's export log (each verified as written). */
function recoverWritten(store: ProjectStore, exportPlan: ExportPlan, state: ExportProgress): void {
  const last = store.listExportRuns(exportRunKey(exportPlan.target))[0];
  if (!last || last.status === 'done' || last.backupDir === '') return;
  state.backupDir = last.backupDir;
  const labels = new Map(exportPlan.entries.map((e) => [e.fileId, e.file]));
  state.verified = store
    .listExportRunEntries(last.id)
    .filter((e) => e.verified)
    .map((e) => ({
      file: (e.fileId !== null ? labels.get(e.fileId) : undefined) ?? path.basename(e.targetPath),
      targetPath: e.targetPath,
      resource: e.resource,
      action: e.action,
      bytes: e.size,
      sha256: e.sha256,
    }));
}

function planResult(project: string, plan: ExportPlan): ExportPlanResult {
  return {
    project,
    target: plan.target.kind === 'folder' ? { kind: 'folder', path: plan.target.dir } : { kind: 'archive', path: plan.target.file },
    entries: plan.entries.map((e) => ({
      file: e.file,
      fileId: e.fileId,
      targetPath: e.targetPath,
      resource: e.resource,
      action: e.action,
      source: e.source,
      change: e.change,
      why: e.why,
      bytes: e.bytes,
      errors: e.errors,
      warnings: e.warnings,
      notCarried: e.notCarried,
    })),
    refused: plan.refused.map((r) => ({ file: r.file, reason: r.reason })),
  };
}

/**
 * Export from the UI (issue 7 §3): `export.plan` lists what an export of the open project
 * into a game folder would write, `export.run` writes it as a cancellable run whose whole
 * state goes out as `export.progress` events, `export.restore` undoes the last export into
 * that folder. Each call opens its own connection to the project file (the app's tree
 * keeps reading through its own), and one export or restore runs at a time, since two
 * writing one game folder would back up each other's files.
 */
export function createExportService(options: ExportServiceOptions): ExportService {
  const runs = new Map<number, Run>();
  const interval = options.progressIntervalMs ?? 100;
  let nextId = 1;
  /** The export or restore writing now, if any. */
  let busy: string | null = null;

  function projectFor(method: string, params: { session?: string | undefined; project?: string | undefined }): string {
    return options.resolveProject(params, method);
  }

  function checkGameDir(method: string, gameDir: string): string {
    if (!path.isAbsolute(gameDir)) throw new ServiceError('invalid-params', `${method}: params.gameDir must be an absolute path, not ${JSON.stringify(gameDir)}`, 'params.gameDir');
    return path.resolve(gameDir);
  }

  function openStore(project: string): ProjectStore {
    try {
      return ProjectStore.open(project);
    } catch (e) {
      throw serviceErrorOf(e);
    }
  }

  function plan(store: ProjectStore, params: ExportParams, gameDir: string): ExportPlan {
    try {
      return planExport(store, { to: gameDir, ...(params.module !== undefined ? { module: params.module } : {}), rebake: params.rebake === true });
    } catch (e) {
      throw serviceErrorOf(e, 'params.gameDir');
    }
  }

  function emptyPlanError(method: string, project: string, params: ExportParams): ServiceError {
    const scope = params.module !== undefined ? `module ${JSON.stringify(params.module)} of ${project}` : project;
    return new ServiceError('not-found', `${method}: ${scope} holds no walkmesh its game's export writes`, params.module !== undefined ? 'params.module' : undefined);
  }

  /** Keeps the last runs for `export.status`; older finished ones are forgotten. */
  function prune(): void {
    const finished = [...runs.values()].filter((r) => r.state.state !== 'running');
    for (const r of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) runs.delete(r.state.jobId);
  }

  function claim(what: string): void {
    if (busy !== null) throw new ServiceError('forbidden', `cannot start ${what}: ${busy} is still running; wait for it or cancel it`);
    busy = what;
  }

  async function execute(run: Run, store: ProjectStore, exportPlan: ExportPlan): Promise<void> {
    const { state } = run;
    let lastSent = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const publish = () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      lastSent = performance.now();
      state.seq++;
      options.emit('export.progress', { ...state, verified: state.verified.slice(), refused: state.refused.slice() });
    };
    const touch = () => {
      const wait = lastSent + interval - performance.now();
      if (wait <= 0) publish();
      else timer ??= setTimeout(publish, wait);
    };
    publish();
    try {
      const result = await exportProject(store, {
        to: state.gameDir,
        plan: exportPlan,
        signal: run.abort.signal,
        onProgress: (done, total, label) => {
          state.done = done;
          state.total = total;
          state.label = label;
          touch();
        },
      });
      state.verified = result.verified.map((v) => ({ file: v.file, targetPath: v.targetPath, resource: v.resource, action: v.action, bytes: v.bytes, sha256: v.sha256 }));
      state.backupDir = result.backupDir;
      const n = state.verified.length;
      if (result.status === 'aborted') {
        state.state = 'cancelled';
        state.label = `Cancelled after ${n} file${n === 1 ? '' : 's'}; export again to finish, or restore to undo`;
      } else if (result.status === 'refused') {
        state.state = 'failed';
        state.refused = result.plan.refused.map((r) => ({ file: r.file, reason: r.reason }));
        state.error = `nothing was written: ${state.refused.length} file(s) cannot be exported`;
        state.label = 'Refused';
      } else {
        state.state = 'done';
        const unchanged = exportPlan.entries.filter((e) => e.action === 'unchanged').length;
        const rebaked = exportPlan.entries.filter((e) => e.change === 'rebaked' && e.action !== 'unchanged').length;
        const asImported = exportPlan.entries.filter((e) => e.change === 'unchanged' && e.action !== 'unchanged').length;
        const how = [asImported > 0 ? `${asImported} as imported` : '', rebaked > 0 ? `${rebaked} re-baked` : ''].filter((x) => x !== '').join(', ');
        state.label = `${n} file${n === 1 ? '' : 's'} written and verified${how !== '' ? ` (${how})` : ''}${unchanged > 0 ? `, ${unchanged} already up to date` : ''}`;
      }
    } catch (e) {
      // A write or read-back failed: the files before it are verified and backed up; restore undoes them.
      state.state = 'failed';
      state.error = messageOf(e);
      state.label = 'Failed';
      try {
        recoverWritten(store, exportPlan, state);
      } catch {
        // The project file failing too leaves the list empty; the error above still says what went wrong.
      }
    } finally {
      store.close();
      busy = null;
      publish();
    }
  }

  const handlers: ExportHandlers = {
    'export.plan': async (params) => {
      const gameDir = checkGameDir('export.plan', params.gameDir);
      const project = projectFor('export.plan', params);
      const store = openStore(project);
      try {
        const p = plan(store, params, gameDir);
        if (p.entries.length === 0 && p.refused.length === 0) throw emptyPlanError('export.plan', project, params);
        return planResult(project, p);
      } finally {
        store.close();
      }
    },
    'export.run': async (params) => {
      const gameDir = checkGameDir('export.run', params.gameDir);
      const project = projectFor('export.run', params);
      claim(`an export into ${gameDir}`);
      let store: ProjectStore | undefined;
      try {
        store = openStore(project);
        const p = plan(store, params, gameDir);
        if (p.entries.length === 0 && p.refused.length === 0) throw emptyPlanError('export.run', project, params);
        if (p.refused.length > 0) {
          const first = p.refused[0]!;
          throw new ServiceError('invalid-params', `export.run: nothing was written: ${p.refused.length} file(s) cannot be exported, e.g. ${first.file}: ${first.reason}`);
        }
        const jobId = nextId++;
        let finish!: (s: ExportProgress) => void;
        const finished = new Promise<ExportProgress>((resolve) => (finish = resolve));
        const total = p.entries.filter((e) => e.action !== 'unchanged').length;
        const state: ExportProgress = { jobId, project, gameDir, state: 'running', done: 0, total, label: 'Starting', verified: [], backupDir: null, refused: [], error: null, seq: 0 };
        const run: Run = { state, abort: new AbortController(), finished };
        runs.set(jobId, run);
        prune();
        const owned = store;
        store = undefined;
        void execute(run, owned, p).finally(() => finish({ ...state }));
        return { jobId };
      } catch (e) {
        store?.close();
        busy = null;
        throw e;
      }
    },
    'export.cancel': async ({ jobId }) => {
      const run = runs.get(jobId);
      if (!run || run.state.state !== 'running' || run.abort.signal.aborted) return { cancelled: false };
      run.abort.abort();
      return { cancelled: true };
    },
    'export.status': async ({ jobId }) => {
      const run = runs.get(jobId);
      if (!run) throw new ServiceError('not-found', `export.status: there is no export ${jobId}`, 'params.jobId');
      return { ...run.state, verified: run.state.verified.slice(), refused: run.state.refused.slice() };
    },
    'export.restore': async (params) => {
      const gameDir = checkGameDir('export.restore', params.gameDir);
      const project = projectFor('export.restore', params);
      claim(`a restore of ${gameDir}`);
      try {
        const store = openStore(project);
        try {
          const result = restoreLastExport(store, gameDir);
          return { runs: result.runs.map((r) => r.id), files: result.files.map((f) => ({ targetPath: f.targetPath, action: f.action, ...(f.reason !== undefined ? { reason: f.reason } : {}) })) };
        } catch (e) {
          throw serviceErrorOf(e, 'params.gameDir');
        } finally {
          store.close();
        }
      } finally {
        busy = null;
      }
    },
  };

  return {
    handlers,
    settled(jobId) {
      const run = runs.get(jobId);
      if (!run) return Promise.reject(new Error(`there is no export ${jobId}`));
      return run.finished;
    },
    async close() {
      const running = [...runs.values()].filter((r) => r.state.state === 'running');
      for (const r of running) r.abort.abort();
      await Promise.all(running.map((r) => r.finished));
    },
  };
}
