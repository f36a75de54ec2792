import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rebakeAswm } from '../../../shared/bakers/nwn2/trx-rebake';
import { storedTileCache } from '../../../shared/edits/nwn2-toolset-tile-cache';
import { NO_NODE, NODE_LOS_BIT, TriangleFlag, type AswmDocument } from '../../../shared/formats/nwn2/aswm-document';
import { aswmPacketOf } from '../../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { nodeFormatEnvironment as env } from '../../../electron/services/node-format-environment';
import { fixturesRoot, readFixture } from '../../support/fixtures';

const toolsetTrx = (file: string): AswmDocument => aswmPacketOf(readTrx(readFixture(path.join(fixturesRoot, file)), env))!.aswm;

/** Tile k's N² path-table entries. */
const rows = (a: AswmDocument, k: number) => Array.from(a.tiles.nodes.subarray(a.tiles.nodesStart[k]!, a.tiles.nodesStart[k]! + a.tiles.nodeCount[k]! ** 2));

const losBits = (a: AswmDocument) => a.tiles.nodes.reduce((n, v) => n + (v !== NO_NODE && v & NODE_LOS_BIT ? 1 : 0), 0);

describe('storedTileCache: a re-bake keeps the tables a TRX stores where its tiles are unchanged (issue 15 §4)', () => {
  for (const file of ['nwn2/kaedrin/dm001_cargohold.trx', 'nwn2/mordmansion/CSLMordMansion.TRX']) {
    it(`${path.basename(file)}: unedited, every tile keeps the toolset's table and line-of-sight bits`, () => {
      const toolset = toolsetTrx(file);
      const cache = storedTileCache(toolset)!;
      expect(cache).toBeDefined();
      const baked = rebakeAswm(toolset, { tileCache: cache });
      expect(baked.counts.reusedTiles).toBe(toolset.tiles.count);
      expect(Array.from(baked.aswm.tiles.nodes)).toEqual(Array.from(toolset.tiles.nodes));
      // Without the cache the line-of-sight bits are Walkbench's own, which differ.
      expect(losBits(rebakeAswm(toolset).aswm)).not.toBe(losBits(toolset));
    });
  }

  it('after one triangle is made unwalkable, only its tile is baked again; every other tile keeps the toolset rows', () => {
    const toolset = toolsetTrx('nwn2/mordmansion/CSLMordMansion.TRX');
    const t = toolset.tiles;
    const k = [...Array(t.count).keys()].find((i) => t.nodeCount[i]! >= 3)!;
    const first = t.triangleOffset[k]!;
    const tri = [...Array(t.triangleCount[k]!).keys()].map((i) => first + i).find((i) => toolset.triFlags[i]! & TriangleFlag.walkable)!;
    const triFlags = toolset.triFlags.slice();
    triFlags[tri] = triFlags[tri]! & ~TriangleFlag.walkable;
    const edited: AswmDocument = { ...toolset, triFlags };

    const baked = rebakeAswm(edited, { tileCache: storedTileCache(toolset)! });
    expect(baked.counts.reusedTiles).toBe(t.count - 1);
    expect(baked.aswm.tiles.nodeCount[k]).toBe(t.nodeCount[k]! - 1);
    for (let i = 0; i < t.count; i++) if (i !== k) expect(rows(baked.aswm, i), `tile ${i}`).toEqual(rows(toolset, i));
  });

  it('gives no cache for a TRX whose tables are stale', () => {
    const toolset = toolsetTrx('nwn2/kaedrin/dm001_cargohold.trx');
    expect(storedTileCache({ ...toolset, bakeStale: true })).toBeUndefined();
  });
});
