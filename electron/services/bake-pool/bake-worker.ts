import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import type { BakeWorkerData, JobRegistry, RunJobMessage, WorkerReply } from './bake-job-types';
import { builtinJobs } from './builtin-jobs';

/**
 * A bake worker: runs one job at a time and posts its progress and result. Output bytes
 * go back as a transferred ArrayBuffer (never copied), with their SHA-256. A job that throws is reported as
 * failed and the worker takes the next one; one that kills the thread (out of memory) is
 * noticed by the pool, which fails that job and starts a new worker.
 */
async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('bake-worker must run in a worker thread');
  const data = workerData as BakeWorkerData;
  const jobs: Record<string, JobRegistry[string]> = { ...builtinJobs };
  for (const url of data.jobModules) {
    const mod = (await import(url)) as { jobs?: JobRegistry };
    if (mod.jobs) Object.assign(jobs, mod.jobs);
  }
  const post = (m: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  port.on('message', (m: RunJobMessage) => {
    const runner = jobs[m.kind];
    if (!runner) {
      post({ type: 'failed', id: m.id, error: `unknown job kind '${m.kind}' (known: ${Object.keys(jobs).join(', ')})` });
      return;
    }
    try {
      const result = runner(m.input, m.options, (stage, fraction) => post({ type: 'progress', id: m.id, stage, fraction }));
      const output = ownedBytes(result.output, m.input);
      // Hashed here, in parallel with the other workers, not on the main thread that records it.
      const outputSha256 = createHash('sha256').update(output).digest('hex');
      post({ type: 'done', id: m.id, output, outputSha256, summary: result.summary }, [output.buffer as ArrayBuffer]);
    } catch (e) {
      post({ type: 'failed', id: m.id, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
    }
  });
  post({ type: 'ready' });
}

/**
 * The output as bytes that own their whole buffer, so transferring it moves exactly them.
 * A view into a larger buffer (or into the input) is copied first.
 */
function ownedBytes(out: Uint8Array, input: Uint8Array): Uint8Array {
  const whole = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength && out.buffer !== input.buffer;
  return whole && out.buffer instanceof ArrayBuffer ? out : out.slice();
}

void main();
