import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writePendingEdits } from '../../electron/services/project/pending-edit-writes';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { BWM_FORMAT } from '../../shared/formats/kotor/bwm-document';
import { bwmFormat } from '../../shared/formats/kotor/bwm-format';
import { nodeFormatEnvironment } from '../../electron/services/node-format-environment';
import { fixturesRoot, readFixture } from '../support/fixtures';

const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-edited-open-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('opening an edited KotOR room in the app', () => {
  it('shows the model the edits act on, not the saved bytes read again (the writer puts walkable faces first)', async () => {
    const project = path.join(tmp, 'room.wbproj');
    const store = ProjectStore.create(project, { name: 'Room', game: 'kotor' });
    const { fileId } = store.upsertFile({ module: 'm10aa', name: 'm10aa_09a.wok', kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(path.join(fixturesRoot, 'kotor/k1-blackvulkar/m10aa_09a.wok')) });
    store.close();

    const service = createWalkbenchService();
    const { session } = await service['project.open']({ path: project });
    // Face 0 is walkable; painting it a non-walkable material moves it behind the walkable
    // faces in the written file.
    const painted = await service['edits.apply']({ session, fileId, command: { kind: 'paint-faces', faces: [0], material: 7, walkable: false } });
    const model = painted.walkmeshes[0]!;
    expect(model.faceWalkable[0]).toBe(0);

    // The paint's bytes are written behind; a reader of the project writes them first.
    const reader = ProjectStore.open(project);
    expect(writePendingEdits(reader)).toEqual([]);
    const reread = bwmFormat.toWalkmeshes(bwmFormat.read(reader.loadEdit(fileId)!.bytes, nodeFormatEnvironment), 'x')[0]!;
    reader.close();
    expect(Array.from(reread.triangles)).not.toEqual(Array.from(model.triangles));

    const opened = await service['project.openFile']({ session, fileId });
    expect(opened.name).toBe('m10aa_09a.wok (edited)');
    expect(Array.from(opened.walkmeshes[0]!.triangles)).toEqual(Array.from(model.triangles));
    expect(Array.from(opened.walkmeshes[0]!.faceMaterial)).toEqual(Array.from(model.faceMaterial));

    // After a restart the history is replayed: the same model, and the next edit acts on it.
    const again = createWalkbenchService();
    const { session: later } = await again['project.open']({ path: project });
    const reopened = await again['project.openFile']({ session: later, fileId });
    expect(Array.from(reopened.walkmeshes[0]!.triangles)).toEqual(Array.from(model.triangles));
    const undone = await again['edits.undo']({ session: later });
    expect(undone.outcome!.walkmeshes[0]!.faceWalkable[0]).toBe(1);
  });
});
