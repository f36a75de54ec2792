import { randomUUID } from 'node:crypto';
import { assembleLayout } from './project/kotor-layout-view';
import type { KotorRoomsView } from '../../shared/views/game-structure';
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { isMalformedInputError } from '../../shared/binary/malformed-input-error';
import { handlerById } from '../../shared/formats/format-registry';
import { warning, type Finding } from '../../shared/validation/finding';
import { gitOverlays } from '../../shared/views/placement-overlays';
import type { OpenedFile } from '../../shared/ipc/contract';
import type { ProjectFileState, ProjectTree, ProjectTreeFile, ProjectTreeModule } from '../../shared/ipc/project-contract';
import { ServiceError } from '../../shared/ipc/rpc-error';
import { specialFileAt } from './file-access';
import { ProjectFileError } from './project/project-file-error';
import { asProjectFileError } from './project/project-database';
import { ProjectFootprintModels } from './project/project-footprint-models';
import { ProjectNameTablesCache } from './project/project-name-tables';
import { ProjectStore } from './project/project-store';
import type { FileRecord } from './project/project-types';
import { bakeStateOf } from './project/file-bake-state';
import { fileStateOf, projectFileView } from './project/project-file-view';

export interface ProjectServiceOptions {
  /** Reads bytes into the model the way `files.open` does (shared with walkbench-service). */
  open(name: string, filePath: string | null, bytes: Uint8Array): OpenedFile;
  /** Told whenever the app opens another project (the bake jobs default to it). */
  onProjectChanged?(file: string): void;
  /** The edit service's model of an edited file, which the viewport must show (see EditService). */
  editedWalkmeshes?(project: string, fileId: number): OpenedFile['walkmeshes'] | undefined;
  /** What the project adds to the file's own findings (EditService.projectFindings), added to its report. */
  projectFindings?(project: string, fileId: number): Finding[];
  /** KotOR: a room's layout and the rooms sharing its edges (EditService.kotorRooms), as `structure.rooms`. */
  kotorRooms?(project: string, fileId: number): KotorRoomsView | undefined;
}

export interface ProjectService {
  handlers: {
    'project.open': (params: { path: string }) => Promise<ProjectTree>;
    'project.openFile': (params: { session: string; fileId: number }) => Promise<OpenedFile>;
    'project.saveAs': (params: { session: string; path: string; overwrite?: boolean | undefined }) => Promise<ProjectTree>;
    'project.state': (params: { session: string; fileIds?: number[] | undefined }) => Promise<{ session: string; files: ProjectFileState[] }>;
  };
  /** The project open in the app, or null. */
  current(): string | null;
  /** The session of the project open in the app, or null. */
  session(): string | null;
  /**
   * The project file a call is about: its `session` must be the open project's (else the
   * call is refused as stale: another project was opened since), or it names a project
   * file by `project`. A call with neither is refused rather than sent to whatever project
   * happens to be open.
   */
  resolve(params: { session?: string | undefined; project?: string | undefined }, method: string): string;
  /** The open project's store, if `session` is its session (the import writes into it); else `stale`. */
  openStore(session: string, method: string): ProjectStore;
  close(): void;
}

function treeFile(store: ProjectStore, f: FileRecord): ProjectTreeFile {
  const handler = f.format === null ? undefined : handlerById(f.format);
  return { id: f.id, name: f.name, kind: f.kind, format: f.format, game: handler?.game ?? null, size: f.size, edited: f.edited, revision: f.revision, bake: bakeStateOf(store, f) };
}

/** Modules in the store's order, areas and files by name, files without an area apart. */
export function projectTree(store: ProjectStore, session: string): ProjectTree {
  const info = store.info();
  const modules = new Map<string, ProjectTreeModule>();
  for (const m of store.listModules()) modules.set(m.name, { name: m.name, areas: [], files: [] });
  for (const f of store.listFiles()) {
    let m = modules.get(f.module);
    if (!m) modules.set(f.module, (m = { name: f.module, areas: [], files: [] }));
    if (f.area === null) {
      m.files.push(treeFile(store, f));
      continue;
    }
    let area = m.areas.find((a) => a.name === f.area);
    if (!area) m.areas.push((area = { name: f.area, files: [] }));
    area.files.push(treeFile(store, f));
  }
  for (const m of modules.values()) m.areas.sort((a, b) => a.name.localeCompare(b.name));
  return { session, path: store.file, name: info.name, game: info.game, modules: [...modules.values()] };
}

/**
 * A walkmesh of an area that has a GIT in the project gains the area's placement views
 * (cutter outlines, placeable and door footprints: walkmesh outlines where the project
 * has the models, markers where not). A KotOR room is named apart from its module's GIT
 * (`m10aa_01c.wok`, `m10aa.git`), so a room takes its module's GIT when the module has
 * one only. A GIT that cannot be read becomes a warning in the report rather than a
 * failed open.
 */
function withAreaPlacements(store: ProjectStore, models: ProjectFootprintModels, record: FileRecord, opened: OpenedFile): OpenedFile {
  const game = opened.report.game;
  if (record.area === null || (game !== 'nwn2' && game !== 'kotor') || opened.walkmeshes.length === 0) return opened;
  const gits = store.listFiles({ module: record.module, kind: 'git' });
  const git = gits.find((f) => f.area === record.area) ?? (game === 'kotor' && gits.length === 1 ? gits[0] : undefined);
  if (!git) return opened;
  try {
    // The GIT as edited: its cutters and placeables are what the area is baked with.
    return { ...opened, overlays: [...(opened.overlays ?? []), ...gitOverlays(game, store.loadCurrentBytes(git), models.forModule(record.module))] };
  } catch (e) {
    if (!isMalformedInputError(e)) throw e;
    const finding = warning('area.git.unreadable', `${git.module}/${git.name}: ${e.withFile(git.name).message}; its placements are not shown`);
    return { ...opened, report: { ...opened.report, warnings: [...opened.report.warnings, finding] } };
  }
}

/** Something is at `file` (a file, or a link, even a dangling one, which a rename would replace). */
function existsOrLinked(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * The project the app shows: one store open at a time (opening another closes it). Only
 * the tree's metadata is read on open; file bytes are read when a file is opened.
 */
export function createProjectService(options: ProjectServiceOptions): ProjectService {
  let store: ProjectStore | null = null;
  let session: string | null = null;
  // Parsed placeable and door models of the open project, for the footprint view.
  let models: ProjectFootprintModels | null = null;
  // The game's own name tables (surfacemat.2da, terrainmaterials.2da) per module, for the pickers.
  let nameTables: ProjectNameTablesCache | null = null;

  /** The open project, if `given` is its session. */
  function requireStore(given: string, method: string): ProjectStore {
    if (!store || given !== session) {
      throw new ServiceError(
        'stale',
        store
          ? `${method}: this request is about a project that is no longer open (${path.basename(store.file)} is open now); its tabs were closed`
          : `${method}: no project is open: open one first (project.open)`,
        'params.session',
      );
    }
    return store;
  }

  function resolve(params: { session?: string | undefined; project?: string | undefined }, method: string): string {
    if (params.session !== undefined) return requireStore(params.session, method).file;
    if (params.project !== undefined) {
      if (!path.isAbsolute(params.project)) throw new ServiceError('invalid-params', `params.project must be an absolute path, not ${JSON.stringify(params.project)}`, 'params.project');
      return params.project;
    }
    throw new ServiceError('invalid-params', `${method}: name the project: params.session (the project open in the app, from project.open) or params.project (a project file)`, 'params.session');
  }

  const handlers: ProjectService['handlers'] = {
    'project.open': async ({ path: file }) => {
      if (!path.isAbsolute(file)) throw new ServiceError('invalid-params', `params.path must be an absolute path, not ${JSON.stringify(file)}`, 'params.path');
      let next: ProjectStore;
      try {
        next = ProjectStore.open(file);
      } catch (e) {
        if (e instanceof ProjectFileError) throw new ServiceError(/no such/.test(e.message) ? 'not-found' : 'unreadable', e.message);
        throw e;
      }
      let tree: ProjectTree;
      const opened = randomUUID();
      try {
        tree = projectTree(next, opened);
      } catch (e) {
        next.close();
        // Damage first met while reading the tree (a corrupt page SQLite opened past) is the file's, not ours.
        const cause = asProjectFileError(file, e);
        if (cause instanceof ProjectFileError) throw new ServiceError('unreadable', cause.message);
        throw e;
      }
      store?.close();
      store = next;
      session = opened;
      models = new ProjectFootprintModels(next);
      nameTables = null;
      options.onProjectChanged?.(file);
      return tree;
    },
    'project.openFile': async ({ session: given, fileId }) => {
      const s = requireStore(given, 'project.openFile');
      const record = s.fileById(fileId);
      if (!record) throw new ServiceError('not-found', `${s.file}: no file with id ${fileId}`, 'params.fileId');
      const edit = record.edited ? s.loadEdit(fileId) : undefined;
      const bytes = edit ? edit.bytes : s.loadFileBytes(fileId);
      let opened = withAreaPlacements(s, (models ??= new ProjectFootprintModels(s)), record, options.open(record.name, null, bytes));
      // A KotOR layout opens as its area: every room's walkmesh placed, named by the LYT.
      if (record.kind === 'lyt') opened = assembleLayout(s, record, opened, (room) => options.open(room.name, null, s.loadCurrentBytes(room)).walkmeshes);
      const edited = record.edited && opened.walkmeshes.length > 0 ? options.editedWalkmeshes?.(s.file, fileId) : undefined;
      const area = opened.report.readFailure === null ? (options.projectFindings?.(s.file, fileId) ?? []) : [];
      const errors = [...opened.report.errors, ...area.filter((f) => f.severity === 'error')];
      const report = area.length === 0 ? opened.report : { ...opened.report, errors, warnings: [...opened.report.warnings, ...area.filter((f) => f.severity !== 'error')], ok: errors.length === 0 };
      // Read after the edits' model: a write behind it may have moved the revision on.
      const now = s.fileById(fileId) ?? record;
      const rooms = opened.walkmeshes.length > 0 && opened.report.game === 'kotor' ? options.kotorRooms?.(s.file, fileId) : undefined;
      const tables = opened.walkmeshes.length > 0 ? await (nameTables ??= new ProjectNameTablesCache(s)).forFile(record) : undefined;
      const structure = rooms || tables ? { ...opened.structure, ...(rooms ? { rooms } : {}), ...(tables ? { tables } : {}) } : undefined;
      return { ...opened, report, ...(edited ? { walkmeshes: edited } : {}), ...(structure ? { structure } : {}), name: edit ? `${record.name} (edited)` : record.name, projectFile: projectFileView(s, given, now) };
    },
    'project.state': async ({ session: given, fileIds }) => {
      const s = requireStore(given, 'project.state');
      const wanted = fileIds ? new Set(fileIds) : undefined;
      const files = s.listFiles().filter((f) => !wanted || wanted.has(f.id));
      return { session: given, files: files.map((f) => fileStateOf(s, f)) };
    },
    'project.saveAs': async ({ session: given, path: target, overwrite }) => {
      const s = requireStore(given, 'project.saveAs');
      if (!path.isAbsolute(target)) throw new ServiceError('invalid-params', `params.path must be an absolute path, not ${JSON.stringify(target)}`, 'params.path');
      if (path.resolve(target) === path.resolve(s.file)) throw new ServiceError('invalid-params', `${target}: is the project already open; choose another file`, 'params.path');
      // Nothing is replaced without the user's word: an existing file is refused unless the
      // call says `overwrite` (the page asks "Replace …?" first); a folder, a FIFO or a
      // device is never replaced.
      const special = specialFileAt(target);
      if (special === 'a folder') throw new ServiceError('not-a-file', `${target}: is a folder; choose a file name`, 'params.path');
      if (special !== undefined) throw new ServiceError('not-a-file', `${target}: is ${special}, not a regular file`, 'params.path');
      if (!overwrite && existsOrLinked(target)) {
        throw new ServiceError('exists', `${target}: already exists; replace it only if you mean to (Save As with overwrite)`, 'params.path');
      }
      try {
        await s.copyTo(target);
      } catch (e) {
        throw new ServiceError('unreadable', `${target}: cannot write the project copy: ${e instanceof Error ? e.message : String(e)}`);
      }
      return handlers['project.open']({ path: target });
    },
  };

  return {
    handlers,
    current: () => store?.file ?? null,
    session: () => session,
    resolve,
    openStore: requireStore,
    close() {
      store?.close();
      store = null;
      session = null;
      models = null;
      nameTables = null;
    },
  };
}
