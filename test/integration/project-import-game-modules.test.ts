import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importSources, type ImportReport } from '../../electron/services/project/project-import';
import { ProjectStore } from '../../electron/services/project/project-store';
import type { GameId } from '../../shared/model/walkmesh';
import { createErfDocument } from '../../shared/formats/aurora/erf-document';
import { writeErf } from '../../shared/formats/aurora/erf-writer';
import { createGffStruct, GffType } from '../../shared/formats/aurora/gff-document';
import { writeGff } from '../../shared/formats/aurora/gff-writer';
import { Nwn2ResType } from '../../shared/formats/aurora/resource-types';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { projectTempDir } from '../unit/project/project-test-files';

const tmp = projectTempDir('import-game-modules');
const kaedrin = (f: string) => readFixture(path.join(fixturesRoot, 'nwn2/kaedrin', f));
const stem = (name: string) => path.basename(name, path.extname(name));

/** Imports into a new project, checks that importing again changes nothing, and hands the store to `check`. */
async function imported(game: GameId, name: string, sources: string[], check: (store: ProjectStore, report: ImportReport) => void): Promise<void> {
  const store = ProjectStore.create(tmp(`${name}.wbproj`), { name, game });
  try {
    const report = await importSources(store, sources);
    expect(report.counts.added).toBeGreaterThan(0);
    check(store, report);
    const ids = store.listFiles().map((f) => [f.module, f.name, f.id]);
    const again = await importSources(store, sources);
    expect(again.counts).toEqual({ added: 0, changed: 0, unchanged: report.counts.added, skipped: report.counts.skipped });
    expect(store.listFiles().map((f) => [f.module, f.name, f.id])).toEqual(ids);
  } finally {
    store.close();
  }
}

describe('NWN2: the module is the .mod or the folder holding module.ifo, areas are resrefs', () => {
  const AREA = ['enter world.trx', 'enter world.trn', 'enter world.GIT', 'enter world.ARE'];
  const ifo = writeGff({ fileType: 'IFO ', version: 'V3.2', root: createGffStruct(0xffffffff, [{ label: 'Mod_Name', type: GffType.ExoString, value: 'Display name' }]) });
  const root = tmp('nwn2');
  const modules = path.join(root, 'Modules');
  const moduleDir = path.join(modules, 'Vulkar Keep');
  const archives = path.join(root, 'archives');
  const erf = (resources: { resRef: string; type: number; data: Uint8Array }[]) => {
    const doc = createErfDocument('MOD ', 'V1.1');
    doc.resources.push(...resources);
    return writeErf(doc);
  };
  const types: Record<string, number> = { '.trx': Nwn2ResType.TRX, '.trn': Nwn2ResType.TRN, '.git': Nwn2ResType.GIT, '.are': Nwn2ResType.ARE };
  beforeAll(() => {
    mkdirSync(moduleDir, { recursive: true });
    mkdirSync(archives);
    writeFileSync(path.join(moduleDir, 'module.ifo'), ifo);
    for (const f of AREA) writeFileSync(path.join(moduleDir, f), kaedrin(f));
    const areaResources = AREA.map((f) => ({ resRef: stem(f), type: types[path.extname(f).toLowerCase()]!, data: kaedrin(f) }));
    writeFileSync(path.join(archives, 'Vulkar Keep.mod'), erf([...areaResources, { resRef: 'module', type: Nwn2ResType.IFO, data: ifo }]));
    writeFileSync(path.join(modules, 'Other.mod'), erf([{ resRef: 'dm001_cargohold', type: Nwn2ResType.TRX, data: kaedrin('dm001_cargohold.trx') }]));
    writeFileSync(path.join(modules, 'stray.trx'), kaedrin('dm001_cargohold.trx'));
  });

  /** [module, area, kind] of the module's files, sorted. */
  const areaFiles = (store: ProjectStore, module: string) =>
    store
      .listFiles({ module })
      .map((f) => [f.module, f.area, f.kind])
      .sort();
  const expected = [
    ['Vulkar Keep', 'enter world', 'are'],
    ['Vulkar Keep', 'enter world', 'git'],
    ['Vulkar Keep', 'enter world', 'trn'],
    ['Vulkar Keep', 'enter world', 'walkmesh'],
  ];

  it('gives the module folder and the .mod of one module the same module, and the same areas', async () => {
    await imported('nwn2', 'nwn2-folder', [moduleDir], (store, report) => {
      expect(report.files.find((f) => f.name === 'module.ifo')).toMatchObject({ module: 'Vulkar Keep', status: 'skipped' });
      expect(areaFiles(store, 'Vulkar Keep')).toEqual(expected);
    });
    await imported('nwn2', 'nwn2-mod', [path.join(archives, 'Vulkar Keep.mod')], (store) => {
      expect(store.listModules().map((m) => m.name)).toEqual(['Vulkar Keep']);
      expect(areaFiles(store, 'Vulkar Keep')).toEqual(expected);
    });
  });

  it('names each module inside a Modules folder imported whole, and the loose files of a module folder by it', async () => {
    await imported('nwn2', 'nwn2-parent', [modules], (store) => {
      // A file outside any module keeps the folder rule: the folder imported.
      expect(store.listModules().map((m) => [m.name, m.fileCount])).toEqual([
        ['Modules', 1],
        ['Other', 1],
        ['Vulkar Keep', AREA.length],
      ]);
      expect(areaFiles(store, 'Vulkar Keep')).toEqual(expected);
      expect(store.findFile('Other', 'dm001_cargohold.trx')?.area).toBe('dm001_cargohold');
    });
    await imported('nwn2', 'nwn2-loose', AREA.slice(0, 2).map((f) => path.join(moduleDir, f)), (store) => {
      expect(areaFiles(store, 'Vulkar Keep')).toEqual([expected[2], expected[3]]);
    });
  });
});

describe('Skyrim: each plugin is its own module, masters too', () => {
  it('names the modules of a game folder after its plugins', async () => {
    const data = path.join(tmp('skyrim'), 'Skyrim Special Edition', 'Data');
    mkdirSync(data, { recursive: true });
    writeFileSync(path.join(data, 'FreeCamera.esp'), readFixture(path.join(fixturesRoot, 'skyrim/FreeCamera.esp')));
    // A master by its extension.
    writeFileSync(path.join(data, 'Secrets.esm'), readFixture(path.join(fixturesRoot, 'skyrim/DwemerSecrets.esp')));
    writeFileSync(path.join(data, 'readme.txt'), 'not a plugin');
    await imported('skyrim', 'skyrim-game', [path.dirname(data)], (store, report) => {
      expect(store.listFiles().map((f) => [f.module, f.name, f.kind])).toEqual([
        ['FreeCamera', 'FreeCamera.esp', 'walkmesh'],
        ['Secrets', 'Secrets.esm', 'master'],
      ]);
      expect(report.files.find((f) => f.name === 'readme.txt')).toMatchObject({ module: 'Skyrim Special Edition', status: 'skipped' });
    });
  });

  it('names the module of every plugin of the fixtures folder after the plugin', async () => {
    const folder = path.join(fixturesRoot, 'skyrim');
    const plugins = readdirSync(folder).filter((f) => /\.es[pml]$/i.test(f));
    await imported('skyrim', 'skyrim-fixtures', [folder], (store) => {
      expect(plugins.length).toBeGreaterThan(0);
      expect(store.listFiles().map((f) => [f.module, f.name]).sort()).toEqual(plugins.map((p) => [stem(p), p]).sort());
    });
  });
});

describe('Source: a map is a module named after the map', () => {
  it('puts de_dust2.nav and its .bsp under module de_dust2, not maps', async () => {
    const maps = path.join(tmp('source'), 'cstrike', 'maps');
    mkdirSync(maps, { recursive: true });
    writeFileSync(path.join(maps, 'de_dust2.nav'), readFixture(path.join(fixturesRoot, 'source/cs16/de_dust2.nav')));
    writeFileSync(path.join(maps, 'de_dust2.bsp'), readFixture(path.join(fixturesRoot, 'source-maps/cs16/de_dust2.bsp')));
    await imported('source', 'source-game', [path.dirname(maps)], (store, report) => {
      expect(report.files.map((f) => [f.module, f.name, f.status])).toEqual([
        ['de_dust2', 'de_dust2.bsp', 'skipped'],
        ['de_dust2', 'de_dust2.nav', 'added'],
      ]);
      expect(store.listFiles().map((f) => [f.module, f.area, f.name])).toEqual([['de_dust2', 'de_dust2', 'de_dust2.nav']]);
    });
  });

  it('names the module of every .nav of a fixtures folder after its map', async () => {
    const folder = path.join(fixturesRoot, 'source/css');
    const navs = readdirSync(folder).filter((f) => f.toLowerCase().endsWith('.nav'));
    await imported('source', 'source-fixtures', [folder], (store) => {
      expect(navs.length).toBeGreaterThan(0);
      expect(store.listModules().map((m) => [m.name, m.fileCount])).toEqual(navs.map((n) => [stem(n), 1]).sort());
    });
  });
});
