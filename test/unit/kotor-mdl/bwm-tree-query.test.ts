import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bruteRayCast, bwmFaceBelow, bwmRayCast, type BwmTreeMesh } from '../../../shared/bakers/kotor/bwm-aabb-query';
import { bakeBwm, bakeInputOf } from '../../../shared/bakers/kotor/bwm-bake';
import { BWM_TYPE_AREA, floatsOf } from '../../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { DEFAULT_WALKABILITY } from '../../../shared/formats/kotor/surface-materials';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';
import { mulberry32 } from '../../support/seeded-random';

const woks = [...listFixtures('kotor/k1-blackvulkar', ['.wok']), ...listFixtures('kotor/k1cp', ['.wok']), ...listFixtures('kotor2', ['.wok'])];

/**
 * A tree rebuilt from the WOK alone (no model) is not the game's byte for byte, but it is a
 * valid tree: every query through it answers what the stored tree answers.
 */
describe('BWM trees rebuilt without the model answer queries like the stored trees', () => {
  it('covers the 8 game rooms, the community rooms and the TSL room', () => {
    expect(woks.length).toBeGreaterThanOrEqual(8 + 3 + 1);
  });

  for (const file of woks) {
    it(`${fixtureName(file)}: seeded vertical and oblique rays and points`, () => {
      const doc = readBwm(readFixture(file));
      expect(doc.type).toBe(BWM_TYPE_AREA);
      const baked = bakeBwm(bakeInputOf(doc), DEFAULT_WALKABILITY);
      const positions = floatsOf(doc.vertices);
      const stored: BwmTreeMesh = { positions, faces: doc.faces, aabb: doc.aabb };
      const rebuilt: BwmTreeMesh = { positions: floatsOf(baked.document.vertices), faces: baked.document.faces, aabb: baked.document.aabb };
      // The rebuilt file's face k is the stored file's face faceOrder[k].
      const back = (f: number): number => (f < 0 ? f : baked.faceOrder[f]!);
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      for (let i = 0; i < positions.length; i++) {
        lo[i % 3] = Math.min(lo[i % 3]!, positions[i]!);
        hi[i % 3] = Math.max(hi[i % 3]!, positions[i]!);
      }
      const rnd = mulberry32(path.basename(file).length * 7919 + doc.faces.length);
      const at = (ax: number, margin = 0): number => lo[ax]! - margin + rnd() * (hi[ax]! - lo[ax]! + 2 * margin);
      let hits = 0, rays = 0, treeWork = 0;
      const check = (a: ReturnType<typeof bwmRayCast>, b: ReturnType<typeof bwmRayCast>, oracle: ReturnType<typeof bwmRayCast>, what: string): void => {
        rays++;
        expect(back(b.face), what).toBe(a.face);
        expect(a.face, what).toBe(oracle.face);
        if (a.face >= 0) {
          hits++;
          expect(b.t, what).toBe(a.t);
        }
        treeWork += a.tested;
      };
      for (let i = 0; i < 400; i++) {
        // Vertical rays from above the room.
        const o: [number, number, number] = [at(0), at(1), hi[2]! + 1];
        const d: [number, number, number] = [0, 0, -1];
        check(bwmRayCast(stored, o, d), bwmRayCast(rebuilt, o, d), bruteRayCast(stored, o, d), `vertical ${i}`);
        // Oblique rays from anywhere around the room.
        const p: [number, number, number] = [at(0, 2), at(1, 2), at(2, 2)];
        const u = rnd() * 2 - 1, phi = rnd() * 2 * Math.PI, s = Math.sqrt(1 - u * u);
        const q: [number, number, number] = [s * Math.cos(phi), s * Math.sin(phi), u];
        check(bwmRayCast(stored, p, q), bwmRayCast(rebuilt, p, q), bruteRayCast(stored, p, q), `oblique ${i}`);
        // Points: the face under a point inside the room's box.
        const x = at(0), y = at(1), z = at(2);
        check(bwmFaceBelow(stored, x, y, z), bwmFaceBelow(rebuilt, x, y, z), bruteRayCast(stored, [x, y, z], [0, 0, -1]), `point ${i}`);
      }
      expect(rays).toBe(1200);
      // Enough of the queries land on a face for the agreement to mean something.
      expect(hits).toBeGreaterThan(200);
      // And the tree prunes: far fewer triangles than a scan of every face per query.
      expect(treeWork).toBeLessThan((rays * doc.faces.length) / 3 / 4);
    });
  }
});
