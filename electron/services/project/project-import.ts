import { readFile } from 'node:fs/promises';
import { FileAccessError } from '../file-access';
import { collectLayoutCandidates } from './game-layout-import';
import { areaOf, classifyInput } from './input-kind';
import { nameKey, type ProjectStore } from './project-store';
import type { FileKind, UpsertStatus } from './project-types';

export type ImportStatus = UpsertStatus | 'skipped';

export interface ImportedFile {
  path: string;
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
   * Module every file goes to; by default a folder's own name (a loose file's folder, an
   * archive's name). For a KotOR game folder, the module to import from it.
   */
  module?: string;
  /** NWN2: folders searched for the MDB models and placeables.2da the imported placeables need. */
  modelDirs?: readonly string[];
  twoDaDir?: string;
  onProgress?(progress: ImportProgress): void;
}

export interface ImportReport {
  files: ImportedFile[];
  counts: Record<ImportStatus, number>;
}

/** Files per commit: few enough that a crash loses little, many enough to amortise fsync. */
const BATCH_FILES = 64;
const BATCH_BYTES = 64 * 1024 * 1024;

/**
 * Imports into a project from loose files, folders (recursively), module archives and game
 * installs (see collectLayoutCandidates). Each file is recognised by its content; a file
 * already in the project under the same name (any case) is updated when its bytes changed.
 * Files are committed in batches, so an interrupted import keeps what it committed and a
 * rerun reports the rest.
 */
export async function importSources(store: ProjectStore, sources: readonly string[], options: ImportOptions = {}): Promise<ImportReport> {
  const candidates = await collectLayoutCandidates(sources, {
    game: store.info().game,
    ...(options.module !== undefined ? { module: options.module } : {}),
    ...(options.modelDirs !== undefined ? { modelDirs: options.modelDirs } : {}),
    ...(options.twoDaDir !== undefined ? { twoDaDir: options.twoDaDir } : {}),
  });
  const files: ImportedFile[] = [];
  const seen = new Set<string>();
  let pending: { entry: ImportedFile; bytes: Uint8Array }[] = [];
  let pendingBytes = 0;
  let done = 0;
  let totalBytes = 0;

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
    store.transaction(() => {
      for (const { entry, bytes } of batch) {
        entry.status = store.upsertFile({
          module: entry.module,
          name: entry.name,
          kind: entry.kind!,
          format: entry.format,
          area: areaOf(entry.name, entry.kind!),
          bytes,
          sourcePath: entry.path,
        }).status;
      }
    });
    done += batch.length;
    report();
  };

  for (const c of candidates) {
    const name = c.name;
    const entry: ImportedFile = { path: c.path, module: c.module, name, kind: null, format: null, status: 'skipped' };
    files.push(entry);
    if (c.skip !== undefined) {
      entry.reason = c.skip;
      done++;
      continue;
    }
    let bytes: Uint8Array;
    if (c.bytes) bytes = c.bytes;
    else {
      try {
        const b = await readFile(c.path);
        bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      } catch (e) {
        throw new FileAccessError(c.path, e instanceof Error ? e.message : String(e));
      }
    }
    const kind = classifyInput(name, bytes);
    const key = `${nameKey(c.module)}\u0000${nameKey(name)}`;
    if (kind.skip !== undefined) {
      entry.reason = kind.skip;
      done++;
      continue;
    }
    entry.kind = kind.kind;
    entry.format = kind.format;
    if (seen.has(key)) {
      entry.reason = `another imported file of module "${c.module}" has the same name (names ignore case)`;
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
  if (reported !== done) report();

  const counts: Record<ImportStatus, number> = { added: 0, changed: 0, unchanged: 0, skipped: 0 };
  for (const f of files) counts[f.status]++;
  return { files, counts };
}
