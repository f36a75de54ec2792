import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openProjectDatabase } from '../../../electron/services/project/project-database';
import { ProjectFileError } from '../../../electron/services/project/project-file-error';
import { latestSchemaVersion } from '../../../electron/services/project/project-schema';
import { ProjectStore } from '../../../electron/services/project/project-store';
import { projectTempDir } from './project-test-files';

/**
 * Damaged project files the fuzzer (`npm run fuzz -- project`) found escaping as raw
 * errors, or changed although refused. Each must be refused with a ProjectFileError naming
 * the file, and a file refused at open must be left byte for byte as it was, with no -wal,
 * -shm or -journal file beside it.
 */
const tempFile = projectTempDir('project-damage');

function project(name: string, journal: 'wal' | 'delete' = 'wal'): string {
  const file = tempFile(name);
  const store = ProjectStore.create(file, { name, game: 'kotor' });
  store.upsertFile({ module: 'm', name: 'a.wok', kind: 'walkmesh', format: 'kotor-bwm', bytes: new Uint8Array([1, 2, 3]) });
  store.close();
  if (journal === 'delete') raw(file, (db) => db.pragma('journal_mode = DELETE'));
  return file;
}

function raw(file: string, fn: (db: Database.Database) => void): void {
  const db = new Database(file);
  try {
    fn(db);
  } finally {
    db.close();
  }
}

function setHeader(file: string, at: number, write: (b: Buffer) => void): void {
  const bytes = readFileSync(file);
  write(bytes.subarray(at));
  writeFileSync(file, bytes);
}

/** Opens the file, expecting a ProjectFileError matching `message`, and the file left untouched. */
function expectRefusedUntouched(file: string, message: RegExp): void {
  const before = readFileSync(file);
  let error: unknown;
  try {
    ProjectStore.open(file).close();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ProjectFileError);
  expect((error as Error).message).toContain(file);
  expect((error as Error).message).toMatch(message);
  expect(Buffer.compare(readFileSync(file), before)).toBe(0);
  for (const suffix of ['-wal', '-shm', '-journal']) expect(existsSync(file + suffix), suffix).toBe(false);
}

/** Reads the project as `walkbench project info` and the app's tree do, expecting a ProjectFileError. */
function expectDamagedOnRead(file: string, message: RegExp): void {
  const store = ProjectStore.open(file);
  try {
    expect(() => {
      store.info();
      for (const f of store.listFiles()) store.loadCurrentBytes(f);
    }).toThrow(message);
    try {
      store.info();
      for (const f of store.listFiles()) store.loadCurrentBytes(f);
    } catch (e) {
      expect(e).toBeInstanceOf(ProjectFileError);
    }
  } finally {
    store.close();
  }
}

describe('damaged project files', () => {
  it('refuses a negative schema version (a damaged user_version) instead of failing inside the migration with a TypeError', () => {
    const file = project('negative.walkbench', 'delete');
    setHeader(file, 60, (b) => b.writeInt32BE(-2147483648));
    expectRefusedUntouched(file, /schema version is -2147483648, which no Walkbench writes/);
  });

  it('refuses a header whose schema version is older than its tables, untouched, instead of a raw "table … already exists" part-way through a migration', () => {
    for (const version of [0, 1, 3, latestSchemaVersion - 1]) {
      const file = project(`older-header-${version}.walkbench`, 'delete');
      setHeader(file, 60, (b) => b.writeInt32BE(version));
      expectRefusedUntouched(file, /damaged: it has the table "\w+" of a later schema version than its header's/);
    }
  });

  it('refuses a damaged schema (a column renamed) at open, untouched, instead of a raw "no such column" in a later query', () => {
    const file = project('renamed-column.walkbench');
    // One byte of the modules table's CREATE statement changed, where the schema holds it
    // (and in any stale copy of its page SQLite left unused).
    const bytes = readFileSync(file);
    let found = 0;
    for (let at = bytes.indexOf('name_key TEXT NOT NULL UNIQUE'); at >= 0; at = bytes.indexOf('name_key TEXT NOT NULL UNIQUE', at + 1), found++) bytes.write('x', at + 7, 'latin1');
    expect(found).toBeGreaterThan(0);
    writeFileSync(file, bytes);
    expectRefusedUntouched(file, /damaged: its table "modules" is not the one of its schema version/);
  });

  it('refuses a schema row whose SQL is stored as a blob (SQLite still reads it) instead of a TypeError', () => {
    const file = project('blob-schema.walkbench');
    let sql = '';
    raw(file, (db) => {
      sql = (db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'modules'").get() as { sql: string }).sql;
    });
    // The row's record header: type 'table' (serial 23), name and tbl_name 'modules' (27),
    // rootpage (a 1-byte integer, serial 1), then the SQL's serial type, 2n+13 for text of n
    // bytes; 2n+12 makes the same bytes a blob.
    const serial = 2 * Buffer.byteLength(sql) + 13;
    const varint = serial < 128 ? [serial] : [0x80 | (serial >> 7), serial & 0x7f];
    const pattern = Buffer.from([23, 27, 27, 1, ...varint]);
    const bytes = readFileSync(file);
    let found = 0;
    for (let at = bytes.indexOf(pattern); at >= 0; at = bytes.indexOf(pattern, at + 1), found++) bytes[at + pattern.length - 1]! -= 1;
    expect(found).toBeGreaterThan(0);
    writeFileSync(file, bytes);
    expectRefusedUntouched(file, /damaged: its table "modules" is not the one of its schema version/);
  });

  it('refuses an SQLite schema format it cannot read as damaged, not with a raw SqliteError', () => {
    const file = project('schema-format.walkbench');
    setHeader(file, 44, (b) => b.writeUInt32BE(5));
    expectRefusedUntouched(file, /damaged: unsupported file format/);
  });

  it('refuses a file SQLite would open read-only (file format write version above 2) before any write fails on it', () => {
    const file = project('write-version.walkbench');
    setHeader(file, 18, (b) => b.writeUInt8(3));
    expectRefusedUntouched(file, /cannot be written: its SQLite file format write version is 3/);
  });

  it('leaves a damaged older project in rollback-journal mode as it was when its migration fails (it is switched to WAL only once migrated)', () => {
    const file = tempFile('damaged-v4.walkbench');
    const db = openProjectDatabase(file, { create: true, schemaVersion: 4 });
    db.prepare("INSERT INTO project (id, name, game, created_at) VALUES (1, 'old', 'kotor', 'then')").run();
    db.prepare("INSERT INTO history (label, command_json, inverse_json, created_at) VALUES ('edit', '{}', '{}', 'then')").run();
    db.pragma('journal_mode = DELETE');
    const root = (db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'history'").get() as { rootpage: number }).rootpage;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.close();
    // The history table's page zeroed: the header and the schema are sound, the migration's
    // read of the history (schema step 5) finds the damage.
    const bytes = readFileSync(file);
    bytes.fill(0, (root - 1) * pageSize, root * pageSize);
    writeFileSync(file, bytes);
    expectRefusedUntouched(file, /damaged: database disk image is malformed/);
    const check = new Database(file, { readonly: true });
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(check.pragma('user_version', { simple: true })).toBe(4);
    check.close();
  });

  it('refuses a damaged older project whose upgrade fails on a constraint (a history b-tree whose lookups miss rows its scan finds), untouched', () => {
    const file = tempFile('damaged-btree-v4.walkbench');
    const db = openProjectDatabase(file, { create: true, schemaVersion: 4 });
    db.prepare("INSERT INTO project (id, name, game, created_at) VALUES (1, 'old', 'kotor', 'then')").run();
    const add = db.prepare("INSERT INTO history (label, command_json, inverse_json, created_at) VALUES (?, '{\"type\":\"walkmesh-edit\",\"fileId\":1}', '{}', 'then')");
    // Enough rows for the table to have an interior page over its leaves.
    for (let i = 0; i < 120; i++) add.run(`edit ${i} ${'x'.repeat(200)}`);
    db.pragma('journal_mode = DELETE');
    const root = (db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'history'").get() as { rootpage: number }).rootpage;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.close();
    // The root's first divider key lowered to 1: a lookup of rows 2… goes to the wrong
    // child, while a scan still finds them (so step 5's foreign key check fails).
    const bytes = readFileSync(file);
    const page = (root - 1) * pageSize + (root === 1 ? 100 : 0);
    expect(bytes[page], 'an interior table page').toBe(0x05);
    const cell = (root - 1) * pageSize + bytes.readUInt16BE(page + 12);
    expect(bytes[cell + 4]! & 0x80, 'a one-byte divider key').toBe(0);
    expect(bytes[cell + 4]).toBeGreaterThan(2);
    bytes[cell + 4] = 1;
    writeFileSync(file, bytes);
    expectRefusedUntouched(file, /damaged: its upgrade from project schema version 4 failed \(FOREIGN KEY constraint failed\)/);
  });

  it('reports rows no build writes as damage (ProjectFileError), not as a RangeError or TypeError', () => {
    const game = project('unknown-game.walkbench');
    raw(game, (db) => {
      db.pragma('ignore_check_constraints = ON');
      db.prepare("UPDATE project SET game = '2026-11-27T05:48:05.021Z'").run();
    });
    expectDamagedOnRead(game, /damaged: its project record names an unknown game "2026-11-27T05:48:05.021Z"/);

    const kind = project('unknown-kind.walkbench');
    raw(kind, (db) => db.prepare("UPDATE files SET kind = 'walkmesX'").run());
    expectDamagedOnRead(kind, /damaged: file 1 has an unknown kind "walkmesX"/);

    const text = project('text-bytes.walkbench');
    raw(text, (db) => db.prepare("UPDATE file_content SET bytes = 'not bytes'").run());
    expectDamagedOnRead(text, /damaged: it holds a string where the bytes of file 1 should be/);

    const missing = project('missing-bytes.walkbench');
    raw(missing, (db) => db.prepare('DELETE FROM file_content').run());
    expectDamagedOnRead(missing, /damaged: file 1 has no bytes stored/);
    // A wrong id is still the caller's error.
    const store = ProjectStore.open(missing);
    expect(() => store.loadFileBytes(99)).toThrow(RangeError);
    store.close();
  });
});
