import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { createRimDocument } from '../../shared/formats/aurora/rim-document';
import { writeRim } from '../../shared/formats/aurora/rim-writer';
import { KotorResType } from '../../shared/formats/aurora/resource-types';
import { writeLyt } from '../../shared/formats/kotor/lyt-writer';
import type { ContractHandlers, Method } from '../../shared/ipc/contract';
import { dispatch } from '../../shared/ipc/dispatch';
import type { GameFolderModules, KotorModuleRooms } from '../../shared/ipc/game-folder-contract';
import type { ProjectTree } from '../../shared/ipc/project-contract';
import type { RpcOutcome } from '../../shared/ipc/rpc-error';
import { BLACK_VULKAR_ROOMS, blackVulkarLyt, blackVulkarWok } from '../unit/kotor-area/black-vulkar-area';
import { buildKey } from '../unit/kotor-files/key-bif-builder';

describe('project.gameModules and project.kotorModuleRooms: a KotOR game folder browsed through the contract', () => {
  let tmp = '';
  let game = '';
  let session = '';
  let service: ContractHandlers;
  const lyt = blackVulkarLyt();
  const call = (method: Method, params: unknown): Promise<RpcOutcome<unknown>> => dispatch(service, method, params);
  async function ok<T>(method: Method, params: unknown): Promise<T> {
    const r = await call(method, params);
    if (!r.ok) throw new Error(`${method}: ${r.error.code}: ${r.error.message}`);
    return r.value as T;
  }

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-game-folder-browse-'));
    game = path.join(tmp, 'game');
    // Case as a copied install may have it: Modules/, a capsule split in .rim and _s.rim.
    mkdirSync(path.join(game, 'Modules'), { recursive: true });
    mkdirSync(path.join(game, 'override'), { recursive: true });
    writeFileSync(path.join(game, 'chitin.key'), buildKey([], []));
    const main = createRimDocument();
    main.resources.push({ resRef: 'm10aa', type: KotorResType.LYT, data: writeLyt(lyt) });
    writeFileSync(path.join(game, 'Modules', 'm10aa.rim'), writeRim(main));
    const rooms = createRimDocument();
    for (const room of BLACK_VULKAR_ROOMS.slice(1)) rooms.resources.push({ resRef: room, type: KotorResType.WOK, data: blackVulkarWok(room) });
    writeFileSync(path.join(game, 'Modules', 'M10AA_s.rim'), writeRim(rooms));
    // The first room's walkmesh from override, as a mod would ship it.
    writeFileSync(path.join(game, 'override', `${BLACK_VULKAR_ROOMS[0]}.wok`), blackVulkarWok(BLACK_VULKAR_ROOMS[0]));
    writeFileSync(path.join(game, 'Modules', 'notes.txt'), 'not a capsule');
    const file = path.join(tmp, 'kotor.wbproj');
    const store = ProjectStore.create(file, { name: 'browse', game: 'kotor' });
    store.addGameFolder(game);
    store.close();
    service = createWalkbenchService({});
    session = (await ok<ProjectTree>('project.open', { path: file })).session;
  });
  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('lists the modules of the project\'s game folders, and a module\'s rooms with whether the game has their walkmesh', async () => {
    const listed = await ok<GameFolderModules>('project.gameModules', { session });
    expect(listed.folders).toEqual([{ path: game, modules: ['m10aa'], error: null }]);
    const rooms = await ok<KotorModuleRooms>('project.kotorModuleRooms', { session, folder: game, module: 'M10AA' });
    expect(rooms.layout).toBe('m10aa.lyt');
    expect(rooms.rooms).toEqual(lyt.rooms.map((r) => ({ name: r.name, walkmesh: true })));
  });

  it('refuses a folder the project does not name, a module the folder lacks, and a stale session', async () => {
    const other = await call('project.kotorModuleRooms', { session, folder: tmp, module: 'm10aa' });
    expect(other.ok ? null : [other.error.code, other.error.parameter]).toEqual(['invalid-params', 'params.folder']);
    const missing = await call('project.kotorModuleRooms', { session, folder: game, module: 'm99zz' });
    expect(missing.ok ? null : [missing.error.code, missing.error.message]).toEqual(['not-found', `${game}: no module m99zz in its modules folder`]);
    const stale = await call('project.gameModules', { session: 'x'.repeat(16) });
    expect(stale.ok).toBe(false);
  });
});
