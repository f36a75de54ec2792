import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { FileAccessError, readIfPresentSync, specialFileAt } from '../file-access';
import { contentHash } from './content-hash';
import { replaceFileDurably, TEMP_SUFFIX, writeFlushed } from './durable-write';
import { exportRunKey, isInside, resolveExportTarget } from './export-target';
import type { ProjectStore } from './project-store';
import type { ExportRun, ExportRunEntry } from './project-types';

/**
 * Backups live next to the project file (`PROJECT.backups/<export run id>/…`), never in the
 * game folder, where the game or a mod manager could pick them up as resources.
 */
export function backupDirFor(projectFile: string, runId: number): string {
  return path.join(`${path.resolve(projectFile)}.backups`, String(runId));
}

/** Copies the file about to be replaced into the backup folder, flushed, and returns the copy's path. */
export function backUpFile(backupDir: string, root: string, file: string, bytes: Uint8Array): string {
  const rel = path.relative(root, file);
  const copy = path.join(backupDir, isInside(root, file) && rel !== '' ? rel : path.basename(file));
  mkdirSync(path.dirname(copy), { recursive: true });
  try {
    writeFlushed(copy, bytes);
  } catch (e) {
    throw new FileAccessError(copy, `cannot write the backup: ${e instanceof Error ? e.message : String(e)}`);
  }
  return copy;
}

export interface RestoredFile {
  targetPath: string;
  /** `restored`: the backup is back; `removed`: a file the export created is deleted; `kept`: left as is (why in `reason`). */
  action: 'restored' | 'removed' | 'kept';
  reason?: string;
}

export interface RestoreResult {
  /** The export runs undone, newest first (an interrupted run and the run that completed it are undone together). */
  runs: ExportRun[];
  files: RestoredFile[];
  /** Temporary files an export killed mid-write left beside its targets, removed (or, on a dry run, to remove). */
  tempFiles: string[];
}

/**
 * The runs `restore` undoes: the last export into this target, and the interrupted runs
 * right before it (a crashed export and its rerun are one export to the user: the crashed
 * run holds the backups of the files it replaced first).
 */
function runsToRestore(store: ProjectStore, root: string): ExportRun[] {
  const runs = store.listExportRuns(root);
  const last = runs[0];
  if (!last || last.status === 'restored') return [];
  const out = [last];
  for (const r of runs.slice(1)) {
    if (r.status !== 'running' && r.status !== 'failed') break;
    out.push(r);
  }
  return out;
}

function readOrUndefined(file: string): Uint8Array | undefined {
  try {
    return readIfPresentSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The temporary files an export of `target` left (`.NAME.PID.walkbench-tmp` beside it,
 * durable-write.ts), when the export was killed between writing one and renaming it.
 */
export function leftoverTempFiles(target: string): string[] {
  const dir = path.dirname(target);
  const prefix = `.${path.basename(target)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(prefix) && n.endsWith(TEMP_SUFFIX) && /^\d+$/.test(n.slice(prefix.length, -TEMP_SUFFIX.length)))
    .map((n) => path.join(dir, n));
}

/**
 * Puts back what the last export into `to` replaced, newest run first so the oldest backup
 * (the bytes before any export) lands last; a file the export created is removed when it
 * still holds what the export wrote, and kept (reported) when it was changed since. Each
 * file is put back through a flushed temporary file and a rename, so a crash mid-restore
 * leaves whole files and running restore again finishes it.
 */
export function restoreLastExport(store: ProjectStore, to: string, options: { dryRun?: boolean; onProgress?(done: number, total: number, label: string): void } = {}): RestoreResult {
  const target = resolveExportTarget(store.info().game, to);
  const runs = runsToRestore(store, exportRunKey(target));
  const files: RestoredFile[] = [];
  const work: { run: ExportRun; entry: ExportRunEntry }[] = [];
  for (const run of runs) for (const entry of store.listExportRunEntries(run.id).reverse()) work.push({ run, entry });
  const doneArchives = new Set<string>();
  const tempFiles = new Set<string>();
  let done = 0;
  for (const { run, entry } of work) {
    done++;
    if (isInside(target.root, entry.targetPath)) for (const t of leftoverTempFiles(entry.targetPath)) tempFiles.add(t);
    options.onProgress?.(done, work.length, entry.resource ? `${path.basename(entry.targetPath)}:${entry.resource}` : path.basename(entry.targetPath));
    if (!isInside(target.root, entry.targetPath)) {
      files.push({ targetPath: entry.targetPath, action: 'kept', reason: `outside ${target.root}` });
      continue;
    }
    if (entry.resource !== null) {
      // The archive was backed up whole; it is put back once per run.
      const key = `${run.id}\u0000${entry.targetPath}`;
      if (doneArchives.has(key)) continue;
      doneArchives.add(key);
    }
    const special = specialFileAt(entry.targetPath);
    if (special !== undefined) {
      files.push({ targetPath: entry.targetPath, action: 'kept', reason: `is ${special} now, not a regular file` });
      continue;
    }
    if (entry.backupPath !== null) {
      const backup = readOrUndefined(entry.backupPath);
      if (!backup) {
        files.push({ targetPath: entry.targetPath, action: 'kept', reason: `its backup ${entry.backupPath} is missing` });
        continue;
      }
      if (!options.dryRun) replaceFileDurably(entry.targetPath, backup);
      files.push({ targetPath: entry.targetPath, action: 'restored' });
      continue;
    }
    const now = readOrUndefined(entry.targetPath);
    if (!now) continue;
    if (contentHash(now) !== entry.sha256) {
      files.push({ targetPath: entry.targetPath, action: 'kept', reason: 'changed since the export created it' });
      continue;
    }
    if (!options.dryRun) rmSync(entry.targetPath, { force: true });
    files.push({ targetPath: entry.targetPath, action: 'removed' });
  }
  if (!options.dryRun) {
    for (const t of tempFiles) rmSync(t, { force: true });
    for (const run of runs) store.finishExportRun(run.id, 'restored');
  }
  return { runs, files, tempFiles: [...tempFiles] };
}
