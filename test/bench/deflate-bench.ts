/**
 * Deflate speed on the largest fixture walkmeshes (the ASWM packets of the NWN2 fixtures,
 * inflated, then deflated at the toolset's level 6): pako 2.1.0, node:zlib (Chromium's zlib,
 * whose bytes differ: shown for speed only) and classicDeflate (zlib 1.2.13 as WebAssembly).
 * Per packet: the first call of each engine (for the first row, what a one-file CLI run
 * pays: compile and warm-up included), then the median of the timed runs (engines
 * alternating), wall clock and CPU time (steadier on a busy machine), MB/s of walkmesh
 * bytes, and whether the stream equals pako's. The load average is printed with it.
 * For reading, never pass/fail: `node --import tsx test/bench/deflate-bench.ts [--runs N] [--packets N]`.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { deflateSync } from 'node:zlib';
import pako from 'pako';
import { compressedStreamOf } from '../../shared/formats/nwn2/aswm-packet';
import { readNwn2Container } from '../../shared/formats/nwn2/nwn2-container';
import { classicDeflate, classicDeflateEngine } from '../../shared/platform/classic-deflate';
import { fixtureName, listFixtures, readFixture } from '../support/fixtures';
import { median } from './measure';
import { renderTable, type Column } from './text-table';

const LEVEL = 6;

interface Engine {
  name: string;
  deflate(data: Uint8Array): Uint8Array;
}

const engines: Engine[] = [
  { name: 'pako 2.1.0', deflate: (d) => pako.deflate(d, { level: LEVEL }) },
  // Speed reference only: node:zlib is never used where the bytes matter.
  { name: 'node:zlib', deflate: (d) => deflateSync(d, { level: LEVEL }) },
  { name: `classicDeflate (${classicDeflateEngine()})`, deflate: (d) => classicDeflate(d, LEVEL) },
];

const { values: opts } = parseArgs({ options: { runs: { type: 'string', default: '7' }, packets: { type: 'string', default: '4' } } });
const runs = Math.max(1, Number(opts.runs) | 0);
const packetCount = Math.max(1, Number(opts.packets) | 0);

interface Packet {
  name: string;
  raw: Uint8Array;
}

/** The `packetCount` largest compressed walkmeshes, inflated. */
function largestPackets(): Packet[] {
  const packets: Packet[] = [];
  for (const file of listFixtures('nwn2', ['.trx', '.trn'])) {
    for (const p of readNwn2Container(readFixture(file), 'TRX').packets) {
      const stream = compressedStreamOf(p.payload);
      if (stream) packets.push({ name: `${fixtureName(file)} ${p.type}`, raw: pako.inflate(stream) });
    }
  }
  return packets.sort((a, b) => b.raw.length - a.raw.length).slice(0, packetCount);
}

function cpuMs(f: () => void): { wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  f();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

const packets = largestPackets();
const load0 = loadavg();
const rows: string[][] = [];
const totals = new Map<string, { bytes: number; ms: number }>();
for (const packet of packets) {
  const ref = pako.deflate(packet.raw, { level: LEVEL });
  // The first call of each engine in this process, on the largest packet: what a one-file
  // CLI run pays (module compile, baseline-tier code).
  const results = engines.map((engine) => {
    let stream: Uint8Array = new Uint8Array(0);
    const first = cpuMs(() => (stream = engine.deflate(packet.raw)));
    const same = ref.length === stream.length && ref.every((b, i) => stream[i] === b);
    return { first, same, walls: [] as number[], cpus: [] as number[] };
  });
  // Engines alternate run by run, so a change in the machine's load falls on all of them.
  for (let r = 0; r < runs; r++) {
    engines.forEach((engine, e) => {
      const t = cpuMs(() => engine.deflate(packet.raw));
      results[e]!.walls.push(t.wall);
      results[e]!.cpus.push(t.cpu);
    });
  }
  engines.forEach((engine, e) => {
    const { first, same, walls, cpus } = results[e]!;
    const wall = median(walls);
    rows.push([engine.name, packet.name, (packet.raw.length / 1e6).toFixed(2), first.wall.toFixed(1), wall.toFixed(1), median(cpus).toFixed(1), (packet.raw.length / 1e6 / (wall / 1000)).toFixed(1), same ? 'yes' : 'no']);
    const t = totals.get(engine.name) ?? { bytes: 0, ms: 0 };
    totals.set(engine.name, { bytes: t.bytes + packet.raw.length, ms: t.ms + wall });
  });
}
const load1 = loadavg();

const columns: Column[] = [
  { header: 'engine', align: 'left' },
  { header: 'packet', align: 'left' },
  { header: 'MB' },
  { header: 'first ms' },
  { header: 'median ms' },
  { header: 'cpu ms' },
  { header: 'MB/s' },
  { header: "= pako's bytes" },
];
process.stdout.write(`deflate at level ${LEVEL}, ${packets.length} largest fixture walkmeshes, ${runs} runs each\n`);
process.stdout.write(`load average before ${load0.map((l) => l.toFixed(2)).join(' ')}, after ${load1.map((l) => l.toFixed(2)).join(' ')}\n\n`);
process.stdout.write(renderTable(columns, rows) + '\n\n');
const pakoTotal = totals.get(engines[0]!.name)!;
for (const [name, t] of totals) {
  process.stdout.write(`${name.padEnd(26)} ${(t.bytes / 1e6 / (t.ms / 1000)).toFixed(1).padStart(6)} MB/s overall, ${(pakoTotal.ms / t.ms).toFixed(2)}x pako\n`);
}
