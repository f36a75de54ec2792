import { beforeAll, describe, expect, it } from 'vitest';
import { readGitWalkmeshCutters } from '../../../shared/formats/aurora/nwn2-git';
import { MAX_TILE_NODES, TILES_FLAGS_TRX, TriangleFlag } from '../../../shared/formats/nwn2/aswm-document';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { writeTrx } from '../../../shared/formats/nwn2/trx-writer';
import { bakeTrn, type TrnBakeResult } from '../../../shared/bakers/nwn2/trn-bake';
import { compareTrnBake, walkableAreaOf, type TrnBakeComparison } from '../../../shared/bakers/nwn2/trn-bake-compare';
import { trxWindingViolations } from '../../../shared/bakers/nwn2/trx-winding';
import { aswmOf, centres, describeBake, env, errorsOf, insideCutter, kaedrinAreas, kaedrinDir, loadArea, walkableAreaOutsideCutters, type Area } from './bake-support';

/**
 * The five Kaedrin areas that come with TRN, TRX, GIT and ARE, baked with their cutters
 * (their placeables' models are not public either). Figures against the toolset's TRX are
 * printed; harper's hill cave's TRN was edited after its TRX was baked (a fifth of the
 * TRX's walkable floor has no TRN triangle under it at all), so its agreement says
 * nothing about the bake.
 */
describe.each(kaedrinAreas)('Kaedrin %s: TRN + GIT → TRX', (name) => {
  let area: Area;
  let result: TrnBakeResult;
  let comparison: TrnBakeComparison;

  beforeAll(() => {
    area = loadArea(kaedrinDir, name);
    result = bakeTrn({ trn: area.trn, git: area.git });
    comparison = compareTrnBake(result.aswm, aswmOf(area.trx), { trn: aswmOf(area.trn) });
    console.log(describeBake(name, result.report, comparison));
  });

  it('bakes without error and validates with no errors', () => {
    const back = readTrx(writeTrx(result.trx, env), env);
    expect(errorsOf(back)).toEqual([]);
    expect(result.report.cutters.stats?.fallbacks ?? 0).toBe(0);
    expect(result.report.overlaps.pairs).toBe(0);
    expect(result.report.slivers.count).toBe(0);
    expect(trxWindingViolations(result.aswm)).toEqual([]);
    expect(result.aswm.tilesFlags).toBe(TILES_FLAGS_TRX);
  });

  it('cuts every cutter out and keeps the walkable area outside them (within 0.1 %)', () => {
    const cutters = readGitWalkmeshCutters(area.git);
    const c = centres(result.aswm);
    let inside = 0;
    for (let t = 0; t < result.aswm.triFlags.length; t++) if (insideCutter(cutters, c[t * 2]!, c[t * 2 + 1]!)) inside++;
    expect(inside).toBe(0);
    const expected = walkableAreaOutsideCutters(aswmOf(area.trn), area.git);
    expect(Math.abs(walkableAreaOf(result.aswm) - expected) / expected).toBeLessThan(0.001);
  });

  it('keeps at most 127 walkable triangles per tile', () => {
    const a = result.aswm;
    for (let k = 0; k < a.tiles.count; k++) {
      let walkable = 0;
      const s = a.tiles.triangleOffset[k]!;
      for (let t = s; t < s + a.tiles.triangleCount[k]!; t++) if (a.triFlags[t]! & TriangleFlag.walkable) walkable++;
      expect(walkable).toBeLessThanOrEqual(MAX_TILE_NODES);
    }
    expect(result.report.retile.maxWalkablePerTile).toBeLessThanOrEqual(MAX_TILE_NODES);
  });

  it('reports its figures against the toolset TRX', () => {
    expect(comparison.agreement.details.pairs).toBe(10000);
    expect(comparison.triangles.reference).toBe(aswmOf(area.trx).triFlags.length);
    expect(comparison.walkableArea.ratio).toBeGreaterThan(0.9);
    expect(comparison.walkableArea.ratio).toBeLessThan(1.1);
    // Where the TRN is the one the TRX was baked from, reachability agrees on almost every pair.
    if (name !== "harper's hill cave") expect(comparison.agreement.pointReachability).toBeGreaterThan(0.95);
  });
});

describe('Kaedrin db_templemaiden_int: the flat regions the cutters changed are merged', () => {
  it('is baked with fewer walkable triangles per tile than cutting triangle by triangle gives, and stays below 127', () => {
    const area = loadArea(kaedrinDir, 'db_templemaiden_int');
    const r = bakeTrn({ trn: area.trn, git: area.git });
    const m = r.report.retile.merged;
    console.log(`db_templemaiden_int: merged ${m.regions} regions, ${m.trianglesBefore} → ${m.trianglesAfter} triangles; fullest tiles ${r.report.retile.fullestTiles.map((f) => `${f.column},${f.row}: ${f.walkable}`).join('; ')}`);
    expect(m.regions).toBeGreaterThan(0);
    expect(m.trianglesAfter).toBeLessThan(m.trianglesBefore);
    expect(r.report.retile.trianglesSaved).toBe(m.trianglesBefore - m.trianglesAfter);
    expect(r.report.retile.maxWalkablePerTile).toBeLessThanOrEqual(MAX_TILE_NODES);
    expect(r.report.retile.fullestTiles[0]!.walkable).toBe(r.report.retile.maxWalkablePerTile);
    // A lower limit makes the bake merge the fullest tiles whole (with their neighbours), or refuse naming a tile.
    const lower = r.report.retile.maxWalkablePerTile - 10;
    let tighter: ReturnType<typeof bakeTrn> | undefined;
    try {
      tighter = bakeTrn({ trn: area.trn, git: area.git, options: { maxWalkablePerTile: lower } });
    } catch (e) {
      expect((e as Error).message).toMatch(/^tile \d+,\d+ holds \d+ walkable triangles/);
    }
    if (tighter) {
      expect(tighter.report.retile.simplifiedTiles.length).toBeGreaterThan(0);
      expect(tighter.report.retile.maxWalkablePerTile).toBeLessThanOrEqual(lower);
    }
  });
});
