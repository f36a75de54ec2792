import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeFormatEnvironment } from '../../../electron/services/node-format-environment';
import { floatView, NONE16, TriangleFlag } from '../../../shared/formats/nwn2/aswm-document';
import { aswmPacketOf } from '../../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { seededRandom } from '../../../shared/bakers/nwn2/point-reachability';
import { Nwn2PathSurface } from '../../../shared/pathing/nwn2-path';
import type { Point3 } from '../../../shared/pathing/path-result';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';

const trxFiles = listFixtures('nwn2', ['.trx']);
const PAIRS = 100;

function surfaceOf(file: string): Nwn2PathSurface {
  const doc = readTrx(readFixture(file), nodeFormatEnvironment);
  return new Nwn2PathSurface(aswmPacketOf(doc)!.aswm, path.basename(file));
}

/** Centre of triangle t (the mean of its corners). */
function centreOf(s: Nwn2PathSurface, t: number): Point3 {
  const p = floatView(s.aswm.vertices);
  const out: Point3 = [0, 0, 0];
  for (let k = 0; k < 3; k++) for (let c = 0; c < 3; c++) out[c] += p[s.aswm.triVertices[t * 3 + k]! * 3 + c]! / 3;
  return out;
}

describe('NWN2 paths agree with the file\'s own baked tables', () => {
  it('finds TRX fixtures to check', () => {
    expect(trxFiles.length).toBeGreaterThan(5);
  });

  let reachableSeen = 0;
  let unreachableSeen = 0;
  for (const file of trxFiles) {
    it(fixtureName(file), () => {
      const s = surfaceOf(file);
      expect(s.baked).toBe(true);
      const a = s.aswm;
      const walkable: number[] = [];
      for (let t = 0; t < a.triFlags.length; t++) if (a.triFlags[t]! & TriangleFlag.walkable && a.triIsland[t] !== NONE16) walkable.push(t);
      const random = seededRandom(0x9a7 + walkable.length);
      for (let i = 0; i < PAIRS; i++) {
        const from = centreOf(s, walkable[Math.floor(random() * walkable.length)]!);
        const to = centreOf(s, walkable[Math.floor(random() * walkable.length)]!);
        const r = s.findPath(from, to);
        // The triangles the points were located on (overlapping toolset triangles may differ from the drawn ones).
        expect(r.start, r.reason ?? '').not.toBeNull();
        expect(r.end, r.reason ?? '').not.toBeNull();
        const st = r.start!.node, et = r.end!.node;
        if (!s.bakedReachable(st, et)) {
          unreachableSeen++;
          expect(r.found).toBe(false);
          expect(r.code).toBe('islands-unreachable');
          expect(r.reason).toContain(`island ${a.triIsland[st]}`);
          expect(r.reason).toContain(`island ${a.triIsland[et]}`);
          expect(r.breaks.length).toBeGreaterThan(0);
          continue;
        }
        reachableSeen++;
        expect(r.found, r.reason ?? '').toBe(true);
        expect(r.corridor[0]).toBe(st);
        expect(r.corridor[r.corridor.length - 1]).toBe(et);
        for (const t of r.corridor) expect(a.triFlags[t]! & TriangleFlag.walkable).toBe(1);
        for (let k = 0; k + 1 < r.corridor.length; k++) {
          const links = Array.from(a.triLinks.subarray(r.corridor[k]! * 3, r.corridor[k]! * 3 + 3));
          expect(links).toContain(r.corridor[k + 1]);
        }
        // The island route is the one the island path nodes give, hop by hop.
        const route = r.islands!.route;
        for (let k = 0; k + 1 < route.length; k++) expect(a.islandPaths.next[route[k]! * a.islands.count + route[route.length - 1]!]).toBe(route[k + 1]);
        const straight = Math.hypot(to[0] - from[0], to[1] - from[1]);
        expect(r.length!).toBeGreaterThanOrEqual(straight - 1e-3);
        expect(r.points[0]).toEqual(r.start!.point);
      }
    });
  }

  it('saw both reachable and unreachable pairs', () => {
    expect(reachableSeen).toBeGreaterThan(100);
    expect(unreachableSeen).toBeGreaterThan(10);
  });
});

describe('NWN2 paths on an unbaked TRN', () => {
  it('fall back to A* over linked_triangles and agree with its connected regions', () => {
    const file = listFixtures('nwn2', ['.trn']).find((f) => f.includes('CSLMordMansion'))!;
    const s = surfaceOf(file);
    expect(s.baked).toBe(false);
    expect(s.method).toBe('a-star');
    const a = s.aswm;
    const T = a.triFlags.length;
    const walkable = (t: number) => (a.triFlags[t]! & TriangleFlag.walkable) !== 0;
    // Regions by flood fill over the file's own links, independent of the path code.
    const region = new Int32Array(T).fill(-1);
    let regions = 0;
    for (let t = 0; t < T; t++) {
      if (!walkable(t) || region[t] !== -1) continue;
      const stack = [t];
      region[t] = regions;
      while (stack.length > 0) {
        const u = stack.pop()!;
        for (const v of a.triLinks.subarray(u * 3, u * 3 + 3)) {
          if (v < T && walkable(v) && region[v] === -1) {
            region[v] = regions;
            stack.push(v);
          }
        }
      }
      regions++;
    }
    const ids: number[] = [];
    for (let t = 0; t < T; t++) if (walkable(t)) ids.push(t);
    const random = seededRandom(5);
    let found = 0, apart = 0;
    for (let i = 0; i < 150; i++) {
      const r = s.findPath(centreOf(s, ids[Math.floor(random() * ids.length)]!), centreOf(s, ids[Math.floor(random() * ids.length)]!), { tolerance: 0 });
      if (!r.start || !r.end) continue;
      const same = region[r.start.node] === region[r.end.node];
      expect(r.found, r.reason ?? '').toBe(same);
      if (same) found++;
      else {
        apart++;
        expect(['different-components', 'unlinked-edge']).toContain(r.code);
      }
    }
    expect(found).toBeGreaterThan(20);
    expect(found + apart).toBeGreaterThan(100);
  });
});
