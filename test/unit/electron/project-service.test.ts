import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../shared/ipc/dispatch';
import { importSources } from '../../../electron/services/project/project-import';
import { ProjectStore } from '../../../electron/services/project/project-store';
import { createWalkbenchService } from '../../../electron/services/walkbench-service';
import { fixturesRoot, readFixture } from '../../support/fixtures';

const nav = path.join(fixturesRoot, 'source/tf2/itemtest.nav');
const wok = path.join(fixturesRoot, 'kotor/k1-blackvulkar/m10aa_01c.wok');

describe('project.* contract methods', () => {
  let tmp = '';
  let projectFile = '';

  beforeEach(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-project-service-'));
    projectFile = path.join(tmp, 'p.walkbench');
    const store = ProjectStore.create(projectFile, { name: 'mixed', game: 'source' });
    try {
      await importSources(store, [nav], { module: 'maps' });
      await importSources(store, [wok], { module: 'rooms' });
    } finally {
      store.close();
    }
  });

  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('opens a project as a tree of modules, areas and files with their games', async () => {
    const service = createWalkbenchService();
    const tree = await service['project.open']({ path: projectFile });
    expect(tree.name).toBe('mixed');
    expect(tree.modules.map((m) => m.name)).toEqual(['maps', 'rooms']);
    const maps = tree.modules[0]!;
    expect(maps.areas).toEqual([{ name: 'itemtest', files: [expect.objectContaining({ name: 'itemtest.nav', kind: 'walkmesh', format: 'source-nav', game: 'source', edited: false })] }]);
    expect(tree.modules[1]!.areas[0]!.files[0]).toMatchObject({ name: 'm10aa_01c.wok', game: 'kotor', size: readFixture(wok).length });
  });

  it('opens a project file into the model with its overlays, and its saved edit when there is one', async () => {
    const service = createWalkbenchService();
    const tree = await service['project.open']({ path: projectFile });
    const navId = tree.modules[0]!.areas[0]!.files[0]!.id;
    const opened = await service['project.openFile']({ session: tree.session, fileId: navId });
    expect(opened.name).toBe('itemtest.nav');
    expect(opened.walkmeshes[0]!.triangles.length / 3).toBe(66);
    expect(opened.overlays?.map((o) => o.id)).toContain('connections');

    // An edit saved in the project (here: the KotOR room's bytes) is what opening shows.
    const store = ProjectStore.open(projectFile);
    try {
      store.saveEdit(navId, readFixture(wok));
    } finally {
      store.close();
    }
    const edited = await service['project.openFile']({ session: tree.session, fileId: navId });
    expect(edited.name).toBe('itemtest.nav (edited)');
    expect(edited.report.format).toBe('kotor-bwm');
  });

  it('reports a missing project, a non-project and an unknown file id clearly', async () => {
    const service = createWalkbenchService();
    const missing = await dispatch(service, 'project.open', { path: path.join(tmp, 'none.walkbench') });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(!missing.ok && missing.error.message).toContain('none.walkbench');
    const notProject = path.join(tmp, 'text.txt');
    writeFileSync(notProject, 'hello, this is not SQLite at all; long enough to have a header page? no');
    const bad = await dispatch(service, 'project.open', { path: notProject });
    expect(bad).toMatchObject({ ok: false, error: { code: 'unreadable' } });
    const before = await dispatch(service, 'project.openFile', { session: 'no-such-session', fileId: 1 });
    expect(before).toMatchObject({ ok: false, error: { code: 'stale', message: expect.stringContaining('no project is open') } });
    const { session } = await service['project.open']({ path: projectFile });
    const unknown = await dispatch(service, 'project.openFile', { session, fileId: 999 });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not-found', message: expect.stringContaining('no file with id 999') } });
    const invalid = await dispatch(service, 'project.openFile', { session, fileId: 1.5 });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'invalid-params', parameter: 'params.fileId' } });
    const relative = await dispatch(service, 'project.open', { path: 'p.walkbench' });
    expect(relative).toMatchObject({ ok: false, error: { code: 'invalid-params' } });
  });

  it('adds the placement views of an area with a GIT: cutter outlines and placeable and door markers', async () => {
    const store = ProjectStore.open(projectFile);
    try {
      await importSources(store, [path.join(fixturesRoot, 'nwn2/mordmansion')], { module: 'mord' });
    } finally {
      store.close();
    }
    const service = createWalkbenchService();
    const tree = await service['project.open']({ path: projectFile });
    const area = tree.modules.find((m) => m.name === 'mord')!.areas.find((a) => a.name === 'CSLMordMansion')!;
    const trx = area.files.find((f) => f.name === 'CSLMordMansion.TRX')!;
    expect(area.files.map((f) => f.kind).sort()).toEqual(['are', 'gic', 'git', 'trn', 'walkmesh']);
    const opened = await service['project.openFile']({ session: tree.session, fileId: trx.id });
    const cutters = opened.overlays?.find((o) => o.id === 'cutters');
    const footprints = opened.overlays?.find((o) => o.id === 'footprints');
    // The fixture's GIT holds 13 walkmesh cutters, 19 placeables and 12 doors (fixtures README).
    expect(cutters?.classes[0]!.count).toBe(13);
    // No placeable models in this project: every object is a marker (outline classes first, markers after).
    expect(footprints?.classes.map((c) => c.count)).toEqual([0, 0, 0, 19, 12]);
    // Each marker is a square and a facing line; each cutter a closed outline.
    expect(footprints!.segments.length / 6).toBe(31 * 5);
    expect(cutters!.segments.length / 6).toBeGreaterThanOrEqual(13 * 3);
  });

  it('tells app.info about a project given at start', async () => {
    const info = await createWalkbenchService({ startupFile: projectFile, startupIsProject: true })['app.info']({});
    expect(info.startupProject).toBe(projectFile);
    expect(info.startupFile).toBeNull();
  });
});
