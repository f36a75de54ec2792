import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectCommand } from '../../electron/cli/commands/project-command';
import { ProjectFootprintModels } from '../../electron/services/project/project-footprint-models';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createErfDocument } from '../../shared/formats/aurora/erf-document';
import { createGffStruct, GffType, type GffField } from '../../shared/formats/aurora/gff-document';
import { writeGff } from '../../shared/formats/aurora/gff-writer';
import { createRimDocument } from '../../shared/formats/aurora/rim-document';
import { writeRim } from '../../shared/formats/aurora/rim-writer';
import { buildBif, buildKey } from '../unit/kotor-files/key-bif-builder';
import { writeErf } from '../../shared/formats/aurora/erf-writer';
import { KotorResType, Nwn2ResType } from '../../shared/formats/aurora/resource-types';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { commandRunner } from '../support/run-command';

const run = commandRunner(projectCommand);
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-import-layouts-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface ImportJson {
  counts: Record<string, number>;
  files: { path: string; module: string; name: string; kind: string | null; status: string; reason?: string }[];
}

const kaedrin = (f: string) => readFixture(path.join(fixturesRoot, 'nwn2/kaedrin', f));
const nwnlib = (f: string) => readFixture(path.join(fixturesRoot, 'nwn2/nwn-lib-d', f));

function nwn2Archive(fileType: string, resources: { resRef: string; type: number; data: Uint8Array }[]): Uint8Array {
  const doc = createErfDocument(fileType, 'V1.1');
  doc.resources.push(...resources);
  return writeErf(doc);
}

describe('walkbench project import from NWN2 module archives and hak folders', () => {
  it('imports a .mod by its content, names its resources resref.ext, and reports what changed on a second import', async () => {
    const project = path.join(tmp, 'mod.wbproj');
    await run('create', project, '--game', 'nwn2');
    const mod = path.join(tmp, 'Kaedrin Module.mod');
    const area = [
      { resRef: 'enter world', type: Nwn2ResType.TRX, data: kaedrin('enter world.trx') },
      { resRef: 'enter world', type: Nwn2ResType.TRN, data: kaedrin('enter world.trn') },
      { resRef: 'enter world', type: Nwn2ResType.GIT, data: kaedrin('enter world.GIT') },
      { resRef: 'enter world', type: Nwn2ResType.ARE, data: kaedrin('enter world.ARE') },
      { resRef: 'module', type: Nwn2ResType.IFO, data: new Uint8Array([1, 2, 3]) },
    ];
    writeFileSync(mod, nwn2Archive('MOD ', area));
    const first = await run('import', project, mod, '--json');
    expect(first.status).toBe(0);
    const report = JSON.parse(first.out) as ImportJson;
    expect(report.counts).toEqual({ added: 4, changed: 0, unchanged: 0, skipped: 1 });
    expect(report.files.map((f) => [f.module, f.name, f.kind ?? f.reason])).toEqual([
      ['Kaedrin Module', 'enter world.trx', 'walkmesh'],
      ['Kaedrin Module', 'enter world.trn', 'trn'],
      ['Kaedrin Module', 'enter world.git', 'git'],
      ['Kaedrin Module', 'enter world.are', 'are'],
      ['Kaedrin Module', 'module.ifo', 'not a file Walkbench uses'],
    ]);
    expect(report.files[0]!.path).toBe(`${mod}:enter world.trx`);

    // The module's TRX re-baked by the toolset: one resource changes.
    const changedTrx = kaedrin('dm001_cargohold.trx');
    writeFileSync(mod, nwn2Archive('MOD ', [{ ...area[0]!, resRef: 'ENTER WORLD', data: changedTrx }, ...area.slice(1)]));
    const second = await run('import', project, mod);
    expect(second.out).toMatch(/^changed Kaedrin Module\/ENTER WORLD\.trx \(walkmesh\)$/m);
    expect(second.out).toContain(`${project}: 0 added, 1 changed, 3 unchanged, 1 skipped`);
    const store = ProjectStore.open(project);
    try {
      const trx = store.findFile('kaedrin module', 'enter world.TRX')!;
      expect(trx.size).toBe(changedTrx.length);
      // The file takes the new spelling; the area keeps the one it was created with (names ignore case).
      expect(trx.name).toBe('ENTER WORLD.trx');
      expect(trx.area).toBe('enter world');
    } finally {
      store.close();
    }
  });

  it('imports the MDB models and placeables.2da that the placeables of the module need, from a hak folder, and nothing else', async () => {
    const project = path.join(tmp, 'models.wbproj');
    await run('create', project, '--game', 'nwn2');
    const moduleDir = path.join(tmp, 'WalkmeshObjects');
    const hakDir = path.join(tmp, 'hak');
    mkdirSync(moduleDir);
    mkdirSync(hakDir);
    writeFileSync(path.join(moduleDir, 'WalkmeshObjects.git'), nwnlib('WalkmeshObjects.git'));
    writeFileSync(path.join(moduleDir, 'WalkmeshObjects.are'), nwnlib('WalkmeshObjects.are'));
    // placeables.2da maps appearance 1597 (a placeable of this GIT) to PLC_MC_BALCONY1; the hak holds it under that name.
    const mdb = nwnlib('PLC_MC_BALCONY3.MDB');
    writeFileSync(
      path.join(hakDir, 'models.hak'),
      nwn2Archive('HAK ', [
        { resRef: 'PLC_MC_BALCONY1', type: Nwn2ResType.MDB, data: mdb },
        { resRef: 'plc_not_placed', type: Nwn2ResType.MDB, data: mdb },
        { resRef: 'placeables', type: Nwn2ResType.TWODA, data: readFixture(path.join(fixturesRoot, 'nwn2/2da/placeables.2da')) },
      ]),
    );
    const r = await run('import', project, moduleDir, '--models', hakDir, '--json');
    expect(r.status).toBe(0);
    const report = JSON.parse(r.out) as ImportJson;
    expect(report.files.map((f) => [f.module, f.name, f.kind, f.status])).toEqual([
      ['WalkmeshObjects', 'WalkmeshObjects.are', 'are', 'added'],
      ['WalkmeshObjects', 'WalkmeshObjects.git', 'git', 'added'],
      ['WalkmeshObjects', 'PLC_MC_BALCONY1.mdb', 'mdb', 'added'],
      ['WalkmeshObjects', 'placeables.2da', '2da', 'added'],
    ]);
    expect(report.files[2]!.path).toBe(`${path.join(hakDir, 'models.hak')}:PLC_MC_BALCONY1.mdb`);
    const store = ProjectStore.open(project);
    try {
      const model = store.findFile('WalkmeshObjects', 'plc_mc_balcony1.MDB')!;
      expect(Buffer.compare(store.loadFileBytes(model.id), mdb)).toBe(0);
    } finally {
      store.close();
    }
  });

  it('names a damaged archive and the offset in one line', async () => {
    const project = path.join(tmp, 'damaged.wbproj');
    await run('create', project, '--game', 'kotor');
    const r = await run('import', project, path.join(fixturesRoot, 'kotor/pykotor/test_corrupted.erf'));
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/^walkbench: .*test_corrupted\.erf.*offset/m);
    expect(r.err.split('\n').filter(Boolean)).toHaveLength(1);

    // Met while walking a folder, it is skipped with the reason; the archives beside it are opened.
    const walked = await run('import', project, path.join(fixturesRoot, 'kotor/pykotor'), '--json');
    expect(walked.status).toBe(0);
    const report = JSON.parse(walked.out) as ImportJson;
    expect(report.files.find((f) => f.name === 'test_corrupted.erf')?.reason).toMatch(/^damaged archive: .*offset 20/);
    expect(report.files.filter((f) => f.path.includes('capsule.mod:')).map((f) => [f.name, f.kind])).toEqual([
      ['001ebo.are', 'are'],
      ['001ebo.git', 'git'],
      ['001ebo.pth', null],
    ]);
    expect(report.files.find((f) => f.name === 'test.wok')).toMatchObject({ kind: 'walkmesh', status: 'added' });
  });
});

describe('walkbench project import from a KotOR game folder', () => {
  const gff = (fileType: string, fields: GffField[]) => writeGff({ fileType, version: 'V3.2', root: createGffStruct(0xffffffff, fields) });
  const placed = (template: string): GffField[] => [
    { label: 'TemplateResRef', type: GffType.ResRef, value: template },
    { label: 'X', type: GffType.Float, value: 1 },
    { label: 'Y', type: GffType.Float, value: 2 },
    { label: 'Z', type: GffType.Float, value: 0 },
    { label: 'Bearing', type: GffType.Float, value: 0 },
  ];

  it('follows the GIT to the walkmeshes of its placeables and doors: template, appearance, 2DA model, PWK and DWKs', async () => {
    const game = path.join(tmp, 'kotor-objects');
    mkdirSync(path.join(game, 'data'), { recursive: true });
    mkdirSync(path.join(game, 'modules'));
    mkdirSync(path.join(game, 'override'));
    const pwk = readFixture(path.join(fixturesRoot, 'kotor/k1cp/plc_fccage2.pwk'));
    writeFileSync(path.join(game, 'data', 'models.bif'), buildBif([{ type: KotorResType.PWK, data: pwk }]));
    writeFileSync(path.join(game, 'chitin.key'), buildKey(['data\\models.bif'], [{ resRef: 'plc_cage', type: KotorResType.PWK, bif: 0, index: 0 }]));
    writeFileSync(path.join(game, 'override', 'placeables.2da'), '2DA V2.0\n\n   label modelname\n0  nothing ****\n1  cage plc_cage\n');
    writeFileSync(path.join(game, 'override', 'genericdoors.2da'), '2DA V2.0\n\n   label modelname\n0  gate dor_gate\n');
    writeFileSync(path.join(game, 'override', 'dor_gate0.dwk'), pwk);
    writeFileSync(path.join(game, 'override', 'DOR_GATE1.DWK'), pwk);
    const rim = createRimDocument();
    const git = gff('GIT ', [
      { label: 'Placeable List', type: GffType.List, value: [createGffStruct(9, placed('cage_tpl')), createGffStruct(9, placed('no_such_tpl'))] },
      { label: 'Door List', type: GffType.List, value: [createGffStruct(8, placed('door_tpl'))] },
    ]);
    rim.resources.push({ resRef: 'm01', type: KotorResType.GIT, data: git });
    rim.resources.push({ resRef: 'cage_tpl', type: KotorResType.UTP, data: gff('UTP ', [{ label: 'Appearance', type: GffType.Dword, value: 1 }]) });
    rim.resources.push({ resRef: 'door_tpl', type: KotorResType.UTD, data: gff('UTD ', [{ label: 'Appearance', type: GffType.Dword, value: 0 }]) });
    writeFileSync(path.join(game, 'modules', 'm01_s.rim'), writeRim(rim));

    const project = path.join(tmp, 'kotor-objects.wbproj');
    await run('create', project, '--game', 'kotor');
    const r = await run('import', project, game, '--module', 'M01', '--json');
    expect(r.status).toBe(0);
    const report = JSON.parse(r.out) as ImportJson;
    const rimPath = path.join(game, 'modules', 'm01_s.rim');
    expect(report.files.map((f) => [f.module, f.name, f.kind, f.path])).toEqual([
      ['M01', 'm01.git', 'git', `${rimPath}:m01.git`],
      ['M01', 'cage_tpl.utp', 'template', `${rimPath}:cage_tpl.utp`],
      ['M01', 'placeables.2da', '2da', path.join(game, 'override', 'placeables.2da')],
      ['M01', 'plc_cage.pwk', 'walkmesh', `${path.join(game, 'chitin.key')}:data\\models.bif:plc_cage.pwk`],
      ['M01', 'door_tpl.utd', 'template', `${rimPath}:door_tpl.utd`],
      ['M01', 'genericdoors.2da', '2da', path.join(game, 'override', 'genericdoors.2da')],
      ['M01', 'dor_gate0.dwk', 'walkmesh', path.join(game, 'override', 'dor_gate0.dwk')],
      ['M01', 'dor_gate1.dwk', 'walkmesh', path.join(game, 'override', 'DOR_GATE1.DWK')],
    ]);

    // The project alone (no game folder) names each object's walkmeshes as the game does:
    // template → Appearance → 2DA modelname, though no template is named after its model.
    const store = ProjectStore.open(project);
    try {
      const models = new ProjectFootprintModels(store).forModule('M01');
      const object = (kind: 'placeable' | 'door', templateResRef: string) => ({ kind, index: 0, templateResRef, tag: undefined, x: 1, y: 2, z: 0, bearing: 0 });
      expect(models.kotor!(object('placeable', 'cage_tpl'))?.map((m) => m.state)).toEqual(['placeable']);
      expect(models.kotor!(object('door', 'door_tpl'))?.map((m) => m.state)).toEqual(['closed', 'open1']);
      expect(models.kotor!(object('placeable', 'no_such_tpl'))).toBeUndefined();
    } finally {
      store.close();
    }
  });
});
