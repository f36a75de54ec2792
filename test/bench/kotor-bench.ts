/**
 * KotOR BWM benchmarks. `kotorBench` is a BenchSuite (read/write throughput of the fixture
 * walkmeshes, one row per folder). `runKotorDeriveBench` prints the full derivation time
 * (face order, normals and planes, AABB tree, adjacency, perimeter walk) of generated room
 * walkmeshes of about 1,000, 100,000 and 1,000,000 faces, per step, median of N runs, with
 * the time per F·log2 F so n log n growth can be read off, and the process CPU time of the
 * whole bake beside its wall time: on a loaded machine the wall time grows with the other
 * processes, the CPU time much less. Figures for reading, never
 * pass/fail. Alone: `node --import tsx test/bench/kotor-bench.ts [--runs N]`.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { bakeBwm, type BwmBakeTimings } from '../../shared/bakers/kotor/bwm-bake';
import type { BwmDocument } from '../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../shared/formats/kotor/bwm-reader';
import { writeBwm } from '../../shared/formats/kotor/bwm-writer';
import { DEFAULT_WALKABILITY } from '../../shared/formats/kotor/surface-materials';
import { fixtureName, listFixtures, readFixture } from '../support/fixtures';
import { gridBakeInput } from '../unit/kotor/grid-walkmesh';
import type { BenchGroup, BenchSuite } from './bench-suite';
import { median } from './measure';

export const kotorBench: BenchSuite<BwmDocument> = {
  name: 'kotor .wok/.pwk',
  groups() {
    const byFolder = new Map<string, BenchGroup>();
    for (const file of listFixtures('kotor', ['.wok', '.pwk', '.dwk'])) {
      const label = path.dirname(fixtureName(file)).split(path.sep).slice(1).join('/') || 'kotor';
      let group = byFolder.get(label);
      if (!group) byFolder.set(label, (group = { label, inputs: [] }));
      group.inputs.push({ name: path.basename(file), bytes: readFixture(file) });
    }
    return [...byFolder.values()].sort((a, b) => a.label.localeCompare(b.label));
  },
  read: readBwm,
  write: writeBwm,
};

export interface KotorDeriveBenchOptions {
  runs?: number;
  out?: (text: string) => void;
}

/** Grid sizes giving about 1k, 100k and 1M faces (two per cell). */
const SIZES: readonly [number, number][] = [
  [25, 20],
  [250, 200],
  [1000, 500],
];

export function runKotorDeriveBench(options: KotorDeriveBenchOptions = {}): void {
  const runs = options.runs ?? 5;
  const out = options.out ?? ((t: string) => void process.stdout.write(t));
  out('KotOR BWM derivation (generated rooms; median ms per step)\n');
  out(`${'faces'.padStart(10)} ${'order'.padStart(8)} ${'planes'.padStart(8)} ${'aabb'.padStart(8)} ${'adjacency'.padStart(10)} ${'perimeter'.padStart(10)} ${'total'.padStart(9)} ${'cpu'.padStart(9)} ${'ns/(F·log2F)'.padStart(13)}\n`);
  for (const [cols, rows] of SIZES) {
    const input = gridBakeInput(cols, rows);
    const faces = input.faces.length / 3;
    const n = faces >= 500_000 ? Math.max(1, Math.min(runs, 3)) : runs;
    bakeBwm(input, DEFAULT_WALKABILITY); // warm-up
    const steps: Record<keyof BwmBakeTimings | 'total' | 'cpu', number[]> = { order: [], planes: [], aabb: [], adjacency: [], perimeters: [], total: [], cpu: [] };
    for (let i = 0; i < n; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const r = bakeBwm(input, DEFAULT_WALKABILITY);
      const total = performance.now() - t0;
      const cpu = process.cpuUsage(c0);
      steps.cpu.push((cpu.user + cpu.system) / 1000);
      for (const k of Object.keys(r.timings) as (keyof BwmBakeTimings)[]) steps[k].push(r.timings[k]);
      steps.total.push(total);
    }
    const m = (k: keyof typeof steps): number => median(steps[k]);
    const perNLogN = (m('total') * 1e6) / (faces * Math.log2(faces));
    out(
      `${faces.toLocaleString('en-US').padStart(10)} ${m('order').toFixed(1).padStart(8)} ${m('planes').toFixed(1).padStart(8)} ${m('aabb').toFixed(1).padStart(8)} ${m('adjacency').toFixed(1).padStart(10)} ${m('perimeters').toFixed(1).padStart(10)} ${m('total').toFixed(1).padStart(9)} ${m('cpu').toFixed(1).padStart(9)} ${perNLogN.toFixed(2).padStart(13)}\n`,
    );
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  runKotorDeriveBench({ runs: Number(values.runs) });
}
