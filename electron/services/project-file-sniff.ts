import { open } from 'node:fs/promises';
import { PROJECT_APPLICATION_ID } from './project/project-database';

const SQLITE_MAGIC = 'SQLite format 3\0';
/** Where SQLite keeps `PRAGMA application_id` in its 100-byte header (big-endian). */
const APPLICATION_ID_OFFSET = 68;

/**
 * True when `file` is a Walkbench project (a SQLite database marked with our application
 * id), told from its first 100 bytes without opening it as a database. `--project` and
 * `--file` both name a file to open; this decides which kind it is.
 */
export async function isProjectFile(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const header = Buffer.alloc(100);
    const { bytesRead } = await handle.read(header, 0, 100, 0);
    if (bytesRead < 100) return false;
    return header.toString('latin1', 0, 16) === SQLITE_MAGIC && header.readUInt32BE(APPLICATION_ID_OFFSET) === PROJECT_APPLICATION_ID;
  } finally {
    await handle.close();
  }
}
