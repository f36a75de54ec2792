import { renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { GameId } from '../../../shared/model/walkmesh';
import { bakeInputHash, contentHash, type BakeSpec } from './content-hash';
import { openProjectDatabase } from './project-database';
import { ProjectFileError } from './project-file-error';
import { schemaVersionOf } from './project-migrations';
import {
  fileKinds,
  gameIds,
  type BakeRecord,
  type ExportEntry,
  type ExportRun,
  type ExportRunEntry,
  type ExportRunStatus,
  type FileKind,
  type FileRecord,
  type GameFolder,
  type HistoryCommand,
  type HistoryStep,
  type HistorySummary,
  type ModuleSummary,
  type ProjectInfo,
  type SavedEdit,
  type UpsertFileInput,
  type UpsertResult,
} from './project-types';

/** Names compare without case, as the games' resource names do. */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

const now = () => new Date().toISOString();

/** A file's stored row that is not what this build wrote: the file is damaged. */
function damaged(file: string, what: string): ProjectFileError {
  return new ProjectFileError(file, `is damaged: ${what}; restore it from a backup or a copy`);
}

/** Bytes stored as a blob; anything else (SQLite columns take any type) is damage. */
function bytesOf(file: string, blob: unknown, what: string): Uint8Array {
  if (!(blob instanceof Uint8Array)) throw damaged(file, `it holds ${blob === null ? 'null' : `a ${typeof blob}`} where ${what} should be`);
  return new Uint8Array(blob.buffer, blob.byteOffset, blob.byteLength);
}

function toJson(value: unknown, what: string): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`${what} is not JSON-serialisable`);
  return text;
}

function checkGame(game: string): GameId {
  const found = gameIds.find((g) => g === game);
  if (!found) throw new RangeError(`unknown game "${game}" (one of ${gameIds.join(', ')})`);
  return found;
}

function checkKind(kind: string): FileKind {
  const found = fileKinds.find((k) => k === kind);
  if (!found) throw new RangeError(`unknown file kind "${kind}"`);
  return found;
}

interface FileRow {
  id: number;
  module: string;
  area: string | null;
  kind: string;
  name: string;
  format: string | null;
  size: number;
  sha256: string;
  source_path: string | null;
  updated_at: string;
  edit_base: string | null;
  edit_sha256: string | null;
  write_pending: number | null;
  revision: number | null;
}

interface HistoryRow {
  seq: number;
  label: string;
  command: string;
  inverse: string;
  commandBlob: unknown;
  inverseBlob: unknown;
}

/** An undo or redo that would break another file's order of edits; names that file. */
export class HistoryOrderError extends Error {
  constructor(
    message: string,
    readonly fileId: number,
  ) {
    super(message);
    this.name = 'HistoryOrderError';
  }
}

interface BakeRow {
  id: number;
  input_hash: string;
  baker_id: string;
  baker_version: string;
  inputs_json: string;
  output_format: string;
  output_sha256: string;
  output_size: number;
  created_at: string;
}

const fileColumns = `
  f.id, m.name AS module, a.name AS area, f.kind, f.name, f.format, f.size, f.sha256,
  f.source_path, f.updated_at, e.base_sha256 AS edit_base, e.sha256 AS edit_sha256, w.file_id AS write_pending,
  r.revision AS revision
  FROM files f JOIN modules m ON m.id = f.module_id
  LEFT JOIN areas a ON a.id = f.area_id
  LEFT JOIN edits e ON e.file_id = f.id
  LEFT JOIN edit_writes_pending w ON w.file_id = f.id
  LEFT JOIN file_revisions r ON r.file_id = f.id`;

function fileRecord(file: string, r: FileRow): FileRecord {
  const kind = fileKinds.find((k) => k === r.kind);
  if (!kind) throw damaged(file, `file ${r.id} has an unknown kind "${String(r.kind)}"`);
  return {
    id: r.id,
    module: r.module,
    area: r.area,
    kind,
    name: r.name,
    format: r.format,
    size: r.size,
    sha256: r.sha256,
    sourcePath: r.source_path,
    updatedAt: r.updated_at,
    edited: r.edit_base !== null || r.write_pending !== null,
    editStale: r.edit_base !== null && r.edit_base !== r.sha256,
    editSha256: r.edit_sha256,
    editWritePending: r.write_pending !== null,
    revision: r.revision ?? 0,
  };
}

function bakeRecord(r: BakeRow): BakeRecord {
  return {
    id: r.id,
    inputHash: r.input_hash,
    bakerId: r.baker_id,
    bakerVersion: r.baker_version,
    inputs: JSON.parse(r.inputs_json) as BakeRecord['inputs'],
    outputFormat: r.output_format,
    outputSha256: r.output_sha256,
    outputSize: r.output_size,
    createdAt: r.created_at,
  };
}

/**
 * A project file, open. Every method commits as it goes (there is no "save"): a change
 * is in the file when the call returns. `transaction` groups many changes into one
 * commit when they must land together or when there are many (an import).
 */
export class ProjectStore {
  private constructor(
    readonly file: string,
    private readonly db: Database.Database,
  ) {}

  static create(file: string, project: { name: string; game: GameId }): ProjectStore {
    const game = checkGame(project.game);
    const db = openProjectDatabase(file, {
      create: true,
      initialise: (d) => void d.prepare('INSERT INTO project (id, name, game, created_at) VALUES (1, ?, ?, ?)').run(project.name, game, now()),
    });
    return new ProjectStore(file, db);
  }

  static open(file: string): ProjectStore {
    return new ProjectStore(file, openProjectDatabase(file));
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /**
   * Copies the whole project, history and bakes included, to `target` (Save Project As):
   * SQLite's online backup into a temporary file beside it, then a rename, so `target` is
   * either untouched or a complete project.
   */
  async copyTo(target: string): Promise<void> {
    const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
    try {
      await this.db.backup(temp);
      renameSync(temp, target);
    } finally {
      rmSync(temp, { force: true });
    }
  }

  /** Runs `fn` as one commit: all of its changes land, or none. Nests. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  info(): ProjectInfo {
    const row = this.db.prepare('SELECT name, game, created_at FROM project WHERE id = 1').get() as
      | { name: string; game: string; created_at: string }
      | undefined;
    if (!row) throw new ProjectFileError(this.file, 'is damaged: it has no project record');
    const game = gameIds.find((g) => g === row.game);
    if (!game) throw damaged(this.file, `its project record names an unknown game "${String(row.game)}"`);
    return { name: row.name, game, createdAt: row.created_at, schemaVersion: schemaVersionOf(this.db) };
  }

  setGame(game: GameId): void {
    this.db.prepare('UPDATE project SET game = ? WHERE id = 1').run(checkGame(game));
  }

  addGameFolder(folder: string, role = 'game'): void {
    this.db.prepare('INSERT INTO game_folders (path, role) VALUES (?, ?) ON CONFLICT (path) DO UPDATE SET role = excluded.role').run(folder, role);
  }

  listGameFolders(): GameFolder[] {
    return this.db.prepare('SELECT path, role FROM game_folders ORDER BY id').all() as GameFolder[];
  }

  listModules(): ModuleSummary[] {
    return this.db
      .prepare(
        `SELECT m.id, m.name, count(f.id) AS fileCount, coalesce(sum(f.size), 0) AS totalSize
         FROM modules m LEFT JOIN files f ON f.module_id = m.id GROUP BY m.id ORDER BY m.name_key`,
      )
      .all() as ModuleSummary[];
  }

  private ensureModule(name: string): number {
    this.db.prepare('INSERT INTO modules (name, name_key) VALUES (?, ?) ON CONFLICT (name_key) DO NOTHING').run(name, nameKey(name));
    return (this.db.prepare('SELECT id FROM modules WHERE name_key = ?').get(nameKey(name)) as { id: number }).id;
  }

  private ensureArea(moduleId: number, name: string): number {
    this.db
      .prepare('INSERT INTO areas (module_id, name, name_key) VALUES (?, ?, ?) ON CONFLICT (module_id, name_key) DO NOTHING')
      .run(moduleId, name, nameKey(name));
    return (this.db.prepare('SELECT id FROM areas WHERE module_id = ? AND name_key = ?').get(moduleId, nameKey(name)) as { id: number }).id;
  }

  /**
   * Adds a file to a module, or replaces its bytes when they differ from what the project
   * holds (names compare without case, the stored name takes the new spelling). Edits of
   * the file are kept; `editStale` then tells they were made on the old bytes.
   */
  upsertFile(input: UpsertFileInput): UpsertResult {
    const kind = checkKind(input.kind);
    if (input.name === '' || input.module === '') throw new RangeError('a project file needs a module and a name');
    const sha256 = contentHash(input.bytes);
    return this.transaction(() => {
      const moduleId = this.ensureModule(input.module);
      const existing = this.db
        .prepare('SELECT id, sha256, name, kind, format, area_id, source_path FROM files WHERE module_id = ? AND name_key = ?')
        .get(moduleId, nameKey(input.name)) as
        | { id: number; sha256: string; name: string; kind: string; format: string | null; area_id: number | null; source_path: string | null }
        | undefined;
      // Left out (undefined), the area and the source path stay as they are; null clears them.
      const areaId = input.area ? this.ensureArea(moduleId, input.area) : input.area === undefined && existing ? existing.area_id : null;
      const format = input.format !== undefined ? input.format : (existing?.format ?? null);
      const sourcePath = input.sourcePath !== undefined ? input.sourcePath : (existing?.source_path ?? null);
      if (!existing) {
        const id = Number(
          this.db
            .prepare(
              `INSERT INTO files (module_id, area_id, kind, name, name_key, format, size, sha256, source_path, updated_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            )
            .run(moduleId, areaId, kind, input.name, nameKey(input.name), format, input.bytes.length, sha256, sourcePath, now()).lastInsertRowid,
        );
        this.db.prepare('INSERT INTO file_content (file_id, bytes) VALUES (?, ?)').run(id, input.bytes);
        return { status: 'added', fileId: id, sha256 };
      }
      const sameBytes = existing.sha256 === sha256;
      const sameMeta =
        existing.name === input.name && existing.kind === kind && existing.format === format && existing.area_id === areaId && existing.source_path === sourcePath;
      if (sameBytes && sameMeta) return { status: 'unchanged', fileId: existing.id, sha256 };
      this.db
        .prepare('UPDATE files SET area_id = ?, kind = ?, name = ?, format = ?, size = ?, sha256 = ?, source_path = ?, updated_at = ? WHERE id = ?')
        .run(areaId, kind, input.name, format, input.bytes.length, sha256, sourcePath, now(), existing.id);
      if (!sameBytes) {
        this.db.prepare('UPDATE file_content SET bytes = ? WHERE file_id = ?').run(input.bytes, existing.id);
        this.bumpRevisions([existing.id]);
      }
      return { status: sameBytes ? 'unchanged' : 'changed', fileId: existing.id, sha256 };
    });
  }

  /** The highest module and area ids now: what an import started after this may roll back to (rollBackImport). */
  importMark(): { module: number; area: number } {
    const m = this.db.prepare('SELECT coalesce(max(id), 0) AS id FROM modules').get() as { id: number };
    const a = this.db.prepare('SELECT coalesce(max(id), 0) AS id FROM areas').get() as { id: number };
    return { module: m.id, area: a.id };
  }

  /**
   * Undoes the files an import added (a cancelled import): removes them, then the modules
   * and areas created after `mark` that hold no file now. Files the import changed are put
   * back by the caller (upsertFile with the bytes it kept). One transaction.
   */
  rollBackImport(mark: { module: number; area: number }, addedFileIds: readonly number[]): void {
    this.transaction(() => {
      const del = this.db.prepare('DELETE FROM files WHERE id = ?');
      for (const id of addedFileIds) del.run(id);
      this.db.prepare('DELETE FROM areas WHERE id > ? AND id NOT IN (SELECT area_id FROM files WHERE area_id IS NOT NULL)').run(mark.area);
      this.db.prepare('DELETE FROM modules WHERE id > ? AND id NOT IN (SELECT module_id FROM files)').run(mark.module);
    });
  }

  /** Metadata of the files, by module then name; reads no file bytes. */
  listFiles(filter: { module?: string; kind?: FileKind } = {}): FileRecord[] {
    const where: string[] = [];
    const params: string[] = [];
    if (filter.module !== undefined) {
      where.push('m.name_key = ?');
      params.push(nameKey(filter.module));
    }
    if (filter.kind !== undefined) {
      where.push('f.kind = ?');
      params.push(checkKind(filter.kind));
    }
    const sql = `SELECT ${fileColumns} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY m.name_key, f.name_key`;
    return (this.db.prepare(sql).all(...params) as FileRow[]).map((r) => fileRecord(this.file, r));
  }

  findFile(module: string, name: string): FileRecord | undefined {
    const row = this.db.prepare(`SELECT ${fileColumns} WHERE m.name_key = ? AND f.name_key = ?`).get(nameKey(module), nameKey(name)) as FileRow | undefined;
    return row && fileRecord(this.file, row);
  }

  fileById(fileId: number): FileRecord | undefined {
    const row = this.db.prepare(`SELECT ${fileColumns} WHERE f.id = ?`).get(fileId) as FileRow | undefined;
    return row && fileRecord(this.file, row);
  }

  /**
   * The bytes a file holds now: its saved edit, else what was imported. (Edits written
   * behind are not in it yet: readers call writePendingEdits first.)
   */
  loadCurrentBytes(file: FileRecord): Uint8Array {
    return (file.edited ? this.loadEdit(file.id)?.bytes : undefined) ?? this.loadFileBytes(file.id);
  }

  loadFileBytes(fileId: number): Uint8Array {
    const row = this.db.prepare('SELECT bytes FROM file_content WHERE file_id = ?').get(fileId) as { bytes: unknown } | undefined;
    if (!row) {
      // A file the project lists always has its bytes; one without them is damage, not a wrong id.
      if (this.db.prepare('SELECT 1 FROM files WHERE id = ?').get(fileId)) throw damaged(this.file, `file ${fileId} has no bytes stored`);
      throw new RangeError(`${this.file}: no file with id ${fileId}`);
    }
    return bytesOf(this.file, row.bytes, `the bytes of file ${fileId}`);
  }

  /** Saves the model's edited bytes of a file, made on the bytes the file holds now. */
  saveEdit(fileId: number, bytes: Uint8Array): void {
    this.transaction(() => {
      const file = this.db.prepare('SELECT sha256 FROM files WHERE id = ?').get(fileId) as { sha256: string } | undefined;
      if (!file) throw new RangeError(`${this.file}: no file with id ${fileId}`);
      this.db
        .prepare(
          `INSERT INTO edits (file_id, base_sha256, sha256, size, updated_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (file_id) DO UPDATE SET base_sha256 = excluded.base_sha256, sha256 = excluded.sha256, size = excluded.size, updated_at = excluded.updated_at`,
        )
        .run(fileId, file.sha256, contentHash(bytes), bytes.length, now());
      this.db.prepare('INSERT INTO edit_content (file_id, bytes) VALUES (?, ?) ON CONFLICT (file_id) DO UPDATE SET bytes = excluded.bytes').run(fileId, bytes);
    });
  }

  loadEdit(fileId: number): SavedEdit | undefined {
    const row = this.db
      .prepare('SELECT e.base_sha256, e.sha256, c.bytes FROM edits e JOIN edit_content c ON c.file_id = e.file_id WHERE e.file_id = ?')
      .get(fileId) as { base_sha256: string; sha256: string; bytes: unknown } | undefined;
    return row && { baseSha256: row.base_sha256, sha256: row.sha256, bytes: bytesOf(this.file, row.bytes, `the edited bytes of file ${fileId}`) };
  }

  discardEdit(fileId: number): void {
    this.db.prepare('DELETE FROM edits WHERE file_id = ?').run(fileId);
  }

  /** Marks a file whose edited bytes are not written yet (its history is; see schema step 4). */
  markEditWritePending(fileId: number): void {
    this.db.prepare('INSERT INTO edit_writes_pending (file_id, since) VALUES (?, ?) ON CONFLICT (file_id) DO NOTHING').run(fileId, now());
  }

  clearEditWritePending(fileId: number): void {
    this.db.prepare('DELETE FROM edit_writes_pending WHERE file_id = ?').run(fileId);
  }

  /** Files whose edited bytes are behind their history, oldest mark first. */
  editWritesPending(): number[] {
    return (this.db.prepare('SELECT file_id FROM edit_writes_pending ORDER BY since, file_id').all() as { file_id: number }[]).map((r) => r.file_id);
  }

  /**
   * Stores a bake's output under the hash of exactly what it was baked from. `outputSha256`,
   * when given, is the output's SHA-256 as the bake worker computed it from these very bytes
   * (bake-worker.ts), so the main thread does not hash them again.
   */
  recordBake(spec: BakeSpec & { outputFormat: string; output: Uint8Array; outputSha256?: string }): BakeRecord {
    const inputHash = bakeInputHash(spec);
    const inputs = spec.inputs.map((i) => ({ name: i.name, sha256: i.sha256 }));
    this.transaction(() => {
      this.db.prepare('DELETE FROM bake_results WHERE input_hash = ?').run(inputHash);
      const id = this.db
        .prepare(
          `INSERT INTO bake_results (input_hash, baker_id, baker_version, inputs_json, output_format, output_sha256, output_size, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(inputHash, spec.bakerId, spec.bakerVersion, JSON.stringify(inputs), spec.outputFormat, spec.outputSha256 ?? contentHash(spec.output), spec.output.length, now()).lastInsertRowid;
      this.db.prepare('INSERT INTO bake_outputs (bake_id, bytes) VALUES (?, ?)').run(id, spec.output);
    });
    return this.lookupBake(inputHash)!;
  }

  /** The bake made from exactly these inputs by this baker version, if there is one. */
  lookupBake(inputHashOrSpec: string | BakeSpec): BakeRecord | undefined {
    const inputHash = typeof inputHashOrSpec === 'string' ? inputHashOrSpec : bakeInputHash(inputHashOrSpec);
    const row = this.db.prepare('SELECT * FROM bake_results WHERE input_hash = ?').get(inputHash) as BakeRow | undefined;
    return row && bakeRecord(row);
  }

  listBakes(): BakeRecord[] {
    return (this.db.prepare('SELECT * FROM bake_results ORDER BY id').all() as BakeRow[]).map(bakeRecord);
  }

  loadBakeOutput(bakeId: number): Uint8Array {
    const row = this.db.prepare('SELECT bytes FROM bake_outputs WHERE bake_id = ?').get(bakeId) as { bytes: unknown } | undefined;
    if (!row) throw new RangeError(`${this.file}: no bake with id ${bakeId}`);
    return bytesOf(this.file, row.bytes, `the output of bake ${bakeId}`);
  }

  /**
   * Records a command the user did on `files` (the files it changes). It drops the redo
   * steps of those files, as any editor does; other files keep theirs (undo is per file).
   */
  pushHistory(entry: HistoryCommand): number {
    const command = toJson(entry.command, 'history command');
    const inverse = toJson(entry.inverse, 'history inverse');
    const files = [...new Set(entry.files)];
    if (files.length === 0) throw new RangeError('a history entry must name the files it changes');
    return this.transaction(() => {
      const dropped = this.db.prepare(`SELECT DISTINCT h.seq FROM history h JOIN history_files hf ON hf.seq = h.seq WHERE h.undone = 1 AND hf.file_id IN (${files.map(() => '?').join(', ')})`).all(...files) as { seq: number }[];
      const drop = this.db.prepare('DELETE FROM history WHERE seq = ?');
      for (const d of dropped) drop.run(d.seq);
      const seq = Number(
        this.db
          .prepare('INSERT INTO history (label, command_json, inverse_json, command_blob, inverse_blob, created_at) VALUES (?, ?, ?, ?, ?, ?)')
          .run(entry.label, command, inverse, entry.commandBlob ?? null, entry.inverseBlob ?? null, now()).lastInsertRowid,
      );
      const link = this.db.prepare('INSERT INTO history_files (seq, file_id) VALUES (?, ?)');
      for (const f of files) link.run(seq, f);
      this.bumpRevisions(files);
      return seq;
    });
  }

  /**
   * Marks the latest done command undone and returns its inverse to apply. With `scope`,
   * the latest done command that changed one of those files (a tab's file and the files
   * edited with it): undo is per file. A command that changed other files too (a KotOR
   * link made on both sides) is undone in all of them at once, so it must also be the
   * latest done command of each; otherwise the undo is refused (HistoryOrderError) and
   * names the later edit to undo first.
   */
  undo(scope?: readonly number[]): HistoryStep | undefined {
    return this.transaction(() => {
      const row = this.pickStep('undo', scope);
      if (!row) return undefined;
      const files = this.filesOfEntry(row.seq);
      const later = files.length === 0 ? undefined : (this.db
        .prepare(`SELECT h.seq, h.label, hf.file_id AS fileId FROM history h JOIN history_files hf ON hf.seq = h.seq
          WHERE h.undone = 0 AND h.seq > ? AND hf.file_id IN (${files.map(() => '?').join(', ')}) ORDER BY h.seq DESC LIMIT 1`)
        .get(row.seq, ...files) as { seq: number; label: string; fileId: number } | undefined);
      if (later) throw new HistoryOrderError(`"${row.label}" also changed ${this.fileLabel(later.fileId)}, which was edited after it ("${later.label}"): undo that first`, later.fileId);
      this.db.prepare('UPDATE history SET undone = 1 WHERE seq = ?').run(row.seq);
      this.bumpRevisions(files);
      return { seq: row.seq, label: row.label, apply: JSON.parse(row.inverse) as unknown, blob: row.inverseBlob === null ? null : bytesOf(this.file, row.inverseBlob, `the undo data of history step ${row.seq}`), files };
    });
  }

  /**
   * Marks the earliest undone command done again and returns it to apply; with `scope`,
   * the earliest undone command of those files, refused (HistoryOrderError) while another
   * file it changed has an earlier undone command to redo first.
   */
  redo(scope?: readonly number[]): HistoryStep | undefined {
    return this.transaction(() => {
      const row = this.pickStep('redo', scope);
      if (!row) return undefined;
      const files = this.filesOfEntry(row.seq);
      const earlier = files.length === 0 ? undefined : (this.db
        .prepare(`SELECT h.seq, h.label, hf.file_id AS fileId FROM history h JOIN history_files hf ON hf.seq = h.seq
          WHERE h.undone = 1 AND h.seq < ? AND hf.file_id IN (${files.map(() => '?').join(', ')}) ORDER BY h.seq ASC LIMIT 1`)
        .get(row.seq, ...files) as { seq: number; label: string; fileId: number } | undefined);
      if (earlier) throw new HistoryOrderError(`"${row.label}" also changed ${this.fileLabel(earlier.fileId)}, whose earlier undone edit ("${earlier.label}") must be redone first`, earlier.fileId);
      this.db.prepare('UPDATE history SET undone = 0 WHERE seq = ?').run(row.seq);
      this.bumpRevisions(files);
      return { seq: row.seq, label: row.label, apply: JSON.parse(row.command) as unknown, blob: row.commandBlob === null ? null : bytesOf(this.file, row.commandBlob, `the redo data of history step ${row.seq}`), files };
    });
  }

  private pickStep(which: 'undo' | 'redo', scope: readonly number[] | undefined): HistoryRow | undefined {
    const done = which === 'undo' ? 0 : 1;
    const order = which === 'undo' ? 'DESC' : 'ASC';
    const columns = 'h.seq, h.label, h.command_json AS command, h.inverse_json AS inverse, h.command_blob AS commandBlob, h.inverse_blob AS inverseBlob';
    if (scope === undefined) return this.db.prepare(`SELECT ${columns} FROM history h WHERE h.undone = ? ORDER BY h.seq ${order} LIMIT 1`).get(done) as HistoryRow | undefined;
    if (scope.length === 0) return undefined;
    return this.db
      .prepare(`SELECT ${columns} FROM history h WHERE h.undone = ? AND h.seq IN (SELECT seq FROM history_files WHERE file_id IN (${scope.map(() => '?').join(', ')})) ORDER BY h.seq ${order} LIMIT 1`)
      .get(done, ...scope) as HistoryRow | undefined;
  }

  private filesOfEntry(seq: number): number[] {
    return (this.db.prepare('SELECT file_id FROM history_files WHERE seq = ? ORDER BY file_id').all(seq) as { file_id: number }[]).map((r) => r.file_id);
  }

  private fileLabel(fileId: number): string {
    const f = this.fileById(fileId);
    return f ? `${f.module}/${f.name}` : `file ${fileId}`;
  }

  /** Every change of a file's edited model (an edit, undo, redo, new imported bytes) gives it a new revision. */
  private bumpRevisions(files: readonly number[]): void {
    // A history entry may name a file no longer in the project: it has no revision to move.
    const bump = this.db.prepare(
      'INSERT INTO file_revisions (file_id, revision) SELECT id, 1 FROM files WHERE id = ? ON CONFLICT (file_id) DO UPDATE SET revision = revision + 1',
    );
    for (const f of files) bump.run(f);
  }

  /** The revision of each file (0 for one never changed since import), by id. */
  revisions(fileIds: readonly number[]): Map<number, number> {
    const out = new Map<number, number>();
    const get = this.db.prepare('SELECT revision FROM file_revisions WHERE file_id = ?');
    for (const id of fileIds) out.set(id, (get.get(id) as { revision: number } | undefined)?.revision ?? 0);
    return out;
  }

  listHistory(): HistorySummary[] {
    const rows = this.db.prepare('SELECT seq, label, undone, created_at FROM history ORDER BY seq').all() as { seq: number; label: string; undone: number; created_at: string }[];
    const files = new Map<number, number[]>();
    for (const r of this.db.prepare('SELECT seq, file_id FROM history_files ORDER BY seq, file_id').all() as { seq: number; file_id: number }[]) {
      const list = files.get(r.seq);
      if (list) list.push(r.file_id);
      else files.set(r.seq, [r.file_id]);
    }
    return rows.map((r) => ({ seq: r.seq, label: r.label, undone: r.undone === 1, createdAt: r.created_at, files: files.get(r.seq) ?? [] }));
  }

  /** The done (not undone) history entries that changed a file, oldest first. */
  doneEntriesOf(fileId: number): { seq: number; label: string }[] {
    return this.db
      .prepare('SELECT h.seq, h.label FROM history h JOIN history_files hf ON hf.seq = h.seq WHERE hf.file_id = ? AND h.undone = 0 ORDER BY h.seq')
      .all(fileId) as { seq: number; label: string }[];
  }

  /** The commands that are done (not undone), oldest first: replaying them rebuilds an edited model. */
  listDoneCommands(): { seq: number; label: string; command: unknown }[] {
    const rows = this.db.prepare('SELECT seq, label, command_json AS json FROM history WHERE undone = 0 ORDER BY seq').all() as { seq: number; label: string; json: string }[];
    return rows.map((r) => ({ seq: r.seq, label: r.label, command: JSON.parse(r.json) as unknown }));
  }

  logExport(entry: { targetPath: string; format: string; bytes: Uint8Array; fileId?: number; bakeId?: number }): number {
    return Number(
      this.db
        .prepare('INSERT INTO export_log (at, target_path, format, file_id, bake_id, sha256, size) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(now(), entry.targetPath, entry.format, entry.fileId ?? null, entry.bakeId ?? null, contentHash(entry.bytes), entry.bytes.length).lastInsertRowid,
    );
  }

  listExports(): ExportEntry[] {
    return this.db
      .prepare('SELECT id, at, target_path AS targetPath, format, file_id AS fileId, bake_id AS bakeId, sha256, size FROM export_log ORDER BY id')
      .all() as ExportEntry[];
  }

  /** Starts an export run; its files are logged with `logExportRunEntry`. */
  beginExportRun(run: { target: string; backupDir: string }): number {
    return Number(
      this.db.prepare("INSERT INTO export_runs (started_at, target, backup_dir, status) VALUES (?, ?, ?, 'running')").run(now(), run.target, run.backupDir)
        .lastInsertRowid,
    );
  }

  setExportRunBackupDir(runId: number, backupDir: string): void {
    this.db.prepare('UPDATE export_runs SET backup_dir = ? WHERE id = ?').run(backupDir, runId);
  }

  /** Logs a file of an export run before it is renamed into place, so a crash after the rename still knows its backup. */
  logExportRunEntry(entry: {
    runId: number;
    targetPath: string;
    resource: string | null;
    action: 'create' | 'replace';
    backupPath: string | null;
    format: string;
    bytes: Uint8Array;
    fileId?: number;
    bakeId?: number;
  }): number {
    return Number(
      this.db
        .prepare(
          `INSERT INTO export_log (at, target_path, format, file_id, bake_id, sha256, size, run_id, action, resource, backup_path)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          now(),
          entry.targetPath,
          entry.format,
          entry.fileId ?? null,
          entry.bakeId ?? null,
          contentHash(entry.bytes),
          entry.bytes.length,
          entry.runId,
          entry.action,
          entry.resource,
          entry.backupPath,
        ).lastInsertRowid,
    );
  }

  markExportVerified(logIds: readonly number[]): void {
    const stmt = this.db.prepare('UPDATE export_log SET verified = 1 WHERE id = ?');
    this.transaction(() => {
      for (const id of logIds) stmt.run(id);
    });
  }

  finishExportRun(runId: number, status: ExportRunStatus): void {
    this.db.prepare('UPDATE export_runs SET status = ?, finished_at = ? WHERE id = ?').run(status, now(), runId);
  }

  /** Export runs, newest first; only those into `target` when given. */
  listExportRuns(target?: string): ExportRun[] {
    const sql = `SELECT id, started_at AS startedAt, finished_at AS finishedAt, target, backup_dir AS backupDir, status FROM export_runs
      ${target === undefined ? '' : 'WHERE target = ?'} ORDER BY id DESC`;
    return this.db.prepare(sql).all(...(target === undefined ? [] : [target])) as ExportRun[];
  }

  listExportRunEntries(runId: number): ExportRunEntry[] {
    const rows = this.db
      .prepare(
        `SELECT id, at, target_path AS targetPath, format, file_id AS fileId, bake_id AS bakeId, sha256, size, run_id AS runId, action,
         resource, backup_path AS backupPath, verified FROM export_log WHERE run_id = ? ORDER BY id`,
      )
      .all(runId) as (Omit<ExportRunEntry, 'verified'> & { verified: number })[];
    return rows.map((r) => ({ ...r, verified: r.verified === 1 }));
  }

  /** Counts for `project info`, from the metadata tables only. */
  counts(): { files: number; bytes: number; edits: number; bakes: number; history: number; exports: number } {
    return this.db
      .prepare(
        `SELECT (SELECT count(*) FROM files) AS files, (SELECT coalesce(sum(size), 0) FROM files) AS bytes,
         (SELECT count(*) FROM edits) AS edits, (SELECT count(*) FROM bake_results) AS bakes,
         (SELECT count(*) FROM history) AS history, (SELECT count(*) FROM export_log) AS exports`,
      )
      .get() as { files: number; bytes: number; edits: number; bakes: number; history: number; exports: number };
  }
}
