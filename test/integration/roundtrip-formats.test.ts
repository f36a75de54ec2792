import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../electron/cli/walkbench';
import { createErfDocument } from '../../shared/formats/aurora/erf-document';
import { writeErf } from '../../shared/formats/aurora/erf-writer';
import { Nwn2ResType } from '../../shared/formats/aurora/resource-types';
import { TwoDaBinary } from '../../shared/formats/aurora/twoda-binary';
import { KotorResType } from '../../shared/formats/aurora/resource-types';
import { fixturesRoot, listFixtures, readFixture } from '../support/fixtures';
import { buildBif, buildKey } from '../unit/kotor-files/key-bif-builder';
import { commandRunner, type CommandRun } from '../support/run-command';

const run = commandRunner(main);
const json = (r: CommandRun) => JSON.parse(r.out) as Record<string, unknown>[];
const fx = (relative: string) => path.join(fixturesRoot, relative);
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-roundtrip-'));

/** Runs `roundtrip --json` and checks every file came back identical with the expected format. */
async function expectIdentical(format: string, files: readonly string[]): Promise<Record<string, unknown>[]> {
  expect(files.length).toBeGreaterThan(0);
  const r = await run('roundtrip', '--json', ...files);
  expect(r.err).toBe('');
  expect(r.status).toBe(0);
  const results = json(r);
  expect(results.map((x) => x.file)).toEqual(files);
  for (const res of results) expect(res).toMatchObject({ format, ok: true, identical: true, firstDifference: null, writtenSize: res.size });
  return results;
}

describe('walkbench roundtrip: every format Walkbench reads', () => {
  it('GFF by signature: NWN2 GIT, ARE, GIC and KotOR GIT files come back byte for byte', async () => {
    const files = [...listFixtures('nwn2', ['.git', '.are', '.gic']), ...listFixtures('kotor', ['.git'])];
    const results = await expectIdentical('gff', files);
    expect(new Set(results.map((x) => x.fileType))).toEqual(new Set(['GIT', 'ARE', 'GIC']));
  });

  it('GFF under another name is found by its signature; a damaged one is refused at its offset', async () => {
    const renamed = path.join(tmp, 'area.dat');
    const git = readFixture(fx('nwn2/nwn-lib-d/TestImportExportTRN.git'));
    writeFileSync(renamed, git);
    await expectIdentical('gff', [renamed]);
    const damaged = path.join(tmp, 'damaged.git');
    writeFileSync(damaged, git.subarray(0, 100));
    const r = await run('roundtrip', '--json', damaged);
    expect(r.status).toBe(1);
    expect(r.err).toMatch(new RegExp(`^walkbench: ${damaged.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: gff at offset \\d+`));
    expect(json(r)[0]).toMatchObject({ file: damaged, format: 'gff', ok: false, offset: expect.any(Number) });
  });

  it('2DA: the text tables and a binary V2.b table', async () => {
    const text = await expectIdentical('2da', listFixtures('nwn2/2da', ['.2da']));
    for (const res of text) expect(res).toMatchObject({ encoding: 'text V2.0' });
    // No binary 2DA is among the fixtures: one written by the V2.b writer, with a shared cell string.
    const table = TwoDaBinary.create(['Label', 'Walk']);
    table.addRow(['Dirt', '1']);
    table.addRow(['Obscuring', '0']);
    table.addRow(['Grass', '1']);
    const binary = path.join(tmp, 'surfacemat.2da');
    writeFileSync(binary, table.write());
    const [res] = await expectIdentical('2da', [binary]);
    expect(res).toMatchObject({ encoding: 'binary V2.b', rows: 3, columns: 2, canonicalLayout: true });
  });

  it('ERF/MOD/HAK and RIM archives, with every held resource of a format Walkbench reads', async () => {
    const erf = await expectIdentical('erf', [fx('nwn2/nwn-lib-d/module.mod'), fx('nwn2/nwn-lib-d/test.hak'), fx('kotor/pykotor/capsule.mod'), fx('kotor/pykotor/test.erf')]);
    expect(erf.map((x) => [x.fileType, x.version])).toEqual([['MOD', 'V1.1'], ['HAK', 'V1.1'], ['MOD', 'V1.0'], ['ERF', 'V1.0']]);
    // module.mod holds GFF resources (IFO, UTC, DLG, FAC, JRL); capsule.mod an ARE, a GIT and a PTH (KotOR path points, also GFF).
    expect(erf[0]).toMatchObject({ resourcesTried: 5, resourcesIdentical: 5, resourceProblems: [] });
    expect(erf[2]).toMatchObject({ resourcesTried: 3, resourcesIdentical: 3, resourceProblems: [] });
    const rim = await expectIdentical('rim', [fx('kotor/pykotor/capsule.rim'), fx('kotor/pykotor/test.rim')]);
    // capsule.rim is in BioWare's padded layout, kept as read; test.rim in the canonical one.
    expect(rim.map((x) => x.canonicalLayout)).toEqual([false, true]);
    expect(rim[0]).toMatchObject({ resourcesTried: 3, resourcesIdentical: 3 });
  });

  it('an archive holding a damaged resource: the archive is identical, the resource is named with its offset, exit 1', async () => {
    const doc = createErfDocument('MOD ', 'V1.1');
    const git = readFixture(fx('nwn2/nwn-lib-d/TestImportExportTRN.git'));
    doc.resources.push({ resRef: 'good', type: Nwn2ResType.GIT, data: git }, { resRef: 'cut', type: Nwn2ResType.GIT, data: git.subarray(0, 80) });
    const file = path.join(tmp, 'damaged-resource.mod');
    writeFileSync(file, writeErf(doc));
    const r = await run('roundtrip', file);
    expect(r.status).toBe(1);
    expect(r.out).toContain(`${file}: identical (erf, `);
    expect(r.out).toContain('1 of 2 held resource(s) identical');
    expect(r.out).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/cut\\.git: gff at offset \\d+`));
    const [res] = json(await run('roundtrip', '--json', file));
    expect(res).toMatchObject({ identical: true, ok: false, resourcesTried: 2, resourcesIdentical: 1 });
  });

  it('the deliberately corrupted PyKotor archives: one line naming the file and the offset, exit 1, no stack trace', async () => {
    for (const [name, format, offset] of [['test_corrupted.erf', 'erf', 20], ['test_corrupted.rim', 'rim', 12]] as const) {
      const file = fx(`kotor/pykotor/${name}`);
      const r = await run('roundtrip', file);
      expect(r.status).toBe(1);
      expect(r.out).toBe('');
      const lines = r.err.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`${file}: ${format} at offset ${offset} (0x${offset.toString(16)})`);
      expect(r.err).not.toMatch(/\n\s+at /);
      const j = await run('roundtrip', '--json', file);
      expect(j.status).toBe(1);
      expect(json(j)[0]).toMatchObject({ file, format, offset, ok: false, identical: false });
    }
  });

  it('KotOR chitin.key and BIF archives, with the walkmesh and GFF resources a BIF holds; damaged ones are refused at their offset', async () => {
    // No game KEY/BIF is among the fixtures: a pair built to the format, holding fixture resources.
    const wok = readFixture(fx('kotor/pykotor/test.wok'));
    const git = readFixture(fx('kotor/pykotor/test.git'));
    const bif = buildBif([
      { type: KotorResType.WOK, data: wok },
      { type: KotorResType.GIT, data: git },
      { type: KotorResType.TPC, data: new Uint8Array(128).fill(3) },
    ], 1);
    const key = buildKey(['data\\2da.bif', 'data\\Models.BIF'], [
      { resRef: 'm01aa_01a', type: KotorResType.WOK, bif: 1, index: 0 },
      { resRef: 'M01AA', type: KotorResType.GIT, bif: 1, index: 1 },
      { resRef: 'envmap_sixteen_c', type: KotorResType.TPC, bif: 1, index: 2 },
    ]);
    // Non-zero reserved header bytes, which the writer must keep.
    key.fill(0x5a, 40, 64);
    const keyFile = path.join(tmp, 'chitin.key');
    const bifFile = path.join(tmp, 'models.bif');
    writeFileSync(keyFile, key);
    writeFileSync(bifFile, bif);
    const [k] = await expectIdentical('key', [keyFile]);
    expect(k).toMatchObject({ bifs: 2, keys: 3, canonicalLayout: true });
    const [b] = await expectIdentical('bif', [bifFile]);
    // The WOK (through the common model) and the GIT are round-tripped; the TPC is no format Walkbench reads.
    expect(b).toMatchObject({ resources: 3, canonicalLayout: true, resourcesTried: 2, resourcesIdentical: 2, resourceProblems: [] });

    const keyTable = new DataView(key.buffer).getUint32(20, true);
    const badId = key.slice();
    new DataView(badId.buffer).setUint32(keyTable + 22 + 18, (9 << 20) | 1, true);
    const hugeSize = bif.slice();
    new DataView(hugeSize.buffer).setUint32(20 + 16 + 8, 0x7fffffff, true);
    for (const [name, bytes, format, offset] of [
      ['cut.key', key.subarray(0, 63), 'key', 0],
      ['bad-id.key', badId, 'key', keyTable + 22 + 18],
      ['huge-size.bif', hugeSize, 'bif', 20 + 16 + 8],
    ] as const) {
      const file = path.join(tmp, name);
      writeFileSync(file, bytes);
      const r = await run('roundtrip', file);
      expect(r.status).toBe(1);
      expect(r.out).toBe('');
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toContain(`${file}: ${format} at offset ${offset} (0x${offset.toString(16)})`);
      const j = await run('roundtrip', '--json', file);
      expect(j.status).toBe(1);
      expect(json(j)[0]).toMatchObject({ file, format, offset, ok: false, identical: false });
    }
  });

  it('LYT layouts and MDB models (the WALK packet re-encoded, every other packet kept)', async () => {
    await expectIdentical('kotor-lyt', listFixtures('kotor', ['.lyt']));
    const mdb = await expectIdentical('nwn2-mdb', listFixtures('nwn2', ['.mdb']));
    expect(mdb).toHaveLength(4);
  });

  it('the walkmesh formats go through the common model as before', async () => {
    const cases: [string, string][] = [
      ['nwn2-trx', fx('nwn2/kaedrin/dm001_cargohold.trx')],
      ['kotor-bwm', fx('kotor/pykotor/test.wok')],
      ['source-nav', fx('source/tf2/itemtest.nav')],
      ['skyrim-plugin', fx('skyrim/FreeCamera.esp')],
    ];
    for (const [format, file] of cases) {
      const [res] = await expectIdentical(format, [file]);
      expect(res).toMatchObject({ throughModel: true });
    }
  });

  it('a BWM renamed .mod is still read as a walkmesh, not as an ERF (`BWM V1.0` is not an ERF signature)', async () => {
    const renamed = path.join(tmp, 'room.mod');
    writeFileSync(renamed, readFixture(fx('kotor/pykotor/test.wok')));
    await expectIdentical('kotor-bwm', [renamed]);
  });
});
