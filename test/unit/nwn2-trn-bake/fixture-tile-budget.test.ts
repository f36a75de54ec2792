import { beforeAll, describe, expect, it } from 'vitest';
import { floatView, MAX_TILE_NODES, TriangleFlag } from '../../../shared/formats/nwn2/aswm-document';
import { planeHeight, TriangleGrid } from '../../../shared/geometry/triangle-grid';
import { ReachabilityOracle, seededRandom, WalkablePointSampler } from '../../../shared/bakers/nwn2/point-reachability';
import { bakeTrn, type TrnBakeResult } from '../../../shared/bakers/nwn2/trn-bake';
import { compareTrnBake } from '../../../shared/bakers/nwn2/trn-bake-compare';
import { aswmOf, errorsOf, kaedrinAreas, kaedrinDir, loadArea, mordDir, type Area } from './bake-support';
import { walkablePerTile } from './stress-support';

/**
 * Every fixture area with a TRN and a GIT, baked with the merge of the flat regions the
 * cutters changed (flat-merge.ts) and without it, against the toolset's TRX of the same
 * area: walkable triangles per tile (most, and in all), and point reachability.
 */
const areas: { dir: string; name: string }[] = [...kaedrinAreas.map((name) => ({ dir: kaedrinDir, name })), { dir: mordDir, name: 'CSLMordMansion' }];

describe.each(areas)('$name: walkable triangles per tile against the toolset TRX', ({ dir, name }) => {
  let area: Area;
  let merged: TrnBakeResult;
  let unmerged: TrnBakeResult;
  beforeAll(() => {
    area = loadArea(dir, name);
    merged = bakeTrn({ trn: area.trn, git: area.git });
    unmerged = bakeTrn({ trn: area.trn, git: area.git, options: { mergeFlatRegions: false } });
  });

  it('has no more walkable triangles per tile than the toolset, at most and in all, and validates', () => {
    const ours = walkablePerTile(merged.aswm);
    const before = walkablePerTile(unmerged.aswm);
    const toolset = walkablePerTile(aswmOf(area.trx));
    const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);
    const c = compareTrnBake(merged.aswm, aswmOf(area.trx), { trn: aswmOf(area.trn) });
    const c0 = compareTrnBake(unmerged.aswm, aswmOf(area.trx), { trn: aswmOf(area.trn) });
    console.log(
      `${name}: walkable per tile most/total: merged ${Math.max(...ours)}/${sum(ours)}, cut triangle by triangle ${Math.max(...before)}/${sum(before)}, toolset ${Math.max(...toolset)}/${sum(toolset)}; ` +
        `point reachability ${c.agreement.pointReachability.toFixed(4)} (unmerged ${c0.agreement.pointReachability.toFixed(4)})`,
    );
    expect(errorsOf(merged.trx)).toEqual([]);
    expect(Math.max(...ours)).toBeLessThanOrEqual(MAX_TILE_NODES);
    expect(Math.max(...ours)).toBeLessThanOrEqual(Math.max(...toolset));
    expect(sum(ours)).toBeLessThanOrEqual(sum(toolset));
    expect(sum(ours)).toBeLessThan(sum(before));
    expect(merged.report.retile.fullestTiles[0]!.walkable).toBe(Math.max(...ours));
    expect(merged.report.retile.budget).toBe(MAX_TILE_NODES);
  });

  it('keeps the same walkable surface and the same reachability as the unmerged bake (5,000 pairs of TRN floor points)', () => {
    const a = merged.aswm;
    const b = unmerged.aswm;
    expect(a.islands.count).toBe(b.islands.count);
    const sampler = new WalkablePointSampler(aswmOf(area.trn));
    const oa = new ReachabilityOracle(a);
    const ob = new ReachabilityOracle(b);
    const random = seededRandom(1515);
    const p = new Float64Array(3);
    const q = new Float64Array(3);
    let agree = 0;
    const pairs = 5000;
    for (let i = 0; i < pairs; i++) {
      sampler.sample(random, p);
      sampler.sample(random, q);
      const ra = oa.reachable(oa.groupAt(p[0]!, p[1]!, p[2]!), oa.groupAt(q[0]!, q[1]!, q[2]!));
      const rb = ob.reachable(ob.groupAt(p[0]!, p[1]!, p[2]!), ob.groupAt(q[0]!, q[1]!, q[2]!));
      if (ra === rb) agree++;
    }
    // Points within a millimetre of a straightened outline may fall on the other side.
    expect(agree / pairs).toBeGreaterThanOrEqual(0.999);
    // Every walkable point of the merged bake is on the unmerged one at the same height.
    const bp = Float64Array.from(floatView(b.vertices));
    const bg = new TriangleGrid(bp, b.triVertices);
    const ap = Float64Array.from(floatView(a.vertices));
    let off = 0;
    let checked = 0;
    for (let t = 0; t < a.triFlags.length; t++) {
      if (!(a.triFlags[t]! & TriangleFlag.walkable)) continue;
      const v = [0, 1, 2].map((k) => a.triVertices[t * 3 + k]! * 3);
      const x = (ap[v[0]!]! + ap[v[1]!]! + ap[v[2]!]!) / 3;
      const y = (ap[v[0]! + 1]! + ap[v[1]! + 1]! + ap[v[2]! + 1]!) / 3;
      const z = planeHeight(ap, a.triVertices, t, x, y);
      let found = false;
      bg.forEachContaining(x, y, (u) => {
        if (b.triFlags[u]! & TriangleFlag.walkable && (b.triFlags[u]! & ~TriangleFlag.clockwise) === (a.triFlags[t]! & ~TriangleFlag.clockwise) && Math.abs(planeHeight(bp, b.triVertices, u, x, y) - z) < 1e-3) found = true;
      }, 1e-6);
      if (!found) off++;
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
    expect(off).toBe(0);
  });
});
