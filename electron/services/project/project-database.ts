import { existsSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { ProjectFileError } from './project-file-error';
import { migrate } from './project-migrations';
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

/**
 * Opens (or creates) a project file, checks it is ours and not from a newer build,
 * migrates it, and sets the connection up:
 * - WAL journal: each change is one small append, readers never block the writer, and a
 *   crash leaves every committed transaction in place.
 * - synchronous=FULL: in WAL mode this is one fsync of the log per commit. NORMAL would
 *   survive an app crash too, but may lose the last commits on power loss; the user's
 *   edits are worth one fsync each (imports batch many files per commit).
 * - foreign_keys=ON, which SQLite leaves off per connection unless asked.
 */
export function openProjectDatabase(file: string, options: OpenOptions = {}): Database.Database {
  const exists = existsSync(file);
  if (options.create && exists) throw new ProjectFileError(file, 'already exists; open it instead of creating it');
  if (!options.create && !exists) throw new ProjectFileError(file, 'no such project file');
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
    if (!options.create && appId >>> 0 !== PROJECT_APPLICATION_ID) {
      throw new ProjectFileError(file, `is not a Walkbench project (SQLite application_id ${hex(appId)}, expected ${hex(PROJECT_APPLICATION_ID)})`);
    }
    // Outside any transaction: SQLite cannot change the journal mode inside one.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    const target = options.schemaVersion ?? latestSchemaVersion;
    if (options.create) {
      db.transaction(() => {
        db.pragma(`application_id = ${PROJECT_APPLICATION_ID | 0}`);
        migrate(db, file, target);
        options.initialise?.(db);
      }).immediate();
    } else {
      migrate(db, file, target);
    }
    return db;
  } catch (e) {
    db.close();
    // A project we failed to set up is not left behind half-made.
    if (options.create) for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    throw e;
  }
}
