import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import type { EditCommand } from '../../../shared/edits/edit-command';
import { faceCount } from '../../../shared/model/walkmesh';
import { areaOf, classifyInput } from '../../../electron/services/project/input-kind';
import { asProjectFileError } from '../../../electron/services/project/project-database';
import { ProjectEdits } from '../../../electron/services/project/project-edits';
import { ProjectFileError } from '../../../electron/services/project/project-file-error';
import { ProjectStore } from '../../../electron/services/project/project-store';
import type { FileRecord, GameFolder, HistorySummary, ModuleSummary, ProjectInfo } from '../../../electron/services/project/project-types';
import type { GameId } from '../../../shared/model/walkmesh';
import { listFixtures, readFixture } from '../../support/fixtures';
import type { CorpusEntry, FuzzTarget } from '../fuzz-target';
import { projectStructureMutators, sqliteStructure } from '../structure-mutators';

/**
 * Walkbench project files ("cut project files"): the SQLite databases the app and the CLI
 * open (electron/services/project/project-database.ts). A damaged, foreign or newer file
 * must be refused with a ProjectFileError, never with a raw SqliteError, TypeError or
 * RangeError, and a refused file must be left as it was: not a byte of it changed, no
 * -wal or -shm file left beside it.
 */
export const PROJECT_FORMAT = 'walkbench-project';

// ---------------------------------------------------------------------------------------
// Seed inputs: real projects, made with the real services when the corpus is loaded.

interface SeedProject {
  game: GameId;
  /** Fixture folder and extensions of the walkmeshes imported. */
  folder: string;
  extensions: readonly string[];
  /** Walkmeshes imported (the smallest the folder has). */
  count: number;
  /** Extra, non-walkmesh inputs (a KotOR GIT) imported beside them. */
  extras?: { extensions: readonly string[]; count: number };
  /** The edits made on the first walkmesh (the last one is undone, so history has both kinds of rows). */
  edits(faces: number): EditCommand[];
  /**
   * Left as an older build left it: the tables of the later schema steps dropped and its
   * user_version set back, so opening it migrates it (a damaged old file must be refused
   * by the migration, and left as it was), and in rollback-journal mode.
   */
  older?: { version: number; drop: readonly string[] };
}

const SEED_PROJECTS: readonly SeedProject[] = [
  {
    game: 'source',
    folder: 'source',
    extensions: ['.nav'],
    count: 2,
    edits: () => [
      { kind: 'paint-faces', faces: [0], material: 0x4 },
      { kind: 'paint-faces', faces: [1], material: 0x1 },
    ],
  },
  {
    game: 'kotor',
    folder: 'kotor',
    extensions: ['.wok'],
    count: 2,
    extras: { extensions: ['.git'], count: 1 },
    edits: (faces) => [
      { kind: 'paint-faces', faces: [0, 1, 2], material: 2 },
      { kind: 'flip-faces', faces: [faces - 1] },
    ],
  },
  {
    // Schema version 5 added history_files (filled from the history's JSON) and file_revisions.
    game: 'source',
    folder: 'source',
    extensions: ['.nav'],
    count: 1,
    edits: () => [
      { kind: 'paint-faces', faces: [0], material: 0x2 },
      { kind: 'paint-faces', faces: [2], material: 0x8 },
    ],
    older: { version: 4, drop: ['history_files', 'file_revisions'] },
  },
];

/** The `count` smallest fixtures of a folder the import would take (classified by content). */
function smallestFixtures(folder: string, extensions: readonly string[], count: number): string[] {
  return listFixtures(folder, extensions)
    .map((file) => ({ file, size: statSync(file).size }))
    .sort((a, b) => a.size - b.size || a.file.localeCompare(b.file))
    .filter(({ file }) => classifyInput(path.basename(file), readFixture(file)).kind !== undefined)
    .slice(0, count)
    .map(({ file }) => file);
}

/**
 * One project made as a user makes it: created, fixtures imported the way `project import`
 * stores them (classified by content, each file in its area), a game folder added, edits
 * made through ProjectEdits and the last one undone. Closing the last connection
 * checkpoints the WAL into the file and removes the log, so the file alone is the project.
 */
function buildProject(dir: string, seed: SeedProject): Uint8Array {
  const file = path.join(dir, `${seed.game}${seed.older ? `-v${seed.older.version}` : ''}.walkbench`);
  const store = ProjectStore.create(file, { name: `fuzz seed (${seed.game})`, game: seed.game });
  try {
    store.addGameFolder(`/games/${seed.game}`);
    const files = [...smallestFixtures(seed.folder, seed.extensions, seed.count), ...(seed.extras ? smallestFixtures(seed.folder, seed.extras.extensions, seed.extras.count) : [])];
    const ids: number[] = [];
    store.transaction(() => {
      for (const f of files) {
        const name = path.basename(f);
        const bytes = readFixture(f);
        const kind = classifyInput(name, bytes);
        if (kind.kind === undefined) throw new Error(`${f}: ${kind.skip}`);
        ids.push(store.upsertFile({ module: seed.folder, name, kind: kind.kind, format: kind.format, area: areaOf(name, kind.kind), bytes, sourcePath: f }).fileId);
      }
    });
    const edits = new ProjectEdits(store);
    const first = ids[0]!;
    for (const command of seed.edits(faceCount(edits.meshes(first)[0]!))) edits.apply(first, 0, command);
    edits.undo();
  } finally {
    store.close();
  }
  if (seed.older) {
    const db = new Database(file);
    try {
      for (const table of seed.older.drop) db.exec(`DROP TABLE ${table}`);
      db.pragma(`user_version = ${seed.older.version}`);
      // In rollback-journal mode (as a copy another SQLite tool made can be): the open
      // switches such a file to WAL, a change a file refused part-way must not get.
      db.pragma('journal_mode = DELETE');
    } finally {
      db.close();
    }
  }
  if (existsSync(`${file}-wal`)) throw new Error(`${file}: the WAL was not checkpointed on close`);
  return readFixture(file);
}

function loadProjects(): CorpusEntry[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'walkbench-fuzz-seed-projects-'));
  try {
    return SEED_PROJECTS.map((seed) => ({
      name: `${seed.game}${seed.older ? ` (schema version ${seed.older.version})` : ''}.walkbench, made from the smallest ${seed.folder} fixtures`,
      bytes: buildProject(dir, seed),
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------
// Parse: write the bytes as a project file, open it as `walkbench project info` does, read it.

let scratchFile: string | undefined;

const SCRATCH_PREFIX = 'walkbench-fuzz-project-';
const SCRATCH_DIR = new RegExp(`^${SCRATCH_PREFIX}(\\d+)-\\d+$`);

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The one project file path of this thread (each worker has its own), removed at exit.
 * Named by process and thread only (no random part), so the messages of failures with
 * one cause, which name the file, give one signature (the fuzzer blanks the numbers). A
 * worker stopped by the watchdog or at the end of --minutes is terminated without its exit
 * handlers, so the folders of processes no longer running are removed here.
 */
function projectPath(): string {
  if (scratchFile === undefined) {
    for (const name of readdirSync(tmpdir())) {
      const pid = SCRATCH_DIR.exec(name)?.[1];
      if (pid !== undefined && !processAlive(Number(pid))) rmSync(path.join(tmpdir(), name), { recursive: true, force: true });
    }
    const dir = path.join(tmpdir(), `${SCRATCH_PREFIX}${process.pid}-${threadId}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    scratchFile = path.join(dir, 'fuzz.walkbench');
  }
  return scratchFile;
}

/** What a user sees of a project: `project info`, the project tree, each file's bytes, the history. */
export interface ProjectView {
  info: ProjectInfo;
  counts: ReturnType<ProjectStore['counts']>;
  modules: ModuleSummary[];
  folders: GameFolder[];
  files: FileRecord[];
  /** Each file's current bytes (its saved edit, else what was imported), in the order of `files`. */
  bytes: Uint8Array[];
  history: HistorySummary[];
  revisions: Map<number, number>;
}

/** Where a ProjectFileError's reason points in the file, and what the file should hold there. */
const REASONS: readonly { pattern: RegExp; offset: number; field: string; expected: string }[] = [
  { pattern: /^is empty/, offset: 0, field: 'file', expected: 'a Walkbench project (an SQLite database)' },
  { pattern: /not an SQLite database/, offset: 0, field: 'header.magic', expected: 'an SQLite database ("SQLite format 3")' },
  { pattern: /application_id/, offset: 68, field: 'header.application_id', expected: 'the Walkbench application_id 0x57424E43 ("WBNC")' },
  { pattern: /newer Walkbench|project schema version is -?\d+,/, offset: 60, field: 'header.user_version', expected: 'a project schema version this build reads' },
  { pattern: /header says \d+ pages/, offset: 28, field: 'header.page_count', expected: 'as many pages as the header says' },
  { pattern: /write version is \d+/, offset: 18, field: 'header.write_version', expected: 'an SQLite file format write version of 1 or 2' },
  { pattern: /unsupported file format/, offset: 44, field: 'header.schema_format', expected: 'an SQLite schema format number from 1 to 4' },
  { pattern: /which its schema version \d+ has|is not the one of its schema version|of a later schema version/, offset: 0, field: 'sqlite_schema', expected: 'the tables and indexes of its schema version' },
  { pattern: /no project record|project record names/, offset: 0, field: 'project', expected: 'one project record, of a known game' },
  { pattern: /^is damaged: file \d+ /, offset: 0, field: 'files', expected: 'each file of a known kind, with its bytes' },
  { pattern: /^is damaged/, offset: 0, field: 'database', expected: 'an undamaged SQLite database' },
];

/**
 * A ProjectFileError as the fuzzer's MalformedInputError (format `walkbench-project`),
 * with a field and expectation read from its message. The offset is the header field the
 * reason names, else 0: SQLite does not say where a page is damaged.
 */
export function projectFileMalformed(e: ProjectFileError, length: number): MalformedInputError {
  const prefix = `${e.file}: `;
  const reason = e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
  const r = REASONS.find((x) => x.pattern.test(reason)) ?? { offset: 0, field: 'project file', expected: 'a Walkbench project file this build can open' };
  return new MalformedInputError({ format: PROJECT_FORMAT, offset: Math.min(r.offset, length), field: r.field, expected: r.expected, found: reason });
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

/** All a user sees of an open project. */
function readProject(store: ProjectStore): ProjectView {
  const files = store.listFiles();
  return {
    info: store.info(),
    counts: store.counts(),
    modules: store.listModules(),
    folders: store.listGameFolders(),
    files,
    bytes: files.map((f) => store.loadCurrentBytes(f)),
    history: store.listHistory(),
    revisions: store.revisions(files.map((f) => f.id)),
  };
}

/**
 * Writes the bytes as this thread's project file, opens it as `walkbench project info`
 * does (ProjectStore.open, then every read with a damaged-file SQLite error turned into a
 * ProjectFileError naming the file, as its withStore does) and reads what a user sees.
 */
function parseProject(bytes: Uint8Array): ProjectView {
  const file = projectPath();
  for (const suffix of ['-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
  writeFileSync(file, bytes);
  let store: ProjectStore;
  try {
    store = ProjectStore.open(file);
  } catch (e) {
    if (!(e instanceof ProjectFileError)) throw e;
    // A refused project file is not touched: not a byte changed, nothing left beside it.
    const left = ['-wal', '-shm', '-journal'].filter((s) => existsSync(file + s));
    if (left.length > 0) throw new Error(`the refused project file was given ${left.join(', ')} file(s) beside it (${e.message})`);
    const after = readFileSync(file);
    if (!sameBytes(bytes, after)) throw new Error(`the refused project file was changed (${bytes.length} bytes in, ${after.length} bytes after; ${e.message})`);
    throw projectFileMalformed(e, bytes.length);
  }
  try {
    return readProject(store);
  } catch (e) {
    const error = asProjectFileError(file, e);
    if (error instanceof ProjectFileError) throw projectFileMalformed(error, bytes.length);
    throw error;
  } finally {
    store.close();
  }
}

export const projectTarget: FuzzTarget<ProjectView> = {
  name: 'project',
  description: 'Walkbench project files (SQLite): opened as `walkbench project info` does, files, their bytes and the history read; a refused file must be left untouched',
  format: PROJECT_FORMAT,
  /*
   * SQLite allocates natively (its page cache, up to 2 MB a connection, statements, the
   * b-tree cursors): outside the JS heap and ArrayBuffers the engine measures. What is
   * measured is the JS side: each file's bytes copied out of its blob (at most the file
   * size all together, since a page holds one blob's part), the row objects and their
   * strings (a files row of ~200 bytes becomes an object of a few hundred), and the
   * better-sqlite3 statement wrappers (fixed, inside the 1 MiB allowance). 4x the input
   * leaves room for the row objects of a file whose pages are all metadata.
   */
  memoryFactor: 4,
  loadCorpus: () => loadProjects(),
  structure: sqliteStructure,
  structureMutators: projectStructureMutators,
  parse: parseProject,
};
