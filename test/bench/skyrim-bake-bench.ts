/**
 * Skyrim navmesh rebake timings (`walkbench bake PLUGIN.esp`): per fixture navmesh, the
 * time to recompute edge links, cover list, grid and NVMI fields, median of N runs after
 * warm-up, the time of one edit (moving a vertex: grid and NAVI entry rebuilt), plus the
 * agreement with the plugin's own stored data. Plugin read and write throughput is the
 * `skyrim plugin` suite of the main table (skyrimPluginBench). Figures for reading, never
 * pass/fail. Runs from `npm run bench` through runSkyrimBakeBench, or alone:
 * `node --import tsx test/bench/skyrim-bake-bench.ts [--runs N]`.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { applyNavmeshEdit } from '../../shared/bakers/skyrim/navmesh-edit';
import { compareRebake, rebakePlugin } from '../../shared/bakers/skyrim/plugin-rebake';
import { formIdHex, type PluginDocument } from '../../shared/formats/skyrim/plugin-document';
import { readPlugin } from '../../shared/formats/skyrim/plugin-reader';
import { writePlugin } from '../../shared/formats/skyrim/plugin-writer';
import type { BenchSuite } from './bench-suite';
import { nodeFormatEnvironment } from '../../electron/services/node-format-environment';
import { listFixtures, readFixture } from '../support/fixtures';
import { median } from './measure';
import { formatCount, renderTable, type Column } from './text-table';

/** Plugin read and write (zlib level 9 for every compressed record) for the main throughput table, one row per fixture. */
export const skyrimPluginBench: BenchSuite<PluginDocument> = {
  name: 'skyrim plugin',
  groups: () => listFixtures('skyrim', ['.esp', '.esm']).map((file) => ({ label: path.basename(file), inputs: [{ name: path.basename(file), bytes: readFixture(file) }] })),
  read: (bytes) => readPlugin(bytes, nodeFormatEnvironment),
  write: (doc) => writePlugin(doc, nodeFormatEnvironment),
};

/** Median ms of moving the navmesh's vertex 0 (the edit rebuilds its grid and NVMI entry). */
function editMs(doc: PluginDocument, formId: number, runs: number, clock: () => number): number {
  const samples: number[] = [];
  for (let r = 0; r < 3; r++) applyNavmeshEdit(doc, { kind: 'move-vertices', navmesh: formId, vertices: [0], positions: [r, r, 0] });
  for (let r = 0; r < runs; r++) {
    const t0 = clock();
    applyNavmeshEdit(doc, { kind: 'move-vertices', navmesh: formId, vertices: [0], positions: [r, r, 0] });
    samples.push(clock() - t0);
  }
  return median(samples);
}

export interface SkyrimBakeBenchOptions {
  /** Timed runs per navmesh (the median is shown). */
  runs?: number;
  /** Untimed runs first (at least this many and 100 ms per plugin). */
  warmup?: number;
  out?: (text: string) => void;
}

export function runSkyrimBakeBench(options: SkyrimBakeBenchOptions = {}): void {
  const runs = options.runs ?? 9;
  const warmup = options.warmup ?? 3;
  const out = options.out ?? ((text: string) => void process.stdout.write(text));
  const clock = () => performance.now();
  const rows: string[][] = [];
  let totalMs = 0;
  let totalTriangles = 0;
  for (const file of listFixtures('skyrim', ['.esp', '.esm'])) {
    const doc = readPlugin(readFixture(file), nodeFormatEnvironment);
    const start = clock();
    for (let i = 0; i < warmup || clock() - start < 100; i++) rebakePlugin(doc);
    const samples = new Map<number, number[]>();
    let last = rebakePlugin(doc, { clock });
    for (let r = 0; r < runs; r++) {
      last = rebakePlugin(doc, { clock });
      for (const n of last.navmeshes) samples.set(n.formId, [...(samples.get(n.formId) ?? []), n.milliseconds]);
    }
    const agreement = new Map(compareRebake(last).map((a) => [a.formId, a.comparison]));
    for (const n of last.navmeshes) {
      const ms = median(samples.get(n.formId)!);
      const edit = n.after.vertices.length ? editMs(doc, n.formId, runs, clock).toFixed(3) : 'n/a';
      const a = agreement.get(n.formId)?.agreement;
      const pct = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(1)} %`);
      totalMs += ms;
      totalTriangles += n.after.triFlags.length;
      rows.push([
        path.basename(file), formIdHex(n.formId), formatCount(n.after.triFlags.length), String(n.after.gridDivisor), ms.toFixed(3),
        ((ms * 1000) / Math.max(1, n.after.triFlags.length)).toFixed(2), edit, pct(a?.edgeLinks), pct(a?.coverList), pct(a?.grid), pct(a?.navi),
      ]);
    }
  }
  const columns: Column[] = [
    { header: 'plugin', align: 'left' },
    { header: 'navmesh', align: 'left' },
    { header: 'triangles' },
    { header: 'divisor' },
    { header: 'rebake ms' },
    { header: 'µs/tri' },
    { header: 'edit ms' },
    { header: 'edge links' },
    { header: 'cover' },
    { header: 'grid' },
    { header: 'NAVI' },
  ];
  out(`Skyrim navmesh rebake (walkbench bake PLUGIN.esp): node ${process.version}, one core; median of ${runs} run(s) after ${warmup}+ warm-up run(s)\n\n`);
  out(`${renderTable(columns, rows)}\n\n`);
  out(`All ${rows.length} navmeshes (${formatCount(totalTriangles)} triangles): ${totalMs.toFixed(2)} ms. Agreement columns compare with each plugin's own stored data; edit ms moves one vertex (grid and NAVI entry rebuilt).\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '9' } } });
  runSkyrimBakeBench({ runs: Number(values.runs) });
}
