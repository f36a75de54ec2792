import { readFile, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';

/** A file-system failure worded for a user, e.g. "x.nav: no such file". */
export class FileAccessError extends Error {
  constructor(readonly file: string, reason: string) {
    super(`${file}: ${reason}`);
    this.name = 'FileAccessError';
  }
}

function reasonOf(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'is a folder, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return e instanceof Error ? e.message : String(e);
  }
}

export async function readBytes(file: string): Promise<Uint8Array> {
  try {
    const b = await readFile(file);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  } catch (e) {
    throw new FileAccessError(file, reasonOf(e));
  }
}

export async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    throw new FileAccessError(file, reasonOf(e));
  }
}

/**
 * Writes through a temporary file in the same folder and renames it over the target, so
 * an interrupted write never leaves a half-written game file behind.
 */
export async function writeFileAtomic(file: string, data: Uint8Array | string): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.walkbench-tmp`);
  try {
    await writeFile(tmp, data);
    await rename(tmp, file);
  } catch (e) {
    throw new FileAccessError(file, reasonOf(e));
  }
}
