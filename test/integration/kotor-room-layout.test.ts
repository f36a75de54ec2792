import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isKotorRoomWalkmesh, kotorLayoutOfRoom, kotorRoomsOfLayout } from '../../electron/services/project/kotor-room-layout';
import { importSources } from '../../electron/services/project/project-import';
import { ProjectStore } from '../../electron/services/project/project-store';
import type { FileRecord } from '../../electron/services/project/project-types';
import { MalformedInputError } from '../../shared/binary/malformed-input-error';
import { KotorResType } from '../../shared/formats/aurora/resource-types';
import { createRimDocument } from '../../shared/formats/aurora/rim-document';
import { writeRim } from '../../shared/formats/aurora/rim-writer';
import { BWM_FORMAT } from '../../shared/formats/kotor/bwm-document';
import { readLyt } from '../../shared/formats/kotor/lyt-reader';
import { writeLyt } from '../../shared/formats/kotor/lyt-writer';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { BLACK_VULKAR_ROOMS, blackVulkarLyt, blackVulkarWok } from '../unit/kotor-area/black-vulkar-area';
import { projectTempDir } from '../unit/project/project-test-files';

const tmp = projectTempDir('kotor-room-layout');
const enc = new TextEncoder();
/** Claims three rooms and lists none: the reader refuses it. */
const brokenLyt = enc.encode('beginlayout\r\n   roomcount 3\r\n   M10aa_06a 0 0 0\r\ndonelayout\r\n');
const wok = (room: string) => ({ name: `${room}.wok`, kind: 'walkmesh' as const, format: BWM_FORMAT, bytes: blackVulkarWok(room) });

/**
 * A project as a version that named modules after folders stored the Black Vulkar base:
 * the layout and two rooms imported from override, three rooms from `m10aa_s.rim` (module
 * `m10aa`, with a second copy of one override room), the rest from a loose folder that
 * also holds another module's layout; plus an unreadable layout in the capsule's module.
 */
function oldRuleProject(file: string): ProjectStore {
  const store = ProjectStore.create(file, { name: 'old', game: 'kotor' });
  const R = BLACK_VULKAR_ROOMS;
  store.upsertFile({ module: 'override', area: 'm10aa', name: 'm10aa.lyt', kind: 'lyt', bytes: writeLyt(blackVulkarLyt()) });
  for (const room of R.slice(0, 2)) store.upsertFile({ module: 'override', area: room, ...wok(room) });
  for (const room of R.slice(1, 4)) store.upsertFile({ module: 'm10aa', area: room, ...wok(room) });
  store.upsertFile({ module: 'm10aa', area: 'broken', name: 'broken.lyt', kind: 'lyt', bytes: brokenLyt });
  for (const room of R.slice(4)) store.upsertFile({ module: 'extracted', area: room, ...wok(room) });
  store.upsertFile({ module: 'extracted', area: 'm40ad', name: 'm40ad.lyt', kind: 'lyt', bytes: readFixture(path.join(fixturesRoot, 'kotor/k1cp/m40ad.lyt')) });
  store.upsertFile({ module: 'extracted', area: 'plc_fccage2', name: 'plc_fccage2.pwk', kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(path.join(fixturesRoot, 'kotor/k1cp/plc_fccage2.pwk')) });
  store.upsertFile({ module: 'extracted', area: 'test', name: 'test.wok', kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(path.join(fixturesRoot, 'kotor/pykotor/test.wok')) });
  return store;
}

const file = (store: ProjectStore, module: string, name: string): FileRecord => store.findFile(module, name)!;

describe('kotorLayoutOfRoom: the layout of a room and its rooms wherever the project holds them', () => {
  it('finds them in a project whose modules are folder names, reading only LYTs and passing over the unreadable one', () => {
    expect(() => readLyt(brokenLyt)).toThrow(MalformedInputError);
    const store = oldRuleProject(tmp('old.wbproj'));
    try {
      const R = BLACK_VULKAR_ROOMS;
      const read: FileRecord[] = [];
      const malformed: [FileRecord, MalformedInputError][] = [];
      const options = { read: (f: FileRecord) => (read.push(f), store.loadCurrentBytes(f)), onMalformed: (f: FileRecord, e: MalformedInputError) => void malformed.push([f, e]) };

      // A room of the capsule's module: that module's unreadable LYT is tried first, then the others.
      const found = kotorLayoutOfRoom(store, file(store, 'm10aa', `${R[2]}.wok`), options)!;
      expect(found.lyt).toMatchObject({ module: 'override', name: 'm10aa.lyt' });
      expect(found.layout.rooms.map((r) => r.name.toLowerCase())).toEqual([...R]);
      expect([...found.rooms.keys()].sort()).toEqual([...R].sort());
      expect(found.rooms.get(R[0])).toMatchObject({ module: 'override' });
      // Held twice: the copy in the layout's module.
      expect(found.rooms.get(R[1])).toMatchObject({ module: 'override' });
      expect(found.rooms.get(R[2])).toMatchObject({ module: 'm10aa' });
      for (const room of R.slice(4)) expect(found.rooms.get(room)).toMatchObject({ module: 'extracted' });
      expect(read.every((f) => f.kind === 'lyt')).toBe(true);
      expect(read[0]).toMatchObject({ module: 'm10aa', name: 'broken.lyt' });
      expect(malformed.map(([f, e]) => [f.name, e.file])).toEqual([['broken.lyt', 'm10aa/broken.lyt']]);

      // Asked about the capsule's copy of a room held twice, that copy is the room.
      const twice = file(store, 'm10aa', `${R[1]}.wok`);
      expect(kotorLayoutOfRoom(store, twice)!.rooms.get(R[1])!.id).toBe(twice.id);
      // From the loose folder's module, past the other module's layout there.
      expect(kotorLayoutOfRoom(store, file(store, 'extracted', `${R[6]}.wok`))!.lyt.name).toBe('m10aa.lyt');
    } finally {
      store.close();
    }
  });

  it('answers undefined for a file that is no room and for a room no layout lists, and follows the LYT as edited', () => {
    const store = oldRuleProject(tmp('none.wbproj'));
    try {
      const pwk = file(store, 'extracted', 'plc_fccage2.pwk');
      expect(isKotorRoomWalkmesh(pwk)).toBe(false);
      expect(kotorLayoutOfRoom(store, pwk)).toBeUndefined();
      expect(kotorLayoutOfRoom(store, file(store, 'override', 'm10aa.lyt'))).toBeUndefined();
      expect(kotorLayoutOfRoom(store, file(store, 'extracted', 'test.wok'))).toBeUndefined();

      // An edit of the layout that drops the last room: that room has no layout any more.
      const lyt = file(store, 'override', 'm10aa.lyt');
      const doc = blackVulkarLyt();
      store.saveEdit(lyt.id, writeLyt({ ...doc, rooms: doc.rooms.slice(0, -1), preserved: undefined }));
      const last = BLACK_VULKAR_ROOMS[BLACK_VULKAR_ROOMS.length - 1]!;
      expect(kotorLayoutOfRoom(store, file(store, 'extracted', `${last}.wok`))).toBeUndefined();
      expect(kotorLayoutOfRoom(store, file(store, 'extracted', `${BLACK_VULKAR_ROOMS[4]}.wok`))!.rooms.has(last)).toBe(false);
    } finally {
      store.close();
    }
  });

  it('finds them in one module after an import that brought the layout and the rooms from different places', async () => {
    const root = tmp('new');
    const override = path.join(root, 'override');
    mkdirSync(override, { recursive: true });
    writeFileSync(path.join(override, 'm10aa.lyt'), writeLyt(blackVulkarLyt()));
    const rim = createRimDocument();
    for (const room of BLACK_VULKAR_ROOMS) rim.resources.push({ resRef: room, type: KotorResType.WOK, data: blackVulkarWok(room) });
    const capsule = path.join(root, 'm10aa_s.rim');
    writeFileSync(capsule, writeRim(rim));
    const store = ProjectStore.create(tmp('new.wbproj'), { name: 'new', game: 'kotor' });
    try {
      await importSources(store, [override, capsule]);
      const room = file(store, 'm10aa', `${BLACK_VULKAR_ROOMS[3]}.wok`);
      const found = kotorLayoutOfRoom(store, room)!;
      expect(found.lyt).toMatchObject({ module: 'm10aa', name: 'm10aa.lyt' });
      expect(found.rooms.size).toBe(BLACK_VULKAR_ROOMS.length);
      expect(new Set([...found.rooms.values()].map((f) => f.module))).toEqual(new Set(['m10aa']));
      // The rooms of a layout opened on its own (a path query on the LYT) are the same files.
      expect(kotorRoomsOfLayout(store, found.lyt, found.layout)).toEqual(found.rooms);
    } finally {
      store.close();
    }
  });
});
