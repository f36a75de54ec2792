import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { BWM_FORMAT } from '../../shared/formats/kotor/bwm-document';
import { ServiceError } from '../../shared/ipc/rpc-error';
import { fixturesRoot, readFixture } from '../support/fixtures';

const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-save-as-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('Save Project As', () => {
  it('copies the project with its edits and history, opens the copy, and leaves the original as it was', async () => {
    const original = path.join(tmp, 'room.wbproj');
    const store = ProjectStore.create(original, { name: 'Room', game: 'kotor' });
    const { fileId } = store.upsertFile({ module: 'm10aa', name: 'm10aa_09a.wok', kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(path.join(fixturesRoot, 'kotor/k1-blackvulkar/m10aa_09a.wok')) });
    store.close();

    const service = createWalkbenchService();
    const { session } = await service['project.open']({ path: original });
    await service['edits.apply']({ session, fileId, command: { kind: 'paint-faces', faces: [0], material: 7, walkable: false } });

    const copy = path.join(tmp, 'copy', '..', 'room copy.wbproj');
    const tree = await service['project.saveAs']({ session, path: copy });
    // The copy is a new opening: the session before is no longer the open project.
    expect(tree.session).not.toBe(session);
    await expect(service['edits.apply']({ session, fileId, command: { kind: 'paint-faces', faces: [1], material: 7, walkable: false } })).rejects.toThrow(/no longer open/);
    expect(tree.name).toBe('Room');
    expect(existsSync(copy)).toBe(true);
    const db = new Database(copy, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();

    // Edits now go to the copy; the original keeps one edit in its history.
    await service['edits.apply']({ session: tree.session, fileId, command: { kind: 'paint-faces', faces: [1], material: 7, walkable: false } });
    const inCopy = ProjectStore.open(copy);
    const inOriginal = ProjectStore.open(original);
    try {
      expect(inCopy.listHistory().filter((h) => !h.undone)).toHaveLength(2);
      expect(inOriginal.listHistory().filter((h) => !h.undone)).toHaveLength(1);
    } finally {
      inCopy.close();
      inOriginal.close();
    }
    // The copy's history undoes like the original's would.
    const undone = await service['edits.undo']({ session: tree.session });
    expect(undone.outcome!.walkmeshes[0]!.faceWalkable[1]).toBe(1);
    expect(undone.outcome!.walkmeshes[0]!.faceWalkable[0]).toBe(0);
  });

  it('refuses a relative path and the file already open, naming them', async () => {
    const original = path.join(tmp, 'other.wbproj');
    ProjectStore.create(original, { name: 'Other', game: 'kotor' }).close();
    const service = createWalkbenchService();
    const { session } = await service['project.open']({ path: original });
    await expect(service['project.saveAs']({ session, path: 'copy.wbproj' })).rejects.toThrow(/params\.path must be an absolute path/);
    const same = service['project.saveAs']({ session, path: original });
    await expect(same).rejects.toBeInstanceOf(ServiceError);
    await expect(same).rejects.toThrow(/is the project already open/);
  });

  it('refuses to replace an existing file unless the call says overwrite, and then replaces it with the project', async () => {
    const original = path.join(tmp, 'keep.wbproj');
    ProjectStore.create(original, { name: 'Keep', game: 'kotor' }).close();
    const service = createWalkbenchService();
    const { session } = await service['project.open']({ path: original });

    const precious = path.join(tmp, 'thesis.docx');
    writeFileSync(precious, 'a file the user did not mean to lose');
    const refused = service['project.saveAs']({ session, path: precious });
    await expect(refused).rejects.toBeInstanceOf(ServiceError);
    await expect(refused).rejects.toMatchObject({ code: 'exists', parameter: 'params.path', message: expect.stringContaining(`${precious}: already exists`) });
    expect(readFileSync(precious, 'utf8')).toBe('a file the user did not mean to lose');
    // The project stays open as it was: the refusal changed nothing.
    await expect(service['project.state']({ session })).resolves.toMatchObject({ session });
    await expect(service['project.saveAs']({ session, path: precious, overwrite: false })).rejects.toMatchObject({ code: 'exists' });

    const tree = await service['project.saveAs']({ session, path: precious, overwrite: true });
    expect(tree.path).toBe(precious);
    expect(tree.name).toBe('Keep');
    const db = new Database(precious, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('never replaces a folder or a FIFO, even with overwrite', async () => {
    const original = path.join(tmp, 'special.wbproj');
    ProjectStore.create(original, { name: 'Special', game: 'kotor' }).close();
    const service = createWalkbenchService();
    const { session } = await service['project.open']({ path: original });
    const folder = path.join(tmp, 'a folder');
    mkdirSync(folder);
    await expect(service['project.saveAs']({ session, path: folder, overwrite: true })).rejects.toMatchObject({ code: 'not-a-file' });
    const fifo = path.join(tmp, 'pipe.wbproj');
    execFileSync('mkfifo', [fifo]);
    await expect(service['project.saveAs']({ session, path: fifo, overwrite: true })).rejects.toMatchObject({ code: 'not-a-file', message: `${fifo}: is a FIFO, not a regular file` });
  });
});
