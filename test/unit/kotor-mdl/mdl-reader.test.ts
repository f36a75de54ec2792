import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { MDL_NODE_AABB, walkmeshNodeOf, type KotorModel } from '../../../shared/formats/kotor/mdl-document';
import { readKotorModel } from '../../../shared/formats/kotor/mdl-reader';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { fixtureName, fixturesRoot, listFixtures, readFixture } from '../../support/fixtures';

const models = [...listFixtures('kotor/k1-blackvulkar-models', ['.mdl']), ...listFixtures('kotor/pykotor-mdl', ['.mdl']), ...listFixtures('kotor/k1cp-rooms', ['.mdl'])];
const mdxOf = (mdl: string): Uint8Array => readFixture(mdl.replace(/\.mdl$/, '.mdx'));
const read = (mdl: string, withMdx = true): KotorModel => readKotorModel(readFixture(mdl), withMdx ? mdxOf(mdl) : null, path.basename(mdl));

/** Nodes (= the geometry header's count) and walkmesh faces of each fixture model, counted from the files. */
const EXPECTED: Record<string, { nodes: number; walkFaces: number }> = {
  'm10aa_01c.mdl': { nodes: 76, walkFaces: 68 },
  'm10aa_03a.mdl': { nodes: 86, walkFaces: 123 },
  'm10aa_05a.mdl': { nodes: 107, walkFaces: 128 },
  'm10aa_06a.mdl': { nodes: 56, walkFaces: 69 },
  'm10aa_08a.mdl': { nodes: 70, walkFaces: 160 },
  'm10aa_08b.mdl': { nodes: 28, walkFaces: 86 },
  'm10aa_09a.mdl': { nodes: 49, walkFaces: 39 },
  'm10aa_09b.mdl': { nodes: 30, walkFaces: 86 },
  'm10ac_30a.mdl': { nodes: 76, walkFaces: 97 },
  'm12aa_01f.mdl': { nodes: 171, walkFaces: 127 },
  'm22ab_09a.mdl': { nodes: 121, walkFaces: 151 },
  'm26ae_01e.mdl': { nodes: 46, walkFaces: 396 },
  'm44aa_23a.mdl': { nodes: 66, walkFaces: 65 },
  'dor_lhr02.mdl': { nodes: 17, walkFaces: 0 },
  'm02aa_09b.mdl': { nodes: 85, walkFaces: 24 },
};

describe('KotOR binary model reader', () => {
  it('reads every fixture model', () => {
    expect(models.length).toBeGreaterThanOrEqual(15);
    for (const m of models) expect(EXPECTED[path.basename(m)], fixtureName(m)).toBeDefined();
  });

  for (const file of models) {
    const name = path.basename(file);
    it(`${fixtureName(file)}: the node tree, and every MDL byte in exactly one structure`, () => {
      const model = read(file);
      expect(model.game).toBe('kotor1');
      expect(model.nodes.length).toBe(model.nodeCount);
      expect(model.nodes.length).toBe(EXPECTED[name]!.nodes);
      // Pre-order with parents before children, every node but the root reached once.
      expect(model.nodes[0]!.parent).toBe(-1);
      for (const n of model.nodes.slice(1)) expect(n.parent).toBeLessThan(n.index);
      expect(new Set(model.nodes.map((n) => n.offset)).size).toBe(model.nodes.length);
      // The structures read tile the MDL: no gap, no overlap, from 0 to the end.
      const mdl = model.structures.filter((s) => s.file === 'mdl').sort((a, b) => a.offset - b.offset);
      let end = 0;
      for (const s of mdl) {
        expect(s.offset, `${name} ${s.kind} at ${s.offset}`).toBe(end);
        end = s.offset + s.size;
      }
      expect(end).toBe(readFixture(file).length);
      expect(model.mdlDataSize + 12).toBe(end);

      const walk = walkmeshNodeOf(model);
      const faces = walk?.mesh?.faces.length ?? 0;
      expect(faces / 3).toBe(EXPECTED[name]!.walkFaces);
      if (walk) {
        const tree = walk.aabb!;
        const f = faces / 3;
        expect(tree.face.length).toBe(2 * f - 1);
        const leaves = [...tree.face].filter((x) => x >= 0).sort((a, b) => a - b);
        expect(leaves).toEqual(Array.from({ length: f }, (_, i) => i));
        // Stored order is pre-order: child 1 right after its parent.
        for (let k = 0; k < tree.face.length; k++) if (tree.face[k]! < 0) expect(tree.child1[k]).toBe(k + 1);
        expect(walk.flags & MDL_NODE_AABB).not.toBe(0);
        // Every vertex finite; the walkmesh's from the MDL copy.
        expect(walk.mesh!.vertexSource).toBe('mdl');
        expect(walk.mesh!.vertices.every(Number.isFinite)).toBe(true);
      }
    });
  }

  it("the MDL's copy of the positions equals the MDX's in every intact MDX (the reader uses the copy)", () => {
    let intact = 0, meshes = 0;
    for (const file of models) {
      const model = read(file, false);
      const mdx = mdxOf(file);
      // The Black Vulkar and PyKotor MDX files lost or gained bytes to a line-ending conversion.
      if (mdx.length !== model.mdxSize) continue;
      intact++;
      const view = new DataView(mdx.buffer, mdx.byteOffset, mdx.byteLength);
      for (const n of model.nodes) {
        const mesh = n.mesh;
        if (!mesh || mesh.mdx.stride === 0 || (mesh.mdx.flags & 1) === 0) continue;
        meshes++;
        const nv = mesh.vertices.length / 3;
        const fromMdx = new Float32Array(nv * 3);
        for (let v = 0; v < nv; v++) for (let a = 0; a < 3; a++) fromMdx[3 * v + a] = view.getFloat32(mesh.mdx.offset + v * mesh.mdx.stride + mesh.mdx.positionOffset + 4 * a, true);
        expect(fromMdx, `${path.basename(file)} ${n.name}`).toEqual(mesh.vertices);
      }
    }
    expect(intact).toBe(5);
    expect(meshes).toBe(377);
  });

  it('pairs with the game WOK: same face count and materials as a multiset', () => {
    for (const wokFile of listFixtures('kotor/k1-blackvulkar', ['.wok'])) {
      const room = path.basename(wokFile, '.wok');
      const model = read(path.join(fixturesRoot, 'kotor/k1-blackvulkar-models', `${room}.mdl`), false);
      const wok = readBwm(readFixture(wokFile));
      const mesh = walkmeshNodeOf(model)!.mesh!;
      expect([...mesh.materials].sort()).toEqual([...wok.materials].sort());
    }
  });

  describe('bad input', () => {
    const file = listFixtures('kotor/k1-blackvulkar-models', ['.mdl'])[0]!;
    const good = readFixture(file);
    const expectBad = (bytes: Uint8Array, field: RegExp): MalformedInputError => {
      let error: unknown;
      try {
        readKotorModel(bytes, null, 'bad.mdl');
      } catch (e) {
        error = e;
      }
      expect(isMalformedInputError(error)).toBe(true);
      const e = error as MalformedInputError;
      expect(e.file).toBe('bad.mdl');
      expect(e.message).toMatch(/^bad\.mdl: kotor-mdl at offset \d+/);
      expect(e.field).toMatch(field);
      return e;
    };
    const patch = (at: number, value: number): Uint8Array => {
      const b = good.slice();
      new DataView(b.buffer).setUint32(at, value, true);
      return b;
    };

    it('refuses an ASCII model, a truncated file and an unknown function pointer', () => {
      expectBad(new TextEncoder().encode('# ASCII model\nnewmodel x\n'), /binary marker/);
      for (const size of [0, 11, 40, 207, 1000, Math.floor(good.length / 2)]) expectBad(good.slice(0, size), /./);
      expectBad(patch(12, 12345), /function pointer/);
    });

    it('refuses a node count field that cannot fit and a child cycle', () => {
      // Names array count (model header +0x0C8 - 12 … at file 0xC8): far more names than the file holds.
      const e = expectBad(patch(0xc8, 0x7fffffff), /names count/);
      expect(e.offset).toBe(0xc8);
      // The root node's first child pointing back at the root.
      const model = readKotorModel(good, null, 'x');
      const root = model.nodes[0]!;
      const children = new DataView(good.buffer, good.byteOffset).getUint32(root.offset + 44, true) + 12;
      expectBad(patch(children, root.offset - 12), /child node offset/);
    });

    it('never reads outside the file on random corruptions (each throws MalformedInputError or reads)', () => {
      let seed = 1234567;
      const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
      let errors = 0;
      for (let i = 0; i < 300; i++) {
        const b = good.slice();
        for (let k = 0; k < 8; k++) b[Math.floor(rnd() * 4096)] = Math.floor(rnd() * 256);
        try {
          readKotorModel(b, null, 'r.mdl');
        } catch (e) {
          if (!isMalformedInputError(e)) throw e;
          errors++;
        }
      }
      expect(errors).toBeGreaterThan(0);
    });
  });
});
