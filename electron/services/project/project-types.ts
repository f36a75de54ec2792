import type { GameId } from '../../../shared/model/walkmesh';

/** What a project file holds: a walkmesh, or one of the other inputs a bake reads. */
/** `template`: a KotOR placeable or door template (UTP/UTD), which names the object's model. */
export const fileKinds = ['walkmesh', 'trn', 'git', 'are', 'gic', 'lyt', '2da', 'mdb', 'master', 'template'] as const;
export type FileKind = (typeof fileKinds)[number];

export const gameIds: readonly GameId[] = ['nwn2', 'kotor', 'skyrim', 'source'];

export interface ProjectInfo {
  name: string;
  game: GameId;
  createdAt: string;
  schemaVersion: number;
}

export interface GameFolder {
  path: string;
  role: string;
}

export interface ModuleSummary {
  id: number;
  name: string;
  fileCount: number;
  totalSize: number;
}

/** A file's metadata: everything a list shows, without its bytes. */
export interface FileRecord {
  id: number;
  module: string;
  area: string | null;
  kind: FileKind;
  name: string;
  format: string | null;
  size: number;
  sha256: string;
  sourcePath: string | null;
  updatedAt: string;
  /** The model has edits of this file saved in the project. */
  edited: boolean;
  /** The edits were made on other source bytes than the file now holds (re-imported since). */
  editStale: boolean;
  /** Content hash of the saved edited bytes; null without edits. */
  editSha256: string | null;
  /**
   * Edits are in the history but their bytes are not written yet (written behind, see
   * ProjectEdits `writeBehind`): the saved bytes and editSha256 lag until they are.
   */
  editWritePending: boolean;
  /** Grows with every change of the file's edited model (edit, undo, redo, new imported bytes). */
  revision: number;
}

export interface UpsertFileInput {
  module: string;
  name: string;
  kind: FileKind;
  bytes: Uint8Array;
  format?: string | null;
  area?: string | null;
  sourcePath?: string | null;
}

export type UpsertStatus = 'added' | 'changed' | 'unchanged';

export interface UpsertResult {
  status: UpsertStatus;
  fileId: number;
  sha256: string;
}

export interface SavedEdit {
  baseSha256: string;
  sha256: string;
  bytes: Uint8Array;
}

export interface BakeRecord {
  id: number;
  inputHash: string;
  bakerId: string;
  bakerVersion: string;
  inputs: { name: string; sha256: string }[];
  outputFormat: string;
  outputSha256: string;
  outputSize: number;
  createdAt: string;
}

export interface HistoryCommand {
  label: string;
  /** JSON-serialisable description of the command, and of the command that undoes it. */
  command: unknown;
  inverse: unknown;
  /** Bulk data that does not belong in JSON (e.g. replaced vertex arrays). */
  commandBlob?: Uint8Array;
  inverseBlob?: Uint8Array;
  /** The project files the command changes (undo is per file). */
  files: readonly number[];
}

export interface HistorySummary {
  seq: number;
  label: string;
  undone: boolean;
  createdAt: string;
  /** The project files the entry changed. */
  files: number[];
}

/** A history entry as undo or redo hands it back: the step to apply now. */
export interface HistoryStep {
  seq: number;
  label: string;
  /** The inverse for undo, the command for redo. */
  apply: unknown;
  blob: Uint8Array | null;
  /** The project files the step changes. */
  files: number[];
}

export interface ExportEntry {
  id: number;
  at: string;
  targetPath: string;
  format: string;
  fileId: number | null;
  bakeId: number | null;
  sha256: string;
  size: number;
}

export type ExportRunStatus = 'running' | 'done' | 'failed' | 'restored';

/** One `project export` into one target (a folder or an archive). */
export interface ExportRun {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  /** The game folder or archive given with --to, absolute. */
  target: string;
  /** Where the files it replaced were copied first (outside the game folder). */
  backupDir: string;
  status: ExportRunStatus;
}

/** A file an export run wrote, with what restoring it needs. */
export interface ExportRunEntry extends ExportEntry {
  runId: number;
  action: 'create' | 'replace';
  /** The resource inside `targetPath` when that is an archive (`name.trx`), else null. */
  resource: string | null;
  /** The copy of the replaced file (the whole archive for a resource), or null when created. */
  backupPath: string | null;
  /** Read back from the target after writing and found identical. */
  verified: boolean;
}
