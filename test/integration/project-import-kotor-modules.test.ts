import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSources, type ImportReport } from '../../electron/services/project/project-import';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createErfDocument } from '../../shared/formats/aurora/erf-document';
import { writeErf } from '../../shared/formats/aurora/erf-writer';
import { createGffStruct, GffType, type GffField } from '../../shared/formats/aurora/gff-document';
import { writeGff } from '../../shared/formats/aurora/gff-writer';
import { KotorResType } from '../../shared/formats/aurora/resource-types';
import { createRimDocument } from '../../shared/formats/aurora/rim-document';
import { writeRim } from '../../shared/formats/aurora/rim-writer';
import { writeLyt } from '../../shared/formats/kotor/lyt-writer';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { BLACK_VULKAR_ROOMS, blackVulkarLyt, blackVulkarWok } from '../unit/kotor-area/black-vulkar-area';
import { projectTempDir } from '../unit/project/project-test-files';

const tmp = projectTempDir('import-kotor-modules');

const gff = (fileType: string, fields: GffField[]) => writeGff({ fileType, version: 'V3.2', root: createGffStruct(0xffffffff, fields) });
/** A GIT placing one placeable of template `cage_tpl`. */
const git = gff('GIT ', [
  {
    label: 'Placeable List',
    type: GffType.List,
    value: [
      createGffStruct(9, [
        { label: 'TemplateResRef', type: GffType.ResRef, value: 'cage_tpl' },
        { label: 'X', type: GffType.Float, value: 1 },
        { label: 'Y', type: GffType.Float, value: 2 },
        { label: 'Z', type: GffType.Float, value: 0 },
        { label: 'Bearing', type: GffType.Float, value: 0 },
      ]),
    ],
  },
]);
const pwk = readFixture(path.join(fixturesRoot, 'kotor/k1cp/plc_fccage2.pwk'));
const [OVERRIDE_ROOM, ...CAPSULE_ROOMS] = BLACK_VULKAR_ROOMS.slice(0, 4);
const FOLDER_ROOMS = BLACK_VULKAR_ROOMS.slice(4);

/**
 * The Black Vulkar base spread the way mods and installs spread a module: its layout and one
 * room in override (as K1CP installs rooms), the GIT in `m10aa.rim`, three rooms and the
 * placeable's template in `m10aa_s.rim`, the other rooms and the placeable's walkmesh in a
 * loose folder, and beside them a walkmesh no layout lists.
 */
function spreadModule(name: string): { override: string; rim: string; sRim: string; loose: string } {
  const root = tmp(name);
  const override = path.join(root, 'override');
  const modules = path.join(root, 'modules');
  const loose = path.join(root, 'extracted rooms');
  for (const d of [override, modules, loose]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(override, 'M10AA.lyt'), writeLyt(blackVulkarLyt()));
  writeFileSync(path.join(override, `${OVERRIDE_ROOM}.wok`), blackVulkarWok(OVERRIDE_ROOM!));
  writeFileSync(path.join(override, 'placeables.2da'), '2DA V2.0\n\n   label modelname\n0  nothing ****\n1  cage plc_cage\n');
  const rim = createRimDocument();
  rim.resources.push({ resRef: 'm10aa', type: KotorResType.GIT, data: git });
  const sRim = createRimDocument();
  for (const room of CAPSULE_ROOMS) sRim.resources.push({ resRef: room, type: KotorResType.WOK, data: blackVulkarWok(room) });
  sRim.resources.push({ resRef: 'cage_tpl', type: KotorResType.UTP, data: gff('UTP ', [{ label: 'Appearance', type: GffType.Dword, value: 1 }]) });
  writeFileSync(path.join(modules, 'm10aa.rim'), writeRim(rim));
  writeFileSync(path.join(modules, 'm10aa_s.rim'), writeRim(sRim));
  for (const room of FOLDER_ROOMS) writeFileSync(path.join(loose, `${room.toUpperCase()}.WOK`), blackVulkarWok(room));
  writeFileSync(path.join(loose, 'plc_cage.pwk'), pwk);
  writeFileSync(path.join(loose, 'test.wok'), readFixture(path.join(fixturesRoot, 'kotor/pykotor/test.wok')));
  return { override, rim: path.join(modules, 'm10aa.rim'), sRim: path.join(modules, 'm10aa_s.rim'), loose };
}

const moduleOf = (report: ImportReport) => new Map(report.files.map((f) => [f.name.toLowerCase(), f.module]));

/** What every import of the spread module must give, whatever order its parts came in. */
function expectGameModules(store: ProjectStore): void {
  const byName = new Map(store.listFiles().map((f) => [f.name.toLowerCase(), f]));
  for (const room of BLACK_VULKAR_ROOMS) expect(byName.get(`${room}.wok`)?.module, room).toBe('m10aa');
  for (const name of ['m10aa.lyt', 'm10aa.git', 'cage_tpl.utp', 'placeables.2da', 'plc_cage.pwk']) expect(byName.get(name)?.module, name).toBe('m10aa');
  expect(byName.get('m10aa.lyt')).toMatchObject({ kind: 'lyt', area: 'M10AA' });
  // No layout lists it and no GIT places it: the folder rule.
  expect(byName.get('test.wok')?.module).toBe('extracted rooms');
  expect(store.listModules().map((m) => [m.name, m.fileCount])).toEqual([
    ['extracted rooms', 1],
    ['m10aa', BLACK_VULKAR_ROOMS.length + 5],
  ]);
}

describe('KotOR import: modules are named by the LYT/GIT resref, wherever each file came from', () => {
  it('puts a layout from override, rooms from two capsules and a loose folder, and the GIT and its placeable into module m10aa', async () => {
    const src = spreadModule('one-import');
    const store = ProjectStore.create(tmp('one-import.wbproj'), { name: 't', game: 'kotor' });
    try {
      const report = await importSources(store, [src.override, src.rim, src.sRim, src.loose]);
      expect(report.counts).toEqual({ added: BLACK_VULKAR_ROOMS.length + 6, changed: 0, unchanged: 0, skipped: 0 });
      expect(moduleOf(report).get(`${CAPSULE_ROOMS[0]}.wok`)).toBe('m10aa');
      expect(report.files.find((f) => f.name === `${CAPSULE_ROOMS[0]}.wok`)?.path).toBe(`${src.sRim}:${CAPSULE_ROOMS[0]}.wok`);
      expectGameModules(store);

      // Idempotent: the same sources again change nothing and keep every file id.
      const ids = new Map(store.listFiles().map((f) => [f.name, f.id]));
      const again = await importSources(store, [src.loose, src.sRim, src.rim, src.override]);
      expect(again.counts).toEqual({ added: 0, changed: 0, unchanged: BLACK_VULKAR_ROOMS.length + 6, skipped: 0 });
      expect(new Map(store.listFiles().map((f) => [f.name, f.id]))).toEqual(ids);
    } finally {
      store.close();
    }
  });

  it('puts rooms imported after their layout into the layout module the project already holds', async () => {
    const src = spreadModule('two-imports');
    const store = ProjectStore.create(tmp('two-imports.wbproj'), { name: 't', game: 'kotor' });
    try {
      const first = await importSources(store, [src.override]);
      expect(moduleOf(first).get(`${OVERRIDE_ROOM}.wok`)).toBe('m10aa');
      // placeables.2da: no imported GIT names it yet, so the folder rule.
      expect(moduleOf(first).get('placeables.2da')).toBe('override');
      const second = await importSources(store, [src.loose, src.rim, src.sRim]);
      for (const room of [...CAPSULE_ROOMS, ...FOLDER_ROOMS]) expect(moduleOf(second).get(`${room}.wok`), room).toBe('m10aa');
      expect(moduleOf(second).get('plc_cage.pwk')).toBe('m10aa');
      expect(store.findFile('override', 'placeables.2da')?.kind).toBe('2da');
    } finally {
      store.close();
    }
  });

  it('names the module of a .mod capsule by its resources, not by the archive, and takes the first of two same-named rooms', async () => {
    const root = tmp('mod');
    mkdirSync(root);
    const mod = createErfDocument('MOD ', 'V1.0');
    mod.resources.push({ resRef: 'm10aa', type: KotorResType.LYT, data: writeLyt(blackVulkarLyt()) });
    for (const room of BLACK_VULKAR_ROOMS) mod.resources.push({ resRef: room, type: KotorResType.WOK, data: blackVulkarWok(room) });
    // A patched capsule renamed by its installer: the game's module is still m10aa.
    const modPath = path.join(root, 'm10aa_patched.mod');
    writeFileSync(modPath, writeErf(mod));
    const override = path.join(root, 'override');
    mkdirSync(override);
    const edited = blackVulkarWok(OVERRIDE_ROOM!).slice();
    edited[edited.length - 1] ^= 1;
    writeFileSync(path.join(override, `${OVERRIDE_ROOM}.wok`), edited);

    const store = ProjectStore.create(tmp('mod.wbproj'), { name: 't', game: 'kotor' });
    try {
      // Override first, as the game searches it first.
      const report = await importSources(store, [override, modPath]);
      expect(report.counts).toEqual({ added: BLACK_VULKAR_ROOMS.length + 1, changed: 0, unchanged: 0, skipped: 1 });
      const skipped = report.files.find((f) => f.status === 'skipped')!;
      expect(skipped).toMatchObject({ path: `${modPath}:${OVERRIDE_ROOM}.wok`, module: 'm10aa' });
      expect(skipped.reason).toMatch(/another imported file of module "m10aa" has the same name/);
      expect(store.listModules().map((m) => m.name)).toEqual(['m10aa']);
      const room = store.findFile('m10aa', `${OVERRIDE_ROOM}.wok`)!;
      expect(Buffer.compare(store.loadFileBytes(room.id), edited)).toBe(0);
    } finally {
      store.close();
    }
  });

  it('names the modules of real capsules (PyKotor capsule.mod and capsule.rim) by their ARE and GIT, not capsule', async () => {
    const store = ProjectStore.create(tmp('capsules.wbproj'), { name: 't', game: 'kotor' });
    try {
      const report = await importSources(store, ['capsule.mod', 'capsule.rim'].map((f) => path.join(fixturesRoot, 'kotor/pykotor', f)));
      const areaFiles = report.files.filter((f) => f.kind === 'are' || f.kind === 'git');
      expect(areaFiles.length).toBeGreaterThan(0);
      for (const f of areaFiles) expect(f.module, f.path).toBe(f.name.replace(/\.[^.]*$/, '').toLowerCase());
      expect(new Set(areaFiles.map((f) => f.module)).size).toBe(2);
      expect(store.listModules().map((m) => m.name)).not.toContain('capsule');
    } finally {
      store.close();
    }
  });

  it('keeps the module named with --module for every file', async () => {
    const src = spreadModule('named');
    const store = ProjectStore.create(tmp('named.wbproj'), { name: 't', game: 'kotor' });
    try {
      const report = await importSources(store, [src.override, src.sRim], { module: 'Vulkar' });
      expect(new Set(report.files.map((f) => f.module))).toEqual(new Set(['Vulkar']));
    } finally {
      store.close();
    }
  });
});
