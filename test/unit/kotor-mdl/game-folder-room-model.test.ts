import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findKotorGameResource } from '../../../electron/services/bake-pool/kotor-game-resource';
import { kotorRoomModelOf } from '../../../electron/services/bake-pool/kotor-room-model';
import { bakeJobOf, rebakeProject } from '../../../electron/services/bake-pool/project-rebake';
import type { JobSummary } from '../../../electron/services/bake-pool/bake-job-types';
import { contentHash } from '../../../electron/services/project/content-hash';
import { ProjectStore } from '../../../electron/services/project/project-store';
import { BIF_VARIABLE_ENTRY_BYTES } from '../../../shared/formats/aurora/bif-document';
import { readBif } from '../../../shared/formats/aurora/bif-reader';
import { writeBif } from '../../../shared/formats/aurora/bif-writer';
import { writeKey } from '../../../shared/formats/aurora/key-writer';
import { KotorResType } from '../../../shared/formats/aurora/resource-types';
import { writeRim } from '../../../shared/formats/aurora/rim-writer';
import { BWM_FORMAT } from '../../../shared/formats/kotor/bwm-document';
import { fixturesRoot, readFixture } from '../../support/fixtures';

const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-game-model-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const wokOf = (room: string) => path.join(fixturesRoot, 'kotor/k1-blackvulkar', `${room}.wok`);
const mdlOf = (room: string) => readFixture(path.join(fixturesRoot, 'kotor/k1-blackvulkar-models', `${room}.mdl`));
const MDX = 3008;

/**
 * A game folder laid out as the game's (mixed-case names, as installs copied from Windows
 * have): m10aa_01c's model in `Modules/m10aa_s.rim`, m10aa_05a's in `data/models.bif` via
 * `chitin.key`, m10aa_06a's in `Override/`. The BIF also holds wrong models under the
 * names the capsule and the override already give (the game's order must win), and one
 * entry pointing past the end of the file, which a reader of the whole BIF refuses.
 */
function makeGameFolder(root: string): Uint8Array {
  mkdirSync(path.join(root, 'Modules'), { recursive: true });
  mkdirSync(path.join(root, 'Override'));
  mkdirSync(path.join(root, 'data'));
  writeFileSync(
    path.join(root, 'Modules', 'm10aa_s.rim'),
    writeRim({
      resources: [
        { resRef: 'm10aa_01c', type: MDX, data: new Uint8Array(64) },
        { resRef: 'M10AA_01C', type: KotorResType.MDL, data: mdlOf('m10aa_01c') },
      ],
    }),
  );
  writeFileSync(path.join(root, 'Modules', 'm10aa.rim'), writeRim({ resources: [{ resRef: 'm10aa', type: 3000, data: new Uint8Array(8) }] }));
  writeFileSync(path.join(root, 'Override', 'M10AA_06A.MDL'), mdlOf('m10aa_06a'));
  const wrong = mdlOf('m10aa_08a');
  const bifResources = [
    { id: 0, type: KotorResType.MDL, data: wrong },
    { id: 1, type: KotorResType.MDL, data: mdlOf('m10aa_05a') },
    { id: 2, type: KotorResType.MDL, data: wrong },
    { id: 3, type: KotorResType.MDL, data: new Uint8Array(16) },
  ];
  const bif = writeBif({ resources: bifResources });
  // Entry 3 now claims far more bytes than the file holds.
  const tableOffset = new DataView(bif.buffer, bif.byteOffset).getUint32(16, true);
  new DataView(bif.buffer, bif.byteOffset).setUint32(tableOffset + 3 * BIF_VARIABLE_ENTRY_BYTES + 8, bif.length * 4, true);
  writeFileSync(path.join(root, 'data', 'models.bif'), bif);
  writeFileSync(
    path.join(root, 'chitin.key'),
    writeKey({
      buildYear: 103,
      buildDay: 42,
      bifs: [{ fileName: 'data\\Models.bif', fileSize: bif.length, drives: 1 }],
      keys: [
        { resRef: 'm10aa_01c', type: KotorResType.MDL, bifIndex: 0, resourceIndex: 0 },
        { resRef: 'm10aa_05a', type: KotorResType.MDL, bifIndex: 0, resourceIndex: 1 },
        { resRef: 'm10aa_06a', type: KotorResType.MDL, bifIndex: 0, resourceIndex: 2 },
        { resRef: 'broken', type: KotorResType.MDL, bifIndex: 0, resourceIndex: 3 },
      ],
    }),
  );
  return bif;
}

describe("a project bakes a KotOR room with its model from the game folder (module capsules, chitin.key)", () => {
  const game = path.join(tmp, 'swkotor');
  const bifBytes = makeGameFolder(game);

  it("finds each room's model where the game would, reading only the tables and the one resource", () => {
    // A reader of the whole BIF refuses it; the look-up reads only the entries it needs.
    expect(() => readBif(bifBytes)).toThrow(/resources\[3\]\.size/);
    const rim = findKotorGameResource(game, 'm10aa', 'm10aa_01c', KotorResType.MDL)!;
    expect(rim.origin).toBe('Modules/m10aa_s.rim');
    expect(Buffer.from(rim.read()).equals(Buffer.from(mdlOf('m10aa_01c')))).toBe(true);
    expect(rim.sha256).toBe(contentHash(mdlOf('m10aa_01c')));
    const bif = findKotorGameResource(game, 'M10AA', 'm10aa_05a', KotorResType.MDL)!;
    expect(bif.origin).toBe('data/models.bif');
    expect(Buffer.from(bif.read()).equals(Buffer.from(mdlOf('m10aa_05a')))).toBe(true);
    expect(findKotorGameResource(game, 'm10aa', 'm10aa_06a', KotorResType.MDL)!.origin).toBe('Override/M10AA_06A.MDL');
    // Another module's capsules are not searched: its chitin entry (the wrong bytes) is found.
    expect(findKotorGameResource(game, 'm20aa', 'm10aa_01c', KotorResType.MDL)!.origin).toBe('data/models.bif');
    expect(findKotorGameResource(game, 'm10aa', 'm10aa_03a', KotorResType.MDL)).toBeUndefined();
    // The broken entry itself is refused, naming the BIF.
    expect(() => findKotorGameResource(game, 'm10aa', 'broken', KotorResType.MDL)).toThrow(/models\.bif.*resources\[3\]/s);
  });

  it('makes the model an input of the bake, uses it in the worker, and bakes the game files back', async () => {
    const store = ProjectStore.create(path.join(tmp, 'rooms.wbproj'), { name: 'rooms', game: 'kotor' });
    try {
      store.addGameFolder(game);
      const rooms = ['m10aa_01c', 'm10aa_05a', 'm10aa_06a', 'm10aa_03a'];
      store.transaction(() => {
        for (const r of rooms) store.upsertFile({ module: 'm10aa', name: `${r}.wok`, kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(wokOf(r)), sourcePath: wokOf(r) });
      });
      const files = store.listFiles({});
      const fileOf = (r: string) => files.find((f) => f.name === `${r}.wok`)!;
      for (const r of rooms.slice(0, 3)) {
        const job = bakeJobOf(store, fileOf(r))!;
        expect(job.spec.inputs[1]).toEqual({ name: `m10aa/${r}.mdl (room model)`, sha256: contentHash(mdlOf(r)) });
        expect(kotorRoomModelOf(store, fileOf(r))!.origin.startsWith(`${game}: `)).toBe(true);
      }
      // No model anywhere for this room: baked from the WOK alone.
      expect(bakeJobOf(store, fileOf('m10aa_03a'))!.spec.inputs).toHaveLength(1);

      const summaries = new Map<string, JobSummary>();
      const report = await rebakeProject(store, {
        force: true,
        jobs: 2,
        onEvent: (e) => {
          if (e.type === 'finished' && e.outcome.status === 'done') summaries.set(e.label, e.outcome.summary);
        },
      });
      expect(report.counts).toEqual({ baked: 4, skipped: 0, failed: 0 });
      for (const r of rooms.slice(0, 3)) {
        expect(summaries.get(`m10aa/${r}.wok`)?.model, r).toBe('used');
        // The three are rooms whose every plane flag the model decides (bwm-model-bake.test.ts).
        const out = Buffer.from(store.loadBakeOutput(store.lookupBake(bakeJobOf(store, fileOf(r))!.spec)!.id));
        expect(out.equals(readFileSync(wokOf(r))), `${r} baked = game file`).toBe(true);
      }
      expect(summaries.get('m10aa/m10aa_03a.wok')?.model).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it('bakes without the model when a game folder cannot give it (a malformed capsule)', () => {
    const broken = path.join(tmp, 'broken');
    mkdirSync(path.join(broken, 'modules'), { recursive: true });
    // A .mod shadows the RIMs; this one is cut short inside its header.
    writeFileSync(path.join(broken, 'modules', 'm10aa.mod'), new Uint8Array([0x4d, 0x4f, 0x44, 0x20, 0x56, 0x31, 0x2e, 0x30, 1, 2]));
    expect(() => findKotorGameResource(broken, 'm10aa', 'm10aa_01c', KotorResType.MDL)).toThrow(/m10aa\.mod.*header/s);
    const store = ProjectStore.create(path.join(tmp, 'broken.wbproj'), { name: 'broken', game: 'kotor' });
    try {
      store.addGameFolder(broken);
      store.upsertFile({ module: 'm10aa', name: 'm10aa_01c.wok', kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(wokOf('m10aa_01c')), sourcePath: wokOf('m10aa_01c') });
      const file = store.listFiles({})[0]!;
      expect(kotorRoomModelOf(store, file)).toBeUndefined();
      // A second folder that has it is still searched.
      store.addGameFolder(game);
      expect(kotorRoomModelOf(store, file)!.sha256).toBe(contentHash(mdlOf('m10aa_01c')));
    } finally {
      store.close();
    }
  });
});
