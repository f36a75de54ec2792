import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakeBwm, bakeInputOf } from '../../../shared/bakers/kotor/bwm-bake';
import { computeFacePlanes, inferNormalRule, normalRuleAgreement, type BwmNormalRule } from '../../../shared/bakers/kotor/bwm-normals';
import { applyEdit } from '../../../shared/edits/apply-edit';
import { floatsOf, type BwmDocument } from '../../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { bwmFromWalkmesh, bwmToWalkmesh } from '../../../shared/formats/kotor/bwm-walkmesh';
import { DEFAULT_WALKABILITY } from '../../../shared/formats/kotor/surface-materials';
import { fixturesRoot, listFixtures, readFixture } from '../../support/fixtures';

/**
 * KotOR 1's and TSL's BioWare tools rounded the normal's arithmetic differently
 * (bwm-normals.ts). The game-shipped TSL room 203tell and zio006j follow TSL's rule; the
 * game-shipped K1 rooms of k1-blackvulkar and test.wok follow K1's.
 */
const load = (file: string): BwmDocument => readBwm(readFixture(file));
const tslRooms = [path.join(fixturesRoot, 'kotor2/203tell.wok'), path.join(fixturesRoot, 'kotor/pykotor/zio006j.wok')];
const k1Rooms = [...listFixtures('kotor/k1-blackvulkar', ['.wok']), path.join(fixturesRoot, 'kotor/pykotor/test.wok')];

function planes(doc: BwmDocument, rule: BwmNormalRule): { normals: Uint32Array; distances: Uint32Array } {
  const p = computeFacePlanes(floatsOf(doc.vertices), doc.faces, rule);
  return { normals: new Uint32Array(p.normals.buffer), distances: new Uint32Array(p.distances.buffer) };
}

describe('normals by the game the room comes from', () => {
  it("TSL's rule reproduces every normal and planar distance of the TSL rooms, K1's does not", () => {
    let faces = 0;
    for (const file of tslRooms) {
      const doc = load(file);
      const tsl = planes(doc, 'kotor2');
      expect(tsl.normals, path.basename(file)).toEqual(doc.normals);
      expect(tsl.distances, path.basename(file)).toEqual(doc.planes);
      expect(planes(doc, 'kotor1').normals, path.basename(file)).not.toEqual(doc.normals);
      faces += doc.faces.length / 3;
    }
    expect(faces).toBe(1209 + 276);
    const agree = normalRuleAgreement(floatsOf(load(tslRooms[0]!).vertices), load(tslRooms[0]!).faces, load(tslRooms[0]!).normals);
    expect(agree).toEqual({ kotor1: 1209 - 41, kotor2: 1209 });
  });

  it("K1's rule reproduces every normal and planar distance of the K1 rooms, TSL's misses some", () => {
    let missed = 0;
    for (const file of k1Rooms) {
      const doc = load(file);
      const k1 = planes(doc, 'kotor1');
      expect(k1.normals, path.basename(file)).toEqual(doc.normals);
      expect(k1.distances, path.basename(file)).toEqual(doc.planes);
      const { kotor2 } = normalRuleAgreement(floatsOf(doc.vertices), doc.faces, doc.normals);
      missed += doc.faces.length / 3 - kotor2;
    }
    expect(missed).toBeGreaterThan(0);
  });

  it("infers the rule from a file's own normals, and the bake input carries it", () => {
    for (const file of tslRooms) {
      const doc = load(file);
      expect(inferNormalRule(floatsOf(doc.vertices), doc.faces, doc.normals), path.basename(file)).toBe('kotor2');
      expect(bakeInputOf(doc).normals).toBe('kotor2');
      expect(bakeBwm(bakeInputOf(doc), DEFAULT_WALKABILITY).document.normals).toEqual(doc.normals);
      // The given game wins over the file's own arithmetic.
      expect(bakeBwm(bakeInputOf(doc, 'kotor1'), DEFAULT_WALKABILITY).document.normals).not.toEqual(doc.normals);
    }
    for (const file of k1Rooms) {
      const doc = load(file);
      expect(inferNormalRule(floatsOf(doc.vertices), doc.faces, doc.normals), path.basename(file)).toBe('kotor1');
    }
    // A face naming a missing vertex says nothing about arithmetic: K1 is the default.
    expect(inferNormalRule(new Float32Array(9), Uint32Array.of(0, 1, 7), new Uint32Array(3))).toBe('kotor1');
  });

  it("an edit through the model computes the moved faces' normals with the room's game rule", () => {
    const doc = load(tslRooms[0]!);
    const mesh = bwmToWalkmesh(doc, '203tell');
    // Move a vertex of a face the two rules disagree on, so the rule shows in the result.
    const k1 = planes(doc, 'kotor1').normals;
    let face = 0;
    while (k1[3 * face] === doc.normals[3 * face] && k1[3 * face + 1] === doc.normals[3 * face + 1] && k1[3 * face + 2] === doc.normals[3 * face + 2]) face++;
    const v = doc.faces[3 * face]!;
    applyEdit(mesh, { kind: 'move-vertices', vertices: [v], positions: [mesh.positions[3 * v]!, mesh.positions[3 * v + 1]!, mesh.positions[3 * v + 2]! + 0.125] });
    const results = new Map<string, Uint32Array>();
    for (const [rule, given] of [['kotor2', undefined], ['kotor1', 'kotor1'], ['kotor2', 'kotor2']] as const) {
      const out = bwmFromWalkmesh(mesh, doc, DEFAULT_WALKABILITY, given);
      results.set(`${given}`, out.normals);
      const expected = planes(out, rule);
      let moved = 0;
      for (let k = 0; k < out.faces.length / 3; k++) {
        if (out.faces[3 * k] !== v && out.faces[3 * k + 1] !== v && out.faces[3 * k + 2] !== v) continue;
        moved++;
        expect([out.normals[3 * k], out.normals[3 * k + 1], out.normals[3 * k + 2]], `${rule} face ${k}`).toEqual([expected.normals[3 * k], expected.normals[3 * k + 1], expected.normals[3 * k + 2]]);
        expect(out.planes[k]).toBe(expected.distances[k]);
      }
      expect(moved).toBeGreaterThan(0);
    }
    // The rules differ on this geometry, so the inferred one is seen to be TSL's.
    expect(results.get('kotor1')).not.toEqual(results.get('kotor2'));
    expect(results.get('undefined')).toEqual(results.get('kotor2'));
  });
});
