/**
 * Whole-process timings of the `walkbench` command line, start-up included (issue 18):
 *
 *   node --import tsx test/bench/cli-startup-bench.ts [--runs 5] [--bin PATH]… [--npx] [--rebake] [--only NAME]
 *
 * Each case runs as a fresh `node BIN …` process; with several --bin (e.g. a copy of the
 * command line built before a change, and this one) the runs alternate between them, so a
 * burst of load from elsewhere hits every bin alike. Printed per case and bin: the median
 * time to the first byte on standard output and the median wall time to exit. --npx adds a
 * row for `npx walkbench --version` beside `node BIN --version` (what npx costs a script).
 * --rebake adds `project rebake --force` of a project holding every NWN2 fixture TRX with
 * --jobs 1 and --jobs 2 (the project is made once, with the first bin), and prints each
 * bin's speed-up from 1 to 2 workers.
 *
 * The load average (`uptime`) is printed before and after: figures taken under load are for
 * comparison between bins of one run, not absolute.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './measure';
import { renderTable } from './text-table';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = process.env.WALKBENCH_FIXTURES ?? '/work/shared/fixtures';

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    bin: { type: 'string', multiple: true },
    npx: { type: 'boolean', default: false },
    rebake: { type: 'boolean', default: false },
    only: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (opts.help) {
  process.stdout.write('usage: node --import tsx test/bench/cli-startup-bench.ts [--runs N] [--bin PATH]… [--npx] [--only NAME]\n');
  process.exit(0);
}
const runs = Number(opts.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, not ${opts.runs}`);
const bins = opts.bin && opts.bin.length > 0 ? opts.bin.map((b) => path.resolve(b)) : [path.join(root, 'electron/cli/bin.mjs')];
for (const b of bins) if (!existsSync(b)) throw new Error(`no such bin: ${b}`);

/** Every file with one of the extensions under `dir`, sorted (the list itself is not assumed). */
function filesUnder(dir: string, pattern: RegExp): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (pattern.test(e.name)) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

const trx = filesUnder(path.join(fixtures, 'nwn2'), /\.trx$/i);
const bySize = [...trx].sort((a, b) => statSync(a).size - statSync(b).size);
const smallTrx = bySize[0];
const largestTrx = bySize.at(-1);
const kaedrinBySize = bySize.filter((f) => f.includes(`${path.sep}kaedrin${path.sep}`));
const smallWok = filesUnder(path.join(fixtures, 'kotor'), /\.wok$/i).sort((a, b) => statSync(a).size - statSync(b).size)[0];
const out = mkdtempSync(path.join(tmpdir(), 'wb-startup-'));

interface Case {
  name: string;
  args: string[];
  /** Runs `npx walkbench` instead of `node BIN`. */
  npx?: boolean;
}

const cases: Case[] = [];
if (smallWok) cases.push({ name: `info ${path.basename(smallWok)}`, args: ['info', smallWok] });
if (smallTrx) cases.push({ name: `info ${path.basename(smallTrx)}`, args: ['info', smallTrx] });
if (kaedrinBySize[0]) cases.push({ name: `bake ${path.basename(kaedrinBySize[0])}`, args: ['bake', kaedrinBySize[0], '-o', path.join(out, 'small.trx')] });
const bigKaedrin = kaedrinBySize.at(-1);
if (bigKaedrin) cases.push({ name: `bake ${path.basename(bigKaedrin)}`, args: ['bake', bigKaedrin, '-o', path.join(out, 'large.trx')] });
if (trx.length > 0) {
  cases.push({ name: `validate ${trx.length} TRX (1 process)`, args: ['validate', ...trx] });
  cases.push({ name: `roundtrip ${trx.length} TRX (1 process)`, args: ['roundtrip', ...trx] });
}
if (largestTrx) cases.push({ name: `validate ${path.basename(largestTrx)}`, args: ['validate', largestTrx] });
cases.push({ name: '--version', args: ['--version'] });
if (opts.npx) cases.push({ name: 'npx walkbench --version', args: ['--version'], npx: true });
const project = path.join(out, 'rebake.wbproj');
if (opts.rebake && trx.length > 0) {
  for (const jobs of [1, 2]) cases.push({ name: `project rebake ${trx.length} TRX --jobs ${jobs}`, args: ['project', 'rebake', project, '--jobs', String(jobs), '--force', '--json'] });
}
const selected = opts.only ? cases.filter((c) => c.name.includes(opts.only!)) : cases;

interface Timing {
  firstByteMs: number;
  totalMs: number;
  status: number;
}

function runOnce(bin: string, c: Case): Promise<Timing> {
  const [command, args] = c.npx ? ['npx', ['--no-install', 'walkbench', ...c.args]] : [process.execPath, [bin, ...c.args]];
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    let firstByte: bigint | undefined;
    const child = spawn(command, args, { cwd: c.npx ? root : out, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.on('data', () => {
      firstByte ??= process.hrtime.bigint();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const end = process.hrtime.bigint();
      const ms = (t: bigint) => Number(t - start) / 1e6;
      resolve({ firstByteMs: ms(firstByte ?? end), totalMs: ms(end), status: code ?? -1 });
    });
  });
}

if (opts.rebake && trx.length > 0) {
  const made = spawnSync(process.execPath, [bins[0]!, 'project', 'create', project, '--game', 'nwn2'], { encoding: 'utf8' });
  const imported = spawnSync(process.execPath, [bins[0]!, 'project', 'import', project, ...trx, '--json'], { encoding: 'utf8' });
  if (made.status !== 0 || imported.status !== 0) throw new Error(`could not make the rebake project: ${made.stderr}${imported.stderr}`);
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
process.stdout.write(`cli start-up bench: ${runs} alternating run(s) per case and bin, load average before ${load()}\n`);
const rows: string[][] = [];
for (const c of selected) {
  const timings = bins.map(() => [] as Timing[]);
  // One untimed run per bin first (page cache, npx's cache).
  for (const b of bins) await runOnce(b, c);
  for (let r = 0; r < runs; r++) for (let i = 0; i < bins.length; i++) timings[i]!.push(await runOnce(bins[i]!, c));
  const base = median(timings[0]!.map((t) => t.totalMs));
  bins.forEach((b, i) => {
    const t = timings[i]!;
    const total = median(t.map((x) => x.totalMs));
    rows.push([
      c.name,
      c.npx ? 'npx' : path.relative(process.cwd(), b) || b,
      median(t.map((x) => x.firstByteMs)).toFixed(0),
      total.toFixed(0),
      i === 0 ? '' : `${(base / total).toFixed(2)}x`,
      [...new Set(t.map((x) => x.status))].join(','),
    ]);
  });
}
process.stdout.write(
  `${renderTable(
    [{ header: 'case', align: 'left' }, { header: 'bin', align: 'left' }, { header: 'first byte ms' }, { header: 'wall ms' }, { header: 'first bin / this' }, { header: 'exit' }],
    rows,
  )}\n`,
);
if (opts.rebake) {
  for (const b of bins) {
    const label = path.relative(process.cwd(), b) || b;
    const wall = (jobs: number) => Number(rows.find((r) => r[0]!.endsWith(`--jobs ${jobs}`) && r[1] === label)?.[3]);
    process.stdout.write(`rebake speed-up from 1 to 2 workers, ${label}: ×${(wall(1) / wall(2)).toFixed(2)}\n`);
  }
}
process.stdout.write(`load average after ${load()}\n`);
rmSync(out, { recursive: true, force: true });
