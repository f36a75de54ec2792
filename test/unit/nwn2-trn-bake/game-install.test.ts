import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createErfDocument, putErfResource } from '../../../shared/formats/aurora/erf-document';
import { writeErf } from '../../../shared/formats/aurora/erf-writer';
import { createGffDocument, createGffStruct } from '../../../shared/formats/aurora/gff-document';
import { gff } from '../../../shared/formats/aurora/gff-fields';
import { writeGff } from '../../../shared/formats/aurora/gff-writer';
import { NWN2_RESOURCE_TYPES, Nwn2ResType } from '../../../shared/formats/aurora/resource-types';
import { nwn2DataZipOrder } from '../../../shared/formats/nwn2/nwn2-resource-order';
import { Nwn2GameResources } from '../../../electron/services/nwn2-game-resources';
import { Nwn2ModelResolver } from '../../../electron/services/nwn2-model-resolver';
import { bakeTrnFiles } from '../../../electron/services/nwn2-trn-bake-service';
import { main } from '../../../electron/cli/walkbench';
import { commandRunner } from '../../support/run-command';
import { readFixture } from '../../support/fixtures';
import { writeZip, type ZipInput } from '../../support/zip-writer';
import { areaBakeModels, encodeAreaBakeInput, runAreaBake } from '../../../shared/edits/nwn2-area-bake-job';
import { projectPlaceableModels } from '../../../electron/services/project/project-placeable-models';
import { ProjectStore } from '../../../electron/services/project/project-store';
import { env, libdDir, loadArea, mordDir, twoDaDir, withPlaceables } from './bake-support';

/** placeables.2da rows (the fixture copy): PLC_MC_BALCONY3, and PLC_MC_STAGE01 (no public model). */
const BALCONY_ROW = 1599;
const STAGE_ROW = 687;

const temp = mkdtempSync(path.join(tmpdir(), 'walkbench-nwn2-install-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const balcony = readFixture(path.join(libdDir, 'PLC_MC_BALCONY3.MDB'));
const placeables = readFixture(path.join(twoDaDir, 'placeables.2da'));
const text = (s: string) => new TextEncoder().encode(s);
const txtType = NWN2_RESOURCE_TYPES.typeId('txt')!;

/**
 * The order the game searches, highest first; probe `p<k>` exists in source k and every
 * source after it, so a look-up of `p<k>` must answer from source k.
 */
const ORDER = ['hak a', 'hak b', 'user override', 'install override', 'module', 'Data X2', 'Data X1 patch', 'Data X1', 'Data base'] as const;
const probes = (from: number): { name: string; body: string }[] => ORDER.slice(0, from + 1).map((_, k) => ({ name: `p${k}`, body: ORDER[from]! }));

function hak(resources: { resRef: string; type: number; data: Uint8Array }[]): Uint8Array {
  const doc = createErfDocument('HAK', 'V1.1');
  for (const r of resources) putErfResource(doc, r);
  return writeErf(doc);
}

function zip(entries: ZipInput[]): Uint8Array {
  return writeZip(entries);
}

/**
 * A fake install and user folder, laid out as NWN2 1.23 keeps them:
 *   install/Data/{2DA.zip, 2DA_X1.zip, NWN2_Models.zip, NWN2_Models_X1.zip, NWN2_Models_X1_v121.zip, NWN2_Models_X2.zip}
 *   install/override/
 *   user/{hak, override, modules/mymod/(module.ifo, area files)}
 * Base 2DA.zip's placeables.2da names no balcony (row 1599 renamed), which 2DA_X1.zip's
 * corrects; base NWN2_Models.zip holds a damaged balcony MDB, X1's the real one: the bake
 * finds the balcony only when expansions come before the base.
 */
function buildInstall(root: string): { install: string; user: string; module: string } {
  const install = path.join(root, 'install');
  const user = path.join(root, 'user');
  const module = path.join(user, 'modules', 'mymod');
  for (const d of [path.join(install, 'Data'), path.join(install, 'override', 'sub'), path.join(user, 'hak', 'nested'), path.join(user, 'override'), module]) mkdirSync(d, { recursive: true });
  const baseTable = new TextDecoder('latin1').decode(placeables).replace(/PLC_MC_BALCONY3/g, 'PLC_NOT_THERE');
  const probeEntries = (k: number, dir: string): ZipInput[] => probes(k).map((p) => ({ name: `${dir}/${p.name.toUpperCase()}.TXT`, data: text(p.body) }));
  writeFileSync(path.join(install, 'Data', '2DA.zip'), zip([{ name: '2DA/placeables.2da', data: text(baseTable) }]));
  writeFileSync(path.join(install, 'Data', '2DA_X1.zip'), zip([{ name: '2DA_X1/PLACEABLES.2DA', data: placeables }]));
  writeFileSync(path.join(install, 'Data', 'NWN2_Models.zip'), zip([{ name: 'NWN2_Models/plc_mc_balcony3.mdb', data: text('not a model at all, and the game never reads it') }, ...probeEntries(8, 'x')]));
  writeFileSync(path.join(install, 'Data', 'NWN2_Models_X1.zip'), zip([{ name: 'NWN2_Models_X1/PLC_MC_BALCONY3.MDB', data: balcony }, ...probeEntries(7, 'x')]));
  writeFileSync(path.join(install, 'Data', 'NWN2_Models_X1_v121.zip'), zip(probeEntries(6, 'x')));
  writeFileSync(path.join(install, 'Data', 'NWN2_Models_X2.zip'), zip(probeEntries(5, 'x')));
  for (const p of probes(4)) writeFileSync(path.join(module, `${p.name.toUpperCase()}.TXT`), p.body);
  for (const p of probes(3)) writeFileSync(path.join(install, 'override', 'sub', `${p.name}.txt`), p.body);
  for (const p of probes(2)) writeFileSync(path.join(user, 'override', `${p.name}.txt`), p.body);
  const probeRes = (k: number) => probes(k).map((p) => ({ resRef: p.name, type: txtType, data: text(p.body) }));
  writeFileSync(path.join(user, 'hak', 'nested', 'A.HAK'), hak(probeRes(0)));
  writeFileSync(path.join(user, 'hak', 'b.hak'), hak(probeRes(1)));
  const ifo = createGffDocument('IFO', createGffStruct(0xffffffff, [gff.list('Mod_HakList', ['a', 'b', 'absent_hak'].map((h) => createGffStruct(8, [gff.exoString('Mod_Hak', h)])))]));
  writeFileSync(path.join(module, 'module.ifo'), writeGff(ifo));
  return { install, user, module };
}

describe('NWN2 game install as a resource source', () => {
  let install: string;
  let user: string;
  let module: string;
  beforeAll(() => ({ install, user, module } = buildInstall(path.join(temp, 'game'))));

  it('orders Data zips: later expansions, then patches, before what they patch', () => {
    expect(nwn2DataZipOrder(['NWN2_Models.zip', 'NWN2_Models_v121.zip', 'NWN2_Models_X1.zip', 'NWN2_Models_X2_v121.zip', 'NWN2_Models_v103x1.zip', 'NWN2_Models_X2.zip', 'NWN2_Models_X1_v121.zip', '2DA.zip', '2DA_X1.zip'])).toEqual([
      'NWN2_Models_X2_v121.zip',
      'NWN2_Models_X2.zip',
      'NWN2_Models_X1_v121.zip',
      '2DA_X1.zip',
      'NWN2_Models_X1.zip',
      'NWN2_Models_v121.zip',
      'NWN2_Models_v103x1.zip',
      '2DA.zip',
      'NWN2_Models.zip',
    ]);
  });

  it('looks resources up in the game order (haks as listed, override, module, Data zips), without regard to case', () => {
    const r = Nwn2GameResources.open({ game: install, module });
    try {
      expect(r.sources.map((s) => s.kind)).toEqual(['hak', 'hak', 'override', 'override', 'module', 'data', 'data', 'data', 'data', 'data', 'data']);
      expect(r.missingHaks).toEqual(['absent_hak']);
      for (let k = 0; k < ORDER.length; k++) {
        const hit = r.find(`P${k}`, 'TXT');
        expect(hit && new TextDecoder().decode(hit.bytes), `p${k}`).toBe(ORDER[k]);
      }
      expect(r.find('p0', 'txt')?.from).toBe(`${path.join(user, 'hak', 'nested', 'A.HAK')}:p0.txt`);
      expect(r.find('nothing', 'txt')).toBeUndefined();
      expect(r.damaged).toEqual([]);
    } finally {
      r.close();
    }
    // Asked for models only, the zips keep no other entries (loose folders and haks still answer).
    const models = Nwn2GameResources.open({ game: install, module, types: ['MDB'] });
    expect(models.find('p8', 'txt')).toBeUndefined();
    expect(new TextDecoder().decode(models.find('p0', 'txt')!.bytes)).toBe('hak a');
    expect(models.find('plc_mc_balcony3', 'mdb')?.from).toBe(`${path.join(install, 'Data', 'NWN2_Models_X1.zip')}:plc_mc_balcony3.mdb`);
  });

  it('finds the user folder from the module and reads a module kept as a .mod', () => {
    const mod = createErfDocument('MOD', 'V1.1');
    putErfResource(mod, { resRef: 'module', type: Nwn2ResType.IFO, data: writeGff(createGffDocument('IFO', createGffStruct(0xffffffff, [gff.list('Mod_HakList', [createGffStruct(8, [gff.exoString('Mod_Hak', 'B')])])]))) });
    putErfResource(mod, { resRef: 'only_in_mod', type: txtType, data: text('mod') });
    const file = path.join(user, 'modules', 'packed.mod');
    writeFileSync(file, writeErf(mod));
    const r = Nwn2GameResources.open({ game: install, module: file });
    try {
      expect(r.sources.slice(0, 2).map((s) => s.kind)).toEqual(['hak', 'override']);
      expect(new TextDecoder().decode(r.find('p1', 'txt')!.bytes)).toBe('hak b');
      expect(r.find('ONLY_IN_MOD', 'txt')?.from).toBe(`${file}:only_in_mod.txt`);
    } finally {
      r.close();
    }
  });

  it('resolves placeables.2da and the balcony MDB from the expansion zips, not the base ones', async () => {
    const resolver = await Nwn2ModelResolver.open({ modelDirs: [], game: { game: install } });
    try {
      expect(resolver.placeablesSource).toBe(`${path.join(install, 'Data', '2DA_X1.zip')}:placeables.2da`);
      expect(resolver.modelName(BALCONY_ROW)).toBe('PLC_MC_BALCONY3');
      const m = await resolver.resolve(BALCONY_ROW);
      expect(m?.walkmeshes[0]!.faceFlags.length).toBe(50);
      expect(resolver.lookups.at(-1)?.from).toBe(`${path.join(install, 'Data', 'NWN2_Models_X1.zip')}:plc_mc_balcony3.mdb`);
      expect((await resolver.twoDa('PLACEABLES'))?.cell(BALCONY_ROW, 'NWN2_ModelName')).toBe('PLC_MC_BALCONY3');
      expect(await resolver.twoDa('doortypes')).toBeUndefined();
      expect((await resolver.model('plc_mc_balcony3'))?.name).toBe('PLC_MC_BALCONY3');
    } finally {
      resolver.close();
    }
  });

  it('--models and --2da folders come before the game', async () => {
    const over = path.join(temp, 'loose-2da');
    mkdirSync(over);
    writeFileSync(path.join(over, 'placeables.2da'), new TextDecoder('latin1').decode(placeables).replace(/PLC_MC_BALCONY3/g, 'PLC_LOOSE_NAME'));
    const resolver = await Nwn2ModelResolver.open({ modelDirs: [libdDir], twoDaDir: over, game: { game: install } });
    try {
      expect(resolver.modelName(BALCONY_ROW)).toBe('PLC_LOOSE_NAME');
      expect((await resolver.model('PLC_MC_BALCONY3')) && resolver.twoDaSource('placeables')).toBe(path.join(over, 'placeables.2da'));
    } finally {
      resolver.close();
    }
  });

  it('bakes with --game the same TRX as with --models/--2da folders, and lists missing models by name', async () => {
    const area = loadArea(mordDir, 'CSLMordMansion');
    const git = path.join(temp, 'mord.git');
    writeFileSync(
      git,
      writeGff(
        withPlaceables(area.git, [
          { appearance: BALCONY_ROW, x: 4, y: 40.5 },
          { appearance: STAGE_ROW, x: 10, y: 10 },
          { appearance: STAGE_ROW, x: 12, y: 10 },
        ]),
      ),
    );
    const folders = await bakeTrnFiles({ trn: area.trnFile, git, modelDirs: [libdDir], twoDaDir });
    const game = await bakeTrnFiles({ trn: area.trnFile, git, game: { game: install } });
    expect(game.report.placeables.stats?.applied.map((p) => p.model)).toEqual(['PLC_MC_BALCONY3']);
    expect(Buffer.from(game.bytes).equals(Buffer.from(folders.bytes))).toBe(true);
    // The mansion's own placeables have no public models either: every one is named, none dropped.
    const before = await bakeTrnFiles({ trn: area.trnFile, git: area.gitFile, game: { game: install } });
    const stages = (before.missingModels.find((m) => m.model === 'PLC_MC_STAGE01')?.count ?? 0) + 2;
    expect(game.missingModels).toContainEqual({ model: 'PLC_MC_STAGE01', appearances: [STAGE_ROW], count: stages });
    expect(game.missingModels.every((m) => m.model !== undefined)).toBe(true);
    expect(game.missingModels.reduce((n, m) => n + m.count, 0)).toBe(game.report.placeables.missingModel.length);
    expect(folders.missingModels).toEqual(game.missingModels);

    const run = commandRunner(main);
    const out = path.join(temp, 'mord-game.trx');
    const cli = await run('bake', area.trnFile, '--git', git, '--game', install, '-o', out);
    expect(cli.err).toBe('');
    expect(cli.status).toBe(0);
    expect(cli.out).toContain(`${game.report.placeables.missingModel.length} without a model found`);
    expect(cli.out).toMatch(new RegExp(`without a model found: .*PLC_MC_STAGE01 ×${stages}`));
    const json = await run('bake', area.trnFile, '--git', git, '--game', install, '-o', out, '--json');
    const entry = (JSON.parse(json.out) as { report: { placeables: { missingModels: unknown } }; gameSources: { kind: string }[] }[])[0]!;
    expect(entry.report.placeables.missingModels).toContainEqual({ model: 'PLC_MC_STAGE01', placeablesRows: [STAGE_ROW], count: stages });
    expect(entry.gameSources.map((s) => s.kind)).toEqual(['override', 'data', 'data', 'data', 'data', 'data', 'data']);

    // Without any model source, the rows are named and why nothing was looked up.
    const bare = await run('bake', area.trnFile, '--git', git, '-o', out);
    expect(bare.out).toMatch(new RegExp(`placeables\\.2da row ${STAGE_ROW} \\(no --models, --2da or --game given\\) ×${stages}`));
  });

  it('takes the module next to the TRN (its haks) and says which haks are missing', async () => {
    const area = loadArea(mordDir, 'CSLMordMansion');
    const trn = path.join(module, 'mord.trn');
    writeFileSync(trn, readFixture(area.trnFile));
    const git = path.join(module, 'mord.git');
    writeFileSync(git, writeGff(withPlaceables(area.git, [{ appearance: BALCONY_ROW, x: 4, y: 40.5 }])));
    const cli = await commandRunner(main)('bake', trn, '--git', git, '--game', install, '-o', path.join(temp, 'mod.trx'), '--json');
    expect(cli.status).toBe(0);
    const entry = (JSON.parse(cli.out) as { missingHaks: string[]; gameSources: { kind: string }[] }[])[0]!;
    expect(entry.missingHaks).toEqual(['absent_hak']);
    expect(entry.gameSources.slice(0, 2).map((s) => s.kind)).toEqual(['hak', 'hak']);
  });

  it('a damaged Data zip is skipped and named; a corrupted entry the bake needs is a clear one-line error', async () => {
    const root = path.join(temp, 'damaged');
    const { install: broken } = buildInstall(root);
    writeFileSync(path.join(broken, 'Data', 'NWN2_Models_X2.zip'), text('PK but nothing a zip reader can use'));
    const area = loadArea(mordDir, 'CSLMordMansion');
    const git = path.join(temp, 'mord-balcony.git');
    writeFileSync(git, writeGff(withPlaceables(area.git, [{ appearance: BALCONY_ROW, x: 4, y: 40.5 }])));
    const run = commandRunner(main);
    const skipped = await run('bake', area.trnFile, '--git', git, '--game', broken, '-o', path.join(temp, 'damaged.trx'));
    expect(skipped.status).toBe(0);
    expect(skipped.out).toContain(`warning: skipped a damaged archive of the game: ${path.join(broken, 'Data', 'NWN2_Models_X2.zip')}`);

    // Flip bytes inside the X1 balcony entry: its CRC-32 no longer matches.
    const x1 = path.join(broken, 'Data', 'NWN2_Models_X1.zip');
    const bytes = readFixture(x1).slice();
    for (let i = 200; i < 260; i++) bytes[i] = bytes[i]! ^ 0x5a;
    writeFileSync(x1, bytes);
    const failed = await run('bake', area.trnFile, '--git', git, '--game', broken, '-o', path.join(temp, 'damaged2.trx'));
    expect(failed.status).toBe(1);
    expect(failed.err.trimEnd().split('\n')).toHaveLength(1);
    expect(failed.err).toContain(x1);
    expect(failed.err).toMatch(/entries\[0\] \(NWN2_Models_X1\/PLC_MC_BALCONY3\.MDB\)/);
    expect(failed.err).not.toMatch(/internal error|at .*\.ts/);
  });

  it('refuses a --game folder that is not an install, naming it', async () => {
    const empty = path.join(temp, 'not-an-install');
    mkdirSync(empty);
    expect(() => Nwn2GameResources.open({ game: empty })).toThrow(`${empty}: is not an NWN2 install`);
    expect(() => Nwn2GameResources.open({ game: path.join(temp, 'nope') })).toThrow(/no such file or folder/);
  });
});

describe("the app's bake: the project's NWN2 game folders", () => {
  it('fill in placeables.2da and MDBs the project lacks, and the findings name the models still missing', () => {
    const { install } = buildInstall(path.join(temp, 'project-game'));
    const project = path.join(temp, 'game.wbproj');
    const store = ProjectStore.create(project, { name: 'game', game: 'nwn2' });
    try {
      const area = loadArea(mordDir, 'CSLMordMansion');
      const git = withPlaceables(area.git, [
        { appearance: BALCONY_ROW, x: 4, y: 40.5 },
        { appearance: STAGE_ROW, x: 10, y: 10 },
      ]);
      const without = projectPlaceableModels(store, 'mod');
      expect(without(BALCONY_ROW)).toBeUndefined();
      expect(without.modelName?.(BALCONY_ROW)).toBeUndefined();

      store.addGameFolder(install);
      store.addGameFolder(path.join(temp, 'no-such-install'));
      const lookup = projectPlaceableModels(store, 'mod');
      expect(lookup(BALCONY_ROW)?.walkmeshes[0]!.faceFlags.length).toBe(50);
      expect(lookup(STAGE_ROW)).toBeUndefined();
      expect(lookup.modelName?.(STAGE_ROW)).toBe('PLC_MC_STAGE01');

      const models = areaBakeModels(git, lookup);
      expect(models.find((m) => m.appearance === STAGE_ROW)).toEqual({ appearance: STAGE_ROW, model: null, modelName: 'PLC_MC_STAGE01' });
      const out = runAreaBake(encodeAreaBakeInput({ name: 'mod/mord.trn', gitName: 'mod/mord.git', trn: readFixture(area.trnFile), git: writeGff(git), models, tileCache: null }), env);
      const summary = out.findings.filter((f) => f.code === 'nwn2.bake.placeable-models-missing');
      expect(summary).toHaveLength(1);
      expect(summary[0]!.message).toMatch(new RegExp(`^${out.placeablesWithoutModel} placeable\\(s\\) without a model found .*PLC_MC_STAGE01`));
      expect(out.findings.filter((f) => f.code === 'nwn2.bake.placeable-model-missing')).toHaveLength(out.placeablesWithoutModel);
      expect(out.findings.some((f) => f.code === 'nwn2.bake.placeable-model-missing' && f.message.includes(`row ${STAGE_ROW}, model PLC_MC_STAGE01`))).toBe(true);
    } finally {
      store.close();
    }
  });
});
