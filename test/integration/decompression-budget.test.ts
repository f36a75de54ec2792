import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLimitsOf, MAX_DECOMPRESSED_VARIABLE } from '../../electron/services/node-format-environment';
import { largestPacket, nodeDeflate, trxWithAswmBomb } from '../fuzz/crafted-inputs';
import { listFixtures, readFixture, repoRoot } from '../support/fixtures';

/**
 * Issue 14: each file has a total decompression budget, with a sane default and an option
 * to raise it. The option is the WALKBENCH_MAX_DECOMPRESSED_MB environment variable, read
 * by the CLI, the services and their workers alike; the refusal names it.
 */
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-budget-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const bin = path.join(repoRoot, 'electron/cli/bin.mjs');
const MiB = 1024 * 1024;

function info(file: string, env: Record<string, string>): { status: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, 'info', file], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

describe('the decompression budget of a file', () => {
  it('reads the variable as MiB, ignoring values that are not positive numbers', () => {
    expect(readLimitsOf({ [MAX_DECOMPRESSED_VARIABLE]: '512' }).maxDecompressedBytes).toBe(512 * MiB);
    expect(readLimitsOf({ [MAX_DECOMPRESSED_VARIABLE]: '0.5' }).maxDecompressedBytes).toBe(MiB / 2);
    for (const bad of ['', 'lots', '-3', '0']) expect(readLimitsOf({ [MAX_DECOMPRESSED_VARIABLE]: bad }).maxDecompressedBytes).toBeUndefined();
    expect(readLimitsOf({}).howToRaise).toContain(MAX_DECOMPRESSED_VARIABLE);
  });

  it('refuses a TRX inflating past the budget, naming the size field and the variable; raised, the same file is read', () => {
    const source = listFixtures('nwn2', ['.trx']).sort((a, b) => statSync(a).size - statSync(b).size).find((f) => largestPacket(readFixture(f), 'ASWM'));
    expect(source, 'an NWN2 TRX fixture with an ASWM packet').toBeDefined();
    // 40 MiB of trailing zeros in its walkmesh: legitimate data, past a 16 MiB budget.
    const file = path.join(tmp, 'inflated.trx');
    writeFileSync(file, trxWithAswmBomb(readFixture(source!), 40 * MiB, 0, nodeDeflate));
    expect(statSync(file).size).toBeLessThan(2 * MiB);

    const low = info(file, { [MAX_DECOMPRESSED_VARIABLE]: '16' });
    expect(low.status).toBe(1);
    expect(low.err).toContain('inflated.trx');
    expect(low.err).toMatch(/ASWM COMP uncompressed size/);
    expect(low.err).toContain(`set ${MAX_DECOMPRESSED_VARIABLE}`);
    expect(low.err).not.toMatch(/internal error|\n\s+at /);

    const raised = info(file, { [MAX_DECOMPRESSED_VARIABLE]: '64' });
    expect(raised.err).not.toMatch(/budget/);
    expect(raised.status, raised.err).toBe(0);
  }, 60_000);
});
