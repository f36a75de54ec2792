import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEdit } from '../../../shared/edits/apply-edit';
import { EditError } from '../../../shared/edits/edit-error';
import { WalkmeshFindings } from '../../../shared/edits/walkmesh-findings';
import { copyWalkmesh } from '../../../shared/edits/walkmesh-copy';
import { portableEnvironment as env } from '../../../shared/formats/format-environment';
import { detectFormat } from '../../../shared/formats/format-registry';
import type { Walkmesh } from '../../../shared/model/walkmesh';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { gridWalkmesh } from './grid-walkmesh';
import { commandFromSeed, type EditSeed } from './random-edits';

const seed: fc.Arbitrary<EditSeed> = fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat());

function fixtureMesh(relative: string): Walkmesh {
  const file = `${fixturesRoot}/${relative}`;
  const bytes = readFixture(file);
  const handler = detectFormat(file, bytes)!;
  return handler.toWalkmeshes(handler.read(bytes, env), relative)[0]!;
}

describe('incremental walkmesh findings', () => {
  it('finds degenerate, flipped, non-manifold and downward faces', () => {
    const mesh = gridWalkmesh(3);
    const checker = new WalkmeshFindings(mesh);
    expect(checker.findings()).toEqual([]);
    const codes = () => checker.findings().map((f) => `${f.code}@${f.subject?.kind}${f.subject?.id}`).sort();
    checker.update(applyEdit(mesh, { kind: 'flip-faces', faces: [4] }));
    // Face 4 is (2, 3, 7); flipped, it runs its one shared edge 2→7 the way face 5 does.
    expect(codes()).toEqual(['mesh.edge.winding@edge12', 'mesh.face.walkable-down@face4']);
    checker.update(applyEdit(mesh, { kind: 'flip-faces', faces: [4] }));
    expect(codes()).toEqual([]);
    checker.update(applyEdit(mesh, { kind: 'create-face', vertices: [0, 1, 13] }));
    checker.update(applyEdit(mesh, { kind: 'insert-faces', at: [18], triangles: [0, 5, 1], walkable: [1], material: [1], owner: [0] }));
    expect(codes()).toContain('mesh.edge.non-manifold@edge0');
    checker.update(applyEdit(mesh, { kind: 'weld-vertices', vertices: [6, 7] }));
    // Vertex 10 onto vertex 5: faces (5, 6, 10) and (5, 10, 9) lose their area.
    checker.update(applyEdit(mesh, { kind: 'move-vertices', vertices: [10], positions: Array.from(mesh.positions.subarray(15, 18)) }));
    expect(codes().filter((c) => c.startsWith('mesh.face.degenerate'))).toHaveLength(2);
  });

  for (const [name, make] of [
    ['a generated grid', () => gridWalkmesh(12)],
    ['a KotOR room', () => fixtureMesh('kotor/k1cp/m40aa_18b.wok')],
    ['an NWN2 area', () => fixtureMesh('nwn2/kaedrin/dm001_cargohold.trx')],
    ['a Source nav mesh', () => fixtureMesh('source/tf2/itemtest.nav')],
  ] as const) {
    it(`${name}: after every edit the incremental findings equal a full check`, () => {
      const base = make();
      let compared = 0;
      fc.assert(
        fc.property(fc.array(seed, { minLength: 1, maxLength: 10 }), (seeds) => {
          const mesh = copyWalkmesh(base);
          const checker = new WalkmeshFindings(mesh);
          for (const s of seeds) {
            try {
              checker.update(applyEdit(mesh, commandFromSeed(mesh, s)));
            } catch (e) {
              if (!(e instanceof EditError)) throw e;
            }
            expect(checker.findings(1e9)).toEqual(new WalkmeshFindings(mesh).findings(1e9));
            compared++;
          }
        }),
        { numRuns: 30, seed: 7 },
      );
      expect(compared).toBeGreaterThan(30);
    });
  }
});
