import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectCommand } from '../../electron/cli/commands/project-command';
import { bakePluginCommand } from '../../electron/cli/commands/skyrim-bake';
import { BakePool } from '../../electron/services/bake-pool/bake-pool';
import { bakeJobOf, rebakeProject } from '../../electron/services/bake-pool/project-rebake';
import { contentHash } from '../../electron/services/project/content-hash';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectEdits } from '../../electron/services/project/project-edits';
import { ProjectStore } from '../../electron/services/project/project-store';
import { TRI_PREFERRED } from '../../shared/formats/skyrim/nvnm-document';
import { PLUGIN_FORMAT } from '../../shared/formats/skyrim/plugin-document';
import { readPlugin } from '../../shared/formats/skyrim/plugin-reader';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { commandRunner } from '../support/run-command';
import { projectTempDir } from '../unit/project/project-test-files';
import { createSkyrimProject, EDITED, errorCodes, MODULE, navmeshOf, nvmiOf, pluginFixture, unrebakeablePlugin, type SkyrimProject } from './skyrim-bake-fixture';

// The project pipeline bakes a Skyrim plugin as `walkbench bake PLUGIN.esp` does, on the
// bake pool's worker threads, under the command line's skip-if-unchanged rule (issue 13).
const temp = projectTempDir('skyrim-bake');
const project = temp('skyrim.wbproj');
const runProject = commandRunner(projectCommand);
const runBake = commandRunner(bakePluginCommand);
const name = `${MODULE}/${EDITED}`;
let made: SkyrimProject;
let pool: BakePool;

beforeAll(() => {
  made = createSkyrimProject(project);
  pool = new BakePool({ concurrency: 1 });
});
afterAll(() => pool?.close());

function withStore<T>(fn: (store: ProjectStore) => T): T {
  const store = ProjectStore.open(project);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

/** Rebakes the project on the shared pool (the store stays open until the run ends). */
async function rebake(options: Parameters<typeof rebakeProject>[1] = {}): ReturnType<typeof rebakeProject> {
  const store = ProjectStore.open(project);
  try {
    return await rebakeProject(store, { sharedPool: pool, ...options });
  } finally {
    store.close();
  }
}

/** The recorded bake of the edited plugin's current bytes, if any. */
function currentBake(store: ProjectStore) {
  const job = bakeJobOf(store, store.fileById(made.editedId)!)!;
  const bake = store.lookupBake(job.spec);
  return bake ? { bake, bytes: store.loadBakeOutput(bake.id), spec: job.spec } : undefined;
}

describe('rebakeProject on a Skyrim project', () => {
  it('bakes the edited plugin from its edited bytes once, then skips it while nothing changed', async () => {
    const first = await rebake();
    expect(first.counts).toEqual({ baked: 1, skipped: 0, failed: 0 });
    expect(first.entries[0]).toMatchObject({ file: name, status: 'baked' });
    const second = await rebake();
    expect(second.counts).toEqual({ baked: 0, skipped: 1, failed: 0 });
    const firstEntry = first.entries[0]!;
    expect(second.entries[0]).toEqual({ file: name, status: 'skipped', bakeId: firstEntry.status === 'baked' ? firstEntry.bakeId : -1 });
    withStore((store) => {
      const file = store.fileById(made.editedId)!;
      const baked = currentBake(store)!;
      // Made from the edit, not the import, by the plugin baker, recorded as a plugin.
      expect(file.edited).toBe(true);
      expect(baked.spec).toEqual({ bakerId: 'skyrim-rebake', bakerVersion: '1', inputs: [{ name, sha256: file.editSha256 }] });
      expect(baked.bake.outputFormat).toBe(PLUGIN_FORMAT);
      expect(baked.bake.outputSha256).toBe(contentHash(baked.bytes));
    });
  }, 60_000);

  it('bakes exactly what `walkbench bake PLUGIN.esp` writes for the same edited bytes, and the result validates', async () => {
    const { edited, baked } = withStore((store) => ({ edited: store.loadEdit(made.editedId)!.bytes, baked: currentBake(store)!.bytes }));
    const input = temp('edited.esp');
    const output = temp('baked-by-cli.esp');
    writeFileSync(input, edited);
    const cli = await runBake(input, '-o', output);
    expect(cli.status).toBe(0);
    expect(contentHash(baked)).toBe(contentHash(new Uint8Array(readFileSync(output))));

    // The bake reads, has no error the game's own plugin lacks, and carries the edit...
    expect(errorCodes(baked)).toEqual(errorCodes(readFixture(pluginFixture(EDITED))));
    const doc = readPlugin(baked, env);
    expect(navmeshOf(doc, made.edit.formId).triFlags[made.edit.face]! & TRI_PREFERRED).toBe(TRI_PREFERRED);
    // ...with what only the bake derives: the NAVI entry now lists the link's target as
    // reached from a Preferred triangle, which the edited bytes do not.
    expect([...nvmiOf(readPlugin(edited, env), made.edit.formId)!.preferredEdgeLinks]).not.toContain(made.edit.target);
    expect([...nvmiOf(doc, made.edit.formId)!.preferredEdgeLinks]).toContain(made.edit.target);
  }, 60_000);

  it('does not bake again for a new or changed master: the bake does not read masters', async () => {
    withStore((store) => store.upsertFile({ module: MODULE, name: 'Skyrim.esm', kind: 'master', format: PLUGIN_FORMAT, bytes: readFixture(pluginFixture('FreeCamera.esp')) }));
    const added = await rebake();
    expect(added.counts).toEqual({ baked: 0, skipped: 1, failed: 0 });
    expect(added.entries.map((e) => e.file)).toEqual([name]);
    const changed = readFixture(pluginFixture('FreeCamera.esp')).slice();
    changed[changed.length - 1]! ^= 0xff;
    expect(withStore((store) => store.upsertFile({ module: MODULE, name: 'Skyrim.esm', kind: 'master', format: PLUGIN_FORMAT, bytes: changed })).status).toBe('changed');
    expect((await rebake()).counts).toEqual({ baked: 0, skipped: 1, failed: 0 });
  }, 60_000);

  it('bakes again after another edit, from the new edited bytes', async () => {
    const before = withStore((store) => currentBake(store)!.bake.id);
    const face = withStore((store) => {
      const flags = navmeshOf(readPlugin(store.loadEdit(made.editedId)!.bytes, env), made.edit.formId).triFlags;
      const other = flags.findIndex((f, t) => t !== made.edit.face && (f & TRI_PREFERRED) === 0);
      new ProjectEdits(store).apply(made.editedId, made.edit.mesh, { kind: 'paint-faces', faces: [other], setBits: TRI_PREFERRED });
      return other;
    });
    expect(face).toBeGreaterThanOrEqual(0);
    expect(withStore((store) => currentBake(store))).toBeUndefined();
    const report = await rebake();
    expect(report.counts).toEqual({ baked: 1, skipped: 0, failed: 0 });
    const after = withStore((store) => currentBake(store)!);
    expect(after.bake.id).not.toBe(before);
    const flags = navmeshOf(readPlugin(after.bytes, env), made.edit.formId).triFlags;
    expect(flags[made.edit.face]! & TRI_PREFERRED).toBe(TRI_PREFERRED);
    expect(flags[face]! & TRI_PREFERRED).toBe(TRI_PREFERRED);
  }, 60_000);

  it('fails a plugin whose navmesh cannot be rebaked with a message naming the file and the navmesh, and the pool goes on', async () => {
    const broken = unrebakeablePlugin();
    withStore((store) => store.upsertFile({ module: 'broken', name: 'Broken.esp', kind: 'walkmesh', format: PLUGIN_FORMAT, bytes: broken.bytes }));
    const report = await rebake({ module: 'broken' });
    expect(report.counts).toEqual({ baked: 0, skipped: 0, failed: 1 });
    const entry = report.entries[0]!;
    expect(entry.status).toBe('failed');
    const formId = `0x${broken.formId.toString(16).toUpperCase().padStart(8, '0')}`;
    expect(entry.status === 'failed' ? entry.reason : '').toContain(`broken/Broken.esp: navmesh ${formId} cannot be rebaked: its triangle index ${broken.triangle} uses vertex`);
    // The same pool bakes the next plugin.
    const forced = await rebake({ module: MODULE, force: true });
    expect(forced.counts).toEqual({ baked: 1, skipped: 0, failed: 0 });
  }, 60_000);
});

describe('walkbench project rebake on a Skyrim project', () => {
  interface RebakeJson {
    counts: { baked: number; skipped: number; failed: number };
    files: { file: string; status: string; outputSha256?: string; reason?: string }[];
  }

  it('bakes the plugin (a line per file, --json with the bake hash) and skips it next time', async () => {
    const forced = await runProject('rebake', project, '--module', MODULE, '--force', '--jobs', '1', '--json');
    expect(forced.status).toBe(0);
    const json = JSON.parse(forced.out) as RebakeJson;
    expect(json.counts).toEqual({ baked: 1, skipped: 0, failed: 0 });
    expect(json.files).toEqual([expect.objectContaining({ file: name, status: 'baked', outputSha256: withStore((store) => currentBake(store)!.bake.outputSha256) })]);
    const again = await runProject('rebake', project, '--module', MODULE, '--jobs', '1');
    expect(again.status).toBe(0);
    expect(again.err).toContain(`rebake: 1/1 ${name} unchanged`);
    expect(again.out).toBe(`${project}: 0 baked, 1 skipped (unchanged), 0 failed\n`);
  }, 60_000);

  it('reports the plugin it cannot rebake, with the navmesh, and exits 1', async () => {
    const r = await runProject('rebake', project, '--module', 'broken', '--jobs', '1');
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/^failed broken\/Broken\.esp: .*navmesh 0x[0-9A-F]{8} cannot be rebaked/m);
  }, 60_000);

  it('says why a Source project has nothing to bake', async () => {
    const source = temp('source.wbproj');
    const store = ProjectStore.create(source, { name: 'Source', game: 'source' });
    try {
      store.upsertFile({ module: 'maps', name: 'dm_lockdown.nav', kind: 'walkmesh', format: 'source-nav', bytes: readFixture(path.join(fixturesRoot, 'source/hl2dm/dm_lockdown.nav')) });
    } finally {
      store.close();
    }
    const r = await runProject('rebake', source);
    expect(r.status).toBe(0);
    expect(r.out).toBe(`Nothing to bake: Source .nav files are exported as edited (no bake step: their connections, IDs and places are edited directly)\n${source}: 0 baked, 0 skipped (unchanged), 0 failed\n`);
  });
});
