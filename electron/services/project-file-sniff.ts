import { checkRegularFile, readHeaderSync } from './file-access';
import { PROJECT_APPLICATION_ID } from './project/project-database';

const SQLITE_MAGIC = 'SQLite format 3\0';
/** Where SQLite keeps `PRAGMA application_id` in its 100-byte header (big-endian). */
const APPLICATION_ID_OFFSET = 68;

/**
 * True when `file` is a Walkbench project (a SQLite database marked with our application
 * id), told from its first 100 bytes without opening it as a database. `--project` and
 * `--file` both name a file to open; this decides which kind it is. Only a regular file is
 * read (a FIFO or a device throws FileAccessError, unopened).
 */
export async function isProjectFile(file: string): Promise<boolean> {
  await checkRegularFile(file);
  const bytes = readHeaderSync(file, 100);
  if (bytes.length < 100) return false;
  const header = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return header.toString('latin1', 0, 16) === SQLITE_MAGIC && header.readUInt32BE(APPLICATION_ID_OFFSET) === PROJECT_APPLICATION_ID;
}
