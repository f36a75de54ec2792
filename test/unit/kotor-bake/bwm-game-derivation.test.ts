import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AABB_PLANE_FLAGS, buildAabbTree, sortLikeMsvcQsort } from '../../../shared/bakers/kotor/bwm-aabb';
import { bakeBwm, bakeInputOf } from '../../../shared/bakers/kotor/bwm-bake';
import { compareBwm, sameShapeNodes } from '../../../shared/bakers/kotor/bwm-compare';
import { computeFacePlanes } from '../../../shared/bakers/kotor/bwm-normals';
import { AABB_NODE_WORDS, floatsOf, type BwmDocument } from '../../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { validateBwm } from '../../../shared/formats/kotor/bwm-validate';
import { DEFAULT_WALKABILITY } from '../../../shared/formats/kotor/surface-materials';
import { fixturesRoot, listFixtures, readFixture } from '../../support/fixtures';
import { gridBakeInput } from '../kotor/grid-walkmesh';

/** The eight game rooms plus test.wok and zio006j.wok (BioWare-made, spec §13). */
const bioware = [...listFixtures('kotor/k1-blackvulkar', ['.wok']), path.join(fixturesRoot, 'kotor/pykotor/test.wok'), path.join(fixturesRoot, 'kotor/pykotor/zio006j.wok')];
const load = (file: string): BwmDocument => readBwm(readFixture(file));

/**
 * Nodes of the rebuilt tree with the game's faces below them and the game's plane flag,
 * measured when the rule in bwm-aabb.ts was fixed; the rest depends on ties that only the
 * model's own coordinates decide. A change to the rule must not lose any of them.
 */
const SAME_SHAPE_NODES: Record<string, number> = {
  'm10aa_01c.wok': 73,
  'm10aa_03a.wok': 153,
  'm10aa_05a.wok': 214,
  'm10aa_06a.wok': 125,
  'm10aa_08a.wok': 305,
  'm10aa_08b.wok': 169,
  'm10aa_09a.wok': 53,
  'm10aa_09b.wok': 170,
  'test.wok': 387,
  'zio006j.wok': 519,
};

/**
 * Where the exporter's face list put the non-walkable block among the walkable faces
 * (−1: the WOK order itself), for the files whose tree the build then reproduces leaf for
 * leaf. Found by trying every position; the WOK does not record it.
 */
const EXPORTER_LIST: Record<string, number> = {
  'm10aa_05a.wok': 4,
  'm10aa_06a.wok': 1,
  'm10aa_08a.wok': 1,
  'm10aa_08b.wok': -1,
  'm10aa_09b.wok': -1,
  'test.wok': -1,
};

describe('KotOR bake reproduces the game-computed sections', () => {
  it('normals and plane distances are bit-identical on every game room and test.wok', () => {
    let faces = 0;
    for (const file of bioware.filter((f) => !f.endsWith('zio006j.wok'))) {
      const doc = load(file);
      const planes = computeFacePlanes(floatsOf(doc.vertices), doc.faces);
      expect(new Uint32Array(planes.normals.buffer), path.basename(file)).toEqual(doc.normals);
      expect(new Uint32Array(planes.distances.buffer), path.basename(file)).toEqual(doc.planes);
      faces += doc.faces.length / 3;
    }
    expect(faces).toBe(759 + 195);
  });

  it('gives a zero-area face the normal (1, 0, 0), as m10aa_03a face 39 has it', () => {
    const doc = load(path.join(fixturesRoot, 'kotor/k1-blackvulkar/m10aa_03a.wok'));
    const P = floatsOf(doc.vertices);
    const [b, c] = [doc.faces[3 * 39 + 1]!, doc.faces[3 * 39 + 2]!];
    expect([P[3 * b], P[3 * b + 1], P[3 * b + 2]]).toEqual([P[3 * c], P[3 * c + 1], P[3 * c + 2]]);
    const n = computeFacePlanes(P, doc.faces).normals;
    expect([n[117], n[118], n[119]]).toEqual([1, 0, 0]);
    expect(Array.from(floatsOf(doc.normals).slice(117, 120))).toEqual([1, 0, 0]);
  });

  it("the game's trees follow the rule: split on the box's longest axis by centroid, flag = widest gap of the children's centres", () => {
    let internal = 0, flagged = 0;
    for (const file of bioware) {
      const doc = load(file);
      const W = doc.aabb, B = floatsOf(W), P = floatsOf(doc.vertices);
      const centroid = (f: number, ax: number): number => P[doc.faces[3 * f]! * 3 + ax]! + P[doc.faces[3 * f + 1]! * 3 + ax]! + P[doc.faces[3 * f + 2]! * 3 + ax]!;
      const leaves = (k: number, out: number[] = []): number[] => {
        const o = k * AABB_NODE_WORDS;
        if (W[o + 6] !== 0xffffffff) out.push(W[o + 6]!);
        else leaves(W[o + 10]!, leaves(W[o + 9]!, out));
        return out;
      };
      for (let k = 0; k < W.length / AABB_NODE_WORDS; k++) {
        const o = k * AABB_NODE_WORDS;
        if (W[o + 6] !== 0xffffffff) continue;
        internal++;
        const ext = [0, 1, 2].map((a) => Math.fround(B[o + 3 + a]! - B[o + a]!));
        const axis = ext[0]! > ext[1]! && ext[0]! > ext[2]! ? 0 : ext[1]! > ext[2]! ? 1 : 2;
        const l = leaves(W[o + 9]!), r = leaves(W[o + 10]!);
        expect(r.length - l.length === 0 || r.length - l.length === 1).toBe(true);
        expect(Math.max(...l.map((f) => centroid(f, axis))), `${path.basename(file)} node ${k}`).toBeLessThanOrEqual(Math.min(...r.map((f) => centroid(f, axis))));
        const lo = W[o + 9]! * AABB_NODE_WORDS, ro = W[o + 10]! * AABB_NODE_WORDS;
        const gap = [0, 1, 2].map((a) => B[ro + a]! + B[ro + 3 + a]! - B[lo + a]! - B[lo + 3 + a]!);
        if (gap.every((g) => g === 0)) continue;
        const best = [0, 1, 2].reduce((m, a) => (Math.abs(gap[a]!) > Math.abs(gap[m]!) ? a : m), 0);
        expect(W[o + 8], `${path.basename(file)} node ${k}`).toBe(AABB_PLANE_FLAGS[best + (gap[best]! < 0 ? 3 : 0)]);
        flagged++;
      }
    }
    expect(internal).toBe(1220);
    expect(flagged).toBe(1148);
  });

  for (const file of bioware) {
    const name = path.basename(file);
    it(`${name}: the rebuilt tree has the game's faces and flag on at least ${SAME_SHAPE_NODES[name]} nodes`, () => {
      const ref = load(file);
      const cmp = compareBwm(bakeBwm(bakeInputOf(ref), DEFAULT_WALKABILITY).document, ref);
      expect(cmp.aabb.count).toBe(cmp.aabb.referenceCount);
      expect(cmp.aabb.sameShapeNodes).toBeGreaterThanOrEqual(SAME_SHAPE_NODES[name]!);
      // Boxes differ only by the model-vs-WOK coordinate noise where the tree agrees.
      expect(cmp.aabb.sameShapeNodes).toBeLessThanOrEqual(cmp.aabb.count);
    });
  }

  for (const [name, at] of Object.entries(EXPORTER_LIST)) {
    it(`${name}: from the exporter's face list the tree has the game's leaves, and its flags wherever the children's boxes clearly differ`, () => {
      const doc = load(bioware.find((f) => path.basename(f) === name)!);
      const faces = doc.faces.length / 3, walkable = doc.adjacency.length / 3;
      const w = [...Array(walkable).keys()], nw = [...Array(faces - walkable).keys()].map((i) => i + walkable);
      const list = at < 0 ? [...Array(faces).keys()] : [...w.slice(0, at), ...nw, ...w.slice(at)];
      const tree = buildAabbTree(floatsOf(doc.vertices), doc.faces, list);
      const G = doc.aabb, B = floatsOf(G), T = floatsOf(tree);
      expect(tree.length).toBe(G.length);
      // Children whose box centres are as good as equal (closer than the ~1e-4 by which the
      // model's coordinates, which BioWare used, differ from the WOK's): the flag there is
      // decided by that noise.
      const equalBoxes = (X: Float32Array, l: number, r: number): boolean => [0, 1, 2].every((a) => Math.abs(X[r + a]! + X[r + 3 + a]! - X[l + a]! - X[l + 3 + a]!) < 1e-3);
      let equalBoxNodes = 0;
      for (let k = 0; k < G.length / AABB_NODE_WORDS; k++) {
        const o = k * AABB_NODE_WORDS;
        expect(tree[o + 6], `node ${k} face`).toBe(G[o + 6]);
        if (G[o + 6] !== 0xffffffff) continue;
        const l = G[o + 9]! * AABB_NODE_WORDS, r = G[o + 10]! * AABB_NODE_WORDS;
        if (equalBoxes(B, l, r) || equalBoxes(T, l, r)) equalBoxNodes++;
        else expect(tree[o + 8], `node ${k} flag`).toBe(G[o + 8]);
      }
      expect(equalBoxNodes).toBeLessThan(G.length / AABB_NODE_WORDS / 10);
    });
  }

  it('sorts like the C runtime: ascending keys, a permutation of the input, any size and many ties', () => {
    let seed = 7;
    const rand = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (const n of [1, 2, 3, 8, 9, 17, 100, 1000]) {
      const keys = Float64Array.from({ length: n }, () => Math.floor(rand() * (n / 3 + 1)));
      const order = Int32Array.from({ length: n }, (_, i) => i);
      const before = Array.from(keys);
      sortLikeMsvcQsort(order, keys, 0, n - 1, new Int32Array(128));
      for (let i = 1; i < n; i++) expect(keys[i]).toBeGreaterThanOrEqual(keys[i - 1]!);
      expect([...order].sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
      for (let i = 0; i < n; i++) expect(keys[i]).toBe(before[order[i]!]);
    }
  });

  it('builds a valid balanced tree split by centroid above the exact-sort size too (quickselect nodes)', () => {
    const { document: doc } = bakeBwm(gridBakeInput(60, 40), DEFAULT_WALKABILITY);
    expect(doc.faces.length / 3).toBe(4800);
    expect(validateBwm(doc).filter((f) => f.code.startsWith('bwm.aabb'))).toEqual([]);
    const W = doc.aabb, B = floatsOf(W), P = floatsOf(doc.vertices);
    const centroid = (f: number, ax: number): number => P[doc.faces[3 * f]! * 3 + ax]! + P[doc.faces[3 * f + 1]! * 3 + ax]! + P[doc.faces[3 * f + 2]! * 3 + ax]!;
    const leaves = (k: number, out: number[] = []): number[] => {
      const o = k * AABB_NODE_WORDS;
      if (W[o + 6] !== 0xffffffff) out.push(W[o + 6]!);
      else leaves(W[o + 10]!, leaves(W[o + 9]!, out));
      return out;
    };
    for (const k of [0, 1, W[9]!]) {
      const o = k * AABB_NODE_WORDS;
      const ext = [0, 1, 2].map((a) => Math.fround(B[o + 3 + a]! - B[o + a]!));
      const axis = ext[0]! > ext[1]! && ext[0]! > ext[2]! ? 0 : ext[1]! > ext[2]! ? 1 : 2;
      const l = leaves(W[o + 9]!), r = leaves(W[o + 10]!);
      expect(r.length - l.length === 0 || r.length - l.length === 1).toBe(true);
      expect(Math.max(...l.map((f) => centroid(f, axis)))).toBeLessThanOrEqual(Math.min(...r.map((f) => centroid(f, axis))));
    }
  });

  it('counts a tree against itself as entirely the same shape, and a swapped split as different', () => {
    const doc = load(path.join(fixturesRoot, 'kotor/k1-blackvulkar/m10aa_09a.wok'));
    const tree = buildAabbTree(floatsOf(doc.vertices), doc.faces);
    const nodes = tree.length / AABB_NODE_WORDS;
    expect(sameShapeNodes(tree, tree)).toBe(nodes);
    // Swap two leaves in different halves of the root: every node above either of them changes.
    const swapped = tree.slice();
    const firstLeaf = 1 + [...Array(nodes).keys()].slice(1).findIndex((k) => swapped[k * AABB_NODE_WORDS + 6] !== 0xffffffff);
    const lastLeaf = nodes - 1;
    const t = swapped[firstLeaf * AABB_NODE_WORDS + 6]!;
    swapped[firstLeaf * AABB_NODE_WORDS + 6] = swapped[lastLeaf * AABB_NODE_WORDS + 6]!;
    swapped[lastLeaf * AABB_NODE_WORDS + 6] = t;
    const same = sameShapeNodes(tree, swapped);
    expect(same).toBeLessThan(nodes - 2);
    expect(same).toBeGreaterThan(nodes / 2);
  });
});
