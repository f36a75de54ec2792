/**
 * The typed contract between the renderer and the services: every call the renderer can
 * make, its parameters and its result, plus the events the main process may push. Both
 * transports (Electron IPC and the browser-mode HTTP server) implement exactly this, so
 * the renderer cannot tell them apart.
 */
import type { GameStructure } from '../views/game-structure';
import { gameFolderModulesSchema, kotorModuleRoomsSchema, type GameFolderModules, type KotorModuleRooms, type KotorModuleRoomsParams } from './game-folder-contract';
import type { NavmeshCheck } from '../edits/skyrim-navmesh-check';
import { skyrimCheckSchema, type SkyrimCheckParams } from './edits-contract';
import type { FileReport } from '../formats/file-report';
import type { GameId, Walkmesh } from '../model/walkmesh';
import * as s from './schema';
import type { Schema } from './schema';
import { openFileDialogSchema, openFolderDialogSchema, openProjectDialogSchema, saveFileDialogSchema, type DialogResult, type OpenFileDialogParams, type SaveFileDialogParams } from './dialog-contract';
import { projectFileSchema, projectOpenSchema, projectSaveAsSchema, projectStateSchema, type ProjectFileState, type ProjectFileView, type ProjectTree } from './project-contract';
import type { LineOverlay } from '../views/view-overlay';
import { appCommandSchema, type AppCommand } from './app-commands';
import { importBytesSchema, importJobSchema, importJobStateSchema, importStartSchema, kotorModulesSchema, projectCreateSchema, type ImportBytesParams, type ImportJobState, type ImportStartParams, type ProjectCreateParams, type ProjectCreateResult } from './import-contract';
import { exportJobParamsSchema, exportParamsSchema, exportProgressSchema, exportRestoreParamsSchema, type ExportParams, type ExportPlanResult, type ExportProgress, type ExportRestoreResult } from './export-contract';
import { bakeJobParamsSchema, jobIdParamsSchema, jobProgressSchema, type BakeJobParams, type JobProgress } from './jobs-contract';
import { contextLoadSchema, contextProgressSchema, type ContextLoadParams, type ContextLoadResult, type ContextProgress } from './level-context-contract';
import { editsApplySchema, fixRoomLinkSchema, pathQuerySchema, placementsSchema, projectParamSchema, rebakeResultSchema, reportParamsSchema, stepParamsSchema, type EditsApplyParams, type EditsOutcome, type FileReportResult, type FixRoomLinkParams, type GitPlacements, type PlacementsParams, type HistoryEntry, type PathQueryParams, type PathQueryResult, type ProjectParam, type RebakeResult, type RebakeResultParams, type ReportParams, type StepParams } from './edits-contract';

/** Largest file the services read or accept as bytes (Skyrim.esm is about 250 MB). */
export const MAX_FILE_BYTES = 512 * 1024 * 1024;

/** Longest path accepted (Windows long paths reach 32,767 UTF-16 units). */
export const MAX_PATH_LENGTH = 32_767;

export interface FormatInfo {
  id: string;
  game: GameId;
  label: string;
  extensions: string[];
}

export interface AppInfo {
  name: string;
  version: string;
  /** Every format the services read, for the open dialog filters and the drop hint. */
  formats: FormatInfo[];
  /** The file given on the command line (`--project`/`--file`), to open at start. */
  startupFile: string | null;
  /** The project given with `--project`, to open in the project tree at start. */
  startupProject?: string | null;
  maxFileBytes: number;
}

/** A file read into the common model: what the viewport draws and the inspector shows. */
export interface OpenedFile {
  /** The file name shown to the user. */
  name: string;
  /** Absolute path when the file came from disk; null when its bytes were sent. */
  path: string | null;
  byteLength: number;
  report: FileReport;
  /** One per navmesh/area/tile set in the file; empty when the file could not be read. */
  walkmeshes: Walkmesh[];
  /** Views the format's document holds beyond the model (shared/views/document-overlays.ts). */
  overlays?: LineOverlay[];
  /** A file of the open project: which project opening, revision, undo scope, bake state and tools. */
  projectFile?: ProjectFileView;
  /** The game's own structure: Source places, Skyrim cells, a KotOR room's layout (shared/views/game-structure.ts). */
  structure?: GameStructure;
}

export interface WalkbenchContract {
  'app.info': { params: Record<string, never>; result: AppInfo };
  /** Reads and validates a file on disk without keeping anything. */
  'files.inspect': { params: { path: string }; result: FileReport };
  /** Reads a file on disk into the common model. */
  'files.open': { params: { path: string }; result: OpenedFile };
  /** Reads file contents the renderer already has (file input, drag and drop). */
  'files.openBytes': { params: { name: string; bytes: Uint8Array }; result: OpenedFile };
  /** Starts a bake job (shared/ipc/jobs-contract.ts); its progress arrives as `jobs.progress`. */
  'jobs.bake': { params: BakeJobParams; result: { jobId: number } };
  'jobs.cancel': { params: { jobId: number }; result: { cancelled: boolean } };
  'jobs.list': { params: Record<string, never>; result: { jobs: JobProgress[] } };
  /** Native dialogs (shared/ipc/dialog-contract.ts); `unavailable` in browser mode. */
  'dialog.openFile': { params: OpenFileDialogParams; result: DialogResult };
  'dialog.openProject': { params: OpenFileDialogParams; result: DialogResult };
  'dialog.openFolder': { params: OpenFileDialogParams; result: DialogResult };
  'dialog.saveFile': { params: SaveFileDialogParams; result: DialogResult };
  /** Opens a project file for the tree (shared/ipc/project-contract.ts); its answer names the session. */
  'project.open': { params: { path: string }; result: ProjectTree };
  /** Reads a file of the open project into the model: its saved edit if any, else its bytes. */
  'project.openFile': { params: { session: string; fileId: number }; result: OpenedFile };
  /**
   * Save Project As: copies the open project (history and bakes too) to `path` and opens the
   * copy. An existing file there is replaced only with `overwrite: true`; without it the call
   * fails with `exists` (the page then asks the user) and nothing is written.
   */
  'project.saveAs': { params: { session: string; path: string; overwrite?: boolean | undefined }; result: ProjectTree };
  /** Revisions, edited marks and bake states of the open project's files (after a bake, an undo elsewhere…). */
  'project.state': { params: { session: string; fileIds?: number[] | undefined }; result: { session: string; files: ProjectFileState[] } };
  /** New project (shared/ipc/import-contract.ts): an empty project file for a game; open it, then import into it. */
  'project.create': { params: ProjectCreateParams; result: ProjectCreateResult };
  /** Imports game folders, modules and files into the open project as a job; its progress arrives as `import.progress`. */
  'import.start': { params: ImportStartParams; result: { jobId: number } };
  /** Adds a file the page holds as bytes (dropped on the window) to the open project, as a job. */
  'import.bytes': { params: ImportBytesParams; result: { jobId: number } };
  'import.status': { params: { jobId: number }; result: ImportJobState };
  /** Stops a running import between two files; the files it wrote are taken back (state `cancelled`). False when it had ended. */
  'import.cancel': { params: { jobId: number }; result: { cancelled: boolean } };
  /** The modules a KotOR game folder holds, to choose the one to import; `notGameFolder` says why an existing folder has none (no chitin.key). */
  'import.kotorModules': { params: { folder: string }; result: { modules: string[]; notGameFolder?: string } };
  /** Recently opened projects, most recent first (both transports keep the list). */
  'recent.list': { params: Record<string, never>; result: { projects: string[] } };
  /** Edits of the open project's files, undoable across restarts (shared/ipc/edits-contract.ts). */
  /** KotOR: the modules of the project's game folders, and one module's rooms (shared/ipc/game-folder-contract.ts). */
  'project.gameModules': { params: { session: string }; result: GameFolderModules };
  'project.kotorModuleRooms': { params: KotorModuleRoomsParams; result: KotorModuleRooms };
  'edits.apply': { params: EditsApplyParams; result: EditsOutcome };
  /** KotOR: repairs a one-sided room link (both room files in one undoable step). */
  'edits.fixRoomLink': { params: FixRoomLinkParams; result: EditsOutcome };
  'edits.undo': { params: StepParams; result: { outcome: EditsOutcome | null } };
  'edits.redo': { params: StepParams; result: { outcome: EditsOutcome | null } };
  'edits.history': { params: ProjectParam; result: { entries: HistoryEntry[] } };
  /** A file's report as its bytes stand, once edits written behind are written (EditsOutcome.report null). */
  'edits.report': { params: ReportParams; result: FileReportResult };
  /** NWN2: waits for the background re-bake an edit started (EditsOutcome.rebakePending). */
  'edits.rebakeResult': { params: RebakeResultParams; result: RebakeResult };
  /** NWN2: the cutters and placeables of a GIT of the open project, as edited. */
  'edits.placements': { params: PlacementsParams; result: GitPlacements };
  /** Skyrim: the Creation Kit's "Check navmeshes" on a plugin as edited, each problem with its fix-up edit. */
  'edits.skyrimCheck': { params: SkyrimCheckParams; result: NavmeshCheck };
  /** The path between two points on a project file or a file on disk, or why there is none. */
  'path.query': { params: PathQueryParams; result: PathQueryResult };
  /** Export of the open project into a game folder (shared/ipc/export-contract.ts): the dry-run list. */
  'export.plan': { params: ExportParams; result: ExportPlanResult };
  /** Starts the export; its progress arrives as `export.progress`. */
  'export.run': { params: ExportParams; result: { jobId: number } };
  'export.cancel': { params: { jobId: number }; result: { cancelled: boolean } };
  'export.status': { params: { jobId: number }; result: ExportProgress };
  /** Undoes the last export into the folder: backups put back, created files removed. */
  'export.restore': { params: { gameDir: string; session?: string | undefined; project?: string | undefined }; result: ExportRestoreResult };
  /** The level around a project file's walkmesh, read off the main thread (shared/ipc/level-context-contract.ts). */
  'context.load': { params: ContextLoadParams; result: ContextLoadResult };
}

export type Method = keyof WalkbenchContract;
export type Params<M extends Method> = WalkbenchContract[M]['params'];
export type Result<M extends Method> = WalkbenchContract[M]['result'];

/** What a service implements: one async function per contract method. */
export type ContractHandlers = { [M in Method]: (params: Params<M>) => Promise<Result<M>> };

const absolutePath = s.string({ minLength: 1, maxLength: MAX_PATH_LENGTH });

/** The schema each method's parameters must pass before they reach a service. */
export const paramSchemas: { readonly [M in Method]: Schema<Params<M>> } = {
  'app.info': s.object({}),
  'files.inspect': s.object({ path: absolutePath }),
  'files.open': s.object({ path: absolutePath }),
  'files.openBytes': s.object({
    name: s.string({ minLength: 1, maxLength: 1024 }),
    bytes: s.bytes({ maxLength: MAX_FILE_BYTES }),
  }),
  'jobs.bake': bakeJobParamsSchema,
  'jobs.cancel': jobIdParamsSchema,
  'jobs.list': s.object({}),
  'dialog.openFile': openFileDialogSchema,
  'dialog.openProject': openProjectDialogSchema,
  'dialog.openFolder': openFolderDialogSchema,
  'dialog.saveFile': saveFileDialogSchema,
  'project.open': projectOpenSchema,
  'project.openFile': projectFileSchema,
  'project.saveAs': projectSaveAsSchema,
  'project.state': projectStateSchema,
  'project.create': projectCreateSchema,
  'import.start': importStartSchema,
  'import.bytes': importBytesSchema,
  'import.status': importJobSchema,
  'import.cancel': importJobSchema,
  'import.kotorModules': kotorModulesSchema,
  'recent.list': s.object({}),
  'project.gameModules': gameFolderModulesSchema,
  'project.kotorModuleRooms': kotorModuleRoomsSchema,
  'edits.apply': editsApplySchema,
  'edits.fixRoomLink': fixRoomLinkSchema,
  'edits.undo': stepParamsSchema,
  'edits.redo': stepParamsSchema,
  'edits.history': projectParamSchema,
  'edits.report': reportParamsSchema,
  'edits.rebakeResult': rebakeResultSchema,
  'edits.placements': placementsSchema,
  'edits.skyrimCheck': skyrimCheckSchema,
  'path.query': pathQuerySchema,
  'export.plan': exportParamsSchema,
  'export.run': exportParamsSchema,
  'export.cancel': exportJobParamsSchema,
  'export.status': exportJobParamsSchema,
  'export.restore': exportRestoreParamsSchema,
  'context.load': contextLoadSchema,
};

export const methods = Object.keys(paramSchemas) as readonly Method[];

export function isMethod(name: unknown): name is Method {
  return typeof name === 'string' && Object.hasOwn(paramSchemas, name);
}

/** Events the services push to the renderer (over IPC in Electron, server-sent events in browser mode). */
export interface WalkbenchEvents {
  /** The user chose a file from the File menu, a second launch or the OS: open it. */
  'app.openFileRequested': { path: string };
  /** The user chose a project from the File menu (Open Project…, Recent Projects): open it. */
  'app.openProjectRequested': { path: string };
  /** A menu command for the page to carry out (shared/ipc/app-commands.ts). */
  'app.command': { command: AppCommand };
  /** A bake job's whole state, after every change. */
  'jobs.progress': JobProgress;
  /** An export run's whole state, after every change. */
  'export.progress': ExportProgress;
  /** An import job's whole state, after every change. */
  'import.progress': ImportJobState;
  /** A `context.load` under way: what it is reading. */
  'context.progress': ContextProgress;
}

export type EventName = keyof WalkbenchEvents;

export const eventSchemas: { readonly [E in EventName]: Schema<WalkbenchEvents[E]> } = {
  'app.openFileRequested': s.object({ path: absolutePath }),
  'app.openProjectRequested': s.object({ path: absolutePath }),
  'app.command': appCommandSchema,
  'jobs.progress': jobProgressSchema,
  'export.progress': exportProgressSchema,
  'import.progress': importJobStateSchema,
  'context.progress': contextProgressSchema,
};

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(eventSchemas, name);
}
