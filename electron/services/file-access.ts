import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { lstat, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** A file-system failure worded for a user, e.g. "x.nav: no such file". */
export class FileAccessError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'FileAccessError';
  }
}

/**
 * A path that names something other than a regular file where a file is read or written
 * (a FIFO, a device, a socket, or a symbolic link to one): refused before it is opened, so
 * a FIFO never blocks and `/dev/zero` is never read.
 */
export class NotRegularFileError extends FileAccessError {
  constructor(file: string, readonly what: string) {
    super(file, `is ${what}, not a regular file`);
    this.name = 'NotRegularFileError';
  }
}

/**
 * O_NONBLOCK where the platform has it (not on Windows): opening a FIFO for reading then
 * returns at once instead of waiting for a writer, and a FIFO without a reader refuses to
 * open for writing (ENXIO) instead of waiting; a regular file reads as always.
 */
const NONBLOCK = (constants as { O_NONBLOCK?: number }).O_NONBLOCK ?? 0;
const READ_FLAGS = constants.O_RDONLY | NONBLOCK;

/** What a non-regular file is, as an article and a noun ("a FIFO"). */
export function fileTypeName(s: Pick<Stats, 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice' | 'isDirectory' | 'isSymbolicLink' | 'isFile'>): string {
  if (s.isFile()) return 'a regular file';
  if (s.isDirectory()) return 'a folder';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isSymbolicLink()) return 'a symbolic link';
  return 'a special file';
}

function reasonOf(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return 'no such file';
    case 'EISDIR':
      return 'is a folder, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'is a loop of symbolic links';
    case 'ENXIO':
      return 'is a special file (FIFO, socket or device), not a regular file';
    default:
      return e instanceof Error ? e.message : String(e);
  }
}

/** The error for a path whose target (`target`, after links) is not a regular file. */
function notRegular(file: string, linked: boolean, target: Stats): FileAccessError {
  if (target.isDirectory() && !linked) return new FileAccessError(file, 'is a folder, not a file');
  return new NotRegularFileError(file, linked ? `a symbolic link to ${fileTypeName(target)}` : fileTypeName(target));
}

/**
 * Checks, without opening it, that `file` is a regular file or a symbolic link to one;
 * throws FileAccessError (NotRegularFileError for FIFOs, devices, sockets) otherwise.
 * Returns the target's stats.
 */
export async function checkRegularFile(file: string): Promise<Stats> {
  let own: Stats;
  let target: Stats;
  try {
    own = await lstat(file);
    target = own.isSymbolicLink() ? await stat(file) : own;
  } catch (e) {
    throw new FileAccessError(file, reasonOf(e));
  }
  if (!target.isFile()) throw notRegular(file, own.isSymbolicLink(), target);
  return target;
}

/** checkRegularFile, synchronously. */
export function checkRegularFileSync(file: string): Stats {
  let own: Stats;
  let target: Stats;
  try {
    own = lstatSync(file);
    target = own.isSymbolicLink() ? statSync(file) : own;
  } catch (e) {
    throw new FileAccessError(file, reasonOf(e));
  }
  if (!target.isFile()) throw notRegular(file, own.isSymbolicLink(), target);
  return target;
}

/**
 * The kind of thing at `file` when it exists and is not a regular file (nor a folder when
 * `folders` allows them), for a path about to be replaced or created: undefined when the
 * path is free, a regular file or a link to one.
 */
export function specialFileAt(file: string, folders = false): string | undefined {
  let own: Stats;
  try {
    own = lstatSync(file);
  } catch {
    return undefined;
  }
  let target: Stats = own;
  if (own.isSymbolicLink()) {
    try {
      target = statSync(file);
    } catch {
      // A dangling link: replacing it makes a file, as writing through it would.
      return undefined;
    }
  }
  if (target.isFile() || (folders && target.isDirectory())) return undefined;
  return own.isSymbolicLink() ? `a symbolic link to ${fileTypeName(target)}` : fileTypeName(target);
}

/** Refuses to replace `file` when it is a FIFO, device, socket or folder (or a link to one). */
export function checkReplaceable(file: string): void {
  const what = specialFileAt(file);
  if (what === undefined) return;
  if (what === 'a folder') throw new FileAccessError(file, 'is a folder, not a file');
  throw new NotRegularFileError(file, what);
}

async function readOpened(handle: FileHandle, file: string, maxBytes: number): Promise<Uint8Array> {
  // The open file is what is read: a path swapped for a FIFO or a device after the check
  // above is caught here, on the descriptor, before a byte is read.
  const s = await handle.stat();
  if (!s.isFile()) throw new NotRegularFileError(file, fileTypeName(s));
  if (s.size > maxBytes) throw new FileAccessError(file, `${s.size} bytes is more than the ${maxBytes}-byte limit`);
  const out = new Uint8Array(s.size);
  let at = 0;
  while (at < out.length) {
    const { bytesRead } = await handle.read(out, at, out.length - at, at);
    if (bytesRead === 0) break;
    at += bytesRead;
  }
  // A file that shrank while being read gives what it holds; one that grew, its size at open.
  return at === out.length ? out : out.subarray(0, at);
}

/**
 * Reads a whole regular file. FIFOs, devices, sockets (and links to them) are refused
 * before they are opened, and the opened descriptor is checked again, opened without
 * blocking, so nothing here ever waits on a FIFO or reads an endless device.
 */
export async function readBytes(file: string, maxBytes: number = Number.MAX_SAFE_INTEGER): Promise<Uint8Array> {
  await checkRegularFile(file);
  let handle: FileHandle;
  try {
    handle = await open(file, READ_FLAGS);
  } catch (e) {
    throw new FileAccessError(file, reasonOf(e));
  }
  try {
    return await readOpened(handle, file, maxBytes);
  } catch (e) {
    if (e instanceof FileAccessError) throw e;
    throw new FileAccessError(file, reasonOf(e));
  } finally {
    await handle.close();
  }
}

/**
 * Opens `file` without blocking, checks the descriptor is a regular file, and reads up to
 * `lengthOf(size)` bytes from its start (fewer when it is shorter or shrank meanwhile).
 */
function readOpenedSync(file: string, lengthOf: (size: number) => number): Uint8Array {
  let fd: number;
  try {
    fd = openSync(file, READ_FLAGS);
  } catch (e) {
    throw new FileAccessError(file, reasonOf(e));
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile()) throw new NotRegularFileError(file, fileTypeName(s));
    const out = new Uint8Array(lengthOf(s.size));
    let at = 0;
    while (at < out.length) {
      const got = readSync(fd, out, at, out.length - at, at);
      if (got === 0) break;
      at += got;
    }
    return at === out.length ? out : out.subarray(0, at);
  } catch (e) {
    if (e instanceof FileAccessError) throw e;
    throw new FileAccessError(file, reasonOf(e));
  } finally {
    closeSync(fd);
  }
}

/** readBytes, synchronously. */
export function readBytesSync(file: string, maxBytes: number = Number.MAX_SAFE_INTEGER): Uint8Array {
  checkRegularFileSync(file);
  return readOpenedSync(file, (size) => {
    if (size > maxBytes) throw new FileAccessError(file, `${size} bytes is more than the ${maxBytes}-byte limit`);
    return size;
  });
}

/** The first `n` bytes of a regular file (fewer when it is shorter), read without blocking. */
export function readHeaderSync(file: string, n: number): Uint8Array {
  return readOpenedSync(file, (size) => Math.min(n, size));
}

/** The bytes of `file` when it is a regular file, undefined when there is nothing there. */
export function readIfPresentSync(file: string): Uint8Array | undefined {
  try {
    lstatSync(file);
  } catch {
    return undefined;
  }
  return readBytesSync(file);
}

export async function readText(file: string): Promise<string> {
  const bytes = await readBytes(file);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/**
 * Opens `file` for writing (created or truncated) without blocking, and checks that what
 * was opened is a regular file: a FIFO without a reader refuses to open (ENXIO) rather
 * than wait for one, and a device or a FIFO with a reader is closed unwritten.
 */
export async function openForWriting(file: string): Promise<FileHandle> {
  const handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NONBLOCK, 0o666);
  const s = await handle.stat();
  if (!s.isFile()) {
    await handle.close();
    throw new NotRegularFileError(file, fileTypeName(s));
  }
  return handle;
}

/** openForWriting, synchronously: returns the descriptor. */
export function openForWritingSync(file: string): number {
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NONBLOCK, 0o666);
  const s = fstatSync(fd);
  if (!s.isFile()) {
    closeSync(fd);
    throw new NotRegularFileError(file, fileTypeName(s));
  }
  return fd;
}

/**
 * Writes through a temporary file in the same folder and renames it over the target, so
 * an interrupted write never leaves a half-written game file behind. A target that is a
 * FIFO, a device or a socket (or a link to one) is refused, not replaced.
 */
export async function writeFileAtomic(file: string, data: Uint8Array | string): Promise<void> {
  checkReplaceable(file);
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.walkbench-tmp`);
  try {
    // A leftover of this name (a crash of an earlier run with the same process id, or
    // anything else put there) is removed rather than written through.
    await rm(tmp, { force: true });
    const handle = await openForWriting(tmp);
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    if (e instanceof FileAccessError) throw e;
    throw new FileAccessError(file, reasonOf(e));
  }
}
