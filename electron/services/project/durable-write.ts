import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { checkReplaceable, FileAccessError, openForWritingSync } from '../file-access';

/** Suffix of our temporary files, so a rerun after a crash can find and remove them. */
export const TEMP_SUFFIX = '.walkbench-tmp';

function reasonOf(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOSPC') return 'no space left on the disk';
  return e instanceof Error ? e.message : String(e);
}

function fsyncFolder(dir: string): void {
  // Windows cannot open a folder for fsync; its renames are journalled by NTFS instead.
  if (process.platform === 'win32') return;
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `bytes` to `file` and flushes them to the disk before returning. What is opened
 * must be a regular file (a FIFO or a device there is refused, never waited on).
 */
export function writeFlushed(file: string, bytes: Uint8Array): void {
  const fd = openForWritingSync(file);
  try {
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The temporary file replaceFileDurably writes `file` through: `.NAME.PID.walkbench-tmp` beside it. */
export function tempPathFor(file: string, pid: number = process.pid): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${pid}${TEMP_SUFFIX}`);
}

/**
 * Replaces (or creates) `file` so that a crash at any moment leaves either the old file or
 * the new one, never a partial one: the bytes go to a temporary file in the same folder
 * (same file system, so the rename is atomic), which is flushed, renamed over the target,
 * and the folder is flushed so the rename itself survives a power loss.
 */
export function replaceFileDurably(file: string, bytes: Uint8Array): void {
  const dir = path.dirname(file);
  const tmp = tempPathFor(file);
  checkReplaceable(file);
  try {
    rmSync(tmp, { force: true });
    writeFlushed(tmp, bytes);
    renameSync(tmp, file);
    fsyncFolder(dir);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new FileAccessError(file, reasonOf(e));
  }
}

/** Removes the temporary files a killed export left in `dir` (they never hold a game file). */
export function removeStaleTempFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (name.startsWith('.') && name.endsWith(TEMP_SUFFIX)) {
      rmSync(path.join(dir, name), { force: true });
      removed.push(name);
    }
  }
  return removed;
}
