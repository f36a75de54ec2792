import { beforeAll, describe, expect, it } from 'vitest';
import { readGitWalkmeshCutters } from '../../../shared/formats/aurora/nwn2-git';
import { floatOfBits, floatView, MAX_TILE_NODES, TILES_FLAGS_TRX, TriangleFlag } from '../../../shared/formats/nwn2/aswm-document';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { writeTrx } from '../../../shared/formats/nwn2/trx-writer';
import { triangleMinAltitude } from '../../../shared/geometry/polygon';
import { bakeTrn, SLIVER_ALTITUDE, type TrnBakeResult } from '../../../shared/bakers/nwn2/trn-bake';
import { compareTrnBake, walkableAreaOf, type TrnBakeComparison } from '../../../shared/bakers/nwn2/trn-bake-compare';
import { trxWindingViolations } from '../../../shared/bakers/nwn2/trx-winding';
import { DEFAULT_CUT_SNAP } from '../../../shared/bakers/nwn2/walkmesh-cutter';
import { aswmOf, centres, describeBake, env, errorsOf, insideCutter, loadArea, mordDir, walkableAreaOutsideCutters, type Area } from './bake-support';

/**
 * The one verified TRN → TRX pair: the Mord Mansion's TRN baked with its GIT's 13
 * walkmesh cutters, against the TRX the NWN2 toolset baked. Its placeables' models are
 * not public, so only cutters are applied (the toolset also applied a stage, a balcony,
 * stairs… which raise or block parts of the floor).
 */
describe('Mord Mansion: TRN + GIT cutters → TRX', () => {
  let area: Area;
  let result: TrnBakeResult;
  let comparison: TrnBakeComparison;

  beforeAll(() => {
    area = loadArea(mordDir, 'CSLMordMansion');
    result = bakeTrn({ trn: area.trn, git: area.git });
    comparison = compareTrnBake(result.aswm, aswmOf(area.trx), { trn: aswmOf(area.trn) });
    console.log(describeBake('Mord Mansion', result.report, comparison));
  });

  it('applies all 13 cutters with the constrained re-triangulation (no fallback)', () => {
    const s = result.report.cutters.stats!;
    expect(result.report.cutters.inGit).toBe(13);
    expect(s.regions).toBe(13);
    expect(s.retriangulated).toBeGreaterThan(0);
    expect(s.fallbacks).toBe(0);
  });

  it('matches the toolset TRX: point reachability ≥ 0.99, area, no more triangles and island counts close', () => {
    const c = comparison;
    expect(c.agreement.details.pairs).toBe(10000);
    expect(c.agreement.pointReachability).toBeGreaterThanOrEqual(0.99);
    // All pairs, the reference's placeable floors included: reported, not the target.
    expect(c.agreement.allPairs!.agreement).toBeGreaterThan(0.97);
    // The toolset also applied placeables (a stage, a balcony): cutters alone leave a little less walkable area.
    expect(c.walkableArea.ratio).toBeGreaterThan(0.97);
    expect(c.walkableArea.ratio).toBeLessThan(1.03);
    // The merge of the flat regions the cutters changed (flat-merge.ts) uses fewer triangles than the toolset's cut.
    expect(c.triangles.baked).toBeLessThanOrEqual(c.triangles.reference);
    expect(c.triangles.baked / c.triangles.reference).toBeGreaterThan(0.7);
    expect(Math.abs(c.islands.baked - c.islands.reference)).toBeLessThanOrEqual(6);
  });

  it('leaves no triangle centre inside any cutter', () => {
    const cutters = readGitWalkmeshCutters(area.git);
    const c = centres(result.aswm);
    const inside: number[] = [];
    for (let t = 0; t < result.aswm.triFlags.length; t++) if (insideCutter(cutters, c[t * 2]!, c[t * 2 + 1]!)) inside.push(t);
    expect(inside).toEqual([]);
  });

  it(`keeps the walkable area outside the cutters (within 0.1 % of the TRN's, computed with polygon-clipping)`, () => {
    const expected = walkableAreaOutsideCutters(aswmOf(area.trn), area.git);
    const baked = walkableAreaOf(result.aswm);
    console.log(`Mord Mansion walkable area outside cutters: TRN ${expected.toFixed(3)} m², baked ${baked.toFixed(3)} m²`);
    expect(Math.abs(baked - expected) / expected).toBeLessThan(0.001);
  });

  it(`has no sliver: every triangle's smallest altitude is at least ${SLIVER_ALTITUDE * 1000} mm`, () => {
    const a = result.aswm;
    const p = floatView(a.vertices);
    let min = Infinity;
    for (let t = 0; t < a.triFlags.length; t++) {
      const [i, j, k] = [0, 1, 2].map((c) => a.triVertices[t * 3 + c]! * 3) as [number, number, number];
      min = Math.min(min, triangleMinAltitude(p[i]!, p[i + 1]!, p[j]!, p[j + 1]!, p[k]!, p[k + 1]!));
    }
    expect(min).toBeGreaterThanOrEqual(SLIVER_ALTITUDE);
    expect(result.report.slivers.count).toBe(0);
  });

  it('leaves the triangles no cutter reaches exactly as they were', () => {
    const trn = aswmOf(area.trn);
    const cutters = readGitWalkmeshCutters(area.git);
    const tp = floatView(trn.vertices);
    const key = (p: Float32Array, vs: number[]) => vs.map((v) => `${p[v * 3]},${p[v * 3 + 1]},${p[v * 3 + 2]}`).sort().join('|');
    const out = new Set<string>();
    const op = floatView(result.aswm.vertices);
    for (let t = 0; t < result.aswm.triFlags.length; t++) out.add(key(op, [0, 1, 2].map((c) => result.aswm.triVertices[t * 3 + c]!)));
    const margin = DEFAULT_CUT_SNAP * 2;
    let far = 0;
    for (let t = 0; t < trn.triFlags.length; t++) {
      const vs = [0, 1, 2].map((c) => trn.triVertices[t * 3 + c]!);
      const xs = vs.map((v) => tp[v * 3]!);
      const ys = vs.map((v) => tp[v * 3 + 1]!);
      // Conservative: the cutter's bounds (plus the snap) against the triangle's bounds.
      const nearCutter = cutters.some((c) => {
        let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
        for (let i = 0; i < c.polygon.length; i += 2) {
          x0 = Math.min(x0, c.polygon[i]!);
          x1 = Math.max(x1, c.polygon[i]!);
          y0 = Math.min(y0, c.polygon[i + 1]!);
          y1 = Math.max(y1, c.polygon[i + 1]!);
        }
        return Math.max(...xs) >= x0 - margin && Math.min(...xs) <= x1 + margin && Math.max(...ys) >= y0 - margin && Math.min(...ys) <= y1 + margin;
      });
      if (nearCutter) continue;
      far++;
      expect(out.has(key(tp, vs)), `TRN triangle ${t}`).toBe(true);
    }
    expect(far).toBeGreaterThan(300);
  });

  it('follows the TRX conventions: clockwise with flag 0x04, tiles flags 31, tile sizes 0, a 2.5-D surface', () => {
    const a = result.aswm;
    expect(trxWindingViolations(a)).toEqual([]);
    expect(a.tilesFlags).toBe(TILES_FLAGS_TRX);
    expect([...a.tiles.sizeX].every((v) => v === 0)).toBe(true);
    expect([...a.tiles.flags].every((v) => v === TILES_FLAGS_TRX)).toBe(true);
    expect(result.report.overlaps.pairs).toBe(0);
    expect(result.report.tables.crowdedEdgePairs).toBe(0);
  });

  it('groups the triangles per tile in row-major order, each in the tile holding its centre, at most 127 walkable', () => {
    const a = result.aswm;
    const w = floatOfBits(a.tileWidth);
    const c = centres(a);
    let next = 0;
    for (let k = 0; k < a.tiles.count; k++) {
      expect(a.tiles.triangleOffset[k]).toBe(next);
      const tx = k % a.gridWidth;
      const ty = Math.floor(k / a.gridWidth);
      let walkable = 0;
      for (let t = next; t < next + a.tiles.triangleCount[k]!; t++) {
        expect(Math.floor(c[t * 2]! / w)).toBe(tx);
        expect(Math.floor(c[t * 2 + 1]! / w)).toBe(ty);
        if (a.triFlags[t]! & TriangleFlag.walkable) walkable++;
      }
      expect(walkable).toBeLessThanOrEqual(MAX_TILE_NODES);
      next += a.tiles.triangleCount[k]!;
    }
    expect(next).toBe(a.triFlags.length);
  });

  it('writes a TRX that reads back and validates with no errors', () => {
    const bytes = writeTrx(result.trx, env);
    const back = readTrx(bytes, env);
    expect(errorsOf(back)).toEqual([]);
    expect(aswmOf(back).triFlags.length).toBe(result.aswm.triFlags.length);
    expect(aswmOf(back).islands.count).toBe(result.report.output.islands);
    // The other packets are the TRN's.
    expect(back.packets.map((p) => p.type)).toEqual(area.trn.packets.map((p) => p.type));
  });
});
