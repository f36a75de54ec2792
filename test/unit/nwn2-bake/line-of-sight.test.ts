import { describe, expect, it } from 'vitest';
import { rebakeAswm } from '../../../shared/bakers/nwn2/trx-rebake';
import { NODE_LOS_BIT, NO_NODE, type AswmDocument } from '../../../shared/formats/nwn2/aswm-document';
import { listFixtures } from '../../support/fixtures';
import { aswmOf, checkLineOfSight, loadTrx, smallMesh, tileEntry, type SmallMesh } from './bake-test-support';

/**
 * A size × size grid of square cells (2 m from (1.5, 1.5) for 3 × 3, else 1 m from (1, 1)), two
 * triangles per cell, in one 9 m tile; `holes` lists unwalkable cells as [column, row]. The
 * grid's outer sides and the holes' sides are walls (no walkable triangle across).
 */
function cells(holes: [number, number][], size = 3): SmallMesh & { cellTriangles: (col: number, row: number) => number[] } {
  const step = size === 3 ? 2 : 1;
  const origin = size === 3 ? 1.5 : 1;
  const points: [number, number][] = [];
  for (let j = 0; j <= size; j++) for (let i = 0; i <= size; i++) points.push([origin + step * i, origin + step * j]);
  const triangles: [number, number, number][] = [];
  const unwalkable: number[] = [];
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const v = j * (size + 1) + i;
      const hole = holes.some(([c, r]) => c === i && r === j);
      if (hole) unwalkable.push(triangles.length, triangles.length + 1);
      triangles.push([v, v + 1, v + size + 2], [v, v + size + 2, v + size + 1]);
    }
  }
  return { points, triangles, unwalkable, cellTriangles: (col, row) => [(row * size + col) * 2, (row * size + col) * 2 + 1] };
}

function baked(m: SmallMesh) {
  const { aswm, indexOf } = smallMesh(m);
  return { aswm: rebakeAswm(aswm).aswm, indexOf };
}

function los(a: AswmDocument, from: number, to: number): boolean {
  const v = tileEntry(a, 0, from, to);
  return v !== NO_NODE && (v & NODE_LOS_BIT) !== 0;
}

describe('line-of-sight bits', () => {
  it('are set on every pair of an open floor whose triangles do not touch its walls', () => {
    // 5 × 5 cells: the inner 3 × 3 have no corner on the grid's outer sides.
    const m = cells([], 5);
    const { aswm, indexOf } = baked(m);
    const inner: number[] = [];
    for (let r = 1; r < 4; r++) for (let c = 1; c < 4; c++) inner.push(...m.cellTriangles(c, r).map((t) => indexOf[t]!));
    expect(inner).toHaveLength(18);
    for (const x of inner) for (const y of inner) if (x !== y) expect(los(aswm, x, y)).toBe(true);
    expect(checkLineOfSight(aswm, 1).violations).toBe(0);
  });

  it('are set, from a triangle with a corner on a wall, on its linked neighbours only (as the toolset sets them)', () => {
    const m = cells([], 5);
    const { aswm, indexOf } = baked(m);
    const corner = m.cellTriangles(0, 0).map((t) => indexOf[t]!);
    const all = [...Array(aswm.triFlags.length).keys()];
    const linked = (x: number, y: number) => [0, 1, 2].some((s) => aswm.triLinks[x * 3 + s] === y);
    for (const x of corner) {
      for (const y of all) {
        if (y === x) continue;
        expect(los(aswm, x, y), `${x} → ${y}`).toBe(linked(x, y));
      }
    }
    // The two triangles of the corner cell are linked, and see each other.
    expect(los(aswm, corner[0]!, corner[1]!)).toBe(true);
    expect(checkLineOfSight(aswm, 1).violations).toBe(0);
  });

  it('are not set across a hole, and are set beside it', () => {
    // 7 × 7 cells, a hole in the middle: cells two columns away from it on either side.
    const m = cells([[3, 3]], 7);
    const { aswm, indexOf } = baked(m);
    const at = (c: number, r: number) => m.cellTriangles(c, r).map((t) => indexOf[t]!);
    for (const x of at(1, 3)) for (const y of at(5, 3)) expect(los(aswm, x, y)).toBe(false);
    for (const x of at(1, 1)) for (const y of at(5, 1)) expect(los(aswm, x, y)).toBe(true);
    // Reachable pairs without the bit exist, so the rule is not "reachable ⇒ visible".
    expect(tileEntry(aswm, 0, at(1, 3)[0]!, at(5, 3)[0]!)).not.toBe(NO_NODE);
    expect(checkLineOfSight(aswm, 1).violations).toBe(0);
  });

  it('are not set across the inside corner of an L-shaped floor, and are set along its arms', () => {
    // 7 × 7 cells; unwalkable: the top-right 4 × 4 block. Walkable: an L of arms 3 cells wide.
    const holes: [number, number][] = [];
    for (let r = 3; r < 7; r++) for (let c = 3; c < 7; c++) holes.push([c, r]);
    const m = cells(holes, 7);
    const { aswm, indexOf } = baked(m);
    const at = (c: number, r: number) => m.cellTriangles(c, r).map((t) => indexOf[t]!);
    // Across the inside corner (3, 3): from the bottom arm's far end to the left arm's.
    for (const x of at(5, 1)) for (const y of at(1, 5)) expect(los(aswm, x, y)).toBe(false);
    for (const x of at(5, 1)) for (const y of at(1, 1)) expect(los(aswm, x, y)).toBe(true);
    for (const x of at(1, 5)) for (const y of at(1, 1)) expect(los(aswm, x, y)).toBe(true);
    expect(tileEntry(aswm, 0, at(5, 1)[0]!, at(1, 5)[0]!)).not.toBe(NO_NODE);
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
    const ours = checkLineOfSight(rebakeAswm(a).aswm, 2);
    expect(ours.checked).toBeGreaterThan(500);
    expect(ours.violations).toBe(0);
  });
});
