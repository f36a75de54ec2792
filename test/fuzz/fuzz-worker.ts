/**
 * Worker entry: runs a range of iterations and posts each failure. The main thread's
 * watchdog reads the iteration in progress from the shared stats, so a hang or a heap
 * overflow here is still reported with its iteration.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { FuzzEngine, type FuzzFailure } from './fuzz-engine';
import { FuzzStats, WorkerState } from './fuzz-stats';
import type { CorpusOptions } from './fuzz-target';
import { targetByName } from './fuzz-targets';

export interface WorkerInput {
  target: string;
  seed: number;
  from: number;
  to: number;
  corpus: CorpusOptions;
  stats: SharedArrayBuffer;
}

export type WorkerMessage = { type: 'failure'; failure: FuzzFailure } | { type: 'done' };

const input = workerData as WorkerInput;
const port = parentPort;
if (!port) throw new Error('fuzz-worker.ts runs as a worker thread');
const stats = new FuzzStats(input.stats);
stats.state = WorkerState.Loading;
const target = targetByName(input.target);
if (!target) throw new Error(`unknown target ${input.target}`);
const engine = new FuzzEngine(target, target.loadCorpus(input.corpus), input.seed);
stats.state = WorkerState.Running;
for (let i = input.from; i < input.to; i++) {
  stats.iteration = i;
  const failure = engine.run(i, stats);
  if (failure) port.postMessage({ type: 'failure', failure } satisfies WorkerMessage);
}
stats.state = WorkerState.Done;
port.postMessage({ type: 'done' } satisfies WorkerMessage);
