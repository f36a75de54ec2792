/**
 * The full NWN2 bake of a TRN with its GIT (borders, placeables, cutters, re-tiling, TRX
 * winding, tables): one `npm run bench` row per area, "read" being TRN bytes → baked TRX
 * document and "write" the TRX serialisation (zlib included). Rows: the Mord Mansion (13
 * cutters) and generated interiors of growing size with the same density of cutters, so
 * that equal MB/s across them means the bake scales linearly.
 *
 * Run directly (`node --import tsx test/bench/nwn2-trn-bake-bench.ts`) it prints the time
 * of every step per area instead, to see which step grows faster than the triangles.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeGff } from '../../shared/formats/aurora/gff-writer';
import { readGff } from '../../shared/formats/aurora/gff-reader';
import type { GffDocument } from '../../shared/formats/aurora/gff-document';
import { portableEnvironment } from '../../shared/formats/format-environment';
import { readTrx } from '../../shared/formats/nwn2/trx-reader';
import { writeTrx } from '../../shared/formats/nwn2/trx-writer';
import { bakeTrn, type TrnBakeResult } from '../../shared/bakers/nwn2/trn-bake';
import { seededRandom } from '../../shared/bakers/nwn2/point-reachability';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { syntheticGit, syntheticTrn } from '../unit/nwn2-trn-bake/bake-support';
import type { BenchGroup, BenchSuite } from './bench-suite';

const env = portableEnvironment;

interface BakeInput {
  label: string;
  trn: Uint8Array;
  git: GffDocument;
}

/** A generated interior of n × n 9 m tiles (6 × 6 cells each, 72 triangles), one random cutter per 2 × 2 tiles. */
export function generatedInterior(n: number): BakeInput {
  const random = seededRandom(n);
  const hill = (x: number, y: number) => 0.4 * Math.sin(x / 7) * Math.cos(y / 5);
  const trn = syntheticTrn({ grid: n, tileWidth: 9, border: 0, cellsPerTile: 6, height: hill, flags: (cx, cy) => ((cx * 7 + cy * 3) % 11 === 0 ? 0 : 0x41) });
  const cutters: [number, number][][] = [];
  for (let y = 0; y + 1 < n; y += 2) {
    for (let x = 0; x + 1 < n; x += 2) {
      const cx = (x + 1) * 9 + (random() - 0.5) * 6;
      const cy = (y + 1) * 9 + (random() - 0.5) * 6;
      const r = 1.5 + random() * 3;
      const k = 5 + Math.floor(random() * 6);
      cutters.push(Array.from({ length: k }, (_, i) => [cx + r * Math.cos((i / k) * 2 * Math.PI) * (0.7 + random() * 0.3), cy + r * Math.sin((i / k) * 2 * Math.PI) * (0.7 + random() * 0.3)] as [number, number]));
    }
  }
  return { label: `generated ${n}×${n}`, trn: writeTrx(trn, env), git: readGff(writeGff(syntheticGit(cutters))) };
}

function inputs(): BakeInput[] {
  const mord = path.join(fixturesRoot, 'nwn2', 'mordmansion');
  return [
    { label: 'mordmansion', trn: readFixture(path.join(mord, 'CSLMordMansion.TRN')), git: readGff(readFixture(path.join(mord, 'CSLMordMansion.GIT'))) },
    generatedInterior(8),
    generatedInterior(16),
    generatedInterior(32),
  ];
}

const gitOf = new Map<Uint8Array, GffDocument>();

function bake(bytes: Uint8Array): TrnBakeResult {
  const git = gitOf.get(bytes);
  if (!git) throw new Error('bench input without its GIT');
  return bakeTrn({ trn: readTrx(bytes, env), git });
}

export const trnBakeBench: BenchSuite<TrnBakeResult> = {
  name: 'nwn2 TRN full bake',
  groups(): BenchGroup[] {
    return inputs().map((i) => {
      gitOf.set(i.trn, i.git);
      return { label: i.label, inputs: [{ name: i.label, bytes: i.trn }] };
    });
  },
  read: bake,
  write: (r) => writeTrx(r.trx, env),
};

/** Median time of every bake step per input (run directly). */
function printSteps(): void {
  const rows: string[] = ['area                triangles in→out  border  placeables  cutters  retile  topology  edges  tilePaths  lineOfSight  islands  islandPaths  checks  total (ms, median of 5)'];
  for (const i of inputs()) {
    gitOf.set(i.trn, i.git);
    // Three untimed bakes first, so the optimising compiler has settled.
    for (let k = 0; k < 3; k++) bake(i.trn);
    const runs: TrnBakeResult[] = [];
    for (let k = 0; k < 5; k++) runs.push(bake(i.trn));
    const med = (f: (r: TrnBakeResult) => number) => {
      const v = runs.map(f).sort((a, b) => a - b);
      return v[v.length >> 1]!.toFixed(1);
    };
    const t = (r: TrnBakeResult) => r.report.timings;
    const r0 = runs[0]!.report;
    rows.push(
      [
        i.label.padEnd(18),
        `${r0.input.triangles}→${r0.output.triangles}`.padStart(17),
        med((r) => t(r).border).padStart(7),
        med((r) => t(r).placeables).padStart(11),
        med((r) => t(r).cutters).padStart(8),
        med((r) => t(r).retile).padStart(7),
        med((r) => t(r).topology).padStart(9),
        med((r) => t(r).tables.edges).padStart(6),
        med((r) => t(r).tables.tilePaths).padStart(10),
        med((r) => t(r).tables.lineOfSight).padStart(12),
        med((r) => t(r).tables.islands).padStart(8),
        med((r) => t(r).tables.islandPaths).padStart(12),
        med((r) => t(r).checks).padStart(7),
        med((r) => t(r).total).padStart(7),
      ].join(' '),
    );
  }
  process.stdout.write(`${rows.join('\n')}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) printSteps();
