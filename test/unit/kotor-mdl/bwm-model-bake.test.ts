import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakeBwmWithModel } from '../../../shared/bakers/kotor/bwm-model-bake';
import { compareBwm, type BwmSectionKey } from '../../../shared/bakers/kotor/bwm-compare';
import { AABB_NODE_WORDS } from '../../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { readKotorModel } from '../../../shared/formats/kotor/mdl-reader';
import { DEFAULT_WALKABILITY } from '../../../shared/formats/kotor/surface-materials';
import { ModelMappingError } from '../../../shared/model/model-mapping-error';
import { fixturesRoot, listFixtures, readFixture } from '../../support/fixtures';

const rooms = listFixtures('kotor/k1-blackvulkar', ['.wok']);
const modelOf = (wok: string): string => path.join(fixturesRoot, 'kotor/k1-blackvulkar-models', path.basename(wok, '.wok'));

/**
 * The AABB nodes the model bake leaves different from the game's, per room: only plane
 * flags, at nodes whose two children have exactly the same box (the flag is in neither
 * file there; see bwm-model-bake.ts). Every box word is the game's.
 */
const AABB_DIFFERENCES: Record<string, { flags: number; nodes: number }> = {
  'm10aa_01c.wok': { flags: 0, nodes: 0 },
  'm10aa_03a.wok': { flags: 1, nodes: 1 },
  'm10aa_05a.wok': { flags: 0, nodes: 0 },
  'm10aa_06a.wok': { flags: 0, nodes: 0 },
  'm10aa_08a.wok': { flags: 1, nodes: 1 },
  'm10aa_08b.wok': { flags: 0, nodes: 0 },
  'm10aa_09a.wok': { flags: 2, nodes: 2 },
  'm10aa_09b.wok': { flags: 0, nodes: 0 },
};

const EXACT: BwmSectionKey[] = ['vertices', 'faces', 'materials', 'normals', 'planes', 'adjacency', 'edges', 'perimeters'];

describe('KotOR WOK baked with the room model', () => {
  it('covers the eight game rooms', () => {
    expect(rooms.map((r) => path.basename(r)).sort()).toEqual(Object.keys(AABB_DIFFERENCES).sort());
  });

  for (const wokFile of rooms) {
    const name = path.basename(wokFile);
    it(`${name}: every section is the game's, the AABB tree but for plane flags of equal-box children`, () => {
      const wok = readBwm(readFixture(wokFile));
      const model = readKotorModel(readFixture(`${modelOf(wokFile)}.mdl`), null, `${path.basename(wokFile, '.wok')}.mdl`);
      const baked = bakeBwmWithModel(wok, model, DEFAULT_WALKABILITY, 'kotor1');
      expect(baked.model.aabb).toBe('model');
      const c = compareBwm(baked.document, wok);
      for (const s of EXACT) expect(c[s].identical, `${name} ${s}`).toBe(true);
      // The tree: same node count, children, leaf faces (re-indexed to the WOK order).
      const a = baked.document.aabb, b = wok.aabb;
      expect(a.length).toBe(b.length);
      const n = a.length / AABB_NODE_WORDS;
      const fa = new Float32Array(a.buffer), fb = new Float32Array(b.slice().buffer);
      let flags = 0, nodes = 0, maxUlps = 0;
      for (let k = 0; k < n; k++) {
        const o = k * AABB_NODE_WORDS;
        for (const w of [6, 7, 9, 10]) expect(a[o + w], `${name} node ${k} word ${w}`).toBe(b[o + w]);
        if (a[o + 8] !== b[o + 8]) flags++;
        let differs = a[o + 8] !== b[o + 8];
        for (let i = 0; i < 6; i++) {
          if (a[o + i] !== b[o + i]) differs = true;
          // Same sign, so the bit patterns' distance is the distance in ulps.
          if (Math.sign(fa[o + i]!) === Math.sign(fb[o + i]!)) maxUlps = Math.max(maxUlps, Math.abs(a[o + i]! - b[o + i]!));
          else maxUlps = Infinity;
        }
        if (differs) nodes++;
      }
      expect(maxUlps, `${name} box words`).toBe(0);
      expect({ flags, nodes }).toEqual(AABB_DIFFERENCES[name]);
      expect(c.aabb.maxDifference).toBe(0);
    });
  }

  it('the community-patched rooms keep their faces matched to the model (face order, adjacency, edges, perimeters)', () => {
    for (const room of ['m10ac_30a', 'm22ab_09a']) {
      const wok = readBwm(readFixture(path.join(fixturesRoot, 'kotor/k1cp', `${room}.wok`)));
      const model = readKotorModel(readFixture(path.join(fixturesRoot, 'kotor/k1cp-rooms', `${room}.mdl`)), null, `${room}.mdl`);
      const c = compareBwm(bakeBwmWithModel(wok, model, DEFAULT_WALKABILITY).document, wok);
      for (const s of ['faces', 'materials', 'adjacency', 'edges', 'perimeters'] as const) expect(c[s].identical, `${room} ${s}`).toBe(true);
    }
  });

  it("refuses a model that is not the room's", () => {
    const wok = readBwm(readFixture(rooms[0]!));
    const other = readKotorModel(readFixture(`${modelOf(rooms[1]!)}.mdl`), null, 'other.mdl');
    expect(() => bakeBwmWithModel(wok, other, DEFAULT_WALKABILITY)).toThrow(ModelMappingError);
  });
});
