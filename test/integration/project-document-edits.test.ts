import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProjectEdits } from '../../electron/services/project/project-edits';
import { ProjectStore } from '../../electron/services/project/project-store';
import type { DocumentEditCommand } from '../../shared/edits/document-edit-command';
import type { EditCommand } from '../../shared/edits/edit-command';
import { EditError } from '../../shared/edits/edit-error';
import { areaConnections } from '../../shared/edits/source-connections';
import type { NavDocument } from '../../shared/formats/source/nav-document';
import { faceCount, NO_OWNER, type Walkmesh } from '../../shared/model/walkmesh';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { projectTempDir } from '../unit/project/project-test-files';

const projectPath = projectTempDir('document-edits');
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

function areaIds(mesh: Walkmesh): number[] {
  const ids = new Set<number>();
  for (let f = 0; f < faceCount(mesh); f++) if (mesh.faceOwner[f] !== NO_OWNER) ids.add(mesh.faceOwner[f]!);
  return [...ids].sort((a, b) => a - b);
}

/** A walkmesh or document command that fits the file as it is now (some are refused, which is fine). */
function commandFor(mesh: Walkmesh, doc: NavDocument, [k, a, b, c]: [number, number, number, number]): { doc: true; cmd: DocumentEditCommand } | { doc: false; cmd: EditCommand } {
  const ids = areaIds(mesh);
  const from = ids[a % ids.length]!;
  const to = ids[b % ids.length]!;
  switch (k % 5) {
    case 0:
      return { doc: true, cmd: { kind: 'source-connect', from, to, direction: c % 4, twoWay: c % 2 === 0 } };
    case 1: {
      const list = areaConnections(doc, from)[c % 4];
      return { doc: true, cmd: { kind: 'source-disconnect', from, to: list.length > 0 ? list[b % list.length]! : to, direction: c % 4 } };
    }
    case 2: {
      const faces: number[] = [];
      for (let f = 0; f < faceCount(mesh); f++) if (mesh.faceOwner[f] === from) faces.push(f);
      let minX = Infinity, maxX = -Infinity;
      for (const f of faces) for (let i = 0; i < 3; i++) {
        const x = mesh.positions[mesh.triangles[f * 3 + i]! * 3]!;
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
      }
      return { doc: false, cmd: { kind: 'split-area', area: from, axis: 'x', at: (minX + maxX) / 2 } };
    }
    case 3:
      return { doc: false, cmd: { kind: 'paint-faces', faces: [a % faceCount(mesh)], material: c % 4 } };
    default:
      return { doc: false, cmd: { kind: 'merge-areas', keep: from, remove: to } };
  }
}

describe('document and walkmesh edits in one project history', () => {
  it('random sequences, undone step by step after a reopen, give back the file', () => {
    const original = readFixture(path.join(fixturesRoot, 'source/tf2/itemtest.nav'));
    let run = 0;
    let applied = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat()), { minLength: 2, maxLength: 8 }), (seeds) => {
        const file = projectPath(`p${run++}.walkbench`);
        let store = ProjectStore.create(file, { name: 'p', game: 'source' });
        const fileId = store.upsertFile({ module: 'm', name: 'itemtest.nav', kind: 'walkmesh', bytes: original }).fileId;
        let edits = new ProjectEdits(store);
        const after: Uint8Array[] = [original];
        for (const s of seeds) {
          const next = commandFor(edits.meshes(fileId)[0]!, edits.document(fileId) as NavDocument, s);
          try {
            after.push((next.doc ? edits.applyDocument(fileId, 0, next.cmd) : edits.apply(fileId, 0, next.cmd)).bytes!);
          } catch (e) {
            if (!(e instanceof EditError)) throw e;
          }
        }
        applied += after.length - 1;
        store.close();
        store = ProjectStore.open(file);
        edits = new ProjectEdits(store);
        for (let i = after.length - 2; i >= 0; i--) expect(same(edits.undo()!.bytes!, after[i]!)).toBe(true);
        expect(store.loadEdit(fileId)).toBeUndefined();
        for (let i = 1; i < after.length; i++) expect(same(edits.redo()!.bytes!, after[i]!)).toBe(true);
        store.close();
      }),
      { numRuns: 25, seed: 88 },
    );
    expect(applied).toBeGreaterThan(40);
  });
});
