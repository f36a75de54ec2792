import { describe, expect, it } from 'vitest';
import { bakeBwm, bakeInputOf } from '../../../shared/bakers/kotor/bwm-bake';
import { compareBwm } from '../../../shared/bakers/kotor/bwm-compare';
import { AABB_NODE_WORDS, floatsOf } from '../../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { validateBwm } from '../../../shared/formats/kotor/bwm-validate';
import { DEFAULT_WALKABILITY } from '../../../shared/formats/kotor/surface-materials';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';
import { gridBakeInput } from './grid-walkmesh';

const gameFiles = listFixtures('kotor/k1-blackvulkar', ['.wok']);
const communityFiles = [...listFixtures('kotor/k1cp', ['.wok', '.pwk']), ...listFixtures('kotor/pykotor', ['.wok'])];

describe('BWM bake on game-shipped rooms (k1-blackvulkar)', () => {
  it('has the eight game rooms', () => {
    expect(gameFiles).toHaveLength(8);
  });
  for (const file of gameFiles) {
    it(`${fixtureName(file)}: face order, materials, normals, planes, adjacency, edges and perimeters are byte-identical`, () => {
      const ref = readBwm(readFixture(file));
      const baked = bakeBwm(bakeInputOf(ref), DEFAULT_WALKABILITY).document;
      const cmp = compareBwm(baked, ref);
      expect(cmp.vertices.identical).toBe(true);
      expect(cmp.faces.identical).toBe(true);
      expect(cmp.materials.identical).toBe(true);
      expect(cmp.adjacency.identical).toBe(true);
      expect(cmp.edges.identical).toBe(true);
      expect(cmp.perimeters.identical).toBe(true);
      expect(cmp.normals.identical).toBe(true);
      expect(cmp.planes.identical).toBe(true);
      // Same tree size and conventions, a valid tree for the same faces.
      expect(cmp.aabb.count).toBe(cmp.aabb.referenceCount);
      expect(validateBwm(baked).filter((f) => f.code.startsWith('bwm.aabb') || f.code.startsWith('bwm.adjacency') || f.code.startsWith('bwm.edges') || f.code.startsWith('bwm.perimeters'))).toEqual([]);
    });
  }

  it('the plane distances follow from the stored normals exactly (d = −n·v1)', () => {
    for (const file of gameFiles) {
      const ref = readBwm(readFixture(file));
      const P = floatsOf(ref.vertices), N = floatsOf(ref.normals), D = floatsOf(ref.planes);
      for (let f = 0; f < ref.faces.length / 3; f++) {
        const v = ref.faces[3 * f]! * 3;
        expect(Math.fround(-(N[3 * f]! * P[v]! + N[3 * f + 1]! * P[v + 1]! + N[3 * f + 2]! * P[v + 2]!))).toBe(D[f]);
      }
    }
  });
});

describe('BWM bake on community files (report per section)', () => {
  for (const file of communityFiles) {
    it(`${fixtureName(file)}: walk tables are identical; the rest is reported`, () => {
      const ref = readBwm(readFixture(file));
      const cmp = compareBwm(bakeBwm(bakeInputOf(ref), DEFAULT_WALKABILITY).document, ref);
      const summary = Object.entries(cmp).map(([k, s]) => `${k}: ${s.identical ? 'identical' : `${s.differing}/${s.count} differ, max ${s.maxDifference}`}`);
      console.log(`${fixtureName(file)}\n  ${summary.join('\n  ')}`);
      expect(cmp.faces.identical).toBe(true);
      expect(cmp.adjacency.identical).toBe(true);
      expect(cmp.edges.identical).toBe(true);
      expect(cmp.perimeters.identical).toBe(true);
    });
  }
});

describe('BWM derivation on a generated room', () => {
  it('orders walkable faces first and keeps materials and transitions with their faces', () => {
    const input = gridBakeInput(20, 10);
    const { document: doc, faceOrder, walkableCount } = bakeBwm(input, DEFAULT_WALKABILITY);
    const faces = input.faces.length / 3;
    expect(walkableCount).toBe(Array.from(input.materials).filter((m) => m !== 7).length);
    expect(doc.adjacency.length).toBe(walkableCount * 3);
    for (let k = 0; k < faces; k++) {
      expect(doc.materials[k]).toBe(input.materials[faceOrder[k]!]);
      expect(doc.materials[k] === 7).toBe(k >= walkableCount);
    }
    // Every transition on a walkable border edge is in the edge table, on the same face edge.
    const expected = new Map<string, number>();
    for (let k = 0; k < walkableCount; k++) {
      for (let e = 0; e < 3; e++) {
        const t = input.transitions[3 * faceOrder[k]! + e]!;
        if (t >= 0 && doc.adjacency[3 * k + e] === -1) expected.set(`${k}:${e}`, t);
      }
    }
    const got = new Map<string, number>();
    for (let i = 0; i < doc.edgeIndex.length; i++) if (doc.edgeTransition[i]! >= 0) got.set(`${Math.floor(doc.edgeIndex[i]! / 3)}:${doc.edgeIndex[i]! % 3}`, doc.edgeTransition[i]!);
    expect(got.size).toBeGreaterThan(0);
    expect(got).toEqual(expected);
    expect(validateBwm(doc)).toEqual([]);
  });

  it('builds a balanced pre-order tree with padded leaves and 0-based children', () => {
    const { document: doc } = bakeBwm(gridBakeInput(31, 17), DEFAULT_WALKABILITY);
    const W = doc.aabb;
    const B = floatsOf(W);
    const faces = doc.faces.length / 3;
    expect(W.length / AABB_NODE_WORDS).toBe(2 * faces - 1);
    const leaves = (k: number): number => (W[k * 11 + 6] !== 0xffffffff ? 1 : leaves(W[k * 11 + 9]!) + leaves(W[k * 11 + 10]!));
    for (let k = 0; k < W.length / 11; k++) {
      if (W[k * 11 + 6] !== 0xffffffff) {
        expect(W[k * 11 + 8]).toBe(0);
        const f = W[k * 11 + 6]!;
        const P = floatsOf(doc.vertices);
        const zs = [0, 1, 2].map((i) => P[doc.faces[3 * f + i]! * 3 + 2]!);
        expect(B[k * 11 + 2]).toBeCloseTo(Math.min(...zs) - 0.01, 5);
        continue;
      }
      expect(W[k * 11 + 9]).toBe(k + 1);
      const l = leaves(W[k * 11 + 9]!), r = leaves(W[k * 11 + 10]!);
      expect(r - l === 0 || r - l === 1).toBe(true);
      expect([1, 2, 4, 8, 16, 32]).toContain(W[k * 11 + 8]);
      expect(W[k * 11 + 7]).toBe(4);
    }
  });
});
