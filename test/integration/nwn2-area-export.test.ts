import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectCommand } from '../../electron/cli/commands/project-command';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectEdits } from '../../electron/services/project/project-edits';
import { ProjectStore } from '../../electron/services/project/project-store';
import { bakeTrn } from '../../shared/bakers/nwn2/trn-bake';
import { storedTileCache } from '../../shared/edits/nwn2-toolset-tile-cache';
import { readGff } from '../../shared/formats/aurora/gff-reader';
import { readGitWalkmeshCutters } from '../../shared/formats/aurora/nwn2-git';
import { aswmPacketOf } from '../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../shared/formats/nwn2/trx-reader';
import { validateTrx } from '../../shared/formats/nwn2/trx-validate';
import { writeTrx } from '../../shared/formats/nwn2/trx-writer';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { commandRunner } from '../support/run-command';

const run = commandRunner(projectCommand);
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-nwn2-area-export-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const read = (f: string) => new Uint8Array(readFileSync(f));
const kaedrin = path.join(fixturesRoot, 'nwn2/kaedrin');

describe('NWN2: a GIT edit reaches the game', () => {
  it('after a cutter is added, rebake bakes the TRX from the TRN and the edited GIT, and export writes that TRX and the GIT', async () => {
    const project = path.join(tmp, 'area.wbproj');
    expect((await run('create', project, '--game', 'nwn2')).status).toBe(0);
    expect((await run('import', project, ...['enter world.trx', 'enter world.trn', 'enter world.GIT'].map((f) => path.join(kaedrin, f)), '--module', 'kaedrin')).status).toBe(0);

    // Unedited: the TRX's own tables are re-baked and the GIT is not exported.
    expect((await run('rebake', project)).status).toBe(0);
    let store = ProjectStore.open(project);
    expect(store.listBakes().map((b) => b.bakerId)).toEqual(['nwn2-rebake']);
    const git = store.listFiles({ kind: 'git' })[0]!;
    const trxFile = store.listFiles({ kind: 'walkmesh' })[0]!;
    const polygon = [5, 5, 7, 5, 7, 7, 5, 7].map((v, i) => v + (i % 2 === 0 ? floatCentre(trxFile.id, store)[0] : floatCentre(trxFile.id, store)[1]));
    new ProjectEdits(store).applyDocument(git.id, 0, { kind: 'nwn2-add-cutter', polygon });
    store.close();

    const moduleDir = path.join(tmp, 'module');
    mkdirSync(moduleDir);
    // Before a rebake of the edited area the export refuses its TRX, naming why.
    const refused = await run('export', project, '--to', moduleDir);
    expect(refused.status).not.toBe(0);
    expect(refused.out + refused.err).toMatch(/kaedrin\/enter world\.trx: has no bake of its TRN and GIT as edited/);

    expect((await run('rebake', project)).status).toBe(0);
    store = ProjectStore.open(project);
    const bakes = store.listBakes();
    const areaBake = bakes.find((b) => b.bakerId === 'nwn2-trn-bake')!;
    expect(areaBake.inputs.map((i) => i.name)).toEqual(['kaedrin/enter world.trn', 'kaedrin/enter world.GIT', 'placeable models', 'door models', 'kaedrin/enter world.trx as imported']);
    const editedGit = store.loadEdit(git.id)!.bytes;
    store.close();
    // Nothing changed since: a second rebake skips it.
    const again = await run('rebake', project, '--json');
    expect(JSON.parse(again.out).counts).toMatchObject({ baked: 0, failed: 0 });

    const exported = await run('export', project, '--to', moduleDir, '--json');
    expect(exported.status).toBe(0);
    const trx = read(path.join(moduleDir, 'enter world.trx'));
    const gitOut = read(path.join(moduleDir, 'enter world.GIT'));
    expect(Buffer.from(gitOut).equals(Buffer.from(editedGit))).toBe(true);
    expect(readGitWalkmeshCutters(readGff(gitOut)).some((c) => c.polygon[0] === Math.fround(polygon[0]!) || Math.abs(c.polygon[0]! - polygon[0]!) < 1e-3)).toBe(true);

    // The TRX is the full bake of the TRN with the edited GIT, every tile that came out as in
    // the toolset's TRX keeping the toolset's tables (issue 15 §4), and it validates.
    const original = aswmPacketOf(readTrx(readFixture(path.join(kaedrin, 'enter world.trx')), env))!.aswm;
    const tileCache = storedTileCache(original)!;
    const trn = readTrx(readFixture(path.join(kaedrin, 'enter world.trn')), env);
    const reference = bakeTrn({ trn, git: readGff(editedGit), options: { tileCache } });
    expect(reference.report.tables.reusedTiles).toBeGreaterThan(0);
    expect(Buffer.from(trx).equals(Buffer.from(writeTrx(reference.trx, env)))).toBe(true);
    const doc = readTrx(trx, env);
    expect(validateTrx(doc).filter((f) => f.severity === 'error')).toEqual([]);
    expect(aswmPacketOf(doc)!.aswm.triFlags.length).not.toBe(original.triFlags.length);
    // Its reused tiles hold the toolset's rows, line-of-sight bits included.
    const baked = aswmPacketOf(doc)!.aswm.tiles;
    const rows = (t: typeof baked, k: number) => Buffer.from(t.nodes.subarray(t.nodesStart[k]!, t.nodesStart[k]! + t.nodeCount[k]! ** 2));
    const reused = [...Array(baked.count).keys()].filter((k) => rows(baked, k).equals(rows(original.tiles, k)));
    expect(reused.length).toBeGreaterThanOrEqual(reference.report.tables.reusedTiles);

    // Undone in the project: the area goes back to the TRX's own re-bake and the GIT is no longer exported.
    store = ProjectStore.open(project);
    new ProjectEdits(store).undo();
    expect(store.fileById(git.id)!.edited).toBe(false);
    store.close();
    expect((await run('rebake', project)).status).toBe(0);
    const back = JSON.parse((await run('export', project, '--to', moduleDir, '--dry-run', '--json')).out) as { planned: { file: string }[] };
    expect(back.planned.map((p) => p.file)).toEqual(['kaedrin/enter world.trx']);
  }, 120_000);
});

/** The centre of a TRX walkmesh's vertices, x and y. */
function floatCentre(fileId: number, store: ProjectStore): [number, number] {
  const a = aswmPacketOf(readTrx(store.loadFileBytes(fileId), env))!.aswm;
  const p = new Float32Array(a.vertices.buffer, a.vertices.byteOffset, a.vertices.length);
  let x = 0, y = 0;
  const n = p.length / 3;
  for (let i = 0; i < n; i++) {
    x += p[i * 3]! / n;
    y += p[i * 3 + 1]! / n;
  }
  return [x - 6, y - 6];
}
