import path from 'node:path';
import { createGameFolderBrowse } from './kotor-game-folder-browse';
import { documentStructure, type GameStructure } from '../../shared/views/game-structure';
import { isMalformedInputError } from '../../shared/binary/malformed-input-error';
import type { FileReport } from '../../shared/formats/file-report';
import { formatHandlers } from '../../shared/formats/format-registry';
import { inspectBytes, inspectDocument, loadDocument, UnknownFormatError } from '../../shared/formats/inspect-file';
import { MAX_FILE_BYTES, type AppInfo, type ContractHandlers, type OpenedFile } from '../../shared/ipc/contract';
import { ServiceError } from '../../shared/ipc/rpc-error';
import { ModelMappingError } from '../../shared/model/model-mapping-error';
import { error } from '../../shared/validation/finding';
import { createEventHub, type EventHub } from '../../shared/ipc/event-hub';
import { appVersion } from './app-version';
import type { BakePoolOptions } from './bake-pool/bake-pool';
import { browserDialogs, type DialogHandlers } from './browser-dialogs';
import { createJobService, type JobService } from './job-service';
import { checkRegularFile, FileAccessError, NotRegularFileError, readBytes } from './file-access';
import { nodeFormatEnvironment as env } from './node-format-environment';
import { createProjectService } from './project-service';
import { asProjectFileError, isDamagedDatabaseError } from './project/project-database';
import { ProjectFileError } from './project/project-file-error';
import { createEditService } from './edit-service';
import { createExportService } from './export-service';
import { createImportService } from './import-service';
import { createLevelContextService } from './level-context-service';
import type { RecentProjects } from './recent-projects';
import { documentOverlays } from '../../shared/views/document-overlays';

export interface WalkbenchServiceOptions {
  /** Shown in the app's title and about box; defaults to the built-in version. */
  version?: string;
  /** Absolute path of the file to open at start (`--project`/`--file`), if any. */
  startupFile?: string | null;
  /** The startup file is a project (`--project`): the app opens it in the project tree. */
  startupIsProject?: boolean;
  /** Largest file read from disk or accepted as bytes. */
  maxFileBytes?: number;
  /** Where pushed events (`jobs.progress`) go; each transport subscribes to it. */
  events?: EventHub;
  /** The native dialogs (Electron); without them every dialog call is `unavailable`. */
  dialogs?: DialogHandlers;
  /** Bake pool settings (the Electron main process passes the worker entry). */
  bakePool?: Omit<BakePoolOptions, 'concurrency'>;
  bakeConcurrency?: number;
  /** Receives the job service, so its owner can cancel the jobs at shutdown. */
  onJobService?(jobs: JobService): void;
  /**
   * Receives the function that shuts everything down (`walkbench serve` on SIGTERM, the app
   * quitting): edits written behind are written, a running export stops between files,
   * bakes and the live bake worker end, and the project file is closed.
   */
  onClose?(close: () => Promise<void>): void;
  /** Told when the page opens a project (the Electron menu's recent projects). */
  onProjectOpened?(file: string): void;
  /** The recently opened projects (`recent.list`); each project opened is put first. Without it the list is empty. */
  recentProjects?: RecentProjects;
}

/**
 * The contract implemented in plain Node: the Electron IPC handlers and the browser-mode
 * server both call this object (after validating the parameters), and tests call it
 * directly. It never imports Electron.
 */
export function createWalkbenchService(options: WalkbenchServiceOptions = {}): ContractHandlers {
  const maxFileBytes = Math.min(options.maxFileBytes ?? MAX_FILE_BYTES, MAX_FILE_BYTES);
  const info: AppInfo = {
    name: 'Walkbench',
    version: options.version ?? appVersion(),
    formats: formatHandlers.map((h) => ({ id: h.id, game: h.game, label: h.label, extensions: [...h.extensions] })),
    startupFile: options.startupIsProject ? null : (options.startupFile ?? null),
    startupProject: options.startupIsProject ? (options.startupFile ?? null) : null,
    maxFileBytes,
  };
  const events = options.events ?? createEventHub();
  const jobService = createJobService({
    emit: events.emit,
    resolveProject: (params, method) => projects.resolve(params, method),
    ...(options.bakePool ? { pool: options.bakePool } : {}),
    ...(options.bakeConcurrency !== undefined ? { concurrency: options.bakeConcurrency } : {}),
  });
  options.onJobService?.(jobService);

  async function readChecked(file: string): Promise<Uint8Array> {
    if (!path.isAbsolute(file)) throw new ServiceError('invalid-params', `params.path must be an absolute path, not ${JSON.stringify(file)}`, 'params.path');
    let size: number;
    try {
      // A FIFO, a device or a socket (or a link to one) is refused before it is opened.
      size = (await checkRegularFile(file)).size;
    } catch (e) {
      if (e instanceof NotRegularFileError || (e instanceof FileAccessError && /is a folder/.test(e.message))) throw new ServiceError('not-a-file', e.message);
      if (e instanceof FileAccessError && /no such file/.test(e.message)) throw new ServiceError('not-found', `${file}: no such file`);
      if (e instanceof FileAccessError) throw new ServiceError('unreadable', e.message);
      throw e;
    }
    if (size > maxFileBytes) throw new ServiceError('too-large', `${file}: ${size} bytes is more than the ${maxFileBytes}-byte limit`);
    try {
      return await readBytes(file, maxFileBytes);
    } catch (e) {
      if (e instanceof NotRegularFileError) throw new ServiceError('not-a-file', e.message);
      if (e instanceof FileAccessError) throw new ServiceError(/-byte limit/.test(e.message) ? 'too-large' : 'unreadable', e.message);
      throw e;
    }
  }

  function open(name: string, filePath: string | null, bytes: Uint8Array): OpenedFile {
    const label = filePath ?? name;
    const opened = (report: FileReport, walkmeshes: OpenedFile['walkmeshes'], overlays: OpenedFile['overlays'] = [], structure?: GameStructure): OpenedFile => ({
      name,
      path: filePath,
      byteLength: bytes.byteLength,
      report,
      walkmeshes,
      overlays,
      ...(structure ? { structure } : {}),
    });
    let loaded;
    try {
      loaded = loadDocument(label, bytes, env);
    } catch (e) {
      // A bad or unknown file is a result to show, not a failed call: the report says why.
      if (isMalformedInputError(e) || e instanceof UnknownFormatError) return opened(inspectBytes(label, bytes, env), []);
      throw e;
    }
    const report = inspectDocument(label, loaded);
    try {
      return opened(report, loaded.handler.toWalkmeshes(loaded.document, name), documentOverlays(loaded.handler.id, loaded.document), documentStructure(loaded.handler.id, loaded.document));
    } catch (e) {
      // A file that reads but cannot be drawn (a face naming a missing vertex…) is still a
      // report to show: its findings say what is wrong, and the viewport stays empty.
      if (!(e instanceof ModelMappingError || e instanceof RangeError)) throw e;
      const unshown = error('model.unshowable', `${label}: cannot be shown in the viewport: ${e.message}`);
      return opened({ ...report, ok: false, errors: [...report.errors, unshown] }, []);
    }
  }
  const recent = options.recentProjects;
  const projects = createProjectService({
    open,
    onProjectChanged: (file) => {
      try {
        recent?.add(file);
      } catch {
        // A recent list that cannot be saved (read-only profile) never stops a project opening.
      }
      options.onProjectOpened?.(file);
    },
    // Called only once both services exist (on a project.openFile call).
    editedWalkmeshes: (project, fileId) => edits.editedWalkmeshes(project, fileId),
    projectFindings: (project, fileId) => edits.projectFindings(project, fileId),
    kotorRooms: (project, fileId) => edits.kotorRooms(project, fileId),
  });
  const edits = createEditService({ resolveProject: (params, method) => projects.resolve(params, method), ...(options.bakePool ? { bakePool: options.bakePool } : {}) });
  const exports = createExportService({ emit: events.emit, resolveProject: (params, method) => projects.resolve(params, method) });
  const imports = createImportService({ emit: events.emit, projects });
  const levelContext = createLevelContextService({ openStore: (session, method) => projects.openStore(session, method), emit: events.emit, ...(options.bakePool ? { pool: options.bakePool } : {}) });

  let closing: Promise<void> | null = null;
  options.onClose?.(() =>
    (closing ??= (async () => {
      await exports.close();
      await imports.close();
      await levelContext.close();
      await jobService.close();
      await edits.close();
      projects.close();
    })()),
  );

  function afterWrites<P, R>(run: (params: P) => Promise<R>): (params: P) => Promise<R> {
    return async (params) => {
      edits.flushWrites();
      return run(params);
    };
  }

  const handlers: ContractHandlers = {
    'app.info': async () => info,
    'files.inspect': async ({ path: file }) => inspectBytes(file, await readChecked(file), env),
    'files.open': async ({ path: file }) => open(path.basename(file), file, await readChecked(file)),
    'files.openBytes': async ({ name, bytes }) => {
      if (bytes.byteLength > maxFileBytes) {
        throw new ServiceError('too-large', `${name}: ${bytes.byteLength} bytes is more than the ${maxFileBytes}-byte limit`);
      }
      // Only the base name is kept: a name is a label here, never a path to touch.
      return open(name.replace(/^.*[\\/]/, '') || name, null, bytes);
    },
    ...jobService.handlers,
    ...projects.handlers,
    'project.openFile': async (params) => {
      // The file's report is of its bytes as the edits left them: those written behind first.
      edits.flushWrites();
      const opened = await projects.handlers['project.openFile'](params);
      // An NWN2 area opened for editing: its first cutter or placeable edit then finds a warm
      // bake worker and the area's tile tables ready.
      edits.warmArea(projects.current()!, params.fileId);
      return opened;
    },
    ...edits.handlers,
    ...exports.handlers,
    ...createGameFolderBrowse(projects),
    ...imports.handlers,
    // The level context reads the project file's bytes as edited: those written behind first.
    'context.load': afterWrites(levelContext.handlers['context.load']),
    'recent.list': async () => ({ projects: recent?.list() ?? [] }),
    // Whatever reads the project's edited bytes gets them written first (the editor writes
    // a paint's or a move's bytes behind, when idle).
    'jobs.bake': afterWrites(jobService.handlers['jobs.bake']),
    'export.plan': afterWrites(exports.handlers['export.plan']),
    'export.run': afterWrites(exports.handlers['export.run']),
    'project.saveAs': afterWrites(projects.handlers['project.saveAs']),
    'project.state': afterWrites(projects.handlers['project.state']),
    'project.open': afterWrites(projects.handlers['project.open']),
    'import.start': afterWrites(imports.handlers['import.start']),
    'import.bytes': afterWrites(imports.handlers['import.bytes']),
    ...(options.dialogs ?? browserDialogs),
  };
  return withProjectFileErrors(handlers, (params) => {
    const p = params as { path?: unknown; project?: unknown } | null;
    if (typeof p?.project === 'string') return p.project;
    return projects.current();
  });
}

/**
 * A project file that turns out damaged only when a query reaches its bad page (SQLite's
 * "database disk image is malformed"), or that is refused by the store (ProjectFileError),
 * is the file's fault: the call fails as `unreadable` with a message naming the file, never
 * as an internal error with a stack in the log.
 */
function withProjectFileErrors(handlers: ContractHandlers, projectOf: (params: unknown) => string | null): ContractHandlers {
  const wrapped: Record<string, (params: unknown) => Promise<unknown>> = {};
  for (const [method, handler] of Object.entries(handlers) as [string, (params: unknown) => Promise<unknown>][]) {
    wrapped[method] = async (params) => {
      try {
        return await handler(params);
      } catch (e) {
        if (e instanceof ProjectFileError) throw new ServiceError('unreadable', e.message);
        if (!isDamagedDatabaseError(e)) throw e;
        const file = (method === 'project.open' ? (params as { path?: string }).path : undefined) ?? projectOf(params) ?? 'the project file';
        throw new ServiceError('unreadable', (asProjectFileError(file, e) as Error).message);
      }
    };
  }
  return wrapped as unknown as ContractHandlers;
}
