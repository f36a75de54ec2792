/**
 * Exporting the open project's walkmeshes into a game folder from the UI (contract methods
 * `export.*` and the `export.progress` event), on top of the project export service
 * (electron/services/project/project-export.ts): a dry-run plan first, then a cancellable
 * run whose whole state travels in every event, then a restore of the last export.
 */
import * as s from './schema';

/** MAX_PATH_LENGTH of contract.ts, which imports this file (a cycle would leave it undefined here). */
const MAX_PATH_LENGTH = 32_767;
/** Most files one plan or result lists (a whole NWN2 campaign stays far below). */
export const MAX_EXPORT_ENTRIES = 100_000;

export interface ExportParams {
  /** The game folder (or module archive) to write into: an absolute path. */
  gameDir: string;
  /** Only this module's walkmeshes. */
  module?: string;
  /** Write the bake of unedited walkmeshes too, instead of the bytes imported (issue 15 §4). */
  rebake?: boolean;
  /** The project open in the app (ProjectTree.session); refused once another project is opened… */
  session?: string;
  /** …or a project file named by its path (scripts, tests). */
  project?: string;
}

/** An edit the project holds that the written file will not carry, and why. */
export interface NotCarriedEdit {
  /** The history entry. */
  seq: number;
  label: string;
  /** The file the edit was made on (`module/name`). */
  editedFile: string;
  reason: string;
}

export type ExportEntrySource = 'bake' | 'edit' | 'import';

/**
 * What the export does to a file's content: `unchanged` keeps the bytes imported (nothing
 * in it or its bake's inputs was edited), `edited` writes its saved edit, `rebaked` writes
 * its bake (an input was edited, or a re-bake was asked for; `why` says which).
 */
export type ExportChange = 'unchanged' | 'edited' | 'rebaked';

/** One file the export will write (or leaves alone, already holding these bytes). */
export interface ExportPlanEntry {
  /** The project file, `module/name`. */
  file: string;
  fileId: number;
  /** The file written: the loose file, or the archive holding `resource`. */
  targetPath: string;
  /** The resource inside the archive, or null for a loose file. */
  resource: string | null;
  action: 'create' | 'replace' | 'unchanged';
  /** What is written: the file's bake, its saved edit or its imported bytes. */
  source: ExportEntrySource;
  change: ExportChange;
  /** One line: the edited input that made it re-baked, the edit written, or that it is unedited. */
  why: string;
  bytes: number;
  /** Validation findings of the bytes written (game-shipped files have some). */
  errors: number;
  warnings: number;
  /** Edits the project holds that this file, as written, does not carry (each with the reason). */
  notCarried: NotCarriedEdit[];
}

/** A project file that cannot be exported, and why; any one stops the whole export. */
export interface ExportRefusal {
  file: string;
  reason: string;
}

export interface ExportPlanResult {
  project: string;
  /** Where the files go: the folder inside the game folder (`override/`, `Data/`…) or the archive. */
  target: { kind: 'folder' | 'archive'; path: string };
  entries: ExportPlanEntry[];
  refused: ExportRefusal[];
}

/** A file written, read back identical and read by its format without error. */
export interface VerifiedExportEntry {
  file: string;
  targetPath: string;
  resource: string | null;
  action: 'create' | 'replace';
  bytes: number;
  sha256: string;
}

export type ExportRunState = 'running' | 'done' | 'failed' | 'cancelled';

export interface ExportProgress {
  jobId: number;
  project: string;
  gameDir: string;
  state: ExportRunState;
  /** Files handled of `total` (files already holding the planned bytes are not counted). */
  done: number;
  total: number;
  /** The file last handled, or what the export is doing or how it ended. */
  label: string;
  verified: VerifiedExportEntry[];
  /** Where the replaced files were copied (beside the project, never in the game folder). */
  backupDir: string | null;
  /** Files refused when the export was planned again at the start of the run (nothing is written then). */
  refused: ExportRefusal[];
  /** Why the export failed (state `failed`). */
  error: string | null;
  /** Grows with every update, so a listener keeps only the newest state. */
  seq: number;
}

export interface RestoredEntry {
  targetPath: string;
  /** `restored`: the backup is back; `removed`: a file the export created is deleted; `kept`: left as is (see `reason`). */
  action: 'restored' | 'removed' | 'kept';
  reason?: string;
}

export interface ExportRestoreResult {
  /** The export runs undone (an interrupted run and the one that finished it count together); empty when there was none. */
  runs: number[];
  files: RestoredEntry[];
}

const count = s.number({ integer: true, min: 0, max: Number.MAX_SAFE_INTEGER });
const id = s.number({ integer: true, min: 1, max: Number.MAX_SAFE_INTEGER });
const pathString = s.string({ minLength: 1, maxLength: MAX_PATH_LENGTH });
const text = s.string({ maxLength: 65_536 });

function nullable<T>(inner: s.Schema<T>): s.Schema<T | null> {
  return {
    description: `${inner.description} or null`,
    check: (value, path) => (value === null ? { ok: true, value: null } : inner.check(value, path)),
  };
}

export const exportParamsSchema = s.object({
  gameDir: pathString,
  module: s.optional(s.string({ minLength: 1, maxLength: 1024 })),
  rebake: s.optional(s.boolean()),
  session: s.optional(s.string({ minLength: 8, maxLength: 128 })),
  project: s.optional(pathString),
});

export const exportRestoreParamsSchema = s.object({ gameDir: pathString, session: s.optional(s.string({ minLength: 8, maxLength: 128 })), project: s.optional(pathString) });

export const exportJobParamsSchema = s.object({ jobId: id });

const refusalSchema = s.object({ file: text, reason: text });

const verifiedSchema = s.object({
  file: text,
  targetPath: pathString,
  resource: nullable(text),
  action: s.literal('create', 'replace'),
  bytes: count,
  sha256: s.string({ minLength: 64, maxLength: 64 }),
});

export const exportProgressSchema = s.object({
  jobId: id,
  project: pathString,
  gameDir: pathString,
  state: s.literal('running', 'done', 'failed', 'cancelled'),
  done: count,
  total: count,
  label: s.string({ maxLength: 4096 }),
  verified: s.array(verifiedSchema, { maxLength: MAX_EXPORT_ENTRIES }),
  backupDir: nullable(pathString),
  refused: s.array(refusalSchema, { maxLength: MAX_EXPORT_ENTRIES }),
  error: nullable(text),
  seq: count,
});
