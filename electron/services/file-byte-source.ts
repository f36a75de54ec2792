import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { ByteSource } from '../../shared/formats/archives/byte-source';
import { checkRegularFileSync, FileAccessError, fileTypeName, NotRegularFileError } from './file-access';

const NONBLOCK = (constants as { O_NONBLOCK?: number }).O_NONBLOCK ?? 0;

/**
 * A ByteSource over a file: archive readers read their directories and one resource at a
 * time through it instead of the whole file. Each read opens the file, reads and closes it
 * again (a handful of reads per look-up), so a lookup kept for a whole session (the app's
 * placeable models) holds no file open. Only regular files are read (checked before and
 * after opening, without blocking); a file whose size changed since it was opened is said
 * to have changed rather than read at shifted offsets.
 */
export class FileByteSource implements ByteSource {
  private constructor(
    readonly name: string,
    readonly size: number,
  ) {}

  static open(file: string): FileByteSource {
    const s = checkRegularFileSync(file);
    return new FileByteSource(file, s.size);
  }

  read(offset: number, length: number): Uint8Array {
    if (offset < 0 || length < 0 || offset + length > this.size) throw new RangeError(`${this.name}: read of ${length} byte(s) at ${offset} is outside the ${this.size}-byte file`);
    let fd: number;
    try {
      fd = openSync(this.name, constants.O_RDONLY | NONBLOCK);
    } catch (e) {
      throw new FileAccessError(this.name, e instanceof Error ? e.message : String(e));
    }
    try {
      const s = fstatSync(fd);
      if (!s.isFile()) throw new NotRegularFileError(this.name, fileTypeName(s));
      if (s.size !== this.size) throw new FileAccessError(this.name, `changed while in use (${this.size} bytes when opened, ${s.size} now)`);
      const out = new Uint8Array(length);
      let at = 0;
      while (at < length) {
        const got = readSync(fd, out, at, length - at, offset + at);
        if (got === 0) throw new FileAccessError(this.name, `ended at ${offset + at} while reading ${length} byte(s) at ${offset}`);
        at += got;
      }
      return out;
    } finally {
      closeSync(fd);
    }
  }

  /** Nothing is held open; kept so callers can release a source the same way whatever backs it. */
  close(): void {}
}
