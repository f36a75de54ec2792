import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bakeJobOf } from '../../electron/services/bake-pool/project-rebake';
import { createJobService, type JobService } from '../../electron/services/job-service';
import { ProjectStore } from '../../electron/services/project/project-store';
import type { BakeJobParams, JobProgress } from '../../shared/ipc/jobs-contract';
import { PLUGIN_FORMAT } from '../../shared/formats/skyrim/plugin-document';
import { NAV_FORMAT } from '../../shared/formats/source/nav-reader';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { projectTempDir } from '../unit/project/project-test-files';
import { createSkyrimProject, EDITED, MODULE, pluginFixture, unrebakeablePlugin, type SkyrimProject } from './skyrim-bake-fixture';

// "Bake everything" in the app (the job service) on a Skyrim project bakes its plugins, and
// on a Source project ends saying why there is nothing to bake (issue 13).
const temp = projectTempDir('skyrim-source-jobs');
const skyrim = temp('skyrim.wbproj');
const source = temp('source.wbproj');
const mastersOnly = temp('masters.wbproj');
const name = `${MODULE}/${EDITED}`;
const SOURCE_NAV_REASON = 'Source .nav files have no bake step in Walkbench: their connections, IDs and places are edited directly and exported as edited';
let made: SkyrimProject;
let masterId = 0;
let navId = 0;
let service: JobService;

beforeAll(() => {
  made = createSkyrimProject(skyrim);
  let store = ProjectStore.open(skyrim);
  try {
    masterId = store.upsertFile({ module: MODULE, name: 'Skyrim.esm', kind: 'master', format: PLUGIN_FORMAT, bytes: readFixture(pluginFixture('FreeCamera.esp')) }).fileId;
  } finally {
    store.close();
  }
  store = ProjectStore.create(source, { name: 'Source', game: 'source' });
  try {
    navId = store.upsertFile({ module: 'maps', name: 'dm_lockdown.nav', kind: 'walkmesh', format: NAV_FORMAT, bytes: readFixture(path.join(fixturesRoot, 'source/hl2dm/dm_lockdown.nav')) }).fileId;
  } finally {
    store.close();
  }
  store = ProjectStore.create(mastersOnly, { name: 'Masters', game: 'skyrim' });
  try {
    store.upsertFile({ module: 'data', name: 'Skyrim.esm', kind: 'master', format: PLUGIN_FORMAT, bytes: readFixture(pluginFixture('FreeCamera.esp')) });
  } finally {
    store.close();
  }
  service = createJobService({ emit: () => {}, concurrency: 1, progressIntervalMs: 0 });
});

afterAll(async () => {
  await service?.close();
});

async function bake(params: BakeJobParams): Promise<JobProgress> {
  const { jobId } = await service.handlers['jobs.bake'](params);
  return service.settled(jobId);
}

function hasCurrentBake(): boolean {
  const store = ProjectStore.open(skyrim);
  try {
    return store.lookupBake(bakeJobOf(store, store.fileById(made.editedId)!)!.spec) !== undefined;
  } finally {
    store.close();
  }
}

describe('the job service on a Skyrim project', () => {
  it('bakes the plugin with scope all (masters are not baked), then skips it', async () => {
    expect(hasCurrentBake()).toBe(false);
    const all = await bake({ scope: 'all', project: skyrim });
    expect(all).toMatchObject({ state: 'done', title: 'Bake everything', total: 1, done: 1, baked: 1, skipped: 0, failed: 0, failures: [], label: '1 baked, 0 unchanged, 0 failed' });
    expect(hasCurrentBake()).toBe(true);
    const again = await bake({ scope: 'module', module: MODULE, project: skyrim });
    expect(again).toMatchObject({ state: 'done', total: 1, baked: 0, skipped: 1, label: '0 baked, 1 unchanged, 0 failed' });
  }, 60_000);

  it('bakes the plugin with scope file: skipped while unchanged, baked when forced', async () => {
    const file = await bake({ scope: 'file', fileId: made.editedId, project: skyrim });
    expect(file).toMatchObject({ state: 'done', title: `Bake ${name}`, total: 1, baked: 0, skipped: 1, failed: 0 });
    const forced = await bake({ scope: 'file', fileId: made.editedId, force: true, project: skyrim });
    expect(forced).toMatchObject({ state: 'done', total: 1, baked: 1, skipped: 0, failed: 0 });
  }, 60_000);

  it('refuses to bake a master on its own, saying why', async () => {
    await expect(service.handlers['jobs.bake']({ scope: 'file', fileId: masterId, project: skyrim })).rejects.toMatchObject({
      code: 'invalid-params',
      message: expect.stringMatching(/Skyrim\.esm is a master file .*Skyrim masters are not baked/),
    });
  });

  it('fails a plugin it cannot rebake with a message naming the file and navmesh, and bakes the next job', async () => {
    const broken = unrebakeablePlugin();
    let brokenId = 0;
    const store = ProjectStore.open(skyrim);
    try {
      brokenId = store.upsertFile({ module: 'broken', name: 'Broken.esp', kind: 'walkmesh', format: PLUGIN_FORMAT, bytes: broken.bytes }).fileId;
    } finally {
      store.close();
    }
    const failed = await bake({ scope: 'module', module: 'broken', project: skyrim });
    expect(failed).toMatchObject({ state: 'failed', total: 1, done: 1, baked: 0, failed: 1 });
    const formId = `0x${broken.formId.toString(16).toUpperCase().padStart(8, '0')}`;
    expect(failed.failures).toEqual([{ file: 'broken/Broken.esp', fileId: brokenId, message: expect.stringContaining(`broken/Broken.esp: navmesh ${formId} cannot be rebaked`) }]);
    const next = await bake({ scope: 'file', fileId: made.editedId, force: true, project: skyrim });
    expect(next).toMatchObject({ state: 'done', baked: 1 });
  }, 60_000);

  it('ends a bake-all of a project holding only masters saying there is nothing to bake', async () => {
    const final = await bake({ scope: 'all', project: mastersOnly });
    expect(final).toMatchObject({ state: 'done', total: 0, done: 0, baked: 0, failed: 0 });
    expect(final.label).toBe('Nothing to bake: the project holds no Skyrim plugin (.esp); masters are not baked');
  });
});

describe('the job service on a Source project', () => {
  it('ends bake everything and bake module with a label saying why there is nothing to bake', async () => {
    for (const params of [{ scope: 'all' }, { scope: 'module', module: 'maps' }] as const) {
      const final = await bake({ ...params, project: source });
      expect(final).toMatchObject({ state: 'done', total: 0, done: 0, baked: 0, skipped: 0, failed: 0, failures: [] });
      expect(final.label).toMatch(/^Nothing to bake: Source \.nav files are exported as edited/);
    }
  });

  it('refuses to bake a .nav file, with the reason in Source terms', async () => {
    await expect(service.handlers['jobs.bake']({ scope: 'file', fileId: navId, project: source })).rejects.toMatchObject({
      code: 'invalid-params',
      message: `maps/dm_lockdown.nav is a walkmesh file (${NAV_FORMAT}); ${SOURCE_NAV_REASON}`,
    });
  });
});
