/** The JSON a job kind reports beside its output bytes (counts, timings). */
export type JobSummary = Record<string, number | string | boolean>;

/** Lets a running job say which step it is on; the pool forwards each call as a progress event. */
export type ReportProgress = (stage: string, fraction: number) => void;

export interface JobResult {
  output: Uint8Array;
  summary: JobSummary;
}

/**
 * A job kind: a pure function of its input bytes and JSON options, so the same input
 * gives the same output bytes whichever worker runs it and however many there are.
 */
export type JobRunner = (input: Uint8Array, options: unknown, progress: ReportProgress) => JobResult;

export type JobRegistry = Readonly<Record<string, JobRunner>>;

/** What a caller submits. `input`'s buffer is transferred to the worker (it is detached afterwards). */
export interface JobSpec {
  kind: string;
  input: Uint8Array;
  options?: unknown;
  /** A name for events and summaries (e.g. the file name). */
  label?: string;
}

export type JobOutcome =
  | {
      status: 'done';
      id: number;
      output: Uint8Array;
      /** Lower-case hex SHA-256 of `output`, computed in the worker (the project records it; the main thread need not hash). */
      outputSha256: string;
      summary: JobSummary;
      elapsedMs: number;
    }
  | { status: 'failed'; id: number; error: string; elapsedMs: number }
  | { status: 'cancelled'; id: number };

export type PoolEvent =
  | { type: 'queued'; id: number; label: string }
  | { type: 'started'; id: number; label: string; worker: number }
  | { type: 'progress'; id: number; label: string; stage: string; fraction: number }
  | { type: 'finished'; id: number; label: string; outcome: JobOutcome };

/** Main thread → worker. */
export interface RunJobMessage {
  type: 'run';
  id: number;
  kind: string;
  input: Uint8Array;
  options: unknown;
}

/** Worker → main thread. */
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'progress'; id: number; stage: string; fraction: number }
  | { type: 'done'; id: number; output: Uint8Array; outputSha256: string; summary: JobSummary }
  | { type: 'failed'; id: number; error: string };

/** What every worker is started with. */
export interface BakeWorkerData {
  /** Module URLs whose `jobs` export (a JobRegistry) is added to the built-in kinds. */
  jobModules: readonly string[];
}
