import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEdit } from '../../../shared/edits/apply-edit';
import type { EditCommand } from '../../../shared/edits/edit-command';
import { EditError } from '../../../shared/edits/edit-error';
import { parseEditCommand } from '../../../shared/edits/parse-edit-command';
import { copyWalkmesh } from '../../../shared/edits/walkmesh-copy';
import { portableEnvironment as env } from '../../../shared/formats/format-environment';
import { detectFormat } from '../../../shared/formats/format-registry';
import { fixtureName, fixturesRoot, readFixture } from '../../support/fixtures';
import { commandFromSeed, type EditSeed } from './random-edits';

const fixtures = [
  'kotor/k1-blackvulkar/m10aa_09a.wok',
  'kotor/k1cp/m40aa_18b.wok',
  'nwn2/kaedrin/dm001_cargohold.trx',
  'nwn2/kaedrin/enter world.trn',
  'source/csgo/2nd_mythic_town_v5.nav',
  'source/tf2/itemtest.nav',
].map((f) => `${fixturesRoot}/${f}`);

const seed: fc.Arbitrary<EditSeed> = fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat());

describe('a random sequence of edits followed by all their inverses', () => {
  for (const file of fixtures) {
    it(`${fixtureName(file)}: gives back the original bytes through the format's writer`, () => {
      const bytes = readFixture(file);
      const handler = detectFormat(file, bytes)!;
      const doc = handler.read(bytes, env);
      const original = handler.toWalkmeshes(doc, fixtureName(file));
      expect(original.length).toBeGreaterThan(0);
      let applied = 0;
      fc.assert(
        fc.property(fc.array(seed, { minLength: 1, maxLength: 12 }), (seeds) => {
          const meshes = original.map(copyWalkmesh);
          const mesh = meshes[0]!;
          const inverses: EditCommand[] = [];
          for (const s of seeds) {
            try {
              inverses.push(applyEdit(mesh, commandFromSeed(mesh, s)).inverse);
              applied++;
            } catch (e) {
              // A command the mesh cannot take is refused, and must leave no trace.
              if (!(e instanceof EditError)) throw e;
            }
          }
          for (let i = inverses.length - 1; i >= 0; i--) {
            applyEdit(mesh, parseEditCommand(JSON.parse(JSON.stringify(inverses[i])), `inverse ${i}`));
          }
          const written = handler.write(handler.fromWalkmeshes!(meshes, doc), env);
          expect(Buffer.from(written).equals(Buffer.from(bytes))).toBe(true);
        }),
        { numRuns: 40, seed: 20261122 },
      );
      expect(applied).toBeGreaterThan(40);
    });
  }
});
