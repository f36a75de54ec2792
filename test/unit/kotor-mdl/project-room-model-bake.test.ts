import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeModelBakeInput, encodeModelBakeInput } from '../../../electron/services/bake-pool/kotor-room-model';
import { bakeJobOf, rebakeProject } from '../../../electron/services/bake-pool/project-rebake';
import { ProjectStore } from '../../../electron/services/project/project-store';
import { BWM_FORMAT } from '../../../shared/formats/kotor/bwm-document';
import { fixturesRoot, listFixtures, readFixture } from '../../support/fixtures';

const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-room-model-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const woks = listFixtures('kotor/k1-blackvulkar', ['.wok']);
const models = path.join(fixturesRoot, 'kotor/k1-blackvulkar-models');

describe('a project bakes a KotOR room with its model when the model is at hand', () => {
  it('encodes and decodes the WOK + MDL job input, and leaves a plain WOK alone', () => {
    const wok = readFixture(woks[0]!);
    const mdl = new Uint8Array([1, 2, 3]);
    const both = decodeModelBakeInput(encodeModelBakeInput(wok, mdl))!;
    expect(Buffer.from(both.wok).equals(Buffer.from(wok))).toBe(true);
    expect([...both.mdl]).toEqual([1, 2, 3]);
    expect(decodeModelBakeInput(wok)).toBeUndefined();
  });

  it('finds ROOM.mdl beside the imported WOK, makes it an input of the bake, and bakes the game file back', async () => {
    const store = ProjectStore.create(path.join(tmp, 'rooms.wbproj'), { name: 'rooms', game: 'kotor' });
    try {
      store.transaction(() => {
        for (const f of woks) {
          // Imported from a folder that holds the room models (the fixtures keep them apart).
          store.upsertFile({ module: 'm10aa', name: path.basename(f), kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(f), sourcePath: path.join(models, path.basename(f)) });
        }
        // The same room imported from a folder without its model.
        store.upsertFile({ module: 'other', name: path.basename(woks[0]!), kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(woks[0]!), sourcePath: woks[0]! });
      });
      const files = store.listFiles({});
      const withModel = files.filter((f) => f.module === 'm10aa');
      for (const f of withModel) {
        const job = bakeJobOf(store, f)!;
        expect(job.spec.inputs.map((i) => i.name)).toEqual([`m10aa/${f.name}`, `m10aa/${f.name.replace('.wok', '.mdl')} (room model)`]);
        expect(decodeModelBakeInput(job.input())).toBeDefined();
      }
      const plain = files.find((f) => f.module === 'other')!;
      expect(bakeJobOf(store, plain)!.spec.inputs).toHaveLength(1);

      const report = await rebakeProject(store, { force: true, jobs: 2 });
      expect(report.counts).toEqual({ baked: woks.length + 1, skipped: 0, failed: 0 });
      let identical = 0;
      for (const f of withModel) {
        const bake = store.lookupBake(bakeJobOf(store, f)!.spec)!;
        const out = Buffer.from(store.loadBakeOutput(bake.id));
        if (out.equals(readFileSync(woks.find((w) => path.basename(w) === f.name)!))) identical++;
      }
      // The five rooms whose every plane flag the model decides (bwm-model-bake.test.ts).
      expect(identical).toBe(5);
      const plainOut = Buffer.from(store.loadBakeOutput(store.lookupBake(bakeJobOf(store, plain)!.spec)!.id));
      expect(plainOut.equals(readFileSync(woks[0]!))).toBe(false);
    } finally {
      store.close();
    }
  });
});
