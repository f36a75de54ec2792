/**
 * `npm run bench [-- --runs N --warmup N --suite NAME --files]`: read and write throughput
 * (MB/s, median of N timed runs after warm-up) and memory of every registered suite.
 * Figures are for reading, never pass/fail: the script exits 0 unless a codec throws.
 */
import { parseArgs } from 'node:util';
import type { BenchGroup, BenchSuite } from './bench-suite';
import { benchSuites } from './bench-suites';
import { runNwn2BakeBench } from './nwn2-bake-bench';
import { runKotorDeriveBench } from './kotor-bench';
import { runProjectBench, runProjectPipelineBench } from './project-bench';
import { runEditBench } from './edit-bench';
import { runEditServiceBench } from './edit-service-bench';
import { runNwn2LiveBakeBench } from './nwn2-live-bake-bench';
import { runBakePoolBench } from './bake-pool-bench';
import { runJobsBench } from './jobs-bench';
import { runSkyrimBakeBench } from './skyrim-bake-bench';
import { runPathBench } from './path-bench';
import { runPeersBench } from './peers-bench';
import { runViewportBench } from './viewport-bench';
import { runLevelContextBench } from './level-context-bench';
import { bufferBytes, collectGarbage, heapAndBuffers, peakRss, timePasses } from './measure';
import { renderTable, type Column } from './text-table';

const MB = 1e6;

interface Row {
  suite: string;
  group: string;
  files: number;
  bytes: number;
  readMs: number;
  writeMs: number | undefined;
  writtenBytes: number;
  /** ArrayBuffer bytes reachable from the parsed documents (exact). */
  docBytes: number;
  /** Heap + ArrayBuffers held by the parsed documents (after a full GC). */
  heldBytes: number;
  /** Heap + ArrayBuffers growth over one read pass with no GC forced (parse garbage included). */
  peakBytes: number;
}

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    warmup: { type: 'string', default: '5' },
    suite: { type: 'string' },
    files: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (opts.help) {
  process.stdout.write(
    'usage: npm run bench -- [--runs N] [--warmup N] [--suite NAME] [--files]\n' +
      '  --runs N     timed runs per row; the median is shown (default 7)\n' +
      '  --warmup N   untimed passes first (at least 250 ms of them), also used to size\n' +
      '               each sample (default 5)\n' +
      '  --suite S    only suites whose name contains S\n' +
      '  --files      one row per input file instead of per folder\n',
  );
  process.exit(0);
}

const runs = positiveInt(opts.runs, 'runs');
const warmups = positiveInt(opts.warmup, 'warmup');

function positiveInt(text: string, name: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`--${name} must be a positive integer, not ${text}\n`);
    process.exit(2);
  }
  return n;
}

function measureGroup<Doc>(suite: BenchSuite<Doc>, group: BenchGroup): Row {
  const inputs = group.inputs.map((i) => i.bytes);
  const bytes = inputs.reduce((s, b) => s + b.byteLength, 0);

  // Memory first, on a clean heap, before the timing passes leave garbage behind.
  collectGarbage();
  const base = heapAndBuffers();
  const held = inputs.map((b) => suite.read(b));
  const peakBytes = heapAndBuffers() - base;
  collectGarbage();
  const heldBytes = heapAndBuffers() - base;
  const docBytes = bufferBytes(held);

  const readMs = timePasses(() => {
    for (const b of inputs) suite.read(b);
  }, runs, warmups);

  let writeMs: number | undefined;
  let writtenBytes = 0;
  const write = suite.write;
  if (write) {
    for (const d of held) writtenBytes += write(d).byteLength;
    writeMs = timePasses(() => {
      for (const d of held) write(d);
    }, runs, warmups);
  }
  return { suite: suite.name, group: group.label, files: inputs.length, bytes, readMs, writeMs, writtenBytes, docBytes, heldBytes, peakBytes };
}

function totalRow(suite: string, rows: readonly Row[]): Row {
  const sum = (f: (r: Row) => number) => rows.reduce((s, r) => s + f(r), 0);
  const allWrite = rows.every((r) => r.writeMs !== undefined);
  return {
    suite,
    group: 'total',
    files: sum((r) => r.files),
    bytes: sum((r) => r.bytes),
    readMs: sum((r) => r.readMs),
    writeMs: allWrite ? sum((r) => r.writeMs ?? 0) : undefined,
    writtenBytes: sum((r) => r.writtenBytes),
    docBytes: sum((r) => r.docBytes),
    heldBytes: sum((r) => r.heldBytes),
    peakBytes: Math.max(...rows.map((r) => r.peakBytes)),
  };
}

const columns: Column[] = [
  { header: 'suite', align: 'left' },
  { header: 'group', align: 'left' },
  { header: 'files' },
  { header: 'MB' },
  { header: 'read ms' },
  { header: 'read MB/s' },
  { header: 'write MB/s' },
  { header: 'doc MB' },
  { header: 'doc/input' },
  { header: 'held MB' },
  { header: 'read peak MB' },
];

function cells(r: Row): string[] {
  return [
    r.suite,
    r.group,
    String(r.files),
    (r.bytes / MB).toFixed(2),
    r.readMs.toFixed(1),
    (r.bytes / MB / (r.readMs / 1000)).toFixed(0),
    r.writeMs === undefined ? '-' : (r.writtenBytes / MB / (r.writeMs / 1000)).toFixed(0),
    (r.docBytes / MB).toFixed(2),
    `${(r.docBytes / r.bytes).toFixed(2)}x`,
    (r.heldBytes / MB).toFixed(1),
    (r.peakBytes / MB).toFixed(1),
  ];
}

const table: string[][] = [];
for (const suite of benchSuites) {
  if (opts.suite !== undefined && !suite.name.includes(opts.suite)) continue;
  let groups = suite.groups();
  if (opts.files) groups = groups.flatMap((g) => g.inputs.map((i) => ({ label: `${g.label}/${i.name}`, inputs: [i] })));
  const rows = groups.map((g) => measureGroup(suite, g));
  for (const r of rows) table.push(cells(r));
  if (rows.length > 1) table.push(cells(totalRow(suite.name, rows)));
}

process.stdout.write(
  `Walkbench bench: node ${process.version}, ${process.arch}; median of ${runs} timed run(s) after at least ${warmups} warm-up pass(es) and 250 ms; MB = 10^6 bytes\n\n`,
);
process.stdout.write(`${renderTable(columns, table)}\n\n`);
process.stdout.write(
  'doc MB: bytes of the typed arrays of the parsed documents (exact). held MB: heap + ArrayBuffers held by them after\n' +
    'a full GC (measured; noisy below ~0.1 MB). read peak MB: heap + ArrayBuffers growth over one read pass with no\n' +
    'GC forced (parse garbage included; the largest group for totals).\n',
);
process.stdout.write(`process peak RSS: ${(peakRss() / MB).toFixed(0)} MB\n`);

if (opts.suite === undefined || 'nwn2 bake'.includes(opts.suite)) {
  process.stdout.write('\n');
  runNwn2BakeBench({ runs, warmup: warmups });
}

if (opts.suite === undefined || 'kotor derive'.includes(opts.suite)) {
  process.stdout.write('\n');
  runKotorDeriveBench();
}

if (opts.suite === undefined || 'skyrim bake'.includes(opts.suite)) {
  process.stdout.write('\n');
  runSkyrimBakeBench();
}

if (opts.suite === undefined || 'bake pool'.includes(opts.suite)) {
  process.stdout.write('\n');
  await runBakePoolBench();
}

if (opts.suite === undefined || 'jobs'.includes(opts.suite)) {
  process.stdout.write('\n');
  await runJobsBench();
}

if (opts.suite === undefined || 'project'.includes(opts.suite)) {
  process.stdout.write('\n');
  runProjectBench();
  await runProjectPipelineBench();
}

if (opts.suite === undefined || 'path'.includes(opts.suite)) {
  process.stdout.write('\n');
  runPathBench();
}

if (opts.suite === undefined || 'peers'.includes(opts.suite)) {
  process.stdout.write('\n');
  await runPeersBench({ runs: Math.min(runs, 3) });
}

if (opts.suite === undefined || 'edits'.includes(opts.suite)) {
  process.stdout.write('\n');
  runEditBench();
}

if (opts.suite === undefined || 'edit service'.includes(opts.suite)) {
  process.stdout.write('\n');
  await runEditServiceBench();
}

if (opts.suite === undefined || 'nwn2 live bake'.includes(opts.suite)) {
  process.stdout.write('\n');
  await runNwn2LiveBakeBench({ runs });
}

if (opts.suite === undefined || 'viewport'.includes(opts.suite)) {
  process.stdout.write('\n');
  await runViewportBench({ runs });
}

if (opts.suite === undefined || 'level context'.includes(opts.suite)) {
  process.stdout.write('\n');
  await runLevelContextBench();
}
