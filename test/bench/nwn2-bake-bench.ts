/**
 * NWN2 re-bake timings (`walkbench bake`): every fixture TRX (total and the largest ones)
 * and generated exteriors up to the largest the game allows (48 × 48 tiles, 165,888
 * triangles), per baking step, median of N runs after warm-up. Figures for reading, never
 * pass/fail. Runs from `npm run bench` through runNwn2BakeBench, or alone:
 * `node --import tsx test/bench/nwn2-bake-bench.ts [--runs N] [--quick]`.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { generateExteriorAswm } from '../../shared/bakers/nwn2/exterior-generator';
import { rebakeAswm, type BakeResult, type BakeTimings } from '../../shared/bakers/nwn2/trx-rebake';
import { NODE_LOS_BIT, NO_NODE, type AswmDocument } from '../../shared/formats/nwn2/aswm-document';
import { aswmPacketOf } from '../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../shared/formats/nwn2/trx-reader';
import { nodeFormatEnvironment } from '../../electron/services/node-format-environment';
import { listFixtures, readFixture } from '../support/fixtures';
import { median } from './measure';
import { formatCount, renderTable, type Column } from './text-table';

export interface Nwn2BakeBenchOptions {
  /** Timed runs per row (the median is shown). */
  runs?: number;
  /** Untimed runs first (at least this many and 250 ms). */
  warmup?: number;
  /** Skip the scaling rows (generated exteriors of 12, 24 and 36 tiles). */
  quick?: boolean;
  out?: (text: string) => void;
}

interface Input {
  label: string;
  meshes: AswmDocument[];
  target?: number;
}

type Step = Exclude<keyof BakeTimings, 'total'>;
const STEPS: Step[] = ['edges', 'tilePaths', 'lineOfSight', 'islands', 'islandPaths'];

interface Row {
  label: string;
  triangles: number;
  walkable: number;
  tilePairs: number;
  islands: number;
  total: number;
  steps: Record<Step, number>;
  target?: number;
}

/** Bakes each input's meshes once per run; per step, the median over runs of the summed time. */
function measure(input: Input, runs: number, warmup: number): Row {
  const bakeAll = () => input.meshes.map((m) => rebakeAswm(m));
  const start = performance.now();
  let first: BakeResult[] = bakeAll();
  for (let i = 1; i < warmup || performance.now() - start < 250; i++) first = bakeAll();
  const samples: Record<Step | 'total', number[]> = { edges: [], tilePaths: [], lineOfSight: [], islands: [], islandPaths: [], total: [] };
  for (let r = 0; r < runs; r++) {
    const results = bakeAll();
    for (const key of [...STEPS, 'total'] as const) samples[key].push(results.reduce((s, x) => s + x.timings[key], 0));
  }
  const steps = Object.fromEntries(STEPS.map((s) => [s, median(samples[s])])) as Record<Step, number>;
  return {
    label: input.label,
    triangles: first.reduce((s, x) => s + x.counts.triangles, 0),
    walkable: first.reduce((s, x) => s + x.counts.walkableTriangles, 0),
    tilePairs: first.reduce((s, x) => s + x.counts.reachableTilePairs, 0),
    islands: first.reduce((s, x) => s + x.counts.islands, 0),
    total: median(samples.total),
    steps,
    target: input.target,
  };
}

function load(file: string): AswmDocument {
  const p = aswmPacketOf(readTrx(readFixture(file), nodeFormatEnvironment));
  if (!p) throw new Error(`${file} has no walkmesh`);
  return p.aswm;
}

export function runNwn2BakeBench(options: Nwn2BakeBenchOptions = {}): void {
  const runs = options.runs ?? 7;
  const warmup = options.warmup ?? 3;
  const out = options.out ?? ((text: string) => void process.stdout.write(text));

  const fixtures = listFixtures('nwn2', ['.trx']).map((f) => ({ name: path.basename(f), mesh: load(f) }));
  const bySize = [...fixtures].sort((a, b) => b.mesh.triFlags.length - a.mesh.triFlags.length);
  const maze = fixtures.find((f) => f.name === 'ud_maze_to_lake_03.trx');
  const inputs: Input[] = [{ label: `fixtures: all ${fixtures.length} TRX`, meshes: fixtures.map((f) => f.mesh) }];
  if (maze) inputs.push({ label: `fixture ${maze.name} (the largest file)`, meshes: [maze.mesh], target: 200 });
  if (bySize[0] && bySize[0] !== maze) inputs.push({ label: `fixture ${bySize[0].name} (most triangles)`, meshes: [bySize[0].mesh] });
  if (!options.quick) {
    for (const tiles of [12, 24, 36]) {
      inputs.push({ label: `generated exterior ${tiles}x${tiles}`, meshes: [generateExteriorAswm({ tiles, border: tiles / 6, patches: Math.round((160 * (tiles - tiles / 3) ** 2) / 1024) })] });
    }
  }
  inputs.push({ label: 'generated exterior 48x48 (8-tile border)', meshes: [generateExteriorAswm()], target: 1000 });

  const rows = inputs.map((i) => measure(i, runs, warmup));
  const columns: Column[] = [
    { header: 'input', align: 'left' },
    { header: 'triangles' },
    { header: 'walkable' },
    { header: 'tile pairs' },
    { header: 'islands' },
    { header: 'bake ms' },
    { header: 'target' },
    { header: 'edges' },
    { header: 'tile paths' },
    { header: 'line of sight' },
    { header: 'islands ms' },
    { header: 'island paths' },
    { header: 'µs/walkable tri' },
  ];
  const ms = (x: number) => x.toFixed(1);
  const table = rows.map((r) => [
    r.label,
    formatCount(r.triangles),
    formatCount(r.walkable),
    formatCount(r.tilePairs),
    formatCount(r.islands),
    ms(r.total),
    r.target === undefined ? '' : `< ${r.target} ${r.total < r.target ? 'met' : 'MISSED'}`,
    ms(r.steps.edges),
    ms(r.steps.tilePaths),
    ms(r.steps.lineOfSight),
    ms(r.steps.islands),
    ms(r.steps.islandPaths),
    ((r.total * 1000) / Math.max(1, r.walkable)).toFixed(2),
  ]);
  const los = lineOfSightAgainstToolset(fixtures.map((f) => f.mesh));
  out(`NWN2 re-bake (walkbench bake): node ${process.version}, one core; median of ${runs} run(s) after ${warmup}+ warm-up run(s); times in ms\n\n`);
  out(`${renderTable(columns, table)}\n\n`);
  out(
    'Steps: edges = edges, links and centres; tile paths = one Dijkstra per walkable triangle inside its tile; line of sight =\n' +
      'walls, overlaps and pair tests; islands = components, centres, adjacency; island paths = one Dijkstra per island (its table\n' +
      'grows with islands²). The generated exteriors keep an unwalkable border of 1/6 of their tiles (8 of 48), as an exterior\n' +
      'TRN does, with the same density of unwalkable patches inside; µs/walkable tri stays flat when the bake scales linearly.\n',
  );
  const pct = (x: number) => `${((100 * x) / los.pairs).toFixed(1)} %`;
  out(
    `\nLine-of-sight bits over the ${formatCount(los.pairs)} tile pairs the fixtures and their re-bakes both find reachable: set by the\n` +
      `toolset on ${formatCount(los.toolset)} (${pct(los.toolset)}), by Walkbench's sound rule on ${formatCount(los.ours)} (${pct(los.ours)}), by both on ${formatCount(los.both)}; ` +
      `the bits agree on ${pct(los.agree)} of the pairs.\n`,
  );
}

/** How often the re-bake sets the line-of-sight bit against the toolset, over all fixtures. */
function lineOfSightAgainstToolset(meshes: AswmDocument[]): { pairs: number; toolset: number; ours: number; both: number; agree: number } {
  const c = { pairs: 0, toolset: 0, ours: 0, both: 0, agree: 0 };
  for (const m of meshes) {
    const theirs = m.tiles.nodes;
    const ours = rebakeAswm(m).aswm.tiles.nodes;
    for (let i = 0; i < theirs.length; i++) {
      if (theirs[i] === NO_NODE || ours[i] === NO_NODE) continue;
      const t = (theirs[i]! & NODE_LOS_BIT) !== 0;
      const o = (ours[i]! & NODE_LOS_BIT) !== 0;
      c.pairs++;
      if (t) c.toolset++;
      if (o) c.ours++;
      if (t && o) c.both++;
      if (t === o) c.agree++;
    }
  }
  return c;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, quick: { type: 'boolean', default: false } } });
  runNwn2BakeBench({ runs: Number(values.runs), quick: values.quick });
}
