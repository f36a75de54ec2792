import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEdit } from '../../../shared/edits/apply-edit';
import { EditError } from '../../../shared/edits/edit-error';
import { parseEditCommand } from '../../../shared/edits/parse-edit-command';
import type { GameId } from '../../../shared/model/walkmesh';
import { gridWalkmesh, snapshot } from './grid-walkmesh';

const kinds = [
  'set-face-attributes', 'paint-faces', 'move-vertices', 'set-triangles', 'delete-faces', 'insert-faces', 'append-vertices', 'truncate-vertices',
  'create-face', 'fill-hole', 'split-edge', 'weld-vertices', 'flip-faces', 'split-area', 'merge-areas', 'batch', 'explode',
];
const fields = ['faces', 'walkable', 'material', 'owner', 'setBits', 'clearBits', 'vertices', 'positions', 'triangles', 'at', 'count', 'edge', 't', 'position', 'area', 'axis', 'keep', 'remove', 'commands'];

/** Numbers a damaged history entry or a buggy caller could hold: near the mesh's ranges, past them, fractional, not finite. */
const number = fc.oneof(fc.integer({ min: -2, max: 40 }), fc.constantFrom(0xffffffff, 2 ** 32, -0, 0.5, 1e30, Number.NaN, Number.POSITIVE_INFINITY));
const value = fc.oneof(number, fc.array(number, { maxLength: 9 }), fc.boolean(), fc.constantFrom('x', 'y', null, 'all'), fc.constant([]));
const command = fc.record({ kind: fc.constantFrom(...kinds), values: fc.dictionary(fc.constantFrom(...fields), value) }).map(({ kind, values }) => ({ kind, ...values }));

describe('bad edit commands', () => {
  for (const game of ['kotor', 'nwn2', 'source', 'skyrim'] as GameId[]) {
    it(`${game}: are refused with an EditError and leave the mesh untouched, never a crash`, () => {
      let refused = 0;
      fc.assert(
        fc.property(fc.array(command, { maxLength: 4 }), (list) => {
          const mesh = gridWalkmesh(3, game);
          if (game === 'source') for (let f = 0; f < mesh.faceOwner.length; f++) mesh.faceOwner[f] = 1 + (f >> 1);
          for (const [i, raw] of list.entries()) {
            const before = snapshot(mesh);
            try {
              // As read back from the history (JSON) and as sent over IPC (structured clone keeps NaN).
              const input: unknown = i % 2 === 0 ? JSON.parse(JSON.stringify(raw)) : raw;
              const result = applyEdit(mesh, parseEditCommand(input, 'fuzz'));
              applyEdit(mesh, result.inverse);
              expect(snapshot(mesh)).toEqual(before);
            } catch (e) {
              if (!(e instanceof EditError)) throw e;
              refused++;
              expect(snapshot(mesh)).toEqual(before);
            }
          }
        }),
        { numRuns: 300, seed: 99 },
      );
      expect(refused).toBeGreaterThan(100);
    });
  }
});
