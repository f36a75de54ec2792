/**
 * Path query times (`walkbench path`) on the largest fixture of each game: the time to
 * build the path surface once, then per query (point location, search, string pulling)
 * the median and 99th percentile over random pairs of walkable points that can reach each
 * other. Figures for reading, never pass/fail. Runs from `npm run bench` through
 * runPathBench, or alone: `node --import tsx test/bench/path-bench.ts [--pairs N]`.
 */
import path from 'node:path';
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { nodeFormatEnvironment } from '../../electron/services/node-format-environment';
import { seededRandom } from '../../shared/bakers/nwn2/point-reachability';
import { loadDocument } from '../../shared/formats/inspect-file';
import { Nwn2PathSurface } from '../../shared/pathing/nwn2-path';
import { pathSurfaceFor } from '../../shared/pathing/path-for-document';
import type { Point3 } from '../../shared/pathing/path-result';
import type { PathSurface } from '../../shared/pathing/path-surface';
import { fixtureName, listFixtures, readFixture } from '../support/fixtures';
import { median } from './measure';
import { formatCount, renderTable, type Column } from './text-table';

export interface PathBenchOptions {
  /** Reachable pairs timed per file (default 500). */
  pairs?: number;
  out?: (text: string) => void;
}

const GAMES: { game: string; sub: string; extensions: string[] }[] = [
  { game: 'nwn2', sub: 'nwn2', extensions: ['.trx'] },
  { game: 'kotor', sub: 'kotor', extensions: ['.wok'] },
  { game: 'skyrim', sub: 'skyrim', extensions: ['.esp', '.esm'] },
  { game: 'source', sub: 'source', extensions: ['.nav'] },
];

function largest(files: string[]): string {
  return files.reduce((a, b) => (statSync(b).size > statSync(a).size ? b : a));
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

/** Random walkable node pairs the surface's own connectivity (or NWN2's baked tables) says are joined. */
function reachablePairs(surface: PathSurface, count: number): [Point3, Point3][] {
  const G = surface.graph;
  const comp = surface.diagnostics.components();
  const nodes: number[] = [];
  for (let v = 0; v < G.nodeCount; v++) if (G.walkable[v]) nodes.push(v);
  const random = seededRandom(0x9a7b);
  const centre = (v: number): Point3 => [G.centre[v * 3]!, G.centre[v * 3 + 1]!, G.centre[v * 3 + 2]!];
  const pairs: [Point3, Point3][] = [];
  for (let tries = 0; pairs.length < count && tries < count * 200; tries++) {
    const a = nodes[Math.floor(random() * nodes.length)]!, b = nodes[Math.floor(random() * nodes.length)]!;
    const ok = surface instanceof Nwn2PathSurface && surface.baked ? surface.bakedReachable(a, b) : comp[a] === comp[b];
    if (!ok) continue;
    const r = surface.findPath(centre(a), centre(b), { tolerance: 0 });
    if (r.found) pairs.push([centre(a), centre(b)]);
  }
  return pairs;
}

export function runPathBench(options: PathBenchOptions = {}): void {
  const count = options.pairs ?? 500;
  const out = options.out ?? ((text: string) => void process.stdout.write(text));
  const rows: string[][] = [];
  for (const { game, sub, extensions } of GAMES) {
    const file = largest(listFixtures(sub, extensions));
    const bytes = readFixture(file);
    const t0 = performance.now();
    const surface = pathSurfaceFor(loadDocument(file, bytes, nodeFormatEnvironment), path.basename(file));
    const buildMs = performance.now() - t0;
    const pairs = reachablePairs(surface, count);
    const variants: [string, PathSurface][] = [[game, surface]];
    // Walkbench's own A* on the same NWN2 walkmesh: its tables marked stale (issue 18's target row).
    if (surface instanceof Nwn2PathSurface && surface.baked) variants.push([`${game} (A*)`, new Nwn2PathSurface({ ...surface.aswm, bakeStale: true }, path.basename(file))]);
    for (const [label, s] of variants) {
      // Warm-up over the same pairs, so the timed pass measures optimised code.
      for (const [a, b] of pairs.slice(0, 100)) s.findPath(a, b, { tolerance: 0 });
      const times: number[] = [];
      let crossed = 0;
      for (const [a, b] of pairs) {
        const q0 = performance.now();
        const r = s.findPath(a, b, { tolerance: 0 });
        times.push(performance.now() - q0);
        crossed += r.facesCrossed;
      }
      times.sort((x, y) => x - y);
      rows.push([
        label,
        fixtureName(file),
        formatCount(s.graph.nodeCount),
        s.graph.nodeNoun,
        s === surface ? buildMs.toFixed(0) : '-',
        String(pairs.length),
        times.length ? median(times).toFixed(3) : '-',
        times.length ? percentile(times, 0.95).toFixed(3) : '-',
        times.length ? percentile(times, 0.99).toFixed(3) : '-',
        times.length ? (crossed / times.length).toFixed(0) : '-',
        s.method,
      ]);
    }
  }
  const columns: Column[] = [
    { header: 'game', align: 'left' },
    { header: 'file', align: 'left' },
    { header: 'nodes' },
    { header: 'of', align: 'left' },
    { header: 'build ms' },
    { header: 'queries' },
    { header: 'median ms' },
    { header: 'p95 ms' },
    { header: 'p99 ms' },
    { header: 'crossed' },
    { header: 'method', align: 'left' },
  ];
  out(`Path queries (walkbench path) on the largest fixture of each game: node ${process.version}, one core; reachable pairs of node centres\n\n`);
  out(`${renderTable(columns, rows)}\n\n`);
  out('build ms: reading the file and building the path surface once. median/p95/p99 ms: one query (locate both points, search, string pulling); the tail is sensitive to other load on the machine. crossed: mean nodes crossed.\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { pairs: { type: 'string', default: '500' } } });
  runPathBench({ pairs: Number(values.pairs) });
}
