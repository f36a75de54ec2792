/**
 * One crafted hostile input, read in a child process that the test runs under a memory cap
 * (`node --max-old-space-size=512`, and its RSS watched from outside): prints one JSON line
 * with the outcome (the error's name, format, field and message, or what the reader
 * accepted) and the memory the read took. Every input is built here from a real fixture
 * (test/fuzz/crafted-inputs.ts), never stored.
 *
 *     node --import tsx test/unit/hostile/hostile-read-child.ts CASE
 */
import { statSync } from 'node:fs';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { readErf } from '../../../shared/formats/aurora/erf-reader';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { readKey } from '../../../shared/formats/aurora/key-reader';
import { portableEnvironment, type FormatEnvironment } from '../../../shared/formats/format-environment';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { readMdb } from '../../../shared/formats/nwn2/mdb-reader';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { pluginNavmeshes } from '../../../shared/formats/skyrim/plugin-navmeshes';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { validatePlugin } from '../../../shared/formats/skyrim/skyrim-validate';
import {
  compressedNavmeshes,
  containerPackets,
  erfLargestResource,
  erfRepeatedEntries,
  gffSharedListStructs,
  largestPacket,
  maxRepeats,
  nvnmWithHugeGrid,
  pluginWithNvnm,
  repeatPacketEntries,
  trxWithAswmBomb,
  trxWithLyingAswmSize,
  bwmOverlappingSections,
  nodeDeflate,
} from '../../fuzz/crafted-inputs';
import { listFixtures, readFixture } from '../../support/fixtures';
import { buildKey } from '../kotor-files/key-bif-builder';

const MiB = 1024 * 1024;

/** The smallest fixture of a kind that satisfies `ok`. */
function fixture(folder: string, extensions: readonly string[], ok: (bytes: Uint8Array) => boolean = () => true): Uint8Array {
  const files = listFixtures(folder, extensions).sort((a, b) => statSync(a).size - statSync(b).size);
  for (const f of files) {
    const bytes = readFixture(f);
    if (ok(bytes)) return bytes;
  }
  throw new Error(`no ${extensions.join('/')} fixture in ${folder} fits`);
}

const trx = () => fixture('nwn2', ['.trx'], (b) => largestPacket(b, 'ASWM') !== undefined);
const aswmIndex = (b: Uint8Array) => largestPacket(b, 'ASWM')!.index;
const plugin = () => fixture('skyrim', ['.esp'], (b) => compressedNavmeshes(b).length >= 2);

interface Case {
  build(): Uint8Array;
  read(bytes: Uint8Array): unknown;
  /** Facts about an accepted document, printed with the outcome. */
  describe?(doc: unknown): Record<string, unknown>;
  /** Read once before the measured read, as a long session or the fuzzer does (optimised code). */
  warm?: boolean;
}

const env: FormatEnvironment = portableEnvironment;

const cases: Record<string, Case> = {
  /** The 540 KB TRX of the issue: the ASWM packet named by thousands of table entries. */
  'trx-repeated-entries': { build: () => { const b = trx(); return repeatPacketEntries(b, aswmIndex(b), Math.min(4096, maxRepeats(b))); }, read: (b) => readTrx(b, env) },
  /** Three ASWM packets of 100 MiB each: 300 MiB in all, over the 256 MiB a file may inflate to. */
  'trx-aswm-bombs': { build: () => trxWithAswmBomb(trx(), 100 * MiB, 2, nodeDeflate), read: (b) => readTrx(b, env) },
  /** A stream that inflates far past the size its COMP header declares. */
  'trx-aswm-lying-size': { build: () => trxWithLyingAswmSize(trx(), 64 * MiB, nodeDeflate), read: (b) => readTrx(b, env) },
  /** One 40 MiB walkmesh, read with the decompression budget lowered to 16 MiB. */
  'trx-budget-option': {
    build: () => trxWithAswmBomb(trx(), 40 * MiB, 0, nodeDeflate),
    read: (b) => readTrx(b, { ...env, limits: { maxDecompressedBytes: 16 * MiB } } as FormatEnvironment),
  },
  /** The 224 KB MDB of the issue: its largest packet named by thousands of table entries. */
  'mdb-repeated-entries': {
    build: () => {
      const b = fixture('nwn2', ['.mdb'], (x) => containerPackets(x).some((p) => p.type === 'WALK'));
      return repeatPacketEntries(b, largestPacket(b)!.index, Math.min(4096, maxRepeats(b)));
    },
    read: (b) => readMdb(b),
  },
  /** The 289 KB plugin of the issue: a navmesh grid of 5,000² empty cells (100 MB inflated). */
  'esp-huge-grid': {
    build: () => { const b = plugin(); return pluginWithNvnm(b, compressedNavmeshes(b).slice(0, 1), (n) => nvnmWithHugeGrid(n, 5000), nodeDeflate, 1); },
    read: (b) => readPlugin(b, env),
    describe(doc) {
      const d = doc as ReturnType<typeof readPlugin>;
      const n = pluginNavmeshes(d).find((x) => x.nvnm && x.nvnm.gridDivisor === 5000)!;
      const findings = validatePlugin(d);
      return { divisor: n.nvnm!.gridDivisor, gridEntries: n.nvnm!.gridTriangles.length, gridFindings: findings.filter((f) => f.code.startsWith('navm.grid')).map((f) => f.code) };
    },
  },
  /** Two such grids of 6,000² cells (144 MB each): over the file's decompression budget. */
  'esp-grid-bombs': {
    build: () => { const b = plugin(); return pluginWithNvnm(b, compressedNavmeshes(b).slice(0, 2), (n) => nvnmWithHugeGrid(n, 6000), nodeDeflate, 1); },
    read: (b) => readPlugin(b, env),
  },
  /** KotOR BWM: the materials table laid over the faces table. */
  'bwm-overlapping-sections': {
    build: () => bwmOverlappingSections(fixture('kotor', ['.wok']), 2, 1),
    read: (b) => readBwm(b),
  },
  /** KEY: 8,000 BIF entries all naming one 60,000-byte name (480 MB of strings). */
  'key-overlapping-names': {
    build() {
      const names = ['x'.repeat(60_000), ...Array.from({ length: 7999 }, (_, i) => `b${i}`)];
      const b = buildKey(names, []);
      const v = new DataView(b.buffer);
      for (let i = 1; i < names.length; i++) {
        v.setUint32(64 + i * 12 + 4, v.getUint32(64 + 4, true), true);
        v.setUint16(64 + i * 12 + 8, v.getUint16(64 + 8, true), true);
      }
      return b;
    },
    read: (b) => readKey(b),
  },
  /** ERF: 4,000 more entries, each naming the archive's largest resource. */
  'erf-repeated-entries': {
    build: () => { const b = fixture('nwn2', ['.mod']); return erfRepeatedEntries(b, erfLargestResource(b), 4000); },
    read: (b) => readErf(b),
  },
  /**
   * ERF: 20,000 more entries naming its resource of the longest resref: within the data budget, so read,
   * and each entry must cost what the reader's bound says (a resref decoded byte by byte
   * left ~500 bytes of cons strings per entry: 17 bytes per input byte, found by the fuzzer).
   */
  'erf-repeated-small-entries': {
    build() {
      const b = fixture('nwn2', ['.mod']);
      const doc = readErf(b);
      // The entry with the longest resref (the cost was per character), then the smallest data.
      let pick = 0;
      doc.resources.forEach((r, i) => {
        const best = doc.resources[pick]!;
        if (r.resRef.length > best.resRef.length || (r.resRef.length === best.resRef.length && r.data.length < best.data.length)) pick = i;
      });
      return erfRepeatedEntries(b, pick, 20_000);
    },
    read: (b) => readErf(b),
    describe: (doc) => ({ resources: (doc as ReturnType<typeof readErf>).resources.length }),
    warm: true,
  },
  /** GFF: every entry of a list naming the same struct (a DAG, not a tree). */
  'gff-shared-structs': {
    build: () => gffSharedListStructs(fixture('nwn2', ['.git'], (b) => gffSharedListStructs(b) !== undefined))!,
    read: (b) => readGff(b),
  },
};

const name = process.argv[2] ?? '';
const c = cases[name];
if (!c) {
  process.stdout.write(`${JSON.stringify({ error: `unknown case ${name}; cases: ${Object.keys(cases).join(', ')}` })}\n`);
  process.exit(2);
}
const input = c.build();
if (c.warm) c.read(input);
globalThis.gc?.();
const before = process.memoryUsage();
let outcome: Record<string, unknown>;
try {
  const doc = c.read(input);
  // What the document keeps (it stays referenced below), not garbage a collection has not
  // reached yet: without this the figure depended on when V8 last collected (seen under load).
  globalThis.gc?.();
  const after = process.memoryUsage();
  outcome = { accepted: true, heapGrowth: after.heapUsed - before.heapUsed + after.arrayBuffers - before.arrayBuffers, ...(c.describe ? c.describe(doc) : {}) };
} catch (e) {
  outcome = isMalformedInputError(e)
    ? { accepted: false, name: e.name, format: e.format, field: e.field, expected: e.expected, found: e.found, offset: e.offset, message: e.message }
    : { accepted: false, name: e instanceof Error ? e.name : typeof e, message: e instanceof Error ? e.message : String(e) };
}
process.stdout.write(`${JSON.stringify({ case: name, inputBytes: input.length, ...outcome, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
