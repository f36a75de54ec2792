import { formatCount, renderTable, type Column } from '../bench/text-table';
import { INFLATED_FACTOR, MEMORY_ALLOWANCE, MEMORY_FACTOR, RATIO_FLOOR } from './fuzz-engine';
import type { FuzzTarget } from './fuzz-target';
import type { RunResult } from './fuzz-run';
import type { FuzzStats } from './fuzz-stats';
import { MUTATORS } from './mutators';

const MB = 1e6;

export function progressLine(stats: FuzzStats, elapsedMs: number, total: number, minutes?: number): string {
  const done = stats.completed;
  const rate = done / (elapsedMs / 1000);
  const eta = minutes !== undefined ? Math.max(0, minutes * 60 - elapsedMs / 1000) : rate > 0 ? (total - done) / rate : 0;
  return (
    `[fuzz] ${formatCount(done)}${minutes !== undefined ? '' : `/${formatCount(total)}`} iterations, ${rate.toFixed(0)}/s, ` +
    `read OK ${formatCount(stats.total('accepted'))}, rejected ${formatCount(stats.total('rejected'))}, ` +
    `failures ${formatCount(stats.total('failed'))}, peak heap+buffers ${(stats.peakMemory / MB).toFixed(1)} MB, ` +
    `${minutes !== undefined ? 'time left' : 'ETA'} ${(eta / 60).toFixed(1)} min`
  );
}

export function summary(result: RunResult, processPeakRss: number, target?: Pick<FuzzTarget<unknown>, 'memoryFactor' | 'inflatedFactor'>): string {
  const { stats } = result;
  const columns: Column[] = [
    { header: 'mutator', align: 'left' },
    { header: 'inputs' },
    { header: 'read OK' },
    { header: 'rejected' },
    { header: 'failures' },
  ];
  const rows = MUTATORS.map((m) => {
    const a = stats.count(m, 'accepted');
    const r = stats.count(m, 'rejected');
    const f = stats.count(m, 'failed');
    return [m, formatCount(a + r + f), formatCount(a), formatCount(r), formatCount(f)];
  });
  const a = stats.total('accepted');
  const r = stats.total('rejected');
  const f = stats.total('failed');
  rows.push(['total', formatCount(a + r + f), formatCount(a), formatCount(r), formatCount(f)]);
  const seconds = result.elapsedMs / 1000;
  const signatureRows = [...result.signatures.entries()].map(([sig, { count, first }]) => [formatCount(count), String(first.iteration), sig]);
  const failureTable =
    signatureRows.length === 0
      ? []
      : ['', renderTable([{ header: 'failures' }, { header: 'first at' }, { header: 'signature', align: 'left' }], signatureRows)];
  const growth = stats.maxGrowth;
  return [
    renderTable(columns, rows),
    ...failureTable,
    '',
    `time ${seconds.toFixed(1)} s, ${(stats.completed / seconds).toFixed(0)} iterations/s, ` +
      `${(stats.bytesParsed / MB).toFixed(0)} MB of mutated input (${(stats.bytesParsed / MB / seconds).toFixed(0)} MB/s)`,
    `peak heap + ArrayBuffers of the parsing thread ${(stats.peakMemory / MB).toFixed(1)} MB; peak process RSS ${(processPeakRss / MB).toFixed(0)} MB`,
    `largest growth over one parse ${(growth.bytes / MB).toFixed(2)} MB (input ${formatCount(growth.inputLength)} bytes); ` +
      `max growth/input ${stats.maxRatio.toFixed(2)}x (inputs >= ${RATIO_FLOOR / 1024} KiB)`,
    `memory bound per parse ${target?.memoryFactor ?? MEMORY_FACTOR} x input + ${target?.inflatedFactor ?? INFLATED_FACTOR} x inflated + ${MEMORY_ALLOWANCE / (1024 * 1024)} MiB; ` +
      `the highest growth was ${(stats.maxBoundShare * 100).toFixed(1)}% of its bound; ` +
      `${formatCount(stats.remeasured)} parse(s) re-measured after a GC ran during them`,
  ].join('\n');
}
