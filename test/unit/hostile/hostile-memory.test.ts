import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/fixtures';
import { READ_MEMORY_ALLOWANCE } from '../../../shared/binary/read-budget';
import { ERF_READ_MEMORY } from '../../../shared/formats/aurora/erf-reader';

/**
 * Issue 14 ("Hostile input"): each reader on the crafted inputs of the review, built from
 * real fixtures (hostile-read-child.ts, test/fuzz/crafted-inputs.ts), in a child process
 * with a 512 MB heap whose resident memory is also watched from here: one that passes
 * RSS_CAP_MB is killed (typed arrays live outside the heap, so the heap limit alone would
 * not stop a reader that copies a packet thousands of times). Every input must end in a
 * clean MalformedInputError naming the field, or, for the sparse grid, be read in little
 * memory.
 */
const RSS_CAP_MB = 1024;
const CHILD = path.join(repoRoot, 'test/unit/hostile/hostile-read-child.ts');

interface Outcome {
  case: string;
  inputBytes: number;
  accepted: boolean;
  name?: string;
  format?: string;
  field?: string;
  expected?: string;
  message?: string;
  heapGrowth?: number;
  maxRssMb: number;
  [fact: string]: unknown;
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

function runCase(name: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-old-space-size=512', '--expose-gc', '--import', 'tsx', CHILD, name], { cwd: repoRoot });
    let stdout = '';
    let stderr = '';
    let killedAt = 0;
    const watch = setInterval(() => {
      const rss = child.pid !== undefined ? rssMb(child.pid) : 0;
      if (rss > RSS_CAP_MB && !killedAt) {
        killedAt = rss;
        child.kill('SIGKILL');
      }
    }, 20);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearInterval(watch);
      if (killedAt) return reject(new Error(`${name}: killed at ${killedAt.toFixed(0)} MB resident (cap ${RSS_CAP_MB} MB)`));
      const line = stdout.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`${name}: exit ${code ?? signal}\n${stderr.slice(-2000)}`));
      resolve(JSON.parse(line) as Outcome);
    });
  });
}

async function rejected(name: string, format: string, field: RegExp): Promise<Outcome> {
  const o = await runCase(name);
  expect(o.accepted, JSON.stringify(o)).toBe(false);
  expect(o.name, o.message).toBe('MalformedInputError');
  expect(o.format).toBe(format);
  expect(o.field).toMatch(field);
  expect(o.maxRssMb).toBeLessThan(RSS_CAP_MB);
  return o;
}

describe('hostile inputs under a memory cap (512 MB heap, 1 GB resident)', () => {
  it('TRX: the ASWM packet named by thousands of table entries is refused at the second entry', async () => {
    const o = await rejected('trx-repeated-entries', 'nwn2-trx', /^packet table entry #\d+ \(ASWM\)/);
    expect(o.expected).toMatch(/no other packet|overlap/);
  });

  it('TRX: three 100 MiB walkmeshes pass the file\'s decompression budget and are refused before the third inflates', async () => {
    const o = await rejected('trx-aswm-bombs', 'nwn2-aswm', /ASWM COMP uncompressed size/);
    expect(o.expected).toMatch(/budget/);
    expect(o.inputBytes).toBeLessThan(2 * 1024 * 1024);
  });

  it('TRX: a stream inflating past its declared size stops at the declared size', async () => {
    await rejected('trx-aswm-lying-size', 'nwn2-aswm', /ASWM COMP (zlib stream|uncompressed size)/);
  });

  it('TRX: the decompression budget is an option of the FormatEnvironment (limits.maxDecompressedBytes)', async () => {
    const o = await rejected('trx-budget-option', 'nwn2-aswm', /ASWM COMP uncompressed size/);
    expect(o.expected).toContain(String(16 * 1024 * 1024));
  });

  it('MDB: the largest packet named by thousands of table entries is refused', async () => {
    await rejected('mdb-repeated-entries', 'nwn2-mdb', /^packet table entry #\d+/);
  });

  it('Skyrim: a navmesh grid of 5,000² empty cells is read sparsely (no object per cell) and reported by validation', async () => {
    const o = await runCase('esp-huge-grid');
    expect(o.accepted, JSON.stringify(o)).toBe(true);
    expect(o.divisor).toBe(5000);
    expect(o.gridEntries).toBe(0);
    expect(o.heapGrowth).toBeLessThan(64 * 1024 * 1024);
    expect(o.gridFindings).toContain('navm.grid.divisor');
    expect(o.maxRssMb).toBeLessThan(RSS_CAP_MB);
  });

  it('Skyrim: two 144 MB grids pass the file\'s decompression budget', async () => {
    const o = await rejected('esp-grid-bombs', 'skyrim-plugin', /^NAVM 0x[0-9A-F]{8}\.uncompressedSize$/);
    expect(o.expected).toMatch(/budget/);
  });

  it('KotOR BWM: a section laid over another is refused', async () => {
    await rejected('bwm-overlapping-sections', 'kotor-bwm', /materials/);
  });

  it('KEY: 8,000 BIF entries sharing one 60,000-byte name are refused', async () => {
    await rejected('key-overlapping-names', 'key', /^bifs\[\d+\]\.name$/);
  });

  it('ERF: 4,000 more entries naming the largest resource is refused by the data budget', async () => {
    await rejected('erf-repeated-entries', 'erf', /^resources\[\d+\]\.size$/);
  });

  it('ERF: 20,000 more entries naming one resource are read within the reader\'s stated bound', async () => {
    const o = await runCase('erf-repeated-small-entries');
    expect(o.accepted, JSON.stringify(o)).toBe(true);
    expect(o.resources).toBeGreaterThan(20_000);
    expect(o.heapGrowth).toBeLessThan(ERF_READ_MEMORY.perInputByte * o.inputBytes + READ_MEMORY_ALLOWANCE);
  });

  it('GFF: a list naming one struct many times is refused (a GFF is a tree)', async () => {
    const o = await rejected('gff-shared-structs', 'gff', /List|structs/);
    expect(o.expected).toMatch(/tree/);
  });
});
