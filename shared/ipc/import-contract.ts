/**
 * From a game folder to a project, in the app (contract methods `project.create`,
 * `import.*`, `recent.list` and the `import.progress` event). The import is the one the
 * CLI runs (`walkbench project import`, electron/services/project/project-import.ts), as a
 * job of the open project: its state travels whole in every event, so a page that reloads
 * catches up from `import.status`.
 */
import type { GameId } from '../model/walkmesh';
import * as s from './schema';

/** MAX_PATH_LENGTH of contract.ts, which imports this file (a cycle would leave it undefined here). */
const MAX_PATH_LENGTH = 32_767;
const pathString = s.string({ minLength: 1, maxLength: MAX_PATH_LENGTH });
const paths = (max: number) => s.array(pathString, { maxLength: max });
const id = s.number({ integer: true, min: 1, max: Number.MAX_SAFE_INTEGER });
const count = s.number({ integer: true, min: 0, max: Number.MAX_SAFE_INTEGER });

/** `inner`, or null. */
function nullable<T>(inner: s.Schema<T>): s.Schema<T | null> {
  return { description: `${inner.description} or null`, check: (value, at) => (value === null ? { ok: true, value: null } : inner.check(value, at)) };
}

/** Most sources, model folders or game folders one call takes. */
export const MAX_IMPORT_SOURCES = 64;
/** Skipped files carried by name in each event; the rest are only counted. */
export const MAX_REPORTED_SKIPS = 200;

export interface ProjectCreateParams {
  /** The new project file (absolute). An existing file is never replaced. */
  path: string;
  game: GameId;
  /** Defaults to the file's name without its extension. */
  name?: string | undefined;
  /** Game installations the project's bakes may read (NWN2 placeable and door models). */
  gameFolders?: string[] | undefined;
}

export interface ProjectCreateResult {
  path: string;
  name: string;
  game: GameId;
  gameFolders: string[];
}

export interface ImportStartParams {
  /** The project open in the app (ProjectTree.session): the import goes into it. */
  session: string;
  /**
   * Absolute paths: a game installation (KotOR with chitin.key, Skyrim with Data/, Source
   * with maps/), a module folder or archive (.mod/.erf/.hak/.rim), folders or loose files.
   */
  sources: string[];
  /** The module every file goes to; for a KotOR game folder, the module to import. */
  module?: string | undefined;
  /** NWN2: folders searched for the models and placeables.2da the imported placeables need. */
  modelDirs?: string[] | undefined;
  /** NWN2: the folder holding placeables.2da. */
  twoDaDir?: string | undefined;
  /** Game folders to add to the project (bakes read models from them). */
  gameFolders?: string[] | undefined;
}

/** A file the page holds as bytes (dropped on the window), added to the open project. */
export interface ImportBytesParams {
  session: string;
  name: string;
  bytes: Uint8Array;
  module: string;
}

/**
 * What an import found, by what a designer looks for: areas (NWN2 areas, KotOR modules'
 * layouts, a Skyrim plugin or Source map each), KotOR rooms, navmesh files, models (NWN2
 * MDB, KotOR placeable and door walkmeshes), 2DA tables and Skyrim masters.
 */
export interface ImportFound {
  areas: number;
  rooms: number;
  navmeshes: number;
  walkmeshes: number;
  models: number;
  twoDas: number;
  masters: number;
  layouts: number;
  placements: number;
}

export interface ImportSkip {
  path: string;
  reason: string;
}

/** Files skipped for one reason, with the first few of them. */
export interface ImportSkipGroup {
  reason: string;
  count: number;
  examples: string[];
}

export interface ImportedEntry {
  fileId: number | null;
  module: string;
  name: string;
  kind: string;
  status: 'added' | 'changed' | 'unchanged';
}

/** `cancelled`: stopped by `import.cancel`; what it had written was taken back. */
export type ImportRunState = 'running' | 'done' | 'failed' | 'cancelled';

export interface ImportJobState {
  jobId: number;
  /** The project file imported into. */
  project: string;
  /** `scanning` while the sources are walked (no total yet), then `importing`. */
  phase: 'scanning' | 'importing' | 'finished';
  state: ImportRunState;
  done: number;
  total: number;
  bytes: number;
  label: string;
  found: ImportFound;
  counts: { added: number; changed: number; unchanged: number; skipped: number };
  /** Skipped files by reason (why each is missing from the project). */
  skipped: ImportSkipGroup[];
  /** The files the import put into the project (at most MAX_REPORTED_SKIPS, in order). */
  imported: ImportedEntry[];
  /** Why the import stopped, for `failed` (and what was taken back, for `cancelled`). */
  error: string | null;
  seq: number;
}

export const projectCreateSchema = s.object({
  path: pathString,
  game: s.literal('nwn2', 'kotor', 'skyrim', 'source'),
  name: s.optional(s.string({ minLength: 1, maxLength: 200 })),
  gameFolders: s.optional(paths(MAX_IMPORT_SOURCES)),
});

export const importStartSchema = s.object({
  session: s.string({ minLength: 8, maxLength: 128 }),
  sources: paths(MAX_IMPORT_SOURCES),
  module: s.optional(s.string({ minLength: 1, maxLength: 1024 })),
  modelDirs: s.optional(paths(MAX_IMPORT_SOURCES)),
  twoDaDir: s.optional(pathString),
  gameFolders: s.optional(paths(MAX_IMPORT_SOURCES)),
});

export const importBytesSchema = s.object({
  session: s.string({ minLength: 8, maxLength: 128 }),
  name: s.string({ minLength: 1, maxLength: 1024 }),
  bytes: s.bytes({ maxLength: 512 * 1024 * 1024 }),
  module: s.string({ minLength: 1, maxLength: 1024 }),
});

export const importJobSchema = s.object({ jobId: id });
export const kotorModulesSchema = s.object({ folder: pathString });

const skipGroupSchema = s.object({ reason: s.string({ maxLength: 65_536 }), count, examples: paths(8) });
const importedSchema = s.object({
  fileId: nullable(id),
  module: s.string({ maxLength: 4096 }),
  name: s.string({ maxLength: 4096 }),
  kind: s.string({ maxLength: 64 }),
  status: s.literal('added', 'changed', 'unchanged'),
});

export const importJobStateSchema = s.object({
  jobId: id,
  project: s.string({ maxLength: MAX_PATH_LENGTH }),
  phase: s.literal('scanning', 'importing', 'finished'),
  state: s.literal('running', 'done', 'failed', 'cancelled'),
  done: count,
  total: count,
  bytes: count,
  label: s.string({ maxLength: 4096 }),
  found: s.object({ areas: count, rooms: count, navmeshes: count, walkmeshes: count, models: count, twoDas: count, masters: count, layouts: count, placements: count }),
  counts: s.object({ added: count, changed: count, unchanged: count, skipped: count }),
  skipped: s.array(skipGroupSchema, { maxLength: MAX_REPORTED_SKIPS }),
  imported: s.array(importedSchema, { maxLength: MAX_REPORTED_SKIPS }),
  error: nullable(s.string({ maxLength: 65_536 })),
  seq: count,
});
