/**
 * The project file's tables, one entry per schema version. Entry `n` (1-based) takes a
 * file from version n-1 to version n; a shipped entry is never edited, only followed by a
 * new one, because users' project files were written by it.
 *
 * Bulk bytes (file contents, edits, bake outputs) live in their own tables keyed by the
 * row they belong to, so listing files or bakes never reads a blob page.
 */
export const schemaSteps: readonly string[] = [
  // 1: the project, its game folders, modules, areas, and their files with content hashes.
  `
  CREATE TABLE project (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    game TEXT NOT NULL CHECK (game IN ('nwn2', 'kotor', 'skyrim', 'source')),
    created_at TEXT NOT NULL
  );
  CREATE TABLE game_folders (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL DEFAULT 'game'
  );
  CREATE TABLE modules (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE
  );
  CREATE TABLE areas (
    id INTEGER PRIMARY KEY,
    module_id INTEGER NOT NULL REFERENCES modules(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    UNIQUE (module_id, name_key)
  );
  CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    module_id INTEGER NOT NULL REFERENCES modules(id) ON DELETE CASCADE,
    area_id INTEGER REFERENCES areas(id) ON DELETE SET NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    format TEXT,
    size INTEGER NOT NULL CHECK (size >= 0),
    sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
    source_path TEXT,
    updated_at TEXT NOT NULL,
    UNIQUE (module_id, name_key)
  );
  CREATE INDEX files_area ON files(area_id);
  CREATE TABLE file_content (
    file_id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
    bytes BLOB NOT NULL
  );
  CREATE TABLE edits (
    file_id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
    base_sha256 TEXT NOT NULL CHECK (length(base_sha256) = 64),
    sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
    size INTEGER NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE edit_content (
    file_id INTEGER PRIMARY KEY REFERENCES edits(file_id) ON DELETE CASCADE,
    bytes BLOB NOT NULL
  );
  `,
  // 2: bake results keyed by what they were baked from, the edit history, the export log.
  `
  CREATE TABLE bake_results (
    id INTEGER PRIMARY KEY,
    input_hash TEXT NOT NULL UNIQUE CHECK (length(input_hash) = 64),
    baker_id TEXT NOT NULL,
    baker_version TEXT NOT NULL,
    inputs_json TEXT NOT NULL,
    output_format TEXT NOT NULL,
    output_sha256 TEXT NOT NULL,
    output_size INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE bake_outputs (
    bake_id INTEGER PRIMARY KEY REFERENCES bake_results(id) ON DELETE CASCADE,
    bytes BLOB NOT NULL
  );
  CREATE TABLE history (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    label TEXT NOT NULL,
    command_json TEXT NOT NULL,
    inverse_json TEXT NOT NULL,
    command_blob BLOB,
    inverse_blob BLOB,
    undone INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)),
    created_at TEXT NOT NULL
  );
  CREATE INDEX history_undone ON history(undone, seq);
  CREATE TABLE export_log (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    target_path TEXT NOT NULL,
    format TEXT NOT NULL,
    file_id INTEGER REFERENCES files(id) ON DELETE SET NULL,
    bake_id INTEGER REFERENCES bake_results(id) ON DELETE SET NULL,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL
  );
  `,
  // 3: export runs (one per `project export`), so `project restore` knows which backups
  // belong to the last export; each logged file names its run, what was done to it, the
  // resource inside an archive, where the replaced bytes were backed up, and whether the
  // written file was read back identical.
  `
  CREATE TABLE export_runs (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    target TEXT NOT NULL,
    backup_dir TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed', 'restored'))
  );
  ALTER TABLE export_log ADD COLUMN run_id INTEGER REFERENCES export_runs(id) ON DELETE CASCADE;
  ALTER TABLE export_log ADD COLUMN action TEXT CHECK (action IS NULL OR action IN ('create', 'replace'));
  ALTER TABLE export_log ADD COLUMN resource TEXT;
  ALTER TABLE export_log ADD COLUMN backup_path TEXT;
  ALTER TABLE export_log ADD COLUMN verified INTEGER NOT NULL DEFAULT 0 CHECK (verified IN (0, 1));
  CREATE INDEX export_log_run ON export_log(run_id);
  `,
  // 4: files whose edited bytes are written behind. The history entry of an edit is
  // committed with the edit; writing the whole file (a KotOR bake, a plugin's records
  // compressed again) can take longer than a brush stroke should wait, so such edits
  // only mark the file here, and the bytes are written when the editor is idle, before
  // anything reads them (bake, export) or when a project with marks is opened again after
  // a crash (the edited model is the history replayed, so nothing is lost meanwhile).
  `
  CREATE TABLE edit_writes_pending (
    file_id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
    since TEXT NOT NULL
  );
  `,
  // 5: undo per file, and a revision per file. Each history entry lists the files it
  // changed (filled here from the entries' own JSON), so a tab undoes its own file's
  // edits; each file's revision grows with every change of its edited model (an edit, an
  // undo or redo touching it, an import of new bytes), so the app can refuse an edit made
  // on a view of the file that is no longer what the project holds.
  `
  CREATE TABLE history_files (
    seq INTEGER NOT NULL REFERENCES history(seq) ON DELETE CASCADE,
    file_id INTEGER NOT NULL,
    PRIMARY KEY (seq, file_id)
  ) WITHOUT ROWID;
  CREATE INDEX history_files_file ON history_files(file_id, seq);
  INSERT OR IGNORE INTO history_files (seq, file_id)
    SELECT seq, json_extract(command_json, '$.fileId') FROM history
    WHERE json_valid(command_json) AND json_extract(command_json, '$.type') = 'walkmesh-edit'
      AND typeof(json_extract(command_json, '$.fileId')) = 'integer';
  INSERT OR IGNORE INTO history_files (seq, file_id)
    SELECT h.seq, json_extract(p.value, '$.fileId') FROM history h, json_each(h.command_json, '$.parts') p
    WHERE json_valid(h.command_json) AND json_extract(h.command_json, '$.type') = 'document-edit'
      AND typeof(json_extract(p.value, '$.fileId')) = 'integer';
  CREATE TABLE file_revisions (
    file_id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
    revision INTEGER NOT NULL
  );
  `,
];

/** The schema version this build writes. */
export const latestSchemaVersion = schemaSteps.length;
