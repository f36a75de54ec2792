import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openProjectDatabase } from '../../../electron/services/project/project-database';
import { migrate } from '../../../electron/services/project/project-migrations';
import { latestSchemaVersion } from '../../../electron/services/project/project-schema';
import { ProjectStore } from '../../../electron/services/project/project-store';
import { projectTempDir } from './project-test-files';

const tempFile = projectTempDir('project-migrations');
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const walkmeshBytes = new Uint8Array([0x4e, 0x57, 0x4e, 0x32, 1, 2, 3, 4, 5]);

/**
 * What each schema version can hold, written with plain SQL as a build of that version
 * wrote it (the store's API always speaks the latest version), and how to check it later.
 */
const seeds: Record<number, { write(db: Database.Database): void; check(store: ProjectStore): void }> = {
  1: {
    write(db) {
      db.prepare("INSERT INTO project (id, name, game, created_at) VALUES (1, 'old', 'nwn2', '2026-01-01T00:00:00Z')").run();
      db.prepare("INSERT INTO game_folders (path, role) VALUES ('/games/nwn2', 'game')").run();
      db.prepare("INSERT INTO modules (id, name, name_key) VALUES (1, 'Kaedrin', 'kaedrin')").run();
      db.prepare("INSERT INTO areas (id, module_id, name, name_key) VALUES (1, 1, 'Enter World', 'enter world')").run();
      db.prepare(
        "INSERT INTO files (id, module_id, area_id, kind, name, name_key, format, size, sha256, updated_at) VALUES (1, 1, 1, 'walkmesh', 'Enter World.trx', 'enter world.trx', 'nwn2-trx', ?, ?, 'then')",
      ).run(walkmeshBytes.length, sha(walkmeshBytes));
      db.prepare('INSERT INTO file_content (file_id, bytes) VALUES (1, ?)').run(walkmeshBytes);
      db.prepare("INSERT INTO edits (file_id, base_sha256, sha256, size, updated_at) VALUES (1, ?, ?, 2, 'then')").run(sha(walkmeshBytes), sha(new Uint8Array([7, 7])));
      db.prepare('INSERT INTO edit_content (file_id, bytes) VALUES (1, ?)').run(new Uint8Array([7, 7]));
    },
    check(store) {
      expect(store.info()).toMatchObject({ name: 'old', game: 'nwn2', schemaVersion: latestSchemaVersion });
      expect(store.listGameFolders()).toEqual([{ path: '/games/nwn2', role: 'game' }]);
      const [file] = store.listFiles();
      expect(file).toMatchObject({ module: 'Kaedrin', area: 'Enter World', name: 'Enter World.trx', kind: 'walkmesh', sha256: sha(walkmeshBytes), edited: true, editStale: false });
      expect([...store.loadFileBytes(file!.id)]).toEqual([...walkmeshBytes]);
      expect([...store.loadEdit(file!.id)!.bytes]).toEqual([7, 7]);
    },
  },
  2: {
    write(db) {
      db.prepare(
        "INSERT INTO export_log (id, at, target_path, format, file_id, bake_id, sha256, size) VALUES (1, 'then', '/games/nwn2/modules/k/Enter World.trx', 'nwn2-trx', 1, NULL, ?, ?)",
      ).run(sha(walkmeshBytes), walkmeshBytes.length);
    },
    check(store) {
      expect(store.listExports()).toEqual([
        { id: 1, at: 'then', targetPath: '/games/nwn2/modules/k/Enter World.trx', format: 'nwn2-trx', fileId: 1, bakeId: null, sha256: sha(walkmeshBytes), size: walkmeshBytes.length },
      ]);
      // An export logged before runs existed belongs to none, so restore never picks it up.
      expect(store.listExportRuns().filter((r) => r.startedAt !== 'v3 run')).toEqual([]);
      const run = store.beginExportRun({ target: '/games/nwn2/modules/k', backupDir: '/p.backups/1' });
      store.logExportRunEntry({ runId: run, targetPath: '/games/nwn2/modules/k/x.trx', resource: null, action: 'create', backupPath: null, format: 'nwn2-trx', bytes: walkmeshBytes });
      expect(store.listExportRunEntries(run)).toMatchObject([{ runId: run, action: 'create', verified: false }]);
    },
  },
  3: {
    write(db) {
      db.prepare("INSERT INTO export_runs (id, started_at, finished_at, target, backup_dir, status) VALUES (7, 'v3 run', 'later', '/games/nwn2/modules/k', '/p.backups/7', 'done')").run();
    },
    check(store) {
      expect(store.listExportRuns().find((r) => r.id === 7)).toMatchObject({ target: '/games/nwn2/modules/k', status: 'done' });
      // Files from before write-behind have no marks; a mark comes and goes with the file's bytes written.
      const file = store.listFiles()[0]!;
      expect(store.editWritesPending()).toEqual([]);
      expect(file.editWritePending).toBe(false);
      store.markEditWritePending(file.id);
      expect(store.fileById(file.id)).toMatchObject({ edited: true, editWritePending: true });
      store.clearEditWritePending(file.id);
      expect(store.editWritesPending()).toEqual([]);
    },
  },
  4: {
    write(db) {
      // A second file, and history entries of both kinds as version 4 stored them (JSON only).
      db.prepare(
        "INSERT INTO files (id, module_id, area_id, kind, name, name_key, format, size, sha256, updated_at) VALUES (2, 1, 1, 'git', 'Zone.git', 'zone.git', NULL, ?, ?, 'then')",
      ).run(walkmeshBytes.length, sha(walkmeshBytes));
      db.prepare('INSERT INTO file_content (file_id, bytes) VALUES (2, ?)').run(walkmeshBytes);
      const add = db.prepare("INSERT INTO history (seq, label, command_json, inverse_json, undone, created_at) VALUES (?, ?, ?, ?, ?, 'then')");
      const walkmesh = (fileId: number) => JSON.stringify({ type: 'walkmesh-edit', v: 1, fileId, mesh: 0, edit: { kind: 'flip-faces', faces: [0] } });
      const documentEdit = JSON.stringify({ type: 'document-edit', v: 1, parts: [{ fileId: 1, mesh: 0, edit: { kind: 'kotor-set-transition', face: 0, edge: 0, target: 1 } }, { fileId: 2, mesh: 0, edit: { kind: 'kotor-set-transition', face: 0, edge: 0, target: 1 } }] });
      add.run(10, 'flip in 1', walkmesh(1), walkmesh(1), 0);
      add.run(11, 'link 1 and 2', documentEdit, documentEdit, 0);
      add.run(12, 'flip in 2', walkmesh(2), walkmesh(2), 1);
      // Damaged JSON must not stop the migration: the entry names no file.
      add.run(13, 'damaged', '{not json', '{not json', 1);
    },
    check(store) {
      const files = new Map(store.listHistory().map((h) => [h.seq, h.files]));
      expect(files.get(10)).toEqual([1]);
      expect(files.get(11)).toEqual([1, 2]);
      expect(files.get(12)).toEqual([2]);
      expect(files.get(13)).toEqual([]);
      expect(store.fileById(2)!.revision).toBe(0);
      // Undo per file reads the migrated list: file 1's latest done entry is the link, also file 2's.
      expect(store.doneEntriesOf(1).map((e) => e.seq)).toEqual([10, 11]);
    },
  },
};

describe('project migrations', () => {
  for (let version = 1; version < latestSchemaVersion; version++) {
    it(`migrates a version ${version} project to version ${latestSchemaVersion}, keeping its data`, () => {
      const file = tempFile(`from-v${version}.wbproj`);
      const db = openProjectDatabase(file, { create: true, schemaVersion: version });
      expect(db.pragma('user_version', { simple: true })).toBe(version);
      for (let v = 1; v <= version; v++) seeds[v]?.write(db);
      db.close();

      const store = ProjectStore.open(file);
      try {
        for (let v = 1; v <= version; v++) seeds[v]?.check(store);
        // Tables of the later versions exist and work.
        const seq = store.pushHistory({ label: 'after migration', command: { op: 'a' }, inverse: { op: 'b' }, files: [1] });
        expect(store.listHistory().map((h) => h.seq)).toContain(seq);
      } finally {
        store.close();
      }
    });
  }

  it('has seed data for every version it migrates from', () => {
    for (let version = 1; version < latestSchemaVersion; version++) expect(seeds[version], `seed for version ${version}`).toBeDefined();
  });

  it('rolls a failed migration back whole, leaving the file at its old version', () => {
    const file = tempFile('failing.wbproj');
    const db = openProjectDatabase(file, { create: true, schemaVersion: 1 });
    // A table step 2 creates already exists, so the migration fails part-way.
    db.exec('CREATE TABLE export_log (x)');
    expect(() => migrate(db, file)).toThrow(/export_log/);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
    expect(tables).not.toContain('history');
    expect(tables).not.toContain('bake_results');
    db.close();
  });

  it('does nothing to a file already at the latest version', () => {
    const file = tempFile('latest.wbproj');
    const db = openProjectDatabase(file, { create: true });
    const before = db.prepare('SELECT count(*) AS n FROM sqlite_master').get();
    expect(migrate(db, file)).toBe(latestSchemaVersion);
    expect(db.prepare('SELECT count(*) AS n FROM sqlite_master').get()).toEqual(before);
    db.close();
  });
});
