import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { readGitDoors } from '../../../shared/formats/aurora/nwn2-git';
import { areaBakeDoors, areaBakeModels, encodeAreaBakeInput, runAreaBake } from '../../../shared/edits/nwn2-area-bake-job';
import { projectPlaceableModels } from '../../../electron/services/project/project-placeable-models';
import { nwn2AreaBakeJob } from '../../../electron/services/project/nwn2-area-bake-source';
import { ProjectStore } from '../../../electron/services/project/project-store';
import { readFixture } from '../../support/fixtures';
import { env, mordDir, twoDaDir } from './bake-support';
import { doorSillMdb, SILL_FLAGS } from './door-support';

/**
 * Doors in the app's bake (issue 15): the project's bake of an NWN2 area looks up each door's
 * doortypes.2da row and model in the project (then its game folders) as the CLI does, applies
 * the models it finds and names the ones it does not in the area's findings.
 * CSLMordMansion's 12 doors: 5 of doortypes.2da row 382 (PLC_DT_STDINT03), 7 of other models.
 */
const temp = mkdtempSync(path.join(tmpdir(), 'walkbench-project-doors-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const DOOR_MODEL = 'PLC_DT_STDINT03';
let projects = 0;

function mordProject(withDoorTable: boolean, withModel: boolean): { store: ProjectStore; trx: number; trn: number; git: number } {
  const store = ProjectStore.create(path.join(temp, `mord-${++projects}.walkbench`), { name: 'mord', game: 'nwn2' });
  const put = (name: string, kind: 'walkmesh' | 'trn' | 'git' | '2da' | 'mdb', bytes: Uint8Array, area: string | null = 'CSLMordMansion') =>
    store.upsertFile({ module: 'mod', area, name, kind, bytes }).fileId;
  const trn = put('CSLMordMansion.TRN', 'trn', readFixture(path.join(mordDir, 'CSLMordMansion.TRN')));
  const trx = put('CSLMordMansion.TRX', 'walkmesh', readFixture(path.join(mordDir, 'CSLMordMansion.TRX')));
  const git = put('CSLMordMansion.GIT', 'git', readFixture(path.join(mordDir, 'CSLMordMansion.GIT')));
  if (withDoorTable) put('doortypes.2da', '2da', readFixture(path.join(twoDaDir, 'doortypes.2da')), null);
  if (withModel) put(`${DOOR_MODEL}.MDB`, 'mdb', doorSillMdb(DOOR_MODEL), null);
  return { store, trx, trn, git };
}

describe("NWN2 doors in the project's bake", () => {
  it('the door rows travel with the bake input, found in the project, and the findings name the models still missing', () => {
    const { store, git } = mordProject(true, true);
    try {
      const gitDoc = readGff(store.loadCurrentBytes(store.fileById(git)!));
      const doorsInGit = readGitDoors(gitDoc);
      expect(doorsInGit).toHaveLength(12);
      const lookup = projectPlaceableModels(store, 'mod');
      const doors = areaBakeDoors(gitDoc, lookup);
      // One entry per row the doors use, each looked up once.
      expect(new Set(doors.map((d) => `${d.table}:${d.row}`)).size).toBe(doors.length);
      const stdint = doors.find((d) => d.lookup.modelName?.toUpperCase() === DOOR_MODEL);
      expect(stdint?.lookup.model?.walkmeshes.length).toBeGreaterThan(0);
      const missing = doors.filter((d) => !d.lookup.model);
      expect(missing.length).toBeGreaterThan(0);
      for (const d of missing) expect(d.lookup.reason ?? '').not.toBe('');

      const bake = (withDoors: typeof doors) =>
        runAreaBake(
          encodeAreaBakeInput({ name: 'mod/CSLMordMansion.TRN', gitName: 'mod/CSLMordMansion.GIT', trn: readFixture(path.join(mordDir, 'CSLMordMansion.TRN')), git: store.loadCurrentBytes(store.fileById(git)!), models: areaBakeModels(gitDoc, lookup), doors: withDoors, tileCache: null }),
          env,
        );
      const out = bake(doors);
      const without = bake([]);
      const summary = out.findings.filter((f) => f.code === 'nwn2.bake.door-models-missing');
      expect(summary).toHaveLength(1);
      const doorsOfRow382 = doorsInGit.filter((d) => d.appearance === stdint!.row).length;
      expect(summary[0]!.message).toMatch(new RegExp(`^${12 - doorsOfRow382} door\\(s\\) without a model found`));
      expect(summary[0]!.message).not.toContain(DOOR_MODEL);
      // The sills (walkable metal, 5 cm up) are in the baked walkmesh: more walkable-metal
      // faces than in the bake without doors (the clockwise bit 0x04 aside).
      const metal = (m: Uint32Array) => Array.from(m).filter((f) => (f & ~0x04) === SILL_FLAGS).length;
      expect(metal(out.walkmesh.faceMaterial)).toBeGreaterThan(metal(without.walkmesh.faceMaterial));
      expect(without.findings.find((f) => f.code === 'nwn2.bake.door-models-missing')?.message).toMatch(/^12 door\(s\)/);
    } finally {
      store.close();
    }
  });

  it('without doortypes.2da every door is named in one finding, with the reason', () => {
    const { store, git } = mordProject(false, false);
    try {
      const gitDoc = readGff(store.loadCurrentBytes(store.fileById(git)!));
      const lookup = projectPlaceableModels(store, 'mod');
      const doors = areaBakeDoors(gitDoc, lookup);
      for (const d of doors) expect(d.lookup.reason).toMatch(/no doortypes\.2da found/);
      const out = runAreaBake(
        encodeAreaBakeInput({ name: 'mod/CSLMordMansion.TRN', gitName: 'mod/CSLMordMansion.GIT', trn: readFixture(path.join(mordDir, 'CSLMordMansion.TRN')), git: store.loadCurrentBytes(store.fileById(git)!), models: [], doors, tileCache: null }),
        env,
      );
      const summary = out.findings.filter((f) => f.code === 'nwn2.bake.door-models-missing');
      expect(summary).toHaveLength(1);
      expect(summary[0]!.message).toMatch(/^12 door\(s\) without a model found .*no doortypes\.2da found ×12/);
    } finally {
      store.close();
    }
  });

  it("the area's bake job carries its doors, and a door model added to the project changes the job's inputs", () => {
    const before = mordProject(true, false);
    const after = mordProject(true, true);
    try {
      const sources = (p: typeof before) => ({ trn: p.store.fileById(p.trn)!, git: p.store.fileById(p.git)! });
      const a = nwn2AreaBakeJob(before.store, before.store.fileById(before.trx)!, sources(before));
      const b = nwn2AreaBakeJob(after.store, after.store.fileById(after.trx)!, sources(after));
      const doorInput = (spec: typeof a.spec) => spec.inputs.find((i) => i.name === 'door models')?.sha256;
      expect(doorInput(a.spec)).toBeDefined();
      expect(doorInput(a.spec)).not.toBe(doorInput(b.spec));
    } finally {
      before.store.close();
      after.store.close();
    }
  });
});
