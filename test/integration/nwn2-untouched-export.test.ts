import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectCommand } from '../../electron/cli/commands/project-command';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectEdits } from '../../electron/services/project/project-edits';
import { ProjectStore } from '../../electron/services/project/project-store';
import { aswmPacketOf } from '../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../shared/formats/nwn2/trx-reader';
import { fixturesRoot } from '../support/fixtures';
import { commandRunner } from '../support/run-command';

/**
 * Issue 15 §4: a module imported and exported without an edit writes nothing new: every
 * toolset TRX goes out byte for byte as imported (so it keeps the toolset's line-of-sight
 * bits); an edit re-bakes only its own area; `--rebake` asks for every bake.
 */
const run = commandRunner(projectCommand);
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-untouched-export-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const kaedrin = path.join(fixturesRoot, 'nwn2/kaedrin');
const AREA = 'enter world';

interface Planned {
  file: string;
  targetPath: string;
  action: string;
  source: string;
  change: string;
  why: string;
  sha256: string;
  bakeId: number | null;
}
interface ExportJson {
  status: string;
  runId: number | null;
  planned: Planned[];
  refused: { file: string; reason: string }[];
  verified: { file: string; targetPath: string; action: string }[];
}

async function exportJson(...argv: string[]): Promise<ExportJson> {
  const r = await run('export', ...argv, '--json');
  expect(r.status, r.err).toBe(0);
  return JSON.parse(r.out) as ExportJson;
}

/** Name → sha256 of every file in a folder. */
function hashes(dir: string): Map<string, string> {
  return new Map(readdirSync(dir).map((n) => [n, sha(new Uint8Array(readFileSync(path.join(dir, n))))]));
}

describe('NWN2: exporting an untouched module writes only what changed', () => {
  const project = path.join(tmp, 'kaedrin.wbproj');
  /** The module folder as the toolset left it: the same files the project imported. */
  const moduleDir = path.join(tmp, 'module');
  const trxNames = readdirSync(kaedrin).filter((n) => /\.trx$/i.test(n));

  it('exports every imported, unedited TRX byte for byte, and leaves the toolset module folder untouched', async () => {
    expect(trxNames.length).toBeGreaterThan(1);
    expect((await run('create', project, '--game', 'nwn2')).status).toBe(0);
    expect((await run('import', project, kaedrin, '--module', 'kaedrin')).status).toBe(0);

    // Into an empty folder: each TRX is created with the bytes imported, and no bake is needed.
    const empty = path.join(tmp, 'empty');
    mkdirSync(empty);
    const fresh = await exportJson(project, '--to', empty);
    expect(fresh.status).toBe('done');
    expect(fresh.planned.map((p) => path.basename(p.targetPath)).sort()).toEqual([...trxNames].sort());
    for (const p of fresh.planned) {
      expect([p.action, p.source, p.change, p.bakeId], p.file).toEqual(['create', 'import', 'unchanged', null]);
      expect(p.why).toMatch(/^unedited since import/);
      expect(sha(new Uint8Array(readFileSync(p.targetPath))), p.file).toBe(sha(new Uint8Array(readFileSync(path.join(kaedrin, path.basename(p.targetPath))))));
    }

    // Into the module folder holding those same files: nothing to write, no export run.
    mkdirSync(moduleDir);
    for (const n of readdirSync(kaedrin)) {
      copyFileSync(path.join(kaedrin, n), path.join(moduleDir, n));
      chmodSync(path.join(moduleDir, n), 0o644);
    }
    const before = hashes(moduleDir);
    const dry = await run('export', project, '--to', moduleDir, '--dry-run');
    expect(dry.status).toBe(0);
    for (const n of trxNames) expect(dry.out).toContain(`unchanged ${path.join(moduleDir, n)}: unchanged: kept as imported (`);
    expect(dry.out).toContain(`dry run: 0 to create, 0 to replace, ${trxNames.length} unchanged, 0 refused; ${trxNames.length} kept as imported, 0 written (edited), 0 re-baked`);
    const done = await exportJson(project, '--to', moduleDir);
    expect(done.status).toBe('done');
    expect(done.runId).toBeNull();
    expect(done.verified).toEqual([]);
    expect(done.planned.every((p) => p.action === 'unchanged' && p.change === 'unchanged')).toBe(true);
    expect(hashes(moduleDir)).toEqual(before);
  }, 120_000);

  it('after one area is edited, re-bakes and writes only that area: its TRX and its GIT; the others stay as imported', async () => {
    const store = ProjectStore.open(project);
    const files = store.listFiles({ module: 'kaedrin' });
    const git = files.find((f) => f.kind === 'git' && f.name.toLowerCase() === `${AREA}.git`)!;
    const trx = files.find((f) => f.kind === 'walkmesh' && f.name.toLowerCase() === `${AREA}.trx`)!;
    // A 2 m cutter at the walkmesh's centre, through the edit service's own edit path.
    const a = aswmPacketOf(readTrx(store.loadFileBytes(trx.id), env))!.aswm;
    const p = new Float32Array(a.vertices.buffer, a.vertices.byteOffset, a.vertices.length);
    let cx = 0, cy = 0;
    for (let i = 0; i < p.length; i += 3) {
      cx += (3 * p[i]!) / p.length;
      cy += (3 * p[i + 1]!) / p.length;
    }
    new ProjectEdits(store).applyDocument(git.id, 0, { kind: 'nwn2-add-cutter', polygon: [cx - 1, cy - 1, cx + 1, cy - 1, cx + 1, cy + 1, cx - 1, cy + 1] });
    store.close();

    // Without a bake of the edited area the export refuses it (and only it).
    const refused = await run('export', project, '--to', moduleDir, '--dry-run', '--json');
    expect((JSON.parse(refused.out) as ExportJson).refused.map((r) => r.file)).toEqual([`kaedrin/${trx.name}`]);

    expect((await run('rebake', project, '--module', 'kaedrin', '--jobs', '2')).status).toBe(0);
    const before = hashes(moduleDir);
    const dry = await run('export', project, '--to', moduleDir, '--dry-run');
    expect(dry.out).toMatch(new RegExp(`^replace .*${AREA}\\.trx: re-baked \\(baked from its TRN and GIT: kaedrin/${AREA}\\.GIT was edited\\)`, 'm'));
    expect(dry.out).toMatch(new RegExp(`^replace .*${AREA}\\.GIT: written: edited \\(kaedrin/${AREA}\\.GIT was edited\\)`, 'm'));
    expect(dry.out).toContain(`dry run: 0 to create, 2 to replace, ${trxNames.length - 1} unchanged, 0 refused; ${trxNames.length - 1} kept as imported, 1 written (edited), 1 re-baked`);

    const done = await exportJson(project, '--to', moduleDir);
    expect(done.status).toBe('done');
    const byName = new Map(done.planned.map((e) => [path.basename(e.targetPath).toLowerCase(), e]));
    expect(byName.get(`${AREA}.trx`)).toMatchObject({ action: 'replace', source: 'bake', change: 'rebaked' });
    expect(byName.get(`${AREA}.git`)).toMatchObject({ action: 'replace', source: 'edit', change: 'edited' });
    for (const [name, e] of byName) if (!name.startsWith(AREA)) expect([e.action, e.change], name).toEqual(['unchanged', 'unchanged']);
    expect(done.verified.map((v) => path.basename(v.targetPath).toLowerCase()).sort()).toEqual([`${AREA}.git`, `${AREA}.trx`]);
    const after = hashes(moduleDir);
    const changed = [...after].filter(([n, h]) => before.get(n) !== h).map(([n]) => n.toLowerCase());
    expect(changed.sort()).toEqual([`${AREA}.git`, `${AREA}.trx`]);
  }, 240_000);

  it('with --rebake, writes the bake of every TRX, saying which were asked for and which were edited', async () => {
    const dry = await exportJson(project, '--to', moduleDir, '--rebake', '--dry-run');
    expect(dry.refused).toEqual([]);
    const store = ProjectStore.open(project);
    const bakes = new Map(store.listBakes().map((b) => [b.id, b.outputSha256]));
    store.close();
    const trx = dry.planned.filter((e) => /\.trx$/i.test(e.targetPath));
    expect(trx).toHaveLength(trxNames.length);
    for (const e of trx) {
      expect([e.source, e.change], e.file).toEqual(['bake', 'rebaked']);
      expect(e.sha256, e.file).toBe(bakes.get(e.bakeId!));
      expect(e.why, e.file).toBe(path.basename(e.targetPath).toLowerCase() === `${AREA}.trx` ? `baked from its TRN and GIT: kaedrin/${AREA}.GIT was edited` : 'a re-bake of unedited files was asked for');
      const onDisk = sha(new Uint8Array(readFileSync(e.targetPath)));
      expect(e.action, e.file).toBe(onDisk === e.sha256 ? 'unchanged' : 'replace');
    }
    // The toolset's own line-of-sight bits are not Walkbench's: re-baked, unedited areas differ.
    expect(trx.filter((e) => e.action === 'replace').length).toBeGreaterThan(1);
  }, 240_000);

  it('an edited TRX is re-baked keeping the toolset tables of every tile the edit left as it was', async () => {
    const NAME = 'dm001_cargohold.trx';
    let store = ProjectStore.open(project);
    const file = store.listFiles({ module: 'kaedrin' }).find((f) => f.name === NAME)!;
    const edits = new ProjectEdits(store);
    const mesh = edits.meshes(file.id)[0]!;
    const face = mesh.faceWalkable.findIndex((w) => w === 1);
    edits.apply(file.id, 0, { kind: 'paint-faces', faces: [face], walkable: false });
    store.close();
    expect((await run('rebake', project, '--module', 'kaedrin', '--jobs', '2')).status).toBe(0);

    const dry = await exportJson(project, '--to', moduleDir, '--dry-run');
    const entry = dry.planned.find((e) => e.file === `kaedrin/${NAME}`)!;
    expect([entry.source, entry.change, entry.why]).toEqual(['bake', 'rebaked', `kaedrin/${NAME} was edited`]);

    store = ProjectStore.open(project);
    const bake = store.listBakes().find((b) => b.id === entry.bakeId)!;
    // Recorded under the edit and the bytes imported, whose tables it keeps where nothing changed.
    expect(bake.inputs.map((i) => i.name)).toEqual([`kaedrin/${NAME}`, `kaedrin/${NAME} as imported`]);
    const baked = aswmPacketOf(readTrx(store.loadBakeOutput(bake.id), env))!.aswm;
    store.close();
    const toolset = aswmPacketOf(readTrx(new Uint8Array(readFileSync(path.join(kaedrin, NAME))), env))!.aswm;
    // The tile of the painted triangle has one walkable triangle less; every other tile holds the toolset's rows.
    const changed = [...toolset.triFlags.keys()].filter((t) => (toolset.triFlags[t]! & 1) !== (baked.triFlags[t]! & 1));
    expect(changed).toHaveLength(1);
    const t = toolset.tiles;
    const tileOf = [...Array(t.count).keys()].find((k) => changed[0]! >= t.triangleOffset[k]! && changed[0]! < t.triangleOffset[k]! + t.triangleCount[k]!)!;
    const rows = (a: typeof toolset, k: number) => Array.from(a.tiles.nodes.subarray(a.tiles.nodesStart[k]!, a.tiles.nodesStart[k]! + a.tiles.nodeCount[k]! ** 2));
    expect(baked.tiles.nodeCount[tileOf]).toBe(t.nodeCount[tileOf]! - 1);
    for (let k = 0; k < t.count; k++) if (k !== tileOf) expect(rows(baked, k), `tile ${k}`).toEqual(rows(toolset, k));
  }, 240_000);
});
