import { projectResolver } from '../support/project-resolver';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rebakeProject } from '../../electron/services/bake-pool/project-rebake';
import { createEditService } from '../../electron/services/edit-service';
import { writePendingEdits } from '../../electron/services/project/pending-edit-writes';
import { exportBytesOf } from '../../electron/services/project/project-export-plan';
import { ProjectEdits } from '../../electron/services/project/project-edits';
import { ProjectStore } from '../../electron/services/project/project-store';
import type { EditCommand } from '../../shared/edits/edit-command';
import { detectFormat } from '../../shared/formats/format-registry';
import type { GameId, Walkmesh } from '../../shared/model/walkmesh';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { projectTempDir } from '../unit/project/project-test-files';

const projectPath = projectTempDir('write-behind');

/** Edits that keep the faces (written behind), per game. */
const cases: { game: GameId; fixture: string; mesh?: number; edits: (m: Walkmesh) => EditCommand[] }[] = [
  { game: 'kotor', fixture: 'kotor/k1-blackvulkar/m10aa_09a.wok', edits: () => [{ kind: 'paint-faces', faces: [0, 1, 2], material: 2 }, { kind: 'paint-faces', faces: [4], material: 7 }] },
  { game: 'nwn2', fixture: 'nwn2/kaedrin/dm001_cargohold.trx', edits: (m) => [{ kind: 'paint-faces', faces: [7], setBits: 0x20 }, { kind: 'move-vertices', vertices: [m.triangles[0]!], positions: [m.positions[m.triangles[0]! * 3]!, m.positions[m.triangles[0]! * 3 + 1]!, m.positions[m.triangles[0]! * 3 + 2]! + 0.25] }] },
  { game: 'skyrim', fixture: 'skyrim/DwemerSecrets.esp', mesh: 2, edits: () => [{ kind: 'paint-faces', faces: [0, 1, 2], setBits: 0x40 }] },
  { game: 'source', fixture: 'source/tf2/itemtest.nav', edits: () => [{ kind: 'paint-faces', faces: [0], material: 0x4 }] },
];

function same(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  return a !== undefined && b !== undefined && Buffer.from(a).equals(Buffer.from(b));
}

function newProject(name: string, game: GameId, fixture: string): { file: string; fileId: number } {
  const file = projectPath(name);
  const store = ProjectStore.create(file, { name, game });
  const bytes = readFixture(path.join(fixturesRoot, fixture));
  const format = detectFormat(fixture, bytes)?.id ?? null;
  const fileId = store.upsertFile({ module: 'm', area: 'a', name: path.basename(fixture), kind: 'walkmesh', format, bytes }).fileId;
  store.close();
  return { file, fileId };
}

describe('edited bytes written behind', () => {
  for (const c of cases) {
    it(`${c.game}: a paint or move returns before the file is written; the bytes written later are those written at once`, () => {
      const behind = newProject(`${c.game}-behind.wbproj`, c.game, c.fixture);
      const atOnce = newProject(`${c.game}-at-once.wbproj`, c.game, c.fixture);
      const sb = ProjectStore.open(behind.file);
      const sa = ProjectStore.open(atOnce.file);
      try {
        const eb = new ProjectEdits(sb, undefined, { writeBehind: true });
        const ea = new ProjectEdits(sa);
        const mesh = c.mesh ?? 0;
        for (const cmd of c.edits(eb.meshes(behind.fileId)[mesh]!)) {
          const out = eb.apply(behind.fileId, mesh, cmd);
          expect(out.bytes).toBeUndefined();
          ea.apply(atOnce.fileId, mesh, cmd);
        }
        const record = sb.fileById(behind.fileId)!;
        expect(record.editWritePending).toBe(true);
        // Edited as far as anything reading the project is concerned: the app shows the model.
        expect(record.edited).toBe(true);
        expect(sb.loadEdit(behind.fileId)).toBeUndefined();

        expect(eb.flushWrites()).toEqual([]);
        expect(sb.fileById(behind.fileId)!.editWritePending).toBe(false);
        expect(sb.editWritesPending()).toEqual([]);
        expect(same(sb.loadEdit(behind.fileId)?.bytes, sa.loadEdit(atOnce.fileId)?.bytes)).toBe(true);

        // Undo is written behind too, and gives the file's own bytes back.
        for (let k = 0; k < c.edits(eb.meshes(behind.fileId)[mesh]!).length; k++) expect(eb.undo()!.bytes).toBeUndefined();
        expect(eb.flushWrites()).toEqual([]);
        expect(sb.loadEdit(behind.fileId)).toBeUndefined();
      } finally {
        sb.close();
        sa.close();
      }
    });
  }

  it('a mark left by a session that ended without writing is written by the next reader: the rebake bakes the edit', async () => {
    const { file, fileId } = newProject('crash.wbproj', 'nwn2', 'nwn2/kaedrin/dm001_cargohold.trx');
    let store = ProjectStore.open(file);
    new ProjectEdits(store, undefined, { writeBehind: true }).apply(fileId, 0, { kind: 'paint-faces', faces: [7, 8], setBits: 0x20 });
    // The editor goes away before its idle write.
    store.close();

    store = ProjectStore.open(file);
    try {
      expect(store.editWritesPending()).toEqual([fileId]);
      const report = await rebakeProject(store, { jobs: 1 });
      expect(report.entries).toMatchObject([{ status: 'baked' }]);
      const record = store.fileById(fileId)!;
      expect(record.editWritePending).toBe(false);
      // The bake is of the edit, whose bytes are those an editor writing at once saves.
      const reference = newProject('crash-reference.wbproj', 'nwn2', 'nwn2/kaedrin/dm001_cargohold.trx');
      const rs = ProjectStore.open(reference.file);
      new ProjectEdits(rs).apply(reference.fileId, 0, { kind: 'paint-faces', faces: [7, 8], setBits: 0x20 });
      expect(same(store.loadEdit(fileId)?.bytes, rs.loadEdit(reference.fileId)?.bytes)).toBe(true);
      expect(store.listBakes()[0]!.inputs[0]!.sha256).toBe(record.editSha256);
      rs.close();
      expect(writePendingEdits(store)).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('an edit that adds or removes faces is written at once and takes the pending paint with it', () => {
    const { file, fileId } = newProject('topology.wbproj', 'kotor', 'kotor/k1-blackvulkar/m10aa_09a.wok');
    const store = ProjectStore.open(file);
    try {
      const edits = new ProjectEdits(store, undefined, { writeBehind: true });
      edits.apply(fileId, 0, { kind: 'paint-faces', faces: [0], material: 2 });
      expect(store.editWritesPending()).toEqual([fileId]);
      const out = edits.apply(fileId, 0, { kind: 'delete-faces', faces: [3] });
      expect(out.bytes).toBeDefined();
      expect(store.editWritesPending()).toEqual([]);
      expect(same(store.loadEdit(fileId)?.bytes, out.bytes)).toBe(true);
    } finally {
      store.close();
    }
  });

  it('the edit service answers a paint without writing, writes when idle or when asked, and before closing', async () => {
    const { file, fileId } = newProject('service.wbproj', 'kotor', 'kotor/k1-blackvulkar/m10aa_09a.wok');
    const service = createEditService({ resolveProject: projectResolver(() => file) });
    const out = await service.handlers['edits.apply']({ fileId, command: { kind: 'paint-faces', faces: [0, 1], material: 3 }, delta: true });
    expect(out.delta).not.toBeNull();
    const peek = ProjectStore.open(file);
    expect(peek.editWritesPending()).toEqual([fileId]);
    // Idle: the service writes by itself.
    await expect.poll(() => peek.editWritesPending(), { timeout: 5_000, interval: 50 }).toEqual([]);
    expect(peek.loadEdit(fileId)).toBeDefined();
    await service.handlers['edits.apply']({ fileId, command: { kind: 'paint-faces', faces: [2], material: 3 }, delta: true });
    expect(service.flushWrites()).toEqual([]);
    expect(peek.editWritesPending()).toEqual([]);
    await service.handlers['edits.undo']({ delta: true });
    await service.close();
    expect(peek.editWritesPending()).toEqual([]);
    peek.close();
  });

  it('a file whose pending bytes can no longer be written keeps its mark, and rebake and export refuse it with the reason', async () => {
    const { file, fileId } = newProject('unwritable.wbproj', 'kotor', 'kotor/k1-blackvulkar/m10aa_09a.wok');
    const store = ProjectStore.open(file);
    try {
      const edits = new ProjectEdits(store, undefined, { writeBehind: true });
      edits.apply(fileId, 0, { kind: 'delete-faces', faces: [3] });
      edits.apply(fileId, 0, { kind: 'paint-faces', faces: [0], material: 2 });
      // The room is imported again with other bytes while its paint waits to be written.
      store.upsertFile({ module: 'm', area: 'a', name: 'm10aa_09a.wok', kind: 'walkmesh', bytes: readFixture(path.join(fixturesRoot, 'kotor/k1-blackvulkar/m10aa_05a.wok')) });
      const failures = writePendingEdits(store);
      expect(failures).toEqual([{ fileId, name: 'm/m10aa_09a.wok', message: expect.stringMatching(/m\/m10aa_09a\.wok was imported again after it was edited/) }]);
      expect(store.editWritesPending()).toEqual([fileId]);

      const report = await rebakeProject(store, { jobs: 1 });
      expect(report.entries).toEqual([{ file: 'm/m10aa_09a.wok', status: 'failed', reason: failures[0]!.message }]);
      const chosen = exportBytesOf(store, store.fileById(fileId)!);
      expect(chosen).toEqual({ refused: expect.stringMatching(/its last edits could not be written/) });
    } finally {
      store.close();
    }
  });
});
