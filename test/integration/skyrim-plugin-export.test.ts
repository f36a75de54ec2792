import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BakePool } from '../../electron/services/bake-pool/bake-pool';
import { bakeJobOf, rebakeProject } from '../../electron/services/bake-pool/project-rebake';
import { contentHash } from '../../electron/services/project/content-hash';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { exportProject } from '../../electron/services/project/project-export';
import { planExport } from '../../electron/services/project/project-export-plan';
import { ProjectEdits } from '../../electron/services/project/project-edits';
import { ProjectStore } from '../../electron/services/project/project-store';
import { TRI_PREFERRED } from '../../shared/formats/skyrim/nvnm-document';
import { readPlugin } from '../../shared/formats/skyrim/plugin-reader';
import { readFixture } from '../support/fixtures';
import { projectTempDir } from '../unit/project/project-test-files';
import { createSkyrimProject, EDITED, errorCodes, MODULE, navmeshOf, nvmiOf, pluginFixture, UNEDITED, type SkyrimProject } from './skyrim-bake-fixture';

// Export of a Skyrim project (issue 13): an edited plugin goes to the game as its bake, so
// edge links, cover and NAVI follow the edit; an unedited one as the bytes imported.
const temp = projectTempDir('skyrim-export');
const project = temp('skyrim.wbproj');
const edited = `${MODULE}/${EDITED}`;
const unedited = `${MODULE}/${UNEDITED}`;
const REFUSAL = 'has no bake of its current edited bytes; bake it first';
let made: SkyrimProject;
let pool: BakePool;

beforeAll(() => {
  made = createSkyrimProject(project, { unedited: true });
  pool = new BakePool({ concurrency: 1 });
});
afterAll(() => pool?.close());

/** A fresh game folder with the Data folder the export writes into. */
function gameFolder(label: string): string {
  const dir = temp(label);
  mkdirSync(path.join(dir, 'Data'), { recursive: true });
  return dir;
}

async function withStore<T>(fn: (store: ProjectStore) => T | Promise<T>): Promise<T> {
  const store = ProjectStore.open(project);
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

/** The recorded bake of a file's current bytes. */
function bakeOf(store: ProjectStore, fileId: number): { id: number; bytes: Uint8Array } | undefined {
  const bake = store.lookupBake(bakeJobOf(store, store.fileById(fileId)!)!.spec);
  return bake ? { id: bake.id, bytes: store.loadBakeOutput(bake.id) } : undefined;
}

describe('export of a Skyrim project', () => {
  it('refuses an edited plugin without a bake of its edited bytes and writes nothing; the unedited one needs none', async () => {
    const game = gameFolder('unbaked');
    const result = await withStore((store) => exportProject(store, { to: game }));
    expect(result.status).toBe('refused');
    expect(result.plan.refused).toEqual([{ file: edited, reason: REFUSAL }]);
    expect(result.plan.entries).toEqual([expect.objectContaining({ file: unedited, source: 'import', bakeId: null })]);
    expect(existsSync(path.join(game, 'Data', EDITED))).toBe(false);
    expect(existsSync(path.join(game, 'Data', UNEDITED))).toBe(false);
  });

  it('after the bake, exports the edited plugin as its bake (read back, validated) and the unedited one byte for byte', async () => {
    const report = await withStore((store) => rebakeProject(store, { sharedPool: pool }));
    expect(report.counts).toEqual({ baked: 2, skipped: 0, failed: 0 });
    const { bake, uneditedBake } = await withStore((store) => ({ bake: bakeOf(store, made.editedId)!, uneditedBake: bakeOf(store, made.uneditedId)! }));
    const imported = readFixture(pluginFixture(UNEDITED));
    // The unedited plugin has a bake of its own, other than its bytes: the export must not take it.
    expect(contentHash(uneditedBake.bytes)).not.toBe(contentHash(imported));

    const game = gameFolder('baked');
    const result = await withStore((store) => exportProject(store, { to: game }));
    expect(result.plan.refused).toEqual([]);
    expect(result.status).toBe('done');
    const entry = (file: string) => result.plan.entries.find((e) => e.file === file);
    expect(entry(edited)).toMatchObject({ source: 'bake', bakeId: bake.id, sha256: contentHash(bake.bytes), action: 'create' });
    expect(entry(unedited)).toMatchObject({ source: 'import', bakeId: null, sha256: contentHash(imported) });
    expect(result.verified.map((v) => v.file).sort()).toEqual([edited, unedited].sort());

    const written = new Uint8Array(readFileSync(path.join(game, 'Data', EDITED)));
    expect(contentHash(written)).toBe(contentHash(bake.bytes));
    expect(errorCodes(written)).toEqual(errorCodes(readFixture(pluginFixture(EDITED))));
    const doc = readPlugin(written, env);
    expect(navmeshOf(doc, made.edit.formId).triFlags[made.edit.face]! & TRI_PREFERRED).toBe(TRI_PREFERRED);
    expect([...nvmiOf(doc, made.edit.formId)!.preferredEdgeLinks]).toContain(made.edit.target);
    expect(Buffer.from(readFileSync(path.join(game, 'Data', UNEDITED))).equals(Buffer.from(imported))).toBe(true);
  }, 60_000);

  it('refuses the edited plugin again after a further edit, until it is baked again', async () => {
    await withStore((store) => {
      const flags = navmeshOf(readPlugin(store.loadEdit(made.editedId)!.bytes, env), made.edit.formId).triFlags;
      const face = flags.findIndex((f) => (f & TRI_PREFERRED) === 0);
      new ProjectEdits(store).apply(made.editedId, made.edit.mesh, { kind: 'paint-faces', faces: [face], setBits: TRI_PREFERRED });
    });
    const game = gameFolder('edited-again');
    const plan = await withStore((store) => planExport(store, { to: game }));
    expect(plan.refused).toEqual([{ file: edited, reason: REFUSAL }]);
    expect((await withStore((store) => rebakeProject(store, { sharedPool: pool }))).counts).toEqual({ baked: 1, skipped: 1, failed: 0 });
    const after = await withStore((store) => planExport(store, { to: game }));
    expect(after.refused).toEqual([]);
    expect(after.entries.find((e) => e.file === edited)).toMatchObject({ source: 'bake', sha256: await withStore((store) => contentHash(bakeOf(store, made.editedId)!.bytes)) });
  }, 60_000);
});
