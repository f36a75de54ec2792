import type Database from 'better-sqlite3';
import { ProjectFileError } from './project-file-error';
import { latestSchemaVersion, schemaSteps } from './project-schema';

export function schemaVersionOf(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
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
  if (from > latestSchemaVersion) {
    throw new ProjectFileError(
      file,
      `this project was written by a newer Walkbench (project schema version ${from}; this build reads up to version ${latestSchemaVersion}); update Walkbench to open it`,
    );
  }
  if (from >= target) return from;
  db.transaction(() => {
    for (let v = from; v < target; v++) db.exec(schemaSteps[v]!);
    // user_version lives in the file header, which the transaction covers.
    db.pragma(`user_version = ${target}`);
  }).immediate();
  return target;
}
