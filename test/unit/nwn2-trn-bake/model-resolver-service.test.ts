import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createErfDocument, putErfResource } from '../../../shared/formats/aurora/erf-document';
import { writeErf } from '../../../shared/formats/aurora/erf-writer';
import { writeGff } from '../../../shared/formats/aurora/gff-writer';
import { Nwn2ResType } from '../../../shared/formats/aurora/resource-types';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { FileAccessError } from '../../../electron/services/file-access';
import { Nwn2ModelResolver } from '../../../electron/services/nwn2-model-resolver';
import { bakeTrnFiles } from '../../../electron/services/nwn2-trn-bake-service';
import { importSources } from '../../../electron/services/project/project-import';
import { ProjectStore } from '../../../electron/services/project/project-store';
import { main } from '../../../electron/cli/walkbench';
import { commandRunner } from '../../support/run-command';
import { readFixture } from '../../support/fixtures';
import { aswmOf, areaFile, env, errorsOf, libdDir, loadArea, mordDir, twoDaDir, withPlaceables } from './bake-support';

const BALCONY_ROW = 1599;
const temp = mkdtempSync(path.join(tmpdir(), 'walkbench-trn-bake-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('NWN2 model resolver', () => {
  it('maps an Appearance through placeables.2da NWN2_ModelName to a loose .MDB, ignoring case', async () => {
    const r = await Nwn2ModelResolver.open({ modelDirs: [libdDir], twoDaDir });
    expect(r.modelName(BALCONY_ROW)).toBe('PLC_MC_BALCONY3');
    const m = await r.resolve(BALCONY_ROW);
    expect(m?.name).toBe('PLC_MC_BALCONY3');
    expect(m?.walkmeshes.length).toBe(1);
    expect(m?.walkmeshes[0]!.faceFlags.length).toBe(50);
    expect(r.lookups.at(-1)?.from).toBe(path.join(libdDir, 'PLC_MC_BALCONY3.MDB'));
    // A row with a model nobody has, and a row past the table's end.
    expect(await r.resolve(687)).toBeUndefined();
    expect(await r.resolve(999999)).toBeUndefined();
    expect(r.lookups.at(-2)?.model).toBe('PLC_MC_STAGE01');
  });

  it('finds models and placeables.2da inside .hak archives', async () => {
    const dir = path.join(temp, 'hak');
    const hak = createErfDocument('HAK', 'V1.1');
    putErfResource(hak, { resRef: 'plc_mc_balcony3', type: Nwn2ResType.MDB, data: readFixture(path.join(libdDir, 'PLC_MC_BALCONY3.MDB')) });
    putErfResource(hak, { resRef: 'placeables', type: Nwn2ResType.TWODA, data: readFixture(path.join(twoDaDir, 'placeables.2da')) });
    mkdirSync(path.join(dir, 'sub'), { recursive: true });
    writeFileSync(path.join(dir, 'sub', 'models.hak'), writeErf(hak));
    const r = await Nwn2ModelResolver.open({ modelDirs: [dir] });
    expect(r.placeablesSource).toBe(`${path.join(dir, 'sub', 'models.hak')}:placeables.2da`);
    const m = await r.resolve(BALCONY_ROW);
    expect(m?.walkmeshes[0]!.faceFlags.length).toBe(50);
    expect(r.lookups.at(-1)?.from).toBe(`${path.join(dir, 'sub', 'models.hak')}:plc_mc_balcony3.mdb`);
  });

  it('names a missing model folder or placeables.2da', async () => {
    await expect(Nwn2ModelResolver.open({ modelDirs: [path.join(temp, 'nope')] })).rejects.toThrow(FileAccessError);
    await expect(Nwn2ModelResolver.open({ modelDirs: [libdDir], twoDaDir: libdDir })).rejects.toThrow(/placeables\.2da: no such file/);
  });
});

describe('bake service: file paths in, TRX bytes and report out', () => {
  it('bakes the Mord Mansion with a balcony from the model folder and compares with the toolset TRX', async () => {
    const area = loadArea(mordDir, 'CSLMordMansion');
    const git = path.join(temp, 'mord.git');
    writeFileSync(git, writeGff(withPlaceables(area.git, [{ appearance: BALCONY_ROW, x: 4, y: 40.5 }])));
    const r = await bakeTrnFiles({ trn: area.trnFile, git, modelDirs: [libdDir], twoDaDir, compare: areaFile(mordDir, 'CSLMordMansion', 'trx') });
    const doc = readTrx(r.bytes, env);
    expect(errorsOf(doc)).toEqual([]);
    expect(aswmOf(doc).islands.count).toBe(r.report.output.islands);
    expect(r.report.placeables.stats?.applied.map((p) => p.model)).toEqual(['PLC_MC_BALCONY3']);
    expect(r.models.filter((m) => m.from !== undefined).map((m) => m.model)).toEqual(['PLC_MC_BALCONY3']);
    expect(r.placeablesTable).toBe(path.join(twoDaDir, 'placeables.2da'));
    expect(r.comparison?.agreement.details.pairs).toBe(10000);
    expect(r.comparison?.agreement.pointReachability).toBeGreaterThan(0.98);
  });

  it('bakes without model folders (cutters only) and names the file of a malformed input', async () => {
    const area = loadArea(mordDir, 'CSLMordMansion');
    const r = await bakeTrnFiles({ trn: area.trnFile, git: area.gitFile });
    expect(r.report.placeables.stats).toBeNull();
    expect(r.models).toEqual([]);
    const bad = path.join(temp, 'bad.trn');
    writeFileSync(bad, readFixture(area.trnFile).subarray(0, 100));
    await expect(bakeTrnFiles({ trn: bad, git: area.gitFile })).rejects.toThrow(/bad\.trn/);
    await expect(bakeTrnFiles({ trn: path.join(temp, 'missing.trn'), git: area.gitFile })).rejects.toThrow(FileAccessError);
  });
});

describe('the inputs of a bake are named in their errors, and a damaged archive is said', () => {
  it('names a malformed MDB of --models, as the bake service and the command line report it', async () => {
    const dir = path.join(temp, 'bad-mdb');
    mkdirSync(dir);
    const mdb = path.join(dir, 'PLC_MC_BALCONY3.MDB');
    writeFileSync(mdb, 'NWN2 model? no: garbage, long enough to be read as a header '.repeat(4));
    const r = await Nwn2ModelResolver.open({ modelDirs: [dir], twoDaDir });
    await expect(r.resolve(BALCONY_ROW)).rejects.toThrow(mdb);

    const area = loadArea(mordDir, 'CSLMordMansion');
    const git = path.join(temp, 'mord-bad-mdb.git');
    writeFileSync(git, writeGff(withPlaceables(area.git, [{ appearance: BALCONY_ROW, x: 4, y: 40.5 }])));
    const bake = await commandRunner(main)('bake', area.trnFile, '--git', git, '--models', dir, '--2da', twoDaDir, '-o', path.join(temp, 'out.trx'));
    expect(bake.status).toBe(1);
    expect(bake.err.trimEnd().split('\n')).toHaveLength(1);
    expect(bake.err).toContain(`walkbench: ${mdb}:`);
    expect(bake.err).not.toMatch(/internal error/);
  });

  it('names a malformed placeables.2da, loose or found in a hak', async () => {
    const dir = path.join(temp, 'bad-2da');
    mkdirSync(dir);
    const table = path.join(dir, 'placeables.2da');
    writeFileSync(table, 'not a 2DA table\n');
    await expect(Nwn2ModelResolver.open({ modelDirs: [libdDir], twoDaDir: dir })).rejects.toThrow(table);
    await expect(Nwn2ModelResolver.open({ modelDirs: [dir] })).rejects.toThrow(table);
  });

  it('lists a damaged .hak of the model folders (bake report, import report) instead of skipping it in silence', async () => {
    const dir = path.join(temp, 'bad-hak');
    mkdirSync(dir);
    const hak = path.join(dir, 'models.hak');
    writeFileSync(hak, 'HAK V1.1 but nothing after it that an ERF reader can take');
    const r = await Nwn2ModelResolver.open({ modelDirs: [dir], twoDaDir });
    expect(await r.resolve(BALCONY_ROW)).toBeUndefined();
    expect(r.damaged).toEqual([{ file: hak, reason: expect.stringContaining(hak) }]);

    const area = loadArea(mordDir, 'CSLMordMansion');
    const git = path.join(temp, 'mord-bad-hak.git');
    writeFileSync(git, writeGff(withPlaceables(area.git, [{ appearance: BALCONY_ROW, x: 4, y: 40.5 }])));
    const baked = await bakeTrnFiles({ trn: area.trnFile, git, modelDirs: [dir], twoDaDir });
    expect(baked.damagedArchives.map((d) => d.file)).toEqual([hak]);
    const cli = await commandRunner(main)('bake', area.trnFile, '--git', git, '--models', dir, '--2da', twoDaDir, '-o', path.join(temp, 'out-hak.trx'));
    expect(cli.status).toBe(0);
    expect(cli.out).toContain(`warning: skipped a damaged archive of the model folders: ${hak}`);

    const areaDir = path.join(temp, 'mord-area');
    mkdirSync(areaDir);
    copyFileSync(git, path.join(areaDir, 'CSLMordMansion.GIT'));
    const project = path.join(temp, 'bad-hak.wbproj');
    const store = ProjectStore.create(project, { name: 'mord', game: 'nwn2' });
    try {
      const report = await importSources(store, [areaDir], { modelDirs: [dir], twoDaDir });
      expect(report.files).toContainEqual(expect.objectContaining({ path: hak, status: 'skipped', reason: expect.stringMatching(/^damaged archive, not searched for models: /) }));
    } finally {
      store.close();
    }
  });
});
