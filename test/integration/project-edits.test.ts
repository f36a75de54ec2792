import path from 'node:path';
import { inspectBytes } from '../../shared/formats/inspect-file';
import { describe, expect, it } from 'vitest';
import { ProjectEdits } from '../../electron/services/project/project-edits';
import { ProjectStore } from '../../electron/services/project/project-store';
import type { EditCommand } from '../../shared/edits/edit-command';
import { EditError } from '../../shared/edits/edit-error';
import { faceCount, type GameId, type Walkmesh } from '../../shared/model/walkmesh';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { projectTempDir } from '../unit/project/project-test-files';
import { snapshot } from '../unit/edits/grid-walkmesh';

const projectPath = projectTempDir('edits');

const cases: { game: GameId; fixture: string; mesh?: number; edits: (mesh: Walkmesh) => EditCommand[] }[] = [
  {
    game: 'kotor',
    fixture: 'kotor/k1-blackvulkar/m10aa_09a.wok',
    edits: (m) => [
      { kind: 'paint-faces', faces: [0, 1, 2], material: 2 },
      { kind: 'delete-faces', faces: [3, faceCount(m) - 1] },
      { kind: 'flip-faces', faces: [5] },
    ],
  },
  {
    game: 'nwn2',
    fixture: 'nwn2/kaedrin/dm001_cargohold.trx',
    edits: (m) => [
      { kind: 'paint-faces', faces: [m.faceWalkable.indexOf(1), m.faceWalkable.lastIndexOf(1)], walkable: false },
      { kind: 'delete-faces', faces: [10] },
      { kind: 'paint-faces', faces: [7], setBits: 0x20 },
    ],
  },
  {
    // A plugin holds several navmeshes; the edits go to the third one. (Its writer keeps
    // each navmesh's triangle count, so the edits paint and move.)
    game: 'skyrim',
    fixture: 'skyrim/DwemerSecrets.esp',
    mesh: 2,
    edits: (m) => [
      { kind: 'paint-faces', faces: [0, 1, 2], setBits: 0x40 },
      { kind: 'move-vertices', vertices: [m.triangles[4]!], positions: [m.positions[m.triangles[4]! * 3]!, m.positions[m.triangles[4]! * 3 + 1]!, m.positions[m.triangles[4]! * 3 + 2]! + 8] },
    ],
  },
  {
    game: 'source',
    fixture: 'source/tf2/itemtest.nav',
    edits: () => [
      { kind: 'paint-faces', faces: [0], material: 0x4 },
      { kind: 'delete-faces', faces: [3] },
    ],
  },
];

describe('walkmesh edits in a project', () => {
  for (const c of cases) {
    it(`${c.game}: edit → close → reopen → undo → redo gives the expected bytes at every step`, () => {
      const file = projectPath(`${c.game}.walkbench`);
      const original = readFixture(path.join(fixturesRoot, c.fixture));
      let store = ProjectStore.create(file, { name: 'edits', game: c.game });
      const fileId = store.upsertFile({ module: 'm', name: path.basename(c.fixture), kind: 'walkmesh', bytes: original }).fileId;
      let edits = new ProjectEdits(store);
      const k = c.mesh ?? 0;
      const bytesAfter: Uint8Array[] = [original];
      const meshAfter = [snapshot(edits.meshes(fileId)[k]!)];
      for (const cmd of c.edits(edits.meshes(fileId)[k]!)) {
        const out = edits.apply(fileId, k, cmd);
        expect(out.mesh).toBe(k);
        bytesAfter.push(out.bytes!);
        meshAfter.push(snapshot(edits.meshes(fileId)[k]!));
        expect(Buffer.from(store.loadEdit(fileId)!.bytes).equals(Buffer.from(out.bytes!))).toBe(true);
      }
      const n = bytesAfter.length - 1;
      expect(Buffer.from(bytesAfter[n]!).equals(Buffer.from(original))).toBe(false);
      expect(store.listHistory()).toHaveLength(n);
      store.close();

      // Reopened, the model is rebuilt from the history and undo goes back step by step.
      store = ProjectStore.open(file);
      edits = new ProjectEdits(store);
      expect(snapshot(edits.meshes(fileId)[k]!)).toEqual(meshAfter[n]);
      for (let i = n - 1; i >= 0; i--) {
        const out = edits.undo()!;
        expect(out.fileId).toBe(fileId);
        expect(Buffer.from(out.bytes!).equals(Buffer.from(bytesAfter[i]!))).toBe(true);
        expect(snapshot(edits.meshes(fileId)[k]!)).toEqual(meshAfter[i]);
      }
      expect(edits.undo()).toBeUndefined();
      // Every edit undone: the file is its own bytes again, with no edit saved.
      expect(store.loadEdit(fileId)).toBeUndefined();
      expect(store.fileById(fileId)!.edited).toBe(false);

      const redone = edits.redo()!;
      expect(Buffer.from(redone.bytes!).equals(Buffer.from(bytesAfter[1]!))).toBe(true);
      store.close();

      // A redo right after reopening replays the file and lands on the same bytes.
      store = ProjectStore.open(file);
      edits = new ProjectEdits(store);
      for (let i = 2; i <= n; i++) {
        const out = edits.redo()!;
        expect(Buffer.from(out.bytes!).equals(Buffer.from(bytesAfter[i]!))).toBe(true);
      }
      expect(edits.redo()).toBeUndefined();
      expect(Buffer.from(store.loadEdit(fileId)!.bytes).equals(Buffer.from(bytesAfter[n]!))).toBe(true);
      store.close();
    });
  }

  it('an edit the format cannot write is refused and leaves no history, bytes or model change', () => {
    const file = projectPath('refused.walkbench');
    const store = ProjectStore.create(file, { name: 'edits', game: 'source' });
    const fileId = store.upsertFile({ module: 'm', name: 'itemtest.nav', kind: 'walkmesh', bytes: readFixture(path.join(fixturesRoot, 'source/tf2/itemtest.nav')) }).fileId;
    const edits = new ProjectEdits(store);
    const mesh = edits.meshes(fileId)[0]!;
    const before = snapshot(mesh);
    const v = mesh.triangles[0]!;
    // Moving one corner sideways leaves an area that is not a rectangle.
    const cmd: EditCommand = { kind: 'move-vertices', vertices: [v], positions: [mesh.positions[v * 3]! + 3, mesh.positions[v * 3 + 1]! + 1, mesh.positions[v * 3 + 2]!] };
    expect(() => edits.apply(fileId, 0, cmd)).toThrow(EditError);
    expect(() => edits.apply(fileId, 0, cmd)).toThrow(/cannot be written/);
    expect(snapshot(edits.meshes(fileId)[0]!)).toEqual(before);
    expect(store.listHistory()).toEqual([]);
    expect(store.loadEdit(fileId)).toBeUndefined();
    store.close();
  });

  it('the written bytes of each edit are what the validator judges: a flipped walkable face is reported, undone it is not', () => {
    const file = projectPath('findings.walkbench');
    const store = ProjectStore.create(file, { name: 'edits', game: 'kotor' });
    const fileId = store.upsertFile({ module: 'm', name: 'm40aa_18b.wok', kind: 'walkmesh', bytes: readFixture(path.join(fixturesRoot, 'kotor/k1cp/m40aa_18b.wok')) }).fileId;
    const edits = new ProjectEdits(store);
    const downOf = (bytes: Uint8Array) => {
      const r = inspectBytes('m40aa_18b.wok', bytes);
      return [...r.errors, ...r.warnings].filter((f) => f.code === 'bwm.face.walkable-down').length;
    };
    const before = downOf(store.loadFileBytes(fileId));
    const walkable = Array.from(edits.meshes(fileId)[0]!.faceWalkable).indexOf(1);
    const out = edits.apply(fileId, 0, { kind: 'flip-faces', faces: [walkable] });
    expect(downOf(out.bytes!)).toBe(before + 1);
    expect(downOf(edits.undo()!.bytes!)).toBe(before);
    store.close();
  });

  it('a damaged history entry gives an error naming the entry and the field', () => {
    const file = projectPath('damaged.walkbench');
    const store = ProjectStore.create(file, { name: 'edits', game: 'kotor' });
    const fileId = store.upsertFile({ module: 'm', name: 'm40aa_18b.wok', kind: 'walkmesh', bytes: readFixture(path.join(fixturesRoot, 'kotor/k1cp/m40aa_18b.wok')) }).fileId;
    const bad = { type: 'walkmesh-edit', v: 1, fileId, mesh: 0, edit: { kind: 'delete-faces', faces: 'all' } };
    const seq = store.pushHistory({ label: 'Delete', command: bad, inverse: bad, files: [fileId] });
    const edits = new ProjectEdits(store);
    expect(() => edits.meshes(fileId)).toThrow(new RegExp(`history entry ${seq} \\(Delete\\).*field faces`));
    // Undo fails the same way and leaves the entry done.
    expect(() => edits.undo()).toThrow(/field faces/);
    expect(store.listHistory()[0]!.undone).toBe(false);
    store.close();
  });
});
