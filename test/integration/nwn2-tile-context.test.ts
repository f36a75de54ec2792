import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createEventHub } from '../../shared/ipc/event-hub';
import type { ContractHandlers } from '../../shared/ipc/contract';
import { readGff } from '../../shared/formats/aurora/gff-reader';
import { readAreTiles, type AreTile } from '../../shared/formats/aurora/nwn2-are';
import { TRX_FORMAT } from '../../shared/formats/nwn2/trx-document';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { rigidMdb, tilesTwoDa } from '../support/nwn2-tile-files';
import { writeZip } from '../support/zip-writer';

/**
 * Issue 19: `context.load` on an NWN2 interior draws its ARE's tiles: tiles.2da from the
 * install's Data zip names each tile's model, the models come from the override folder and
 * a Data zip, and each is placed at its tile's centre, turned clockwise by its Orientation.
 * The ARE, TRN and TRX are a real interior (Kaedrin's "enter world", 16 tiles); the table
 * and the tile MDBs are generated (none is public).
 */
const AREA = `${fixturesRoot}/nwn2/kaedrin`;
const WALL = [1, 0, 0, 2, 0, 0, 1, 1, 0.5];
/** The south half of the tile's cell: a turn would move it. */
const FLOOR = [-4.5, -4.5, 0, 4.5, -4.5, 0, 4.5, 0, 0, -4.5, 0, 0];

describe('context.load (NWN2: the interior tiles of the ARE)', () => {
  let tmp = '';
  let service: ContractHandlers;
  let closeAll: (() => Promise<void>) | undefined;
  let session = '';
  let trxId = 0;
  let tiles: AreTile[] = [];
  const name = (t: AreTile) => `tl_SI_R${t.appearance}_${String(t.variation + 1).padStart(2, '0')}`;
  let missingModel = '';

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-nwn2-tiles-'));
    const are = readFixture(`${AREA}/enter world.ARE`);
    tiles = readAreTiles(readGff(are));
    const rows = Math.max(...tiles.map((t) => t.appearance)) + 1;
    const names = [...new Set(tiles.map(name))].sort();
    missingModel = names[names.length - 1]!;
    const install = path.join(tmp, 'install');
    mkdirSync(path.join(install, 'Data'), { recursive: true });
    mkdirSync(path.join(install, 'override'), { recursive: true });
    const table = tilesTwoDa(Array.from({ length: rows }, (_, r) => ({ tileSet: 'SI', tileType: `R${r}` })));
    writeFileSync(path.join(install, 'Data', '2DA.zip'), writeZip([{ name: '2DA/tiles.2da', data: table }]));
    const mdb = (n: string) => rigidMdb([{ name: `${n.toUpperCase()}_W01`, positions: WALL, faces: [0, 1, 2] }, { name: `${n.toUpperCase()}_F`, positions: FLOOR, faces: [0, 1, 2, 0, 2, 3] }]);
    // The first model in a Data zip, the others (but the last, left missing) in the override folder.
    writeFileSync(path.join(install, 'Data', 'NWN2_Models.zip'), writeZip([{ name: `NWN2_Models/${names[0]!.toUpperCase()}.MDB`, data: mdb(names[0]!) }]));
    for (const n of names.slice(1, -1)) writeFileSync(path.join(install, 'override', `${n}.mdb`), mdb(n));
    const project = path.join(tmp, 'tiles.wbproj');
    const store = ProjectStore.create(project, { name: 'Tiles', game: 'nwn2' });
    try {
      store.addGameFolder(install);
      store.upsertFile({ module: 'm', area: 'enter world', name: 'enter world.ARE', kind: 'are', bytes: are });
      store.upsertFile({ module: 'm', area: 'enter world', name: 'enter world.trn', kind: 'trn', bytes: readFixture(`${AREA}/enter world.trn`) });
      trxId = store.upsertFile({ module: 'm', area: 'enter world', name: 'enter world.trx', kind: 'walkmesh', format: TRX_FORMAT, bytes: readFixture(`${AREA}/enter world.trx`) }).fileId;
    } finally {
      store.close();
    }
    service = createWalkbenchService({ events: createEventHub(), onClose: (c) => (closeAll = c) });
    session = (await service['project.open']({ path: project })).session;
  }, 60_000);
  afterAll(async () => {
    await closeAll?.();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('draws each tile\'s model at its centre, turned clockwise by its Orientation, its floor unturned; a missing model is a gap', async () => {
    const r = await service['context.load']({ session, fileId: trxId });
    const rooms = r.context.pieces.filter((p) => p.kind === 'room');
    const drawn = tiles.filter((t) => name(t) !== missingModel);
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.length).toBeLessThan(tiles.length);
    expect(rooms.map((p) => p.label).sort()).toEqual(drawn.map((t) => `tile ${name(t)} #${t.index}`).sort());
    for (const t of drawn) {
      const p = rooms.find((q) => q.label === `tile ${name(t)} #${t.index}`)!;
      const v: number[][] = [];
      for (let i = 0; i < p.positions.length; i += 3) v.push([p.positions[i]!, p.positions[i + 1]!, p.positions[i + 2]!]);
      expect(v).toHaveLength(7);
      for (let i = 0; i < 3; i++) {
        let [x, y] = [WALL[i * 3]!, WALL[i * 3 + 1]!];
        for (let k = 0; k < t.orientation; k++) [x, y] = [y, -x];
        const want = [t.position[0] + x, t.position[1] + y, t.position[2] + WALL[i * 3 + 2]!];
        expect(v.some((q) => q.every((c, k) => Math.abs(c - want[k]!) < 1e-4)), `${p.label} wall vertex ${i}`).toBe(true);
      }
      // The floor stays as modelled whatever the tile's Orientation.
      for (let i = 0; i < 4; i++) {
        const want = [t.position[0] + FLOOR[i * 3]!, t.position[1] + FLOOR[i * 3 + 1]!, t.position[2]];
        expect(v.some((q) => q.every((c, k) => Math.abs(c - want[k]!) < 1e-4))).toBe(true);
      }
    }
    const missingTiles = tiles.length - drawn.length;
    expect(r.context.gaps).toContainEqual({ what: `${missingModel}.mdb`, why: `${missingTiles} tile${missingTiles === 1 ? '' : 's'} of enter world.ARE use it; not in the project or its game folders` });
    expect(r.sources).toContain(`m/enter world.ARE (${tiles.length} interior tiles, by tiles.2da)`);
  }, 60_000);
});
