import { readBytes } from '../file-access';
import { contentHash } from './content-hash';
import { collectLayoutCandidates, type ImportCandidate } from './game-layout-import';
import { importModuleNamer } from './import-module-names';
import { areaOf, classifyInput } from './input-kind';
import { nameKey, type ProjectStore } from './project-store';
import type { FileKind, FileRecord, UpsertStatus } from './project-types';

export type ImportStatus = UpsertStatus | 'skipped';

export interface ImportedFile {
  path: string;
  /** The module the file went to (see importModuleNamer). */
  module: string;
  name: string;
  kind: FileKind | null;
  format: string | null;
  status: ImportStatus;
  /** Why a file was skipped. */
  reason?: string;
}

export interface ImportProgress {
  done: number;
  total: number;
  bytes: number;
}

export interface ImportOptions {
  /**
   * Module every file goes to; by default the game's module of each file (see
   * importModuleNamer). For a KotOR game folder, the module to import from it.
   */
  module?: string;
  /** NWN2: folders searched for the MDB models and placeables.2da the imported placeables need. */
  modelDirs?: readonly string[];
  twoDaDir?: string;
  /** Files the caller already holds as bytes (a file dropped on the app's window), imported after the sources'. */
  given?: readonly ImportCandidate[];
  onProgress?(progress: ImportProgress): void;
  /**
   * Stops the import between files: what it wrote is then taken back (files it added
   * removed with the modules and areas it made, files it changed given their old bytes),
   * and it fails with ImportCancelledError, leaving the project as it was.
   */
  signal?: AbortSignal;
}

/** An import stopped through ImportOptions.signal; the project holds what it held before. */
export class ImportCancelledError extends Error {
  constructor(readonly rolledBack: number) {
    super(`import cancelled; ${rolledBack} file(s) it had written were taken back`);
    this.name = 'ImportCancelledError';
  }
}

export interface ImportReport {
  files: ImportedFile[];
  counts: Record<ImportStatus, number>;
}

/** Files per commit: few enough that a crash loses little, many enough to amortise fsync. */
const BATCH_FILES = 64;
const BATCH_BYTES = 64 * 1024 * 1024;

const fileKey = (module: string, name: string) => `${nameKey(module)}\u0000${nameKey(name)}`;

/**
 * Where a file goes: the game's module; but a file the project already holds under the
 * module of the folder rule (stored by a version that named modules after folders, or by
 * an import before the file's layout was known) and not under the game's module is updated
 * where it is, so it keeps its id, and with it its edits, history and bakes, and is not
 * added a second time. (The project file offers no move of a file between modules; room
 * links find their layout across modules, kotor-room-layout.ts.) `held` is the project as
 * it was before this import, so the choice does not depend on how files are batched.
 */
function placeModule(gameModule: string, c: ImportCandidate, kind: FileKind, held: ReadonlyMap<string, FileRecord>): string {
  if (nameKey(gameModule) === nameKey(c.folderModule) || held.has(fileKey(gameModule, c.name))) return gameModule;
  const old = held.get(fileKey(c.folderModule, c.name));
  return old !== undefined && old.kind === kind ? old.module : gameModule;
}

/**
 * Imports into a project from loose files, folders (recursively), module archives and game
 * installs (see collectLayoutCandidates), each file into its game's module (see
 * importModuleNamer and placeModule). Each file is recognised by its content; a file
 * already in the module under the same name (any case) is updated when its bytes changed.
 * Files are committed in batches, so an interrupted import keeps what it committed and a
 * rerun reports the rest.
 */
export async function importSources(store: ProjectStore, sources: readonly string[], options: ImportOptions = {}): Promise<ImportReport> {
  const candidates = [
    ...(await collectLayoutCandidates(sources, {
      game: store.info().game,
      ...(options.module !== undefined ? { module: options.module } : {}),
      ...(options.modelDirs !== undefined ? { modelDirs: options.modelDirs } : {}),
      ...(options.twoDaDir !== undefined ? { twoDaDir: options.twoDaDir } : {}),
    })),
    ...(options.given ?? []),
  ];
  const projectFiles = store.listFiles();
  const held = new Map(projectFiles.map((f) => [fileKey(f.module, f.name), f]));
  const moduleOf = await importModuleNamer(store, candidates, { game: store.info().game, named: options.module !== undefined, projectFiles });
  const files: ImportedFile[] = [];
  const seen = new Set<string>();
  let pending: { entry: ImportedFile; bytes: Uint8Array }[] = [];
  let pendingBytes = 0;
  let done = 0;
  let totalBytes = 0;

  // What a cancelled import takes back: the ids it added, the old state of files it changed.
  const mark = store.importMark();
  const added: number[] = [];
  // Old bytes are kept only where the import replaces them; metadata alone is put back from the record.
  const replaced: { record: FileRecord; bytes: Uint8Array | null }[] = [];
  const cancelled = (): never => {
    store.transaction(() => {
      for (const { record: r, bytes } of replaced) {
        store.upsertFile({ module: r.module, name: r.name, kind: r.kind, format: r.format, area: r.area, bytes: bytes ?? store.loadFileBytes(r.id), sourcePath: r.sourcePath });
      }
      store.rollBackImport(mark, added);
    });
    throw new ImportCancelledError(added.length + replaced.length);
  };

  let reported = -1;
  const report = () => {
    reported = done;
    options.onProgress?.({ done, total: candidates.length, bytes: totalBytes });
  };
  const flush = () => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    pendingBytes = 0;
    if (options.signal?.aborted) cancelled();
    store.transaction(() => {
      for (const { entry, bytes } of batch) {
        // A file the import replaces keeps its old bytes until the import ends (a cancel puts them back).
        const before = options.signal ? held.get(fileKey(entry.module, entry.name)) : undefined;
        if (before) replaced.push({ record: before, bytes: before.sha256 !== contentHash(bytes) ? store.loadFileBytes(before.id) : null });
        const result = store.upsertFile({
          module: entry.module,
          name: entry.name,
          kind: entry.kind!,
          format: entry.format,
          area: areaOf(entry.name, entry.kind!),
          bytes,
          sourcePath: entry.path,
        });
        entry.status = result.status;
        if (result.status === 'added') added.push(result.fileId);
      }
    });
    done += batch.length;
    report();
  };

  for (const c of candidates) {
    if (options.signal?.aborted) cancelled();
    const name = c.name;
    const entry: ImportedFile = { path: c.path, module: c.module, name, kind: null, format: null, status: 'skipped' };
    files.push(entry);
    if (c.skip !== undefined) {
      entry.reason = c.skip;
      done++;
      continue;
    }
    // A regular file only: a path that became a FIFO or a device since the walk is refused unread.
    const bytes = c.bytes ?? (await readBytes(c.path));
    const kind = classifyInput(name, bytes);
    if (kind.skip !== undefined) {
      entry.module = moduleOf(c, null);
      entry.reason = kind.skip;
      done++;
      continue;
    }
    entry.module = placeModule(moduleOf(c, kind.kind), c, kind.kind, held);
    entry.kind = kind.kind;
    entry.format = kind.format;
    const key = fileKey(entry.module, name);
    if (seen.has(key)) {
      entry.reason = `another imported file of module "${entry.module}" has the same name (names ignore case)`;
      done++;
      continue;
    }
    seen.add(key);
    totalBytes += bytes.length;
    pending.push({ entry, bytes });
    pendingBytes += bytes.length;
    if (pending.length >= BATCH_FILES || pendingBytes >= BATCH_BYTES) flush();
  }
  flush();
  if (options.signal?.aborted) cancelled();
  if (reported !== done) report();

  const counts: Record<ImportStatus, number> = { added: 0, changed: 0, unchanged: 0, skipped: 0 };
  for (const f of files) counts[f.status]++;
  return { files, counts };
}
