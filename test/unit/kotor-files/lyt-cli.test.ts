import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../electron/cli/walkbench';
import { fixturesRoot, listFixtures } from '../../support/fixtures';

async function run(...argv: string[]): Promise<{ status: number; out: string }> {
  let out = '';
  const status = await main(argv, { out: (s) => void (out += s), err: () => undefined });
  return { status, out };
}

describe('walkbench info / roundtrip on LYT files', () => {
  const lyts = listFixtures('kotor', ['.lyt']);

  it('finds the three LYT fixtures', () => {
    expect(lyts.map((f) => path.basename(f))).toEqual(['m40ad.lyt', 'stunt_endbridge.lyt', 'test.lyt']);
  });

  it('info names the LYT format and its counts', async () => {
    const r = await run('info', '--json', path.join(fixturesRoot, 'kotor/k1cp/m40ad.lyt'));
    expect(r.status).toBe(0);
    const [entry] = JSON.parse(r.out) as Record<string, unknown>[];
    expect(JSON.stringify(entry)).toContain('kotor-lyt');
    expect(JSON.stringify(entry)).toContain('"doorHooks":13');
  });

  it('roundtrip finds every LYT identical', async () => {
    const r = await run('roundtrip', '--json', ...lyts);
    expect(r.status).toBe(0);
    const entries = JSON.parse(r.out) as { identical?: unknown }[];
    expect(entries.map((e) => e.identical)).toEqual([true, true, true]);
  });
});
