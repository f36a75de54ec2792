/**
 * The bake jobs the renderer can start, watch and cancel (contract methods `jobs.*` and
 * the `jobs.progress` event). A job bakes the open project's walkmeshes on the bake pool;
 * its state travels whole in every event, so a window that subscribes late (or reloads)
 * catches up from `jobs.list` and any single event.
 */
import * as s from './schema';

export type BakeScope = 'file' | 'module' | 'all';

export interface BakeJobParams {
  scope: BakeScope;
  /** Project file id, for scope 'file'. */
  fileId?: number;
  /** Module name, for scope 'module'. */
  module?: string;
  /** Bake even what already has a bake for exactly its current inputs. */
  force?: boolean;
  /** The project file to bake (scripts, tests)… */
  project?: string;
  /** …or the project open in the app, by its session (ProjectTree.session). */
  session?: string;
}

export type JobRunState = 'running' | 'done' | 'failed' | 'cancelled';

export interface JobFailure {
  /** `module/name` of the project file. */
  file: string;
  fileId?: number;
  message: string;
  /** The face (triangle) the message names, when it names one. */
  face?: number;
}

/** Failures carried in each event; the rest are only counted (`failed`). */
export const MAX_REPORTED_FAILURES = 200;

export interface JobProgress {
  jobId: number;
  /** The project file the job bakes (the page lists only the open project's jobs). */
  project: string;
  /** What the job does, e.g. `Bake everything`. */
  title: string;
  /** Files finished (baked, skipped as unchanged, or failed) of `total`. */
  done: number;
  total: number;
  /** The file last finished, or what the job is doing. */
  label: string;
  state: JobRunState;
  baked: number;
  skipped: number;
  failed: number;
  failures: JobFailure[];
  /** Grows with every update of this job, so a listener keeps only the newest state. */
  seq: number;
}

/** MAX_PATH_LENGTH of contract.ts, which imports this file (a cycle would leave it undefined here). */
const MAX_PATH_LENGTH = 32_767;
const count = s.number({ integer: true, min: 0, max: Number.MAX_SAFE_INTEGER });
const id = s.number({ integer: true, min: 1, max: Number.MAX_SAFE_INTEGER });

export const bakeJobParamsSchema = s.object({
  scope: s.literal('file', 'module', 'all'),
  fileId: s.optional(id),
  module: s.optional(s.string({ minLength: 1, maxLength: 1024 })),
  force: s.optional(s.boolean()),
  project: s.optional(s.string({ minLength: 1, maxLength: MAX_PATH_LENGTH })),
  session: s.optional(s.string({ minLength: 8, maxLength: 128 })),
});

export const jobFailureSchema = s.object({
  file: s.string({ maxLength: 4096 }),
  fileId: s.optional(id),
  message: s.string({ maxLength: 65_536 }),
  face: s.optional(count),
});

export const jobProgressSchema = s.object({
  jobId: id,
  project: s.string({ maxLength: MAX_PATH_LENGTH }),
  title: s.string({ maxLength: 4096 }),
  done: count,
  total: count,
  label: s.string({ maxLength: 4096 }),
  state: s.literal('running', 'done', 'failed', 'cancelled'),
  baked: count,
  skipped: count,
  failed: count,
  failures: s.array(jobFailureSchema, { maxLength: MAX_REPORTED_FAILURES }),
  seq: count,
});

export const jobIdParamsSchema = s.object({ jobId: id });
