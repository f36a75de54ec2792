import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kotorLayoutOfRoom } from '../../electron/services/project/kotor-room-layout';
import { importSources } from '../../electron/services/project/project-import';
import { ProjectStore } from '../../electron/services/project/project-store';
import { KotorResType } from '../../shared/formats/aurora/resource-types';
import { createRimDocument } from '../../shared/formats/aurora/rim-document';
import { writeRim } from '../../shared/formats/aurora/rim-writer';
import { BWM_FORMAT } from '../../shared/formats/kotor/bwm-document';
import { writeLyt } from '../../shared/formats/kotor/lyt-writer';
import { TRX_FORMAT } from '../../shared/formats/nwn2/trx-document';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { BLACK_VULKAR_ROOMS, blackVulkarLyt, blackVulkarWok } from '../unit/kotor-area/black-vulkar-area';
import { projectTempDir } from '../unit/project/project-test-files';

const tmp = projectTempDir('reimport-old-modules');
const snapshot = (store: ProjectStore) => store.listFiles().map((f) => [f.module, f.name, f.id]);

/**
 * Projects imported by a version that named modules after folders: importing the same
 * sources again updates each file where the project holds it (same id, edits kept) rather
 * than adding it a second time under the game's module; only files it does not hold yet go
 * to the game's module.
 */
describe('re-import into a project whose modules are folder names', () => {
  it('KotOR: leaves every file where it is, updates a changed room in place, and adds a new room to the layout module', async () => {
    const root = tmp('kotor');
    const override = path.join(root, 'override');
    const loose = path.join(root, 'rooms');
    mkdirSync(override, { recursive: true });
    mkdirSync(loose);
    writeFileSync(path.join(override, 'm10aa.lyt'), writeLyt(blackVulkarLyt()));
    const [first, ...rest] = BLACK_VULKAR_ROOMS;
    writeFileSync(path.join(override, `${first}.wok`), blackVulkarWok(first));
    const rim = createRimDocument();
    for (const room of rest.slice(0, 3)) rim.resources.push({ resRef: room, type: KotorResType.WOK, data: blackVulkarWok(room) });
    const capsule = path.join(root, 'm10aa_s.rim');
    writeFileSync(capsule, writeRim(rim));
    const held = rest.slice(3, -1);
    const added = rest[rest.length - 1]!;
    for (const room of held) writeFileSync(path.join(loose, `${room}.wok`), blackVulkarWok(room));

    const store = ProjectStore.create(tmp('kotor.wbproj'), { name: 'old', game: 'kotor' });
    try {
      // The folder rule of earlier versions, each source by its folder or archive name.
      await importSources(store, [override], { module: 'override' });
      await importSources(store, [capsule], { module: 'm10aa' });
      await importSources(store, [loose], { module: 'rooms' });
      const before = snapshot(store);
      expect(store.listModules().map((m) => m.name)).toEqual(['m10aa', 'override', 'rooms']);

      const again = await importSources(store, [override, capsule, loose]);
      expect(again.counts).toEqual({ added: 0, changed: 0, unchanged: before.length, skipped: 0 });
      expect(again.files.find((f) => f.name === 'm10aa.lyt')?.module).toBe('override');
      expect(snapshot(store)).toEqual(before);

      // One room re-exported with other bytes and edited in the project; one room new.
      const changedRoom = held[0]!;
      const edited = store.findFile('rooms', `${changedRoom}.wok`)!;
      store.saveEdit(edited.id, blackVulkarWok(changedRoom));
      const changedBytes = blackVulkarWok(changedRoom).slice();
      changedBytes[changedBytes.length - 1] ^= 1;
      writeFileSync(path.join(loose, `${changedRoom}.wok`), changedBytes);
      writeFileSync(path.join(loose, `${added}.wok`), blackVulkarWok(added));
      const third = await importSources(store, [override, capsule, loose]);
      expect(third.counts).toEqual({ added: 1, changed: 1, unchanged: before.length - 1, skipped: 0 });
      expect(store.findFile('rooms', `${changedRoom}.wok`)).toMatchObject({ id: edited.id, size: changedBytes.length, edited: true, editStale: true });
      expect(store.findFile('m10aa', `${added}.wok`)?.format).toBe(BWM_FORMAT);
      expect(store.findFile('rooms', `${added}.wok`)).toBeUndefined();

      // Spread over three modules, the rooms still find their layout and each other.
      const found = kotorLayoutOfRoom(store, store.findFile('m10aa', `${added}.wok`)!)!;
      expect(found.lyt.module).toBe('override');
      expect(found.rooms.size).toBe(BLACK_VULKAR_ROOMS.length);
    } finally {
      store.close();
    }
  });

  it('NWN2: files of a module folder stored under the folder imported stay there', async () => {
    const modules = path.join(tmp('nwn2'), 'Modules');
    const moduleDir = path.join(modules, 'Keep');
    mkdirSync(moduleDir, { recursive: true });
    writeFileSync(path.join(moduleDir, 'module.ifo'), new Uint8Array([0]));
    const trx = readFixture(path.join(fixturesRoot, 'nwn2/kaedrin/enter world.trx'));
    writeFileSync(path.join(moduleDir, 'enter world.trx'), trx);
    const store = ProjectStore.create(tmp('nwn2.wbproj'), { name: 'old', game: 'nwn2' });
    try {
      const sourcePath = path.join(moduleDir, 'enter world.trx');
      const id = store.upsertFile({ module: 'Modules', area: 'enter world', name: 'enter world.trx', kind: 'walkmesh', format: TRX_FORMAT, bytes: trx, sourcePath }).fileId;
      const again = await importSources(store, [modules]);
      expect(again.files.map((f) => [f.module, f.name, f.status])).toEqual([
        ['Modules', 'enter world.trx', 'unchanged'],
        ['Keep', 'module.ifo', 'skipped'],
      ]);
      expect(store.listFiles().map((f) => [f.module, f.id])).toEqual([['Modules', id]]);
    } finally {
      store.close();
    }
  });

  it('Source: navs stored under the game folder name stay there; a new map gets its own module', async () => {
    const maps = path.join(tmp('source'), 'cstrike', 'maps');
    mkdirSync(maps, { recursive: true });
    writeFileSync(path.join(maps, 'de_dust2.nav'), readFixture(path.join(fixturesRoot, 'source/cs16/de_dust2.nav')));
    const store = ProjectStore.create(tmp('source.wbproj'), { name: 'old', game: 'source' });
    try {
      await importSources(store, [path.dirname(maps)], { module: 'cstrike' });
      const before = snapshot(store);
      writeFileSync(path.join(maps, 'de_inferno.nav'), readFixture(path.join(fixturesRoot, 'source/cs16/de_inferno.nav')));
      const again = await importSources(store, [path.dirname(maps)]);
      expect(again.counts).toEqual({ added: 1, changed: 0, unchanged: 1, skipped: 0 });
      expect(snapshot(store)).toEqual([...before, ['de_inferno', 'de_inferno.nav', expect.any(Number)]]);
    } finally {
      store.close();
    }
  });
});
