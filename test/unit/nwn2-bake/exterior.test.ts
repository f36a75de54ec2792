import { beforeAll, describe, expect, it } from 'vitest';
import { compareBakes } from '../../../shared/bakers/nwn2/bake-compare';
import { generateExteriorAswm, generateExteriorTrx } from '../../../shared/bakers/nwn2/exterior-generator';
import { rebakeTrx, type BakeResult } from '../../../shared/bakers/nwn2/trx-rebake';
import { floatOfBits, TriangleFlag } from '../../../shared/formats/nwn2/aswm-document';
import type { TrxDocument } from '../../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { validateTrx } from '../../../shared/formats/nwn2/trx-validate';
import { writeTrx } from '../../../shared/formats/nwn2/trx-writer';
import { aswmOf, checkLineOfSight, env } from './bake-test-support';

describe('the generated 48 × 48-tile exterior', () => {
  let doc: TrxDocument;
  let baked: BakeResult & { document: TrxDocument };
  beforeAll(() => {
    doc = generateExteriorTrx();
    baked = rebakeTrx(doc);
  });

  it('has the size of the largest exterior: 165,888 triangles, 83,521 vertices, 72 per 10 m tile', () => {
    const a = aswmOf(doc);
    expect(a.triFlags.length).toBe(165_888);
    expect(a.vertices.length / 3).toBe(83_521);
    expect([a.gridWidth, a.gridHeight, floatOfBits(a.tileWidth), a.borderSize]).toEqual([48, 48, 10, 8]);
    expect(a.tiles.count).toBe(2304);
    expect(new Set(a.tiles.triangleCount)).toEqual(new Set([72]));
    expect(a.triFlags.every((f) => (f & TriangleFlag.clockwise) !== 0)).toBe(true);
  });

  it('is unwalkable on its 8-tile border and walkable with patches inside', () => {
    const a = aswmOf(doc);
    let playableTiles = 0;
    let partlyBlocked = 0;
    let borderWalkable = 0;
    for (let k = 0; k < a.tiles.count; k++) {
      const x = k % 48;
      const y = Math.floor(k / 48);
      let walkable = 0;
      for (let t = a.tiles.triangleOffset[k]!; t < a.tiles.triangleOffset[k]! + 72; t++) walkable += a.triFlags[t]! & TriangleFlag.walkable;
      if (x < 8 || y < 8 || x >= 40 || y >= 40) borderWalkable += walkable;
      else {
        playableTiles++;
        if (walkable < 72) partlyBlocked++;
      }
    }
    expect(borderWalkable).toBe(0);
    expect(playableTiles).toBe(1024);
    expect(partlyBlocked).toBeGreaterThan(100);
  });

  it('bakes into a valid TRX with more islands than playable tiles', () => {
    const a = baked.aswm;
    expect(baked.counts.islands).toBeGreaterThan(1024);
    expect(baked.counts.reachableTilePairs).toBeGreaterThan(4_000_000);
    expect(a.bakeStale).toBe(false);
    expect(validateTrx(baked.document).filter((f) => f.severity === 'error')).toEqual([]);
    const back = readTrx(writeTrx(baked.document, env), env);
    expect(aswmOf(back).islands.count).toBe(baked.counts.islands);
  });

  it('has next hops on shortest paths and sound line-of-sight bits', () => {
    const c = compareBakes(baked.aswm, baked.aswm);
    expect(c.reference).toEqual({ nextHopOnShortestPath: 1, islandNextHopOnShortestPath: 1 });
    const check = checkLineOfSight(baked.aswm, 1000);
    expect(check.checked).toBeGreaterThan(1000);
    expect(check.violations).toBe(0);
  });

  it('is the same mesh for the same options', () => {
    const a = generateExteriorAswm({ tiles: 12, border: 2, patches: 20, seed: 5 });
    const b = generateExteriorAswm({ tiles: 12, border: 2, patches: 20, seed: 5 });
    const c = generateExteriorAswm({ tiles: 12, border: 2, patches: 20, seed: 6 });
    expect(a.triFlags).toEqual(b.triFlags);
    expect(a.vertices).toEqual(b.vertices);
    expect(a.triFlags).not.toEqual(c.triFlags);
  });
});
