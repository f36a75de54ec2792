import { describe, expect, it } from 'vitest';
import { bakeEdges } from '../../../shared/bakers/nwn2/bake-edges';
import { NONE32 } from '../../../shared/formats/nwn2/aswm-document';
import { listFixtures } from '../../support/fixtures';
import { aswmOf, loadTrx } from './bake-test-support';

/** Checks the toolset's edge conventions (spec §4.2) on a bake's output. */
function expectConventions(triVertices: Uint32Array, e: ReturnType<typeof bakeEdges>): void {
  const E = e.edges.length / 4;
  for (let i = 0; i < E; i++) {
    const [v0, v1, t0] = [e.edges[i * 4]!, e.edges[i * 4 + 1]!, e.edges[i * 4 + 2]!];
    expect(v0).toBeLessThan(v1);
    expect(t0).not.toBe(NONE32);
    if (i > 0) {
      const [p0, p1] = [e.edges[i * 4 - 4]!, e.edges[i * 4 - 3]!];
      expect(p0 < v0 || (p0 === v0 && p1 <= v1)).toBe(true);
    }
  }
  const T = triVertices.length / 3;
  for (let t = 0; t < T; t++) {
    const slots = Array.from(e.triEdges.subarray(t * 3, t * 3 + 3));
    expect(slots).toEqual([...slots].sort((x, y) => x - y));
    for (let k = 0; k < 3; k++) {
      const edge = slots[k]!;
      const joined = [e.edges[edge * 4 + 2]!, e.edges[edge * 4 + 3]!];
      expect(joined).toContain(t);
      expect(joined).toContain(e.triLinks[t * 3 + k]!);
      const corners = Array.from(triVertices.subarray(t * 3, t * 3 + 3));
      expect(corners).toContain(e.edges[edge * 4]!);
      expect(corners).toContain(e.edges[edge * 4 + 1]!);
    }
  }
}

describe('edges and links', () => {
  // Four triangles on the vertex pair (0, 1), as around a placeable's duplicated walkmesh.
  const crowded = Uint32Array.from([0, 1, 2, 1, 0, 3, 0, 1, 4, 1, 0, 5]);

  it('follow the toolset conventions: sorted (v0, v1), v0 < v1, slots ascending with aligned links', () => {
    const e = bakeEdges(crowded, 6);
    expectConventions(crowded, e);
    expect(e.crowdedPairs).toBe(1);
    expect(e.crowdedPairsKept).toBe(0);
    // Without a previous pairing, triangles running the pair in opposite directions are joined.
    expect(Array.from(e.edges.subarray(0, 8))).toEqual([0, 1, 0, 1, 0, 1, 2, 3]);
  });

  it('keep the previous pairing of a crowded vertex pair and the previous t0/t1 order', () => {
    const first = bakeEdges(crowded, 6);
    const previous = first.edges.slice();
    // The file joins 0 with 2 and 3 with 1 (t0 > t1) instead.
    previous.set([0, 1, 0, 2, 0, 1, 3, 1], 0);
    const e = bakeEdges(crowded, 6, previous);
    expectConventions(crowded, e);
    expect(e.crowdedPairsKept).toBe(1);
    expect(Array.from(e.edges.subarray(0, 8))).toEqual([0, 1, 0, 2, 0, 1, 3, 1]);
    // Triangle 0's link across (0, 1) is now triangle 2.
    const slot = Array.from(e.triEdges.subarray(0, 3)).indexOf(0);
    expect(e.triLinks[slot]).toBe(2);
  });

  it('ignore a previous pairing that does not join the same triangles', () => {
    const previous = bakeEdges(crowded, 6).edges.slice();
    previous.set([0, 1, 0, 5, 0, 1, 3, 4], 0);
    const e = bakeEdges(crowded, 6, previous);
    expect(e.crowdedPairsKept).toBe(0);
    expect(Array.from(e.edges.subarray(0, 8))).toEqual([0, 1, 0, 1, 0, 1, 2, 3]);
  });

  it('keep an edge’s t0/t1 order from the previous edges', () => {
    const two = Uint32Array.from([0, 1, 2, 2, 1, 3]);
    const canonical = bakeEdges(two, 4);
    const shared = [...Array(canonical.edges.length / 4).keys()].find((i) => canonical.edges[i * 4 + 3] !== NONE32)!;
    expect([canonical.edges[shared * 4 + 2], canonical.edges[shared * 4 + 3]]).toEqual([0, 1]);
    const previous = canonical.edges.slice();
    previous[shared * 4 + 2] = 1;
    previous[shared * 4 + 3] = 0;
    const e = bakeEdges(two, 4, previous);
    expect([e.edges[shared * 4 + 2], e.edges[shared * 4 + 3]]).toEqual([1, 0]);
    expectConventions(two, e);
  });

  it('reproduce a toolset file’s edges and links exactly', () => {
    const a = aswmOf(loadTrx(listFixtures('nwn2', ['.trx']).find((f) => f.includes('CSLMordMansion'))!));
    const e = bakeEdges(a.triVertices, a.vertices.length / 3, a.edges);
    expect(e.crowdedPairs).toBe(2);
    expect(e.crowdedPairsKept).toBe(2);
    expect(e.edges).toEqual(a.edges);
    expect(e.triEdges).toEqual(a.triEdges);
    expect(e.triLinks).toEqual(a.triLinks);
    // Without the file's edges only the t0/t1 order and the two crowded pairs' pairing may differ.
    const fresh = bakeEdges(a.triVertices, a.vertices.length / 3);
    expectConventions(a.triVertices, fresh);
    let differentLinks = 0;
    for (let i = 0; i < a.triLinks.length; i++) if (fresh.triLinks[i] !== a.triLinks[i]) differentLinks++;
    expect(differentLinks).toBeGreaterThan(0);
    expect(differentLinks).toBeLessThanOrEqual(8);
  });
});
