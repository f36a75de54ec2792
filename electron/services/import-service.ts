import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isMalformedInputError } from '../../shared/binary/malformed-input-error';
import { handlerById } from '../../shared/formats/format-registry';
import type { ContractHandlers } from '../../shared/ipc/contract';
import type { EventSink } from '../../shared/ipc/event-hub';
import { MAX_REPORTED_SKIPS, type ImportedEntry, type ImportFound, type ImportJobState, type ImportSkipGroup, type ProjectCreateParams } from '../../shared/ipc/import-contract';
import { ServiceError } from '../../shared/ipc/rpc-error';
import { FileAccessError } from './file-access';
import { kotorModuleNames, scanKotorGameFolder } from './kotor-game-folder';
import { ProjectFileError } from './project/project-file-error';
import { ImportCancelledError, importSources, type ImportedFile, type ImportOptions } from './project/project-import';
import { nameKey, ProjectStore } from './project/project-store';
import type { ProjectService } from './project-service';

export type ImportHandlers = Pick<ContractHandlers, 'project.create' | 'import.start' | 'import.bytes' | 'import.status' | 'import.cancel' | 'import.kotorModules'>;

export interface ImportServiceOptions {
  emit: EventSink;
  projects: Pick<ProjectService, 'openStore'>;
  /** Shortest time between two progress events of one import; state changes are sent at once. */
  progressIntervalMs?: number;
}

export interface ImportService {
  handlers: ImportHandlers;
  /** Resolves with the import's final state (tests). */
  settled(jobId: number): Promise<ImportJobState>;
  /** Waits for a running import to end (shutdown: the project closes after it). */
  close(): Promise<void>;
}

/** Examples kept per skip reason: enough to see which files, few enough for a Skyrim Data folder. */
const EXAMPLES_PER_REASON = 5;

const emptyFound = (): ImportFound => ({ areas: 0, rooms: 0, navmeshes: 0, walkmeshes: 0, models: 0, twoDas: 0, masters: 0, layouts: 0, placements: 0 });

/**
 * What the imported files are to a designer. Areas are the places one opens: an NWN2 area
 * (its TRX/TRN/ARE/GIT stem), a KotOR module (its LYT or ARE), a Skyrim plugin or a Source
 * map (each navmesh file). KotOR room walkmeshes (.wok) are rooms; placeable and door
 * walkmeshes (.pwk/.dwk) and NWN2 MDBs are models.
 */
export function foundOf(files: readonly ImportedFile[]): ImportFound {
  const found = emptyFound();
  const areas = new Set<string>();
  for (const f of files) {
    if (f.status === 'skipped' || f.kind === null) continue;
    const stem = f.name.replace(/\.[^.]*$/, '').toLowerCase();
    const ext = path.extname(f.name).toLowerCase();
    const game = f.format === null ? undefined : handlerById(f.format)?.game;
    switch (f.kind) {
      case 'walkmesh':
        if (game === 'kotor') {
          if (ext === '.pwk' || ext === '.dwk') found.models++;
          else found.rooms++;
        } else if (game === 'skyrim' || game === 'source') {
          found.navmeshes++;
          areas.add(`${f.module}\u0000${stem}`);
        } else {
          found.walkmeshes++;
          areas.add(`${f.module}\u0000${stem}`);
        }
        break;
      case 'trn':
        found.walkmeshes++;
        areas.add(`${f.module}\u0000${stem}`);
        break;
      case 'mdb':
        found.models++;
        break;
      case '2da':
        found.twoDas++;
        break;
      case 'master':
        found.masters++;
        break;
      case 'lyt':
        found.layouts++;
        areas.add(`${f.module}\u0000${stem}`);
        break;
      case 'git':
        found.placements++;
        break;
      case 'are':
        areas.add(`${f.module}\u0000${stem}`);
        break;
      default:
        break;
    }
  }
  found.areas = areas.size;
  return found;
}

/** Skipped files grouped by reason, most frequent first. */
export function skipGroups(files: readonly ImportedFile[]): ImportSkipGroup[] {
  const groups = new Map<string, ImportSkipGroup>();
  for (const f of files) {
    if (f.status !== 'skipped') continue;
    const reason = f.reason ?? 'skipped';
    let g = groups.get(reason);
    if (!g) groups.set(reason, (g = { reason, count: 0, examples: [] }));
    g.count++;
    if (g.examples.length < EXAMPLES_PER_REASON) g.examples.push(f.path);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count).slice(0, MAX_REPORTED_SKIPS);
}

type Expect = 'folder' | 'file or folder';

/** An absolute path to an existing folder (or file), or a clear error naming the parameter. */
async function checkPath(value: string, parameter: string, expect: Expect): Promise<string> {
  if (!path.isAbsolute(value)) throw new ServiceError('invalid-params', `${parameter} must be an absolute path, not ${JSON.stringify(value)}`, parameter);
  let st;
  try {
    st = await stat(value);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ServiceError('not-found', `${value}: no such ${expect === 'folder' ? 'folder' : 'file or folder'} (${parameter})`, parameter);
    throw new ServiceError('unreadable', `${value}: ${e instanceof Error ? e.message : String(e)} (${parameter})`, parameter);
  }
  if (st.isDirectory()) return value;
  if (expect === 'folder') throw new ServiceError('not-a-file', `${value}: is a file, not a folder (${parameter})`, parameter);
  // FIFOs, devices and sockets are refused before anything opens them.
  if (!st.isFile()) throw new ServiceError('not-a-file', `${value}: is not a regular file or a folder (${parameter})`, parameter);
  return value;
}

async function checkPaths(values: readonly string[] | undefined, parameter: string, expect: Expect): Promise<string[]> {
  const out: string[] = [];
  for (const [i, v] of (values ?? []).entries()) out.push(await checkPath(v, `${parameter}[${i}]`, expect));
  return out;
}

async function hasChitinKey(folder: string): Promise<boolean> {
  try {
    return (await readdir(folder)).some((n) => n.toLowerCase() === 'chitin.key');
  } catch {
    return false;
  }
}

interface Job {
  state: ImportJobState;
  finished: Promise<ImportJobState>;
  lastSent: number;
  /** Aborted by `import.cancel`: importSources stops between files and takes back what it wrote. */
  abort: AbortController;
}

/**
 * New project and Import in the app: creates project files and runs the CLI's import
 * (project-import.ts) into the open project as a job, reporting progress, what was found
 * and what was skipped with the reason. One import runs at a time: they write into the
 * one open project.
 */
export function createImportService(options: ImportServiceOptions): ImportService {
  const jobs = new Map<number, Job>();
  let nextId = 1;
  let running: Job | null = null;
  const interval = options.progressIntervalMs ?? 100;

  function publish(job: Job, force: boolean): void {
    job.state = { ...job.state, seq: job.state.seq + 1 };
    const now = Date.now();
    if (!force && now - job.lastSent < interval) return;
    job.lastSent = now;
    options.emit('import.progress', structuredClone(job.state));
  }

  function startJob(store: ProjectStore, sources: string[], run: ImportOptions, label: string): { jobId: number } {
    if (running) throw new ServiceError('invalid-params', `an import into ${path.basename(running.state.project)} is running; wait for it to finish`, 'params.session');
    const jobId = nextId++;
    const state: ImportJobState = {
      jobId,
      project: store.file,
      phase: 'scanning',
      state: 'running',
      done: 0,
      total: 0,
      bytes: 0,
      label,
      found: emptyFound(),
      counts: { added: 0, changed: 0, unchanged: 0, skipped: 0 },
      skipped: [],
      imported: [],
      error: null,
      seq: 0,
    };
    const job: Job = { state, finished: Promise.resolve(state), lastSent: 0, abort: new AbortController() };
    jobs.set(jobId, job);
    running = job;
    job.finished = (async () => {
      publish(job, true);
      try {
        const report = await importSources(store, sources, {
          ...run,
          signal: job.abort.signal,
          onProgress: (p) => {
            job.state = { ...job.state, phase: 'importing', done: p.done, total: p.total, bytes: p.bytes, label: `Importing: ${p.done} of ${p.total} files` };
            publish(job, p.done === p.total);
          },
        });
        const kept = report.files.filter((f): f is ImportedFile & { status: ImportedEntry['status'] } => f.status !== 'skipped');
        const imported: ImportedEntry[] = kept.slice(0, MAX_REPORTED_SKIPS).map((f) => {
          const record = store.listFiles({ module: f.module }).find((r) => nameKey(r.name) === nameKey(f.name));
          return { fileId: record?.id ?? null, module: f.module, name: f.name, kind: f.kind ?? 'unknown', status: f.status };
        });
        const c = report.counts;
        job.state = {
          ...job.state,
          phase: 'finished',
          state: 'done',
          done: report.files.length,
          total: report.files.length,
          found: foundOf(report.files),
          counts: { ...c },
          skipped: skipGroups(report.files),
          imported,
          label: `${c.added} added, ${c.changed} changed, ${c.unchanged} unchanged, ${c.skipped} skipped`,
        };
      } catch (e) {
        if (e instanceof ImportCancelledError) {
          job.state = { ...job.state, phase: 'finished', state: 'cancelled', error: e.message, label: `Import cancelled: nothing was added (${e.rolledBack} file(s) written were taken back)` };
          return finish(job);
        }
        const message = e instanceof FileAccessError || e instanceof ProjectFileError || isMalformedInputError(e) || e instanceof Error ? e.message : String(e);
        // Within the event schema's lengths (import-contract.ts), so the event is never dropped.
        job.state = { ...job.state, phase: 'finished', state: 'failed', error: message.slice(0, 60_000), label: `Import failed: ${message}`.slice(0, 4000) };
      }
      return finish(job);
    })();
    return { jobId };
  }

  function finish(job: Job): ImportJobState {
    running = null;
    publish(job, true);
    return job.state;
  }

  const handlers: ImportHandlers = {
    'project.create': async (params: ProjectCreateParams) => {
      const file = params.path;
      if (!path.isAbsolute(file)) throw new ServiceError('invalid-params', `params.path must be an absolute path, not ${JSON.stringify(file)}`, 'params.path');
      await checkPath(path.dirname(file), 'params.path', 'folder').catch((e: unknown) => {
        if (e instanceof ServiceError && e.code === 'not-found') throw new ServiceError('not-found', `${path.dirname(file)}: no such folder to create ${path.basename(file)} in`, 'params.path');
        throw e;
      });
      const there = await lstat(file).then(
        (s) => s,
        () => null,
      );
      if (there?.isDirectory()) throw new ServiceError('not-a-file', `${file}: is a folder; name the project file to create`, 'params.path');
      if (there) throw new ServiceError('exists', `${file}: already exists; open it, or choose another name for the new project`, 'params.path');
      const folders = await checkPaths(params.gameFolders, 'params.gameFolders', 'folder');
      const name = params.name ?? (path.basename(file).replace(/\.[^.]*$/, '') || path.basename(file));
      let store: ProjectStore;
      try {
        store = ProjectStore.create(file, { name, game: params.game });
      } catch (e) {
        if (e instanceof ProjectFileError) throw new ServiceError(/already exists/.test(e.message) ? 'exists' : 'unreadable', e.message, 'params.path');
        throw e;
      }
      try {
        for (const f of folders) store.addGameFolder(path.resolve(f));
        return { path: file, name: store.info().name, game: store.info().game, gameFolders: store.listGameFolders().map((g) => g.path) };
      } finally {
        store.close();
      }
    },
    'import.start': async (params) => {
      const store = options.projects.openStore(params.session, 'import.start');
      const folders = await checkPaths(params.gameFolders, 'params.gameFolders', 'folder');
      if (params.sources.length === 0 && folders.length === 0) {
        throw new ServiceError('invalid-params', 'params.sources: name at least one game folder, module, folder or file to import (or a game folder to add)', 'params.sources');
      }
      const sources = await checkPaths(params.sources, 'params.sources', 'file or folder');
      const modelDirs = await checkPaths(params.modelDirs, 'params.modelDirs', 'folder');
      const twoDaDir = params.twoDaDir === undefined ? undefined : await checkPath(params.twoDaDir, 'params.twoDaDir', 'folder');
      const game = store.info().game;
      if (game === 'kotor' && params.module === undefined) {
        for (const [i, s] of sources.entries()) {
          if (!(await hasChitinKey(s))) continue;
          const names = kotorModuleNames(await scanKotorGameFolder(s));
          throw new ServiceError('invalid-params', `${s}: is a KotOR game folder: choose the module to import (params.module; one of ${names.slice(0, 12).join(', ')}${names.length > 12 ? ', …' : ''})`, `params.sources[${i}]`);
        }
      }
      for (const f of folders) store.addGameFolder(path.resolve(f));
      const what = sources.length === 1 ? path.basename(sources[0]!) : `${sources.length} sources`;
      return startJob(
        store,
        sources,
        {
          ...(params.module !== undefined ? { module: params.module } : {}),
          ...(modelDirs.length > 0 ? { modelDirs } : {}),
          ...(twoDaDir !== undefined ? { twoDaDir } : {}),
        },
        `Looking through ${what}…`.slice(0, 4000),
      );
    },
    'import.bytes': async ({ session, name, bytes, module }) => {
      const store = options.projects.openStore(session, 'import.bytes');
      // Only the base name is kept: a name is a label here, never a path to touch.
      const base = name.replace(/^.*[\\/]/, '');
      if (base === '' || base === '.' || base === '..') throw new ServiceError('invalid-params', `params.name must name a file, not ${JSON.stringify(name)}`, 'params.name');
      return startJob(store, [], { module, given: [{ path: base, module, folderModule: module, name: base, bytes }] }, `Adding ${base}…`.slice(0, 4000));
    },
    'import.status': async ({ jobId }) => {
      const job = jobs.get(jobId);
      if (!job) throw new ServiceError('not-found', `no import job ${jobId}`, 'params.jobId');
      return structuredClone(job.state);
    },
    'import.cancel': async ({ jobId }) => {
      const job = jobs.get(jobId);
      if (!job) throw new ServiceError('not-found', `no import job ${jobId}`, 'params.jobId');
      if (job.state.state !== 'running') return { cancelled: false };
      job.abort.abort();
      job.state = { ...job.state, label: 'Cancelling: taking back what was written…' };
      publish(job, true);
      return { cancelled: true };
    },
    'import.kotorModules': async ({ folder }) => {
      await checkPath(folder, 'params.folder', 'folder');
      // A folder of loose files or modules is an expected answer to the dialog's probe, not an error.
      if (!(await hasChitinKey(folder))) return { modules: [], notGameFolder: `${folder}: is not a KotOR game folder (no chitin.key in it)` };
      try {
        return { modules: kotorModuleNames(await scanKotorGameFolder(folder)) };
      } catch (e) {
        if (e instanceof FileAccessError || isMalformedInputError(e)) throw new ServiceError('unreadable', e.message, 'params.folder');
        throw e;
      }
    },
  };

  return {
    handlers,
    settled(jobId) {
      const job = jobs.get(jobId);
      if (!job) return Promise.reject(new Error(`no import job ${jobId}`));
      return job.finished;
    },
    async close() {
      await running?.finished;
    },
  };
}
