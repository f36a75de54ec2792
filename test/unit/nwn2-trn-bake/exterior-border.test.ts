import { describe, expect, it } from 'vitest';
import { floatOfBits, TriangleFlag } from '../../../shared/formats/nwn2/aswm-document';
import { bakeTrn } from '../../../shared/bakers/nwn2/trn-bake';
import { walkableAreaOf } from '../../../shared/bakers/nwn2/trn-bake-compare';
import { trxWindingViolations } from '../../../shared/bakers/nwn2/trx-winding';
import { centres, errorsOf, syntheticGit, syntheticTrn } from './bake-support';

/**
 * A generated exterior like the toolset's (spec §4.6): a 4 × 4 area is a 20 × 20 grid of
 * 10 m tiles with an 8-tile border, 6 terrain cells per tile (120 × 120 cells, 28,800
 * triangles), the border unwalkable. nwn-lib-d's bake of its 4 × 4 `IslandsTest.trn`
 * keeps 1,152 triangles (2 · 24²) after removing the border; so must this one.
 */
describe('exterior border removal', () => {
  const hill = (x: number, y: number) => 2 * Math.sin(x / 17) * Math.cos(y / 23);
  const trn = syntheticTrn({ grid: 20, tileWidth: 10, border: 8, cellsPerTile: 6, height: hill });

  it('keeps only the triangles whose centre lies in [border·w, (grid − border)·w]², leaving the border tiles empty', () => {
    const r = bakeTrn({ trn, git: syntheticGit([]) });
    const a = r.aswm;
    console.log(`exterior 4×4: ${r.report.input.triangles} TRN triangles, ${r.report.border.removedTriangles} border triangles removed, ${a.triFlags.length} kept, ${a.islands.count} islands, bake ${r.report.timings.total.toFixed(0)} ms`);
    expect(r.report.input.triangles).toBe(28800);
    expect(a.triFlags.length).toBe(1152);
    expect(r.report.border.removedTriangles).toBe(28800 - 1152);
    expect(a.gridWidth).toBe(20);
    expect(a.gridHeight).toBe(20);
    expect(a.borderSize).toBe(8);
    expect(floatOfBits(a.tileWidth)).toBe(10);
    const c = centres(a);
    for (let t = 0; t < a.triFlags.length; t++) {
      expect(c[t * 2]!).toBeGreaterThanOrEqual(80);
      expect(c[t * 2]!).toBeLessThanOrEqual(120);
      expect(c[t * 2 + 1]!).toBeGreaterThanOrEqual(80);
      expect(c[t * 2 + 1]!).toBeLessThanOrEqual(120);
    }
    for (let k = 0; k < a.tiles.count; k++) {
      const x = k % 20;
      const y = Math.floor(k / 20);
      const inside = x >= 8 && x < 12 && y >= 8 && y < 12;
      expect(a.tiles.triangleCount[k], `tile (${x}, ${y})`).toBe(inside ? 72 : 0);
    }
    // The playable 40 m × 40 m, one island per tile, all joined.
    expect(walkableAreaOf(a)).toBeCloseTo(1600, 6);
    expect(a.islands.count).toBe(16);
    expect(r.report.tables.reachableIslandPairs).toBe(16 * 15);
    expect(trxWindingViolations(a)).toEqual([]);
    expect(errorsOf(r.trx)).toEqual([]);
  });

  it('keeps the border when asked (removeBorders: false)', () => {
    const r = bakeTrn({ trn, git: syntheticGit([]), options: { removeBorders: false } });
    expect(r.aswm.triFlags.length).toBe(28800);
    let walkable = 0;
    for (let t = 0; t < r.aswm.triFlags.length; t++) if (r.aswm.triFlags[t]! & TriangleFlag.walkable) walkable++;
    expect(walkable).toBe(1152);
  });

  it('cuts a cutter across the playable area after removing the border, on the hill', () => {
    // A triangle spanning several tiles and crossing tile borders.
    const cutter: [number, number][] = [[85.3, 84.1], [113.7, 92.2], [97.4, 116.9]];
    const r = bakeTrn({ trn, git: syntheticGit([cutter]) });
    const hole = Math.abs((113.7 - 85.3) * (116.9 - 84.1) - (92.2 - 84.1) * (97.4 - 85.3)) / 2;
    expect(walkableAreaOf(r.aswm)).toBeCloseTo(1600 - hole, 3);
    expect(r.report.cutters.stats!.fallbacks).toBe(0);
    expect(r.report.slivers.count).toBe(0);
    expect(r.report.overlaps.pairs).toBe(0);
    expect(errorsOf(r.trx)).toEqual([]);
  });
});
