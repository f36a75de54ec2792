import Database from 'better-sqlite3';
import { ProjectFileError } from './project-file-error';
import { latestSchemaVersion, schemaSteps } from './project-schema';

export function schemaVersionOf(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Refuses a project written by a newer build, which an older one cannot know the meaning
 * of, and one whose version no build writes (negative: `user_version` is a signed 32-bit
 * header field, so a damaged header can hold one).
 */
export function checkNotNewer(file: string, version: number): void {
  if (!Number.isInteger(version) || version < 0) {
    throw new ProjectFileError(file, `is damaged: its project schema version is ${version}, which no Walkbench writes; restore it from a backup or a copy`);
  }
  if (version > latestSchemaVersion) {
    throw new ProjectFileError(
      file,
      `this project was written by a newer Walkbench (project schema version ${version}; this build reads up to version ${latestSchemaVersion}); update Walkbench to open it`,
    );
  }
}

interface SchemaObject {
  type: string;
  name: string;
  tbl_name: string;
  /** Text as SQLite writes it; a damaged file may hold anything here. */
  sql: unknown;
}

function schemaObjects(db: Database.Database): SchemaObject[] {
  return db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema').all() as SchemaObject[];
}

/** The tables, indexes… a file of each schema version has: its steps run on an empty database. */
const schemaOfVersion = new Map<number, readonly SchemaObject[]>();

function expectedSchema(version: number): readonly SchemaObject[] {
  let objects = schemaOfVersion.get(version);
  if (!objects) {
    const db = new Database(':memory:');
    try {
      for (let v = 0; v < version; v++) db.exec(schemaSteps[v]!);
      objects = schemaObjects(db);
    } finally {
      db.close();
    }
    schemaOfVersion.set(version, objects);
  }
  return objects;
}

/** SQL as stored, compared without regard to its line breaks and indentation. */
const normalised = (sql: unknown) => {
  if (sql === null) return null;
  // A damaged sqlite_schema row may hold a number or a blob where its SQL text belongs: it matches nothing.
  if (typeof sql !== 'string') return `\0${typeof sql}`;
  return sql.replace(/\s+/g, ' ').trim();
};

const keyOf = (o: SchemaObject) => `${o.type} ${o.name}`;

/**
 * Refuses a project whose tables are not those of its schema version (`version`, from
 * its header): a damaged schema (a table or column name changed, one missing) or a version
 * number that lies (a version 2 header on the tables of version 5). Reads only, so it runs
 * before the file is changed in any way; without it such a file fails later, deep inside a
 * query ("no such column") or part-way through a migration ("table … already exists").
 * Objects no version has (an index a user added) are let be.
 */
export function checkSchema(db: Database.Database, file: string, version: number): void {
  const have = new Map(schemaObjects(db).map((o) => [keyOf(o), o]));
  const expected = expectedSchema(version);
  for (const want of expected) {
    const got = have.get(keyOf(want));
    if (!got) throw new ProjectFileError(file, `is damaged: it has no ${want.type} "${want.name}", which its schema version ${version} has; restore it from a backup or a copy`);
    if (got.tbl_name !== want.tbl_name || normalised(got.sql) !== normalised(want.sql)) {
      throw new ProjectFileError(file, `is damaged: its ${want.type} "${want.name}" is not the one of its schema version ${version}; restore it from a backup or a copy`);
    }
  }
  const own = new Set(expected.map(keyOf));
  const later = expectedSchema(latestSchemaVersion).find((o) => !own.has(keyOf(o)) && have.has(keyOf(o)));
  if (later) {
    throw new ProjectFileError(file, `is damaged: it has the ${later.type} "${later.name}" of a later schema version than its header's ${version}; restore it from a backup or a copy`);
  }
}

/**
 * Brings the file to `target` (the latest version unless a test asks for an older one),
 * one numbered step after another, all in one transaction: a crash mid-migration leaves
 * the file at its old version, never half-way. A file newer than this build is refused
 * untouched, since an older build cannot know what its extra tables mean.
 */
export function migrate(db: Database.Database, file: string, target: number = latestSchemaVersion): number {
  if (!Number.isInteger(target) || target < 0 || target > latestSchemaVersion) {
    throw new RangeError(`schema version ${target} is not one this build knows (0 to ${latestSchemaVersion})`);
  }
  const from = schemaVersionOf(db);
  checkNotNewer(file, from);
  if (from >= target) return from;
  try {
    db.transaction(() => {
      for (let v = from; v < target; v++) db.exec(schemaSteps[v]!);
      // user_version lives in the file header, which the transaction covers.
      db.pragma(`user_version = ${target}`);
    }).immediate();
  } catch (e) {
    // The steps are fixed SQL that runs on every sound file of its version; one that fails
    // on a constraint met damaged rows (a b-tree whose lookups disagree with its scan, seen
    // by the project fuzz target as "FOREIGN KEY constraint failed"). The transaction rolled
    // back, so the file is as it was.
    const code = (e as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT')) {
      throw new ProjectFileError(file, `is damaged: its upgrade from project schema version ${from} failed (${e instanceof Error ? e.message : String(e)}); restore it from a backup or a copy`);
    }
    throw e;
  }
  return target;
}
