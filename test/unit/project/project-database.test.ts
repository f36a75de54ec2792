import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openProjectDatabase, PROJECT_APPLICATION_ID } from '../../../electron/services/project/project-database';
import { ProjectFileError } from '../../../electron/services/project/project-file-error';
import { latestSchemaVersion } from '../../../electron/services/project/project-schema';
import { ProjectStore } from '../../../electron/services/project/project-store';
import { projectTempDir } from './project-test-files';

const tempFile = projectTempDir('project-db');

describe('project database', () => {
  it('creates a WAL file with our application_id, the latest user_version, foreign keys and FULL sync', () => {
    const file = tempFile('settings.wbproj');
    const db = openProjectDatabase(file, { create: true });
    try {
      expect(db.pragma('application_id', { simple: true })).toBe(PROJECT_APPLICATION_ID);
      expect(db.pragma('user_version', { simple: true })).toBe(latestSchemaVersion);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('synchronous', { simple: true })).toBe(2);
      expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
    } finally {
      db.close();
    }
    // Journal mode is stored in the file; the other settings must be set again on open.
    const raw = new Database(file);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
    const reopened = openProjectDatabase(file);
    expect(reopened.pragma('foreign_keys', { simple: true })).toBe(1);
    reopened.close();
  });

  it('enforces foreign keys', () => {
    const db = openProjectDatabase(tempFile('fk.wbproj'), { create: true });
    try {
      const insert = () =>
        db
          .prepare("INSERT INTO files (module_id, kind, name, name_key, size, sha256, updated_at) VALUES (999, 'walkmesh', 'a', 'a', 0, ?, 'now')")
          .run('0'.repeat(64));
      expect(insert).toThrow(/FOREIGN KEY/);
    } finally {
      db.close();
    }
  });

  it('refuses a file written by a newer build, naming the file and both versions, and leaves it untouched', () => {
    const file = tempFile('newer.wbproj');
    ProjectStore.create(file, { name: 'newer', game: 'nwn2' }).close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${latestSchemaVersion + 3}`);
    raw.close();
    let error: unknown;
    try {
      ProjectStore.open(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProjectFileError);
    const message = (error as Error).message;
    expect(message).toContain(file);
    expect(message).toContain(`version ${latestSchemaVersion + 3}`);
    expect(message).toContain(`version ${latestSchemaVersion}`);
    expect(message).toMatch(/newer Walkbench/);
    const check = new Database(file);
    expect(check.pragma('user_version', { simple: true })).toBe(latestSchemaVersion + 3);
    check.close();
  });

  it('refuses an SQLite file of another application, and does not add tables to it', () => {
    const file = tempFile('other-app.sqlite');
    const raw = new Database(file);
    raw.pragma('application_id = 1234');
    raw.exec('CREATE TABLE theirs (x)');
    raw.close();
    expect(() => ProjectStore.open(file)).toThrow(/is not a Walkbench project \(SQLite application_id 0x000004D2, expected 0x57424E43\)/);
    const check = new Database(file);
    const tables = check.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    check.close();
    expect(tables).toEqual([{ name: 'theirs' }]);
  });

  it('refuses a file that is not SQLite at all', () => {
    const file = tempFile('not-sqlite.wbproj');
    writeFileSync(file, 'this is a text file, long enough to look like something '.repeat(20));
    expect(() => ProjectStore.open(file)).toThrow(ProjectFileError);
    expect(() => ProjectStore.open(file)).toThrow(/not a Walkbench project/);
  });

  it('leaves no file behind when creating a project fails part-way', () => {
    const file = tempFile('half-made.wbproj');
    const failing = () =>
      openProjectDatabase(file, {
        create: true,
        initialise: () => {
          throw new Error('disk full');
        },
      });
    expect(failing).toThrow('disk full');
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('refuses to create over an existing file and to open a missing one', () => {
    const file = tempFile('exists.wbproj');
    ProjectStore.create(file, { name: 'exists', game: 'kotor' }).close();
    expect(() => ProjectStore.create(file, { name: 'again', game: 'kotor' })).toThrow(/already exists/);
    expect(ProjectStore.open(file).info().name).toBe('exists');
    expect(() => ProjectStore.open(tempFile('missing.wbproj'))).toThrow(/no such project file/);
  });

  it('opens a refused newer-version file read-only: its bytes and its journal mode stay as they were', () => {
    const file = tempFile('newer-untouched.wbproj');
    ProjectStore.create(file, { name: 'newer', game: 'kotor' }).close();
    const raw = new Database(file);
    raw.pragma('journal_mode = DELETE');
    raw.pragma(`user_version = ${latestSchemaVersion + 1}`);
    raw.close();
    const before = readFileSync(file);
    expect(() => openProjectDatabase(file)).toThrow(/newer Walkbench/);
    expect(Buffer.compare(readFileSync(file), before)).toBe(0);
    expect(existsSync(`${file}-wal`)).toBe(false);
    const check = new Database(file, { readonly: true });
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    check.close();

    // A newer project in WAL mode (as Walkbench writes them) is not given -wal or -shm files either.
    const wal = tempFile('newer-wal.wbproj');
    ProjectStore.create(wal, { name: 'newer', game: 'kotor' }).close();
    const rawWal = new Database(wal);
    rawWal.pragma(`user_version = ${latestSchemaVersion + 1}`);
    rawWal.close();
    const walBefore = readFileSync(wal);
    expect(() => openProjectDatabase(wal)).toThrow(/newer Walkbench/);
    expect(Buffer.compare(readFileSync(wal), walBefore)).toBe(0);
    expect(existsSync(`${wal}-wal`) || existsSync(`${wal}-shm`)).toBe(false);
  });

  it('leaves an SQLite file of another application byte for byte as it was, in its journal mode', () => {
    const file = tempFile('foreign-untouched.sqlite');
    const raw = new Database(file);
    raw.exec('CREATE TABLE theirs (x); INSERT INTO theirs VALUES (1)');
    raw.close();
    const before = readFileSync(file);
    expect(() => openProjectDatabase(file)).toThrow(/is not a Walkbench project/);
    expect(Buffer.compare(readFileSync(file), before)).toBe(0);
    expect(existsSync(`${file}-wal`)).toBe(false);
    const check = new Database(file, { readonly: true });
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    check.close();
  });

  it('refuses a truncated project file as damaged, naming it, rather than failing later inside SQLite', () => {
    const file = tempFile('whole.wbproj');
    const store = ProjectStore.create(file, { name: 'whole', game: 'source' });
    for (let i = 0; i < 40; i++) store.upsertFile({ module: 'm', name: `f${i}.nav`, kind: 'walkmesh', format: 'source-nav', bytes: new Uint8Array(8192).fill(i) });
    store.close();
    const bytes = readFileSync(file);
    const cut = tempFile('truncated.wbproj');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 3)));
    let error: unknown;
    try {
      ProjectStore.open(cut).close();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProjectFileError);
    expect((error as Error).message).toContain(cut);
    expect((error as Error).message).toMatch(/damaged|truncated/);
  });

  it('refuses a FIFO and a link to a device as project files at once, without opening them', () => {
    const fifo = tempFile('fifo.wbproj');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    expect(() => openProjectDatabase(fifo)).toThrow(`${fifo}: is a FIFO, not a regular file`);
    const zero = tempFile('zero.wbproj');
    symlinkSync('/dev/zero', zero);
    expect(() => openProjectDatabase(zero)).toThrow(`${zero}: is a symbolic link to a character device, not a regular file`);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
