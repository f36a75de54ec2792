import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { TRX_FORMAT } from '../../shared/formats/nwn2/trx-document';
import type { ContractHandlers } from '../../shared/ipc/contract';
import { solidDxt1 } from '../support/dds-writer';
import { generateExteriorTrxBytes } from '../support/nwn2-exterior-generator';
import { writeZip } from '../support/zip-writer';

/**
 * Issue 19: a generated exterior's terrain textures found in a temp "install" as the game
 * finds them (here: a DDS in a folder of Data/NWN2_Materials.zip, a TGA-less override
 * with one DDS that wins over the zip's), composed on the worker, carried to the caller
 * and cached; the textures it lacks are one gap naming them.
 */
describe('context.load: NWN2 terrain textures from the install', () => {
  let tmp = '';
  let session = '';
  let fileId = 0;
  let service: ContractHandlers;
  let closeAll: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-terrain-textures-'));
    const install = path.join(tmp, 'Neverwinter Nights 2');
    mkdirSync(path.join(install, 'Data'), { recursive: true });
    mkdirSync(path.join(install, 'override', 'terrain'), { recursive: true });
    // 0xF800 red grass in the zip; the override's green grass (0x07E0) must win; blue snow (0x001F) only in the zip.
    writeFileSync(path.join(install, 'Data', 'NWN2_Materials.zip'), writeZip([
      { name: 'NWN2_Materials/Terrain/TT_Grass01.dds', data: solidDxt1(16, 0xf800) },
      { name: 'NWN2_Materials/Terrain/tt_snow01.dds', data: solidDxt1(16, 0x001f), method: 'stored' },
    ]));
    writeFileSync(path.join(install, 'override', 'terrain', 'tt_grass01.dds'), solidDxt1(8, 0x07e0));
    const project = path.join(tmp, 'exterior.wbproj');
    const store = ProjectStore.create(project, { name: 'Terrain textures', game: 'nwn2' });
    try {
      fileId = store.upsertFile({ module: 'generated', area: 'exterior', name: 'exterior.trx', kind: 'walkmesh', format: TRX_FORMAT, bytes: generateExteriorTrxBytes({ megatiles: 1 }, env) }).fileId;
      store.addGameFolder(install);
    } finally {
      store.close();
    }
    service = createWalkbenchService({ onClose: (c) => (closeAll = c) });
    session = (await service['project.open']({ path: project })).session;
  }, 60_000);
  afterAll(async () => {
    await closeAll?.();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('textures the megatile from override and Data zip, names the missing ones, and answers the same from the cache', async () => {
    const r = await service['context.load']({ session, fileId });
    const terrain = r.context.pieces.find((p) => p.kind === 'terrain')!;
    const t = terrain.texture!;
    expect(t).toBeDefined();
    const at = (x: number, y: number) => Array.from(t.rgba.subarray((y * t.width + x) * 4, (y * t.width + x) * 4 + 4));
    expect(at(10, 64)).toEqual([0, 255, 0, 255]);
    expect(at(120, 64)).toEqual([0, 0, 255, 255]);
    expect(terrain.uvs!.length).toBe((terrain.positions.length / 3) * 2);
    const gap = r.context.gaps.find((g) => g.what.startsWith('terrain textures'))!;
    expect(gap.what).toBe('terrain textures tt_dirt01.dds, tt_rock01.dds, tt_sand01.dds, tt_mud01.dds');
    expect(r.sources.some((s) => s.startsWith('2 terrain textures') && s.includes('override') && s.includes('NWN2_Materials.zip'))).toBe(true);
    const again = await service['context.load']({ session, fileId });
    expect(again.cached).toBe(true);
    const t2 = again.context.pieces.find((p) => p.kind === 'terrain')!.texture!;
    expect(Array.from(t2.rgba)).toEqual(Array.from(t.rgba));
  }, 60_000);
});
