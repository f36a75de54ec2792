import { beforeAll, describe, expect, it } from 'vitest';
import { compareBakes } from '../../../shared/bakers/nwn2/bake-compare';
import { rebakeAswm } from '../../../shared/bakers/nwn2/trx-rebake';
import { cloneAswm, floatView, NODE_INDEX_MASK, NODE_LOS_BIT, NO_NODE, NONE16, type AswmDocument } from '../../../shared/formats/nwn2/aswm-document';
import { listFixtures } from '../../support/fixtures';
import { aswmOf, loadTrx } from './bake-test-support';

/**
 * The agreement metrics must see every kind of disagreement: each test spoils one thing in
 * a copy of a re-baked file and checks that exactly the expected fraction drops, by
 * exactly one pair or island.
 */
describe('bake agreement metrics', () => {
  let toolset: AswmDocument;
  let ours: AswmDocument;
  beforeAll(() => {
    toolset = aswmOf(loadTrx(listFixtures('nwn2', ['.trx']).find((f) => f.includes('CSLMordMansion'))!));
    ours = rebakeAswm(toolset).aswm;
  });

  /** Tile k, a (from, to) node pair with a path, the first such entry whose target is not linked to from. */
  function farPair(a: AswmDocument): { index: number; to: number } {
    const t = a.tiles;
    for (let k = 0; k < t.count; k++) {
      const n = t.nodeCount[k]!;
      for (let u = 0; u < n; u++) {
        for (let v = 0; v < n; v++) {
          const x = t.nodes[t.nodesStart[k]! + u * n + v]!;
          if (x !== NO_NODE && (x & NODE_INDEX_MASK) !== v) return { index: t.nodesStart[k]! + u * n + v, to: v };
        }
      }
    }
    throw new Error('no such pair');
  }

  it('are all 1 for a bake compared with itself', () => {
    const c = compareBakes(ours, ours);
    expect(Object.values(c.agreement).every((x) => x === 1)).toBe(true);
    expect(c.counts.reachableTilePairs.ours).toBe(38652);
  });

  it('count one pair whose reachability differs', () => {
    const spoilt = cloneAswm(ours);
    spoilt.tiles.nodes[farPair(spoilt).index] = NO_NODE;
    const c = compareBakes(spoilt, toolset);
    expect(c.agreement.reachability).toBe(1 - 1 / c.counts.tilePairs);
    expect(c.agreement.nextHopOnShortestPath).toBe(1);
  });

  it('count one stored next hop that is not on a shortest path', () => {
    const spoilt = cloneAswm(ours);
    const { index, to } = farPair(spoilt);
    // Jump straight to the target, which is not linked to the start.
    spoilt.tiles.nodes[index] = to | (spoilt.tiles.nodes[index]! & NODE_LOS_BIT);
    const c = compareBakes(spoilt, toolset);
    expect(c.agreement.nextHopOnShortestPath).toBe(1 - 1 / c.counts.reachableTilePairs.ours);
    expect(c.agreement.reachability).toBe(1);
  });

  it('count line-of-sight bits pair by pair and report how many each side set', () => {
    const spoilt = cloneAswm(ours);
    for (let i = 0; i < spoilt.tiles.nodes.length; i++) if (spoilt.tiles.nodes[i] !== NO_NODE) spoilt.tiles.nodes[i]! &= NODE_INDEX_MASK;
    const c = compareBakes(spoilt, toolset);
    const los = c.counts.lineOfSight;
    expect(los.ours).toBe(0);
    expect(los.reference).toBe(3244);
    expect(c.agreement.lineOfSight).toBe((los.comparedPairs - los.reference) / los.comparedPairs);
    expect(compareBakes(toolset, toolset).agreement.lineOfSight).toBe(1);
  });

  it('count one island whose exit triangle differs', () => {
    const spoilt = cloneAswm(ours);
    const i = [...Array(spoilt.islands.count).keys()].find((k) => spoilt.islands.exitStart[k + 1]! > spoilt.islands.exitStart[k]!)!;
    spoilt.islands.exit[spoilt.islands.exitStart[i]!]! += 1;
    const c = compareBakes(spoilt, toolset);
    expect(c.agreement.islands).toBe(1 - 1 / 24);
    expect(c.counts.islands.matching).toBe(23);
  });

  it('count both islands when a triangle changes island, and a moved centre', () => {
    const spoilt = cloneAswm(ours);
    const t = spoilt.triIsland.findIndex((x) => x === 5);
    spoilt.triIsland[t] = 6;
    expect(compareBakes(spoilt, toolset).agreement.islands).toBe(1 - 2 / 24);
    const moved = cloneAswm(ours);
    floatView(moved.islands.centre)[0]! += 0.01;
    expect(compareBakes(moved, toolset).agreement.islands).toBe(1 - 1 / 24);
  });

  it('count island pairs whose reachability or next hop differs', () => {
    const I = ours.islands.count;
    const reachable = [...ours.islandPaths.next.keys()].filter((k) => ours.islandPaths.next[k] !== NONE16);
    const spoilt = cloneAswm(ours);
    spoilt.islandPaths.next[reachable[0]!] = NONE16;
    let c = compareBakes(spoilt, toolset);
    expect(c.agreement.islandReachability).toBe(1 - 1 / (I * (I - 1)));
    expect(c.agreement.islandNextHopOnShortestPath).toBe(1);

    const wrong = cloneAswm(ours);
    // A next island that is not adjacent to the start.
    const k = reachable.find((x) => {
      const from = Math.floor(x / I);
      const to = x % I;
      const adj = Array.from(ours.islands.adjacent.subarray(ours.islands.adjacentStart[from]!, ours.islands.adjacentStart[from + 1]!));
      return !adj.includes(to);
    })!;
    wrong.islandPaths.next[k] = k % I;
    c = compareBakes(wrong, toolset);
    expect(c.agreement.islandNextHopOnShortestPath).toBe(1 - 1 / reachable.length);
    expect(c.agreement.islandReachability).toBe(1);
  });
});
