import { existsSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { checkRegularFileSync, FileAccessError, readHeaderSync, specialFileAt } from '../file-access';
import { ProjectFileError } from './project-file-error';
import { checkNotNewer, checkSchema, migrate, schemaVersionOf } from './project-migrations';
import { latestSchemaVersion } from './project-schema';

/**
 * SQLite `application_id` of a Walkbench project: the ASCII bytes 'WBNC' (0x57424E43),
 * "WalkBeNCh". It marks the file as ours (e.g. for `file(1)`) and lets us refuse any
 * other SQLite database instead of adding our tables to it.
 */
export const PROJECT_APPLICATION_ID = 0x57424e43;

/** How long a write waits for another process (the app and the CLI) holding the lock. */
const BUSY_TIMEOUT_MS = 5000;

export interface OpenOptions {
  /** Create a new project file; refused when the file exists. */
  create?: boolean;
  /** Stop migrations at this version (tests of migrations only). */
  schemaVersion?: number;
  /**
   * Fills a new project (its project row) in the same transaction that creates the
   * tables, so a crash during creation leaves no half-made project that opens.
   */
  initialise?(db: Database.Database): void;
}

function hex(n: number): string {
  return `0x${(n >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
}

function isSqliteError(e: unknown, code: string): boolean {
  return e instanceof Error && (e as { code?: unknown }).code === code;
}

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * Checks what can be checked from the file's 100-byte header before SQLite opens it: a
 * regular file (a FIFO or a device is refused unopened), an SQLite database this build's
 * SQLite can write, and not cut short: when the header's page count is current (its "version valid for" number equals
 * the change counter), the file must hold that many pages. A truncated project otherwise
 * opens and fails later, deep inside a query, as "database disk image is malformed".
 */
function checkProjectFileHeader(file: string): Buffer {
  let size: number;
  let header: Uint8Array;
  try {
    size = checkRegularFileSync(file).size;
    header = size === 0 ? new Uint8Array(0) : readHeaderSync(file, 100);
  } catch (e) {
    if (e instanceof FileAccessError) throw new ProjectFileError(file, e.reason);
    throw e;
  }
  if (size === 0) throw new ProjectFileError(file, 'is empty, not a Walkbench project');
  const view = Buffer.from(header.buffer, header.byteOffset, header.byteLength);
  if (view.length < 100 || view.toString('latin1', 0, 16) !== SQLITE_MAGIC) {
    throw new ProjectFileError(file, 'is not a Walkbench project (not an SQLite database)');
  }
  // SQLite opens a file whose write version (offset 18; 1 rollback journal, 2 WAL) is
  // higher than it knows read-only, so every write would fail later, deep inside an edit.
  const writeVersion = view.readUInt8(18);
  if (writeVersion > 2) {
    throw new ProjectFileError(file, `cannot be written: its SQLite file format write version is ${writeVersion}, newer than this build's SQLite writes (1 or 2)`);
  }
  const rawPageSize = view.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  const changeCounter = view.readUInt32BE(24);
  const pageCount = view.readUInt32BE(28);
  const validFor = view.readUInt32BE(92);
  // With a -wal file another connection may be checkpointing into the file right now; the
  // read-only connection then reads it through the log instead.
  const quiet = !existsSync(`${file}-wal`);
  if (quiet && pageSize >= 512 && validFor === changeCounter && pageCount > 0 && size < pageSize * pageCount) {
    throw new ProjectFileError(
      file,
      `is damaged: it is ${size} bytes long, but its header says ${pageCount} pages of ${pageSize} bytes (${pageSize * pageCount} bytes); it was cut short (an interrupted copy or download?)`,
    );
  }
  return view;
}

/**
 * The SQLite errors that mean the file itself is damaged (not a bug, not a busy lock).
 * "unsupported file format" is a plain SQLITE_ERROR: SQLite's answer to a header whose
 * schema format number (offset 44) is above 4, which no SQLite writes.
 */
export function isDamagedDatabaseError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  if (code === 'SQLITE_ERROR') return e instanceof Error && e.message === 'unsupported file format';
  return code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || code === 'SQLITE_IOERR_SHORT_READ';
}

/** A damaged-file SQLite error as a ProjectFileError naming the file; anything else as it was. */
export function asProjectFileError(file: string, e: unknown): unknown {
  if (e instanceof ProjectFileError || !isDamagedDatabaseError(e)) return e;
  return new ProjectFileError(file, `is damaged: ${e instanceof Error ? e.message : String(e)}; restore it from a backup or a copy`);
}

/** Where SQLite keeps `user_version` and `application_id` in the header (big-endian). */
const USER_VERSION_OFFSET = 60;
const APPLICATION_ID_OFFSET = 68;

/**
 * Looks at an existing file read-only, changing nothing in it or beside it (no WAL switch,
 * no migration, no tables, no -wal or -shm file): is it ours (application_id), and not
 * newer than this build (user_version)? Only a file that passes is opened for writing.
 * Without a -wal file the header read above is the whole truth; with one (a project open
 * elsewhere, or left by a crash) the newest values may be in the log, so a read-only
 * connection reads them through it.
 */
function checkReadOnly(file: string, header: Buffer): void {
  if (!existsSync(`${file}-wal`)) {
    checkApplicationId(file, header.readInt32BE(APPLICATION_ID_OFFSET));
    checkNotNewer(file, header.readInt32BE(USER_VERSION_OFFSET));
    return;
  }
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new ProjectFileError(file, `cannot open: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    let appId: number;
    let version: number;
    try {
      appId = db.pragma('application_id', { simple: true }) as number;
      version = schemaVersionOf(db);
    } catch (e) {
      if (isSqliteError(e, 'SQLITE_NOTADB')) throw new ProjectFileError(file, 'is not a Walkbench project (not an SQLite database)');
      throw asProjectFileError(file, e);
    }
    checkApplicationId(file, appId);
    checkNotNewer(file, version);
  } finally {
    db.close();
  }
}

function checkApplicationId(file: string, appId: number): void {
  if (appId >>> 0 !== PROJECT_APPLICATION_ID) {
    throw new ProjectFileError(file, `is not a Walkbench project (SQLite application_id ${hex(appId)}, expected ${hex(PROJECT_APPLICATION_ID)})`);
  }
}

/**
 * Opens (or creates) a project file, checks it is ours and not from a newer build,
 * migrates it, and sets the connection up. An existing file is first checked without
 * being changed (its header, then a read-only connection, then its tables against its
 * schema version): a file refused is left byte for byte as it was, in its own journal
 * mode, and so is one whose migration fails. Then:
 * - WAL journal: each change is one small append, readers never block the writer, and a
 *   crash leaves every committed transaction in place.
 * - synchronous=FULL: in WAL mode this is one fsync of the log per commit. NORMAL would
 *   survive an app crash too, but may lose the last commits on power loss; the user's
 *   edits are worth one fsync each (imports batch many files per commit).
 * - foreign_keys=ON, which SQLite leaves off per connection unless asked.
 */
export function openProjectDatabase(file: string, options: OpenOptions = {}): Database.Database {
  const exists = existsSync(file);
  if (options.create && (exists || specialFileAt(file) !== undefined)) throw new ProjectFileError(file, 'already exists; open it instead of creating it');
  if (!options.create && !exists) throw new ProjectFileError(file, 'no such project file');
  if (!options.create) {
    checkReadOnly(file, checkProjectFileHeader(file));
  }
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: !options.create });
  } catch (e) {
    throw new ProjectFileError(file, `cannot open: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    let appId: number;
    try {
      appId = db.pragma('application_id', { simple: true }) as number;
    } catch (e) {
      if (isSqliteError(e, 'SQLITE_NOTADB')) throw new ProjectFileError(file, 'is not a Walkbench project (not an SQLite database)');
      throw e;
    }
    const target = options.schemaVersion ?? latestSchemaVersion;
    if (options.create) {
      // Outside any transaction: SQLite cannot change the journal mode inside one.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      db.transaction(() => {
        db.pragma(`application_id = ${PROJECT_APPLICATION_ID | 0}`);
        migrate(db, file, target);
        options.initialise?.(db);
      }).immediate();
      return db;
    }
    // Checked again on this connection: the file could have been swapped since. Then its
    // tables, which the header cannot vouch for. All of it reads only.
    checkApplicationId(file, appId);
    const version = schemaVersionOf(db);
    checkNotNewer(file, version);
    checkSchema(db, file, version);
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    // Migrated before the switch to WAL: a migration that fails (a damaged old file) is
    // rolled back whole in the file's own journal mode, so the file is left as it was.
    migrate(db, file, target);
    db.pragma('journal_mode = WAL');
    return db;
  } catch (e) {
    db.close();
    // A project we failed to set up is not left behind half-made.
    if (options.create) for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    throw asProjectFileError(file, e);
  }
}
