/**
 * Bake jobs as the page sees them in browser mode: the time from `jobs.bake` to the
 * job's final `jobs.progress` event arriving through the browser server's event stream
 * (server-sent events read by the renderer's own transport), for a project of the KotOR
 * fixture walkmeshes, first baking and then all skipped; and the delivery time of one
 * event from the services to a listener in the page's transport. Printed, never asserted.
 * Run alone with `node --import tsx test/bench/jobs-bench.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBrowserServer } from '../../electron/services/browser-server';
import type { JobService } from '../../electron/services/job-service';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { createHttpTransport } from '../../renderer/src/transport/http-transport';
import { BWM_FORMAT } from '../../shared/formats/kotor/bwm-document';
import { createEventHub } from '../../shared/ipc/event-hub';
import type { BakeJobParams, JobProgress } from '../../shared/ipc/jobs-contract';
import { listFixtures, readFixture } from '../support/fixtures';

export interface JobsBenchResult {
  files: number;
  bakeMs: number;
  skipMs: number;
  /** One file re-baked (forced) while the workers are still up from the jobs before. */
  warmFileMs: number;
  events: number;
  eventMedianMs: number;
  eventP95Ms: number;
}

function withStore<T>(file: string, fn: (s: ProjectStore) => T): T {
  const s = ProjectStore.open(file);
  try {
    return fn(s);
  } finally {
    s.close();
  }
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export async function runJobsBench(out: (text: string) => void = (t) => void process.stdout.write(t)): Promise<JobsBenchResult> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-jobs-bench-'));
  const project = path.join(tmp, 'bench.wbproj');
  const woks = listFixtures('kotor', ['.wok']);
  const store = ProjectStore.create(project, { name: 'bench', game: 'kotor' });
  try {
    for (const f of woks) store.upsertFile({ module: path.basename(path.dirname(f)), name: path.basename(f), kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(f) });
  } finally {
    store.close();
  }
  const events = createEventHub();
  let jobs: JobService | undefined;
  const server = await startBrowserServer({
    service: createWalkbenchService({ events, onJobService: (j) => (jobs = j) }),
    events,
    rendererDir: path.join(tmp, 'no-renderer'),
  });
  const transport = createHttpTransport(server.origin, server.token);
  /** Final states as they arrive, and who waits for one. */
  const finals = new Map<number, JobProgress>();
  const waiting = new Map<number, (p: JobProgress) => void>();
  let received = 0;
  const off = transport.on('jobs.progress', (p) => {
    received++;
    if (p.state === 'running') return;
    finals.set(p.jobId, p);
    waiting.get(p.jobId)?.(p);
  });
  try {
    const bakeOnce = async (params: BakeJobParams = { scope: 'all' }): Promise<{ ms: number; final: JobProgress }> => {
      const t0 = performance.now();
      const outcome = await transport.invoke('jobs.bake', { ...params, project });
      if (!outcome.ok) throw new Error(outcome.error.message);
      const { jobId } = outcome.value;
      // The final event may have come before the answer was read.
      const final = finals.get(jobId) ?? (await new Promise<JobProgress>((resolve) => waiting.set(jobId, resolve)));
      return { ms: performance.now() - t0, final };
    };
    // The stream must be open before timing: wait for a first event to get through.
    await new Promise<void>((resolve) => {
      const tick = setInterval(() => events.emit('app.command', { command: 'frame-all' }), 20);
      const stop = transport.on('app.command', () => {
        clearInterval(tick);
        stop();
        resolve();
      });
    });
    const first = await bakeOnce();
    if (first.final.baked !== woks.length) throw new Error(`expected ${woks.length} bakes, got ${JSON.stringify(first.final)}`);
    const eventsOfFirst = received;
    const second = await bakeOnce();
    if (second.final.skipped !== woks.length) throw new Error(`expected ${woks.length} skipped, got ${JSON.stringify(second.final)}`);
    const one = withStore(project, (s) => s.listFiles({ kind: 'walkmesh' })[0]!.id);
    const warm = await bakeOnce({ scope: 'file', fileId: one, force: true });
    if (warm.final.baked !== 1) throw new Error(`expected 1 bake, got ${JSON.stringify(warm.final)}`);

    // One event at a time, from the hub to the listener in the page's transport.
    const latencies: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await new Promise<void>((resolve) => {
        const stop = transport.on('app.openFileRequested', () => {
          stop();
          resolve();
        });
        events.emit('app.openFileRequested', { path: `/bench/${i}.nav` });
      });
      latencies.push(performance.now() - t0);
    }
    latencies.sort((a, b) => a - b);
    const result: JobsBenchResult = {
      files: woks.length,
      bakeMs: first.ms,
      skipMs: second.ms,
      warmFileMs: warm.ms,
      events: eventsOfFirst,
      eventMedianMs: quantile(latencies, 0.5),
      eventP95Ms: quantile(latencies, 0.95),
    };
    out(`bake jobs (browser mode, progress over server-sent events), ${result.files} KotOR walkmeshes\n`);
    out(`  bake everything: ${result.bakeMs.toFixed(0)} ms to the final event (${result.events} progress events)\n`);
    out(`  again, all unchanged: ${result.skipMs.toFixed(0)} ms\n`);
    out(`  one file forced, workers still up: ${result.warmFileMs.toFixed(0)} ms\n`);
    out(`  one event, services to page listener: median ${result.eventMedianMs.toFixed(2)} ms, p95 ${result.eventP95Ms.toFixed(2)} ms\n`);
    return result;
  } finally {
    off();
    await jobs?.close();
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runJobsBench();
}
