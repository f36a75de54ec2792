import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakeCommand } from '../../electron/cli/commands/bake-command';
import { main } from '../../electron/cli/walkbench';
import { UsageError } from '../../electron/cli/cli-io';
import { aswmPacketOf } from '../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../shared/formats/nwn2/trx-reader';
import { validateTrx } from '../../shared/formats/nwn2/trx-validate';
import { nodeFormatEnvironment } from '../../electron/services/node-format-environment';
import { fixturesRoot, listFixtures } from '../support/fixtures';
import { commandRunner } from '../support/run-command';

const run = commandRunner(bakeCommand);

const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-bake-'));
const cargohold = listFixtures('nwn2', ['.trx']).find((f) => f.endsWith('dm001_cargohold.trx'))!;

describe('walkbench bake', () => {
  it('re-bakes a TRX, writes it, and with --compare --json reports agreement 1 on all but line of sight', async () => {
    const out = path.join(tmp, 'cargohold.trx');
    const r = await run(cargohold, '-o', out, '--compare', cargohold, '--json');
    expect(r.err).toBe('');
    expect(r.status).toBe(0);
    const [result] = JSON.parse(r.out) as Record<string, unknown>[];
    expect(result).toMatchObject({
      file: cargohold,
      format: 'nwn2-trx',
      ok: true,
      output: out,
      agreement: { reachability: 1, nextHopOnShortestPath: 1, islands: 1, islandReachability: 1, islandNextHopOnShortestPath: 1 },
      reference: { nextHopOnShortestPath: 1, islandNextHopOnShortestPath: 1 },
      counts: { triangles: 342, islands: 4, comparison: { lineOfSight: { reference: 1280 } } },
    });
    const agreement = result!.agreement as Record<string, number>;
    expect(agreement.lineOfSight).toBeGreaterThan(0);
    expect(agreement.lineOfSight).toBeLessThan(1);
    const timings = result!.timings as Record<string, number>;
    for (const k of ['readMs', 'edgesMs', 'tilePathsMs', 'lineOfSightMs', 'islandsMs', 'islandPathsMs', 'totalMs', 'writeMs', 'compareMs']) expect(timings[k]).toBeGreaterThanOrEqual(0);

    const written = readTrx(new Uint8Array(readFileSync(out)), nodeFormatEnvironment);
    expect(validateTrx(written).filter((f) => f.severity === 'error')).toEqual([]);
    expect(aswmPacketOf(written)!.aswm.islands.count).toBe(4);
  });

  it('prints a readable summary without --json', async () => {
    const out = path.join(tmp, 'mord.trx');
    const mord = path.join(fixturesRoot, 'nwn2/mordmansion/CSLMordMansion.TRX');
    const r = await run(mord, '--output', out, '--compare', mord);
    expect(r.status).toBe(0);
    expect(r.out).toContain(`${mord} → ${out}: baked 1,768 triangles`);
    expect(r.out).toContain('reachability 1.0000, next hop on a shortest path 1.0000');
    expect(r.out).toMatch(/line of sight 0\.\d{4}: set on [\d,]+ of 38,652 pairs here, 3,244 in the reference/);
  });

  it('leaves the line-of-sight bits clear with --no-line-of-sight', async () => {
    const out = path.join(tmp, 'no-los.trx');
    const r = await run(cargohold, '-o', out, '--compare', cargohold, '--no-line-of-sight', '--json');
    expect(r.status).toBe(0);
    const [result] = JSON.parse(r.out) as { counts: { lineOfSightPairs: number; comparison: { lineOfSight: { ours: number } } } }[];
    expect(result!.counts.lineOfSightPairs).toBe(0);
    expect(result!.counts.comparison.lineOfSight.ours).toBe(0);
  });

  it('reports a truncated file in one line and fails', async () => {
    const bad = path.join(tmp, 'truncated.trx');
    writeFileSync(bad, readFileSync(cargohold).subarray(0, 2000));
    const r = await run(bad, '-o', path.join(tmp, 'never.trx'), '--json');
    expect(r.status).toBe(1);
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    expect(r.err).toContain('truncated.trx');
    expect(JSON.parse(r.out)).toMatchObject([{ file: bad, ok: false, error: expect.any(String) }]);
  });

  it('refuses files that are not TRN/TRX and missing files in one line', async () => {
    const nav = listFixtures('source', ['.nav'])[0]!;
    let r = await run(nav, '-o', path.join(tmp, 'x.trx'));
    expect(r.status).toBe(1);
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    expect(r.err).toContain('bake reads NWN2 .trx and .trn files');
    r = await run(path.join(tmp, 'missing.trx'), '-o', path.join(tmp, 'x.trx'));
    expect(r.status).toBe(1);
    expect(r.err).toContain('no such file');
  });

  it('needs one input and -o', async () => {
    await expect(run(cargohold)).rejects.toThrow(UsageError);
    await expect(run('-o', path.join(tmp, 'x.trx'))).rejects.toThrow(UsageError);
    await expect(run(cargohold, '-o', path.join(tmp, 'x.trx'), '--bogus')).rejects.toThrow(UsageError);
  });
});

describe('walkbench bake AREA.trn --git AREA.git (full bake)', () => {
  it('bakes the Mord Mansion with its cutters and reports agreement with the toolset TRX', async () => {
    const dir = path.join(fixturesRoot, 'nwn2/mordmansion');
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'walkbench-trn-bake-')), 'mord.trx');
    let stdout = '';
    let stderr = '';
    const status = await main(
      ['bake', path.join(dir, 'CSLMordMansion.TRN'), '--git', path.join(dir, 'CSLMordMansion.GIT'), '-o', out, '--compare', path.join(dir, 'CSLMordMansion.TRX'), '--json'],
      { out: (s) => void (stdout += s), err: (s) => void (stderr += s) },
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(existsSync(out)).toBe(true);
    const [entry] = JSON.parse(stdout) as { ok: boolean; agreement: { pointReachability: number }; comparison: { islands: { baked: number; reference: number } }; report: { cutters: number; slivers: { count: number }; overlaps: { pairs: number } } }[];
    expect(entry!.ok).toBe(true);
    expect(entry!.report.cutters).toBe(13);
    expect(entry!.report.slivers.count).toBe(0);
    expect(entry!.report.overlaps.pairs).toBe(0);
    expect(entry!.agreement.pointReachability).toBeGreaterThanOrEqual(0.99);
    expect(entry!.comparison.islands.reference).toBe(24);
    let validation = '';
    expect(await main(['validate', '--json', out], { out: (s) => void (validation += s), err: () => undefined })).toBe(0);
  });

  it('refuses --models without --git', async () => {
    let stderr = '';
    const status = await main(['bake', 'x.trx', '-o', 'y.trx', '--models', '/tmp'], { out: () => undefined, err: (s) => void (stderr += s) });
    expect(status).toBe(2);
    expect(stderr).toContain('--models, --2da, --game and --module go with --git');
  });
});
