import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../electron/cli/walkbench';
import { readNav } from '../../shared/formats/source/nav-reader';
import { writeNav } from '../../shared/formats/source/nav-writer';
import { fixturesRoot, listFixtures, readFixture } from '../support/fixtures';
import { navAsOldVersion, navWithToleratedFlaws } from '../support/nav-test-files';
import { commandRunner, type CommandRun } from '../support/run-command';

/**
 * `walkbench info`, `validate` and `roundtrip` on `.nav` versions 1 to 4 (the real v3 and v4
 * CS 1.6 bot files among the fixtures, and v1/v2 files generated from them since no real one
 * is known), and `validate`'s exit status on a file the engine loads with warnings only.
 */
const run = commandRunner(main);
const json = (r: CommandRun) => JSON.parse(r.out) as Record<string, unknown>[];
const version = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
const realOld = [...listFixtures('source', ['.nav']), ...listFixtures('source-maps', ['.nav'])].filter((f) => version(readFixture(f)) <= 4);
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-nav-old-'));

function generated(): string[] {
  const source = readNav(readFixture(realOld.find((f) => version(readFixture(f)) === 3) ?? realOld[0]!));
  return ([1, 2] as const).map((v) => {
    const file = path.join(tmp, `generated-v${v}.nav`);
    writeFileSync(file, writeNav(navAsOldVersion(source, v)));
    return file;
  });
}

describe('walkbench on .nav versions 1 to 4', () => {
  const files = [...realOld, ...generated()];

  it('info --json gives each file its version, areas and the GoldSrc game', async () => {
    expect(realOld.length).toBeGreaterThanOrEqual(2);
    const r = await run('info', '--json', ...files);
    expect(r.status).toBe(0);
    const results = json(r);
    expect(results).toHaveLength(files.length);
    results.forEach((res, i) => {
      const doc = readNav(readFixture(files[i]!));
      expect(res).toMatchObject({ format: 'source-nav', ok: true, version: String(doc.version), counts: { areas: doc.areas.count, encounterPaths: doc.areas.encounterFrom.length } });
      expect(JSON.stringify(res)).toContain('GoldSrc');
    });
    expect(results.map((res) => res.version)).toEqual(expect.arrayContaining(['1', '2', '3', '4']));
  });

  it('validate accepts them (exit 0, no errors)', async () => {
    const r = await run('validate', '--json', ...files);
    expect(r.status).toBe(0);
    for (const res of json(r)) expect(res).toMatchObject({ ok: true, errors: [] });
  });

  it('roundtrip finds every one identical', async () => {
    const r = await run('roundtrip', '--json', ...files);
    expect(r.status).toBe(0);
    for (const res of json(r)) expect(res).toMatchObject({ ok: true, identical: true, firstDifference: null });
  });
});

describe('walkbench validate exits 1 only on errors', () => {
  const source = readNav(readFixture(path.join(fixturesRoot, 'source/csgo/dm_bloodsport.nav')));

  it('exits 0 on a file with only what the engine tolerates, listing the warnings', async () => {
    const file = path.join(tmp, 'tolerated.nav');
    writeFileSync(file, writeNav(navWithToleratedFlaws(source).doc));
    const r = await run('validate', '--json', file);
    expect(r.status).toBe(0);
    const [res] = json(r);
    expect(res).toMatchObject({ ok: true, errors: [] });
    const codes = (res!.warnings as { code: string }[]).map((w) => w.code);
    expect(codes).toEqual(expect.arrayContaining(['nav.area.degenerate', 'nav.area.corners-unordered', 'nav.visibility.missing-anchor', 'nav.trailing-bytes']));
    const text = await run('validate', file);
    expect(text.status).toBe(0);
    expect(text.out).toContain('valid (0 error(s)');
  });

  it('exits 1 when a connection names an absent area (the engine dereferences it)', async () => {
    const doc = navWithToleratedFlaws(source).doc;
    doc.areas.connectionTarget[0] = 4_000_000;
    const file = path.join(tmp, 'crashes.nav');
    writeFileSync(file, writeNav(doc));
    const r = await run('validate', '--json', file);
    expect(r.status).toBe(1);
    expect((json(r)[0]!.errors as { code: string }[]).map((e) => e.code)).toEqual(['nav.connection.missing-area']);
  });
});
