import { describe, expect, it } from 'vitest';
import { rebakeAswm } from '../../../shared/bakers/nwn2/trx-rebake';
import { NODE_LOS_BIT, NO_NODE, type AswmDocument } from '../../../shared/formats/nwn2/aswm-document';
import { listFixtures } from '../../support/fixtures';
import { aswmOf, checkLineOfSight, loadTrx, smallMesh, tileEntry, type SmallMesh } from './bake-test-support';

/** A 3 × 3 grid of 2 m cells from (1.5, 1.5), two triangles per cell; `holes` lists unwalkable cells as [column, row]. */
function cells(holes: [number, number][]): SmallMesh & { cellTriangles: (col: number, row: number) => number[] } {
  const points: [number, number][] = [];
  for (let j = 0; j <= 3; j++) for (let i = 0; i <= 3; i++) points.push([1.5 + 2 * i, 1.5 + 2 * j]);
  const triangles: [number, number, number][] = [];
  const unwalkable: number[] = [];
  for (let j = 0; j < 3; j++) {
    for (let i = 0; i < 3; i++) {
      const v = j * 4 + i;
      const hole = holes.some(([c, r]) => c === i && r === j);
      if (hole) unwalkable.push(triangles.length, triangles.length + 1);
      triangles.push([v, v + 1, v + 5], [v, v + 5, v + 4]);
    }
  }
  return { points, triangles, unwalkable, cellTriangles: (col, row) => [(row * 3 + col) * 2, (row * 3 + col) * 2 + 1] };
}

function baked(m: SmallMesh) {
  const { aswm, indexOf } = smallMesh(m);
  return { aswm: rebakeAswm(aswm).aswm, indexOf };
}

function los(a: AswmDocument, from: number, to: number): boolean {
  const v = tileEntry(a, 0, from, to);
  return v !== NO_NODE && (v & NODE_LOS_BIT) !== 0;
}

function allWalkablePairs(a: AswmDocument): [number, number][] {
  const out: [number, number][] = [];
  for (let x = 0; x < a.triFlags.length; x++) for (let y = 0; y < a.triFlags.length; y++) if (x !== y && a.triFlags[x]! & 1 && a.triFlags[y]! & 1) out.push([x, y]);
  return out;
}

describe('line-of-sight bits', () => {
  it('are set on every pair of an open convex floor', () => {
    const { aswm } = baked(cells([]));
    const pairs = allWalkablePairs(aswm);
    expect(pairs).toHaveLength(18 * 17);
    for (const [x, y] of pairs) expect(los(aswm, x, y)).toBe(true);
    expect(checkLineOfSight(aswm, 1).violations).toBe(0);
  });

  it('are not set across the inside corner of an L-shaped floor, and are set along its arms', () => {
    // Walkable: the bottom row and the left column.
    const m = cells([[1, 1], [2, 1], [1, 2], [2, 2]]);
    const { aswm, indexOf } = baked(m);
    const at = (c: number, r: number) => m.cellTriangles(c, r).map((t) => indexOf[t]!);
    for (const x of at(2, 0)) for (const y of at(0, 2)) expect(los(aswm, x, y)).toBe(false);
    for (const x of at(2, 0)) for (const y of at(0, 0)) expect(los(aswm, x, y)).toBe(true);
    for (const x of at(0, 2)) for (const y of at(0, 0)) expect(los(aswm, x, y)).toBe(true);
    // Reachable pairs without the bit exist, so the rule is not "reachable ⇒ visible".
    expect(tileEntry(aswm, 0, at(2, 0)[0]!, at(0, 2)[0]!)).not.toBe(NO_NODE);
    expect(checkLineOfSight(aswm, 1).violations).toBe(0);
  });

  it('are not set across a hole, and are set beside it', () => {
    const m = cells([[1, 1]]);
    const { aswm, indexOf } = baked(m);
    const at = (c: number, r: number) => m.cellTriangles(c, r).map((t) => indexOf[t]!);
    for (const x of at(0, 1)) for (const y of at(2, 1)) expect(los(aswm, x, y)).toBe(false);
    for (const x of at(0, 0)) for (const y of at(2, 0)) expect(los(aswm, x, y)).toBe(true);
    expect(checkLineOfSight(aswm, 1).violations).toBe(0);
  });

  it('are never set on a triangle that overlaps another (a second layer)', () => {
    const m = cells([]);
    // A loose walkable triangle lying over the middle cell, linked to nothing.
    const base = m.points.length;
    m.points.push([4, 4], [5.5, 4], [4, 5.5]);
    m.triangles.push([base, base + 1, base + 2]);
    const { aswm, indexOf } = baked(m);
    const loose = indexOf[m.triangles.length - 1]!;
    for (let t = 0; t < aswm.triFlags.length; t++) if (t !== loose) expect(los(aswm, loose, t)).toBe(false);
    const under = m.cellTriangles(1, 1).map((t) => indexOf[t]!);
    for (const x of under) for (let t = 0; t < aswm.triFlags.length; t++) if (t !== x) expect(los(aswm, x, t)).toBe(false);
    expect(checkLineOfSight(aswm, 1).violations).toBe(0);
  });

  it('are symmetric, as in every toolset file', () => {
    for (const file of listFixtures('nwn2', ['.trx']).filter((f) => /CSLMordMansion|dm generic_tavern1/.test(f))) {
      const a = rebakeAswm(aswmOf(loadTrx(file))).aswm;
      const t = a.tiles;
      let withBit = 0;
      let asymmetric = 0;
      for (let k = 0; k < t.count; k++) {
        const n = t.nodeCount[k]!;
        const b = t.nodesStart[k]!;
        for (let u = 0; u < n; u++) {
          for (let v = 0; v < n; v++) {
            const x = t.nodes[b + u * n + v]!;
            if (x === NO_NODE || !(x & NODE_LOS_BIT)) continue;
            withBit++;
            if (!(t.nodes[b + v * n + u]! & NODE_LOS_BIT)) asymmetric++;
          }
        }
      }
      expect(withBit).toBeGreaterThan(1000);
      expect(asymmetric).toBe(0);
    }
  });

  it('are checked by a sampler that does catch unsound bits: the toolset’s own bits fail it', () => {
    // The toolset's rule is not sound (spec §5.7: 99.9 %); the same sampler must find that.
    const a = aswmOf(loadTrx(listFixtures('nwn2', ['.trx']).find((f) => f.includes('dm generic_tavern1'))!));
    const check = checkLineOfSight(a, 4);
    expect(check.checked).toBeGreaterThan(500);
    expect(check.violations).toBeGreaterThan(0);
    const ours = checkLineOfSight(rebakeAswm(a).aswm, 4);
    expect(ours.checked).toBeGreaterThan(check.checked);
    expect(ours.violations).toBe(0);
  });
});
