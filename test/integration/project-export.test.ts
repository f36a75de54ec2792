import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectCommand } from '../../electron/cli/commands/project-command';
import { ProjectStore } from '../../electron/services/project/project-store';
import { restoreLastExport } from '../../electron/services/project/export-backups';
import { exportProject } from '../../electron/services/project/project-export';
import { importSources } from '../../electron/services/project/project-import';
import { bakeJobOf, bakeSpecOf } from '../../electron/services/bake-pool/project-rebake';
import { createErfDocument } from '../../shared/formats/aurora/erf-document';
import { readErf } from '../../shared/formats/aurora/erf-reader';
import { writeErf } from '../../shared/formats/aurora/erf-writer';
import { KotorResType } from '../../shared/formats/aurora/resource-types';
import { createRimDocument } from '../../shared/formats/aurora/rim-document';
import { writeRim } from '../../shared/formats/aurora/rim-writer';
import { inspectBytes } from '../../shared/formats/inspect-file';
import { createLytDocument } from '../../shared/formats/kotor/lyt-document';
import { writeLyt } from '../../shared/formats/kotor/lyt-writer';
import { TRX_FORMAT } from '../../shared/formats/nwn2/trx-document';
import { nodeFormatEnvironment } from '../../electron/services/node-format-environment';
import { fixturesRoot, listFixtures, readFixture } from '../support/fixtures';
import { commandRunner } from '../support/run-command';
import { buildBif, buildKey } from '../unit/kotor-files/key-bif-builder';

const run = commandRunner(projectCommand);
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-export-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const read = (f: string) => new Uint8Array(readFileSync(f));

interface ExportJson {
  status: string;
  runId: number | null;
  backupDir: string | null;
  planned: { file: string; targetPath: string; resource: string | null; action: string; source: string; sha256: string; bytes: number }[];
  refused: { file: string; reason: string }[];
  verified: { file: string; targetPath: string; resource: string | null; action: string; sha256: string }[];
}

async function exportJson(...argv: string[]): Promise<{ status: number; json: ExportJson; err: string }> {
  const r = await run('export', ...argv, '--json');
  return { status: r.status, json: JSON.parse(r.out) as ExportJson, err: r.err };
}

/** The bake outputs the project holds, by `module/name` of the file baked. */
function bakesByFile(project: string): Map<string, Uint8Array> {
  const store = ProjectStore.open(project);
  try {
    return new Map(store.listBakes().map((b) => [b.inputs[0]!.name, store.loadBakeOutput(b.id)]));
  } finally {
    store.close();
  }
}

/** Reads a written file as a game would get it: its format's reader takes it without error. */
function expectReadable(name: string, bytes: Uint8Array): void {
  const report = inspectBytes(name, bytes, nodeFormatEnvironment);
  expect(report.readFailure, name).toBeNull();
  expect(report.format, name).not.toBeNull();
}

describe('walkbench project export: NWN2', () => {
  const project = path.join(tmp, 'nwn2.wbproj');
  const kaedrin = path.join(fixturesRoot, 'nwn2/kaedrin');
  const picked = ['enter world.trx', 'enter world.trn', 'enter world.GIT', 'enter world.ARE', 'hv_bandits_basement.trx', 'dm001_cargohold.trx'];

  it('plans unedited toolset TRX files as imported; with --rebake exports their bakes into a module folder, replacing a file named in another case', async () => {
    expect((await run('create', project, '--game', 'nwn2')).status).toBe(0);
    expect((await run('import', project, ...picked.map((f) => path.join(kaedrin, f)), '--module', 'kaedrin')).status).toBe(0);
    expect((await run('import', project, path.join(fixturesRoot, 'nwn2/mordmansion'), '--module', 'mord')).status).toBe(0);
    const moduleDir = path.join(tmp, 'nwn2-module');
    mkdirSync(moduleDir);

    // Unedited, the toolset's TRX files go out as imported, with or without a bake (issue 15 §4).
    const asImported = await run('export', project, '--to', moduleDir, '--dry-run');
    expect(asImported.status).toBe(0);
    expect(asImported.out).toMatch(/^create .*enter world\.trx: unchanged: kept as imported \(.* from the import of kaedrin\/enter world\.trx\)$/m);
    expect(asImported.out).toContain('dry run: 4 to create, 0 to replace, 0 unchanged, 0 refused; 4 kept as imported, 0 written (edited), 0 re-baked');
    expect(readdirSync(moduleDir)).toEqual([]);

    expect((await run('rebake', project, '--jobs', '2')).status).toBe(0);
    const bakes = bakesByFile(project);
    expect(bakes.size).toBe(4);
    writeFileSync(path.join(moduleDir, 'ENTER WORLD.TRX'), 'the old walkmesh');

    const dry = await exportJson(project, '--to', moduleDir, '--rebake', '--dry-run');
    expect(dry.status).toBe(0);
    expect(dry.json.status).toBe('planned');
    expect(dry.json.planned.map((p) => [p.file, path.basename(p.targetPath), p.action, p.source])).toEqual([
      ['kaedrin/dm001_cargohold.trx', 'dm001_cargohold.trx', 'create', 'bake'],
      ['kaedrin/enter world.trx', 'ENTER WORLD.TRX', 'replace', 'bake'],
      ['kaedrin/hv_bandits_basement.trx', 'hv_bandits_basement.trx', 'create', 'bake'],
      ['mord/CSLMordMansion.TRX', 'CSLMordMansion.TRX', 'create', 'bake'],
    ]);
    expect(readFileSync(path.join(moduleDir, 'ENTER WORLD.TRX'), 'utf8')).toBe('the old walkmesh');
    expect(readdirSync(moduleDir)).toHaveLength(1);

    const done = await exportJson(project, '--to', moduleDir, '--rebake');
    expect(done.status).toBe(0);
    expect(done.json.status).toBe('done');
    expect(done.json.verified).toHaveLength(4);
    expect(readdirSync(moduleDir).sort()).toEqual(['CSLMordMansion.TRX', 'ENTER WORLD.TRX', 'dm001_cargohold.trx', 'hv_bandits_basement.trx']);
    for (const p of done.json.planned) {
      const written = read(p.targetPath);
      expect(sha(written), p.file).toBe(sha(bakes.get(p.file)!));
      expectReadable(p.targetPath, written);
    }
    // The replaced file is backed up beside the project, outside the game folder.
    expect(done.json.backupDir!.startsWith(`${project}.backups`)).toBe(true);
    expect(readFileSync(path.join(done.json.backupDir!, 'ENTER WORLD.TRX'), 'utf8')).toBe('the old walkmesh');

    // Exported again, nothing changed: nothing written, no new export run for restore to undo.
    const again = await exportJson(project, '--to', moduleDir, '--rebake');
    expect(again.json.planned.map((p) => p.action)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(again.json.runId).toBeNull();

    const restored = await run('restore', project, '--to', moduleDir);
    expect(restored.status).toBe(0);
    expect(restored.out).toContain('1 restored, 3 removed, 0 kept');
    expect(readdirSync(moduleDir)).toEqual(['ENTER WORLD.TRX']);
    expect(readFileSync(path.join(moduleDir, 'ENTER WORLD.TRX'), 'utf8')).toBe('the old walkmesh');
    expect((await run('restore', project, '--to', moduleDir)).out).toContain('no export into');
  }, 240_000);

  it('exports into the module .mod archive, keeping its other resources, and restores it byte for byte', async () => {
    const mod = path.join(tmp, 'module.mod');
    copyFileSync(path.join(fixturesRoot, 'nwn2/nwn-lib-d/module.mod'), mod);
    chmodSync(mod, 0o644);
    const original = read(mod);
    const r = await exportJson(project, '--to', mod, '--module', 'kaedrin', '--rebake');
    expect(r.status).toBe(0);
    expect(r.json.verified.map((v) => v.resource).sort()).toEqual(['dm001_cargohold.trx', 'enter world.trx', 'hv_bandits_basement.trx']);
    const bakes = bakesByFile(project);
    const doc = readErf(read(mod));
    const before = readErf(original);
    expect(doc.resources).toHaveLength(before.resources.length + 3);
    for (const old of before.resources) expect(sha(doc.resources.find((x) => x.resRef === old.resRef && x.type === old.type)!.data)).toBe(sha(old.data));
    for (const v of r.json.verified) {
      const res = doc.resources.find((x) => `${x.resRef}.trx` === v.resource)!;
      expect(sha(res.data)).toBe(sha(bakes.get(v.file)!));
      expectReadable(v.resource!, res.data);
    }
    expect(readdirSync(tmp).filter((f) => f.endsWith('.walkbench-tmp'))).toEqual([]);
    expect((await run('restore', project, '--to', mod)).status).toBe(0);
    expect(sha(read(mod))).toBe(sha(original));
  });

  it('refuses a resource name that would leave the folder or that the game refuses, and writes nothing', async () => {
    const bad = path.join(tmp, 'bad-names.wbproj');
    await run('create', bad, '--game', 'source');
    const nav = readFixture(path.join(fixturesRoot, 'source/css/cs_office.nav'));
    const store = ProjectStore.open(bad);
    try {
      for (const name of ['../escape.nav', 'sub/dir.nav', 'what?.nav', 'ok_map.nav']) store.upsertFile({ module: 'maps', name, kind: 'walkmesh', format: 'source-nav', bytes: nav });
    } finally {
      store.close();
    }
    const game = path.join(tmp, 'bad-game');
    mkdirSync(path.join(game, 'maps'), { recursive: true });
    const r = await run('export', bad, '--to', game);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/^refused maps\/\.\.\/escape\.nav: the name contains a path separator$/m);
    expect(r.out).toMatch(/^refused maps\/sub\/dir\.nav: the name contains a path separator$/m);
    expect(r.out).toMatch(/^refused maps\/what\?\.nav: the name contains "\?", which Windows refuses in file names$/m);
    expect(r.out).toContain('nothing exported: 1 to create, 0 to replace, 0 unchanged, 3 refused');
    expect(readdirSync(path.join(game, 'maps'))).toEqual([]);
    expect(readdirSync(tmp)).not.toContain('escape.nav');
  });
});

describe('walkbench project import and export: KotOR game folder', () => {
  const vulkar = listFixtures('kotor/k1-blackvulkar', ['.wok']);
  const rooms = vulkar.map((f) => path.basename(f, '.wok'));
  const game = path.join(tmp, 'kotor-game');
  const project = path.join(tmp, 'kotor.wbproj');

  it('imports a module from modules/, override and chitin.key, then exports its bakes into override and into the module archive', async () => {
    // A game folder as installed, names in mixed case: rooms in a BIF the key lists, the module's layout in its RIM, one room overridden.
    mkdirSync(path.join(game, 'Data'), { recursive: true });
    mkdirSync(path.join(game, 'Modules'));
    mkdirSync(path.join(game, 'Override'));
    writeFileSync(path.join(game, 'Data', 'models.bif'), buildBif(vulkar.slice(1).map((f) => ({ type: KotorResType.WOK, data: readFixture(f) }))));
    writeFileSync(path.join(game, 'chitin.key'), buildKey(['data\\models.bif'], rooms.slice(1).map((r, i) => ({ resRef: r, type: KotorResType.WOK, bif: 0, index: i }))));
    copyFileSync(vulkar[0]!, path.join(game, 'Override', `${rooms[0]!.toUpperCase()}.WOK`));
    const lyt = createLytDocument();
    lyt.rooms = rooms.map((name, i) => ({ name, x: i * 10, y: 0, z: 0 }));
    const rim = createRimDocument();
    rim.resources.push({ resRef: 'm10aa', type: KotorResType.LYT, data: writeLyt(lyt) });
    rim.resources.push({ resRef: 'm10aa', type: KotorResType.GIT, data: readFixture(path.join(fixturesRoot, 'kotor/pykotor/zio001.git')) });
    writeFileSync(path.join(game, 'Modules', 'm10aa.rim'), writeRim(rim));

    expect((await run('create', project, '--game', 'kotor')).status).toBe(0);
    const needsModule = await run('import', project, game);
    expect(needsModule.status).toBe(1);
    expect(needsModule.err).toContain('is a KotOR game folder: name the module to import with --module (one of m10aa)');

    const imported = await run('import', project, game, '--module', 'm10aa', '--json');
    expect(imported.status).toBe(0);
    const report = JSON.parse(imported.out) as { counts: Record<string, number>; files: { name: string; path: string; kind: string }[] };
    expect(report.counts).toEqual({ added: rooms.length + 2, changed: 0, unchanged: 0, skipped: 0 });
    const byName = new Map(report.files.map((f) => [f.name.toLowerCase(), f]));
    expect(byName.get(`${rooms[0]}.wok`)?.path).toBe(path.join(game, 'Override', `${rooms[0]!.toUpperCase()}.WOK`));
    expect(byName.get(`${rooms[1]}.wok`)?.path).toBe(`${path.join(game, 'chitin.key')}:data\\models.bif:${rooms[1]}.wok`);
    expect(byName.get('m10aa.lyt')).toMatchObject({ kind: 'lyt' });
    expect(byName.get('m10aa.git')).toMatchObject({ kind: 'git' });
    const second = JSON.parse((await run('import', project, game, '--module', 'm10aa', '--json')).out) as { counts: Record<string, number> };
    expect(second.counts).toEqual({ added: 0, changed: 0, unchanged: rooms.length + 2, skipped: 0 });

    expect((await run('rebake', project, '--jobs', '2')).status).toBe(0);
    const bakes = bakesByFile(project);
    expect(bakes.size).toBe(rooms.length);

    const r = await exportJson(project, '--to', game, '--rebake');
    expect(r.status).toBe(0);
    expect(r.json.planned.filter((p) => p.action === 'replace').map((p) => path.basename(p.targetPath))).toEqual([`${rooms[0]!.toUpperCase()}.WOK`]);
    const override = path.join(game, 'Override');
    expect(readdirSync(override)).toHaveLength(rooms.length);
    for (const p of r.json.planned) {
      expect(path.dirname(p.targetPath)).toBe(override);
      const written = read(p.targetPath);
      expect(sha(written)).toBe(sha(bakes.get(p.file)!));
      expectReadable(p.targetPath, written);
    }

    // Into a module archive (KotOR .mod, ERF V1.0).
    const mod = path.join(game, 'Modules', 'm10aa.mod');
    const erf = createErfDocument('MOD ', 'V1.0');
    erf.resources.push({ resRef: 'm10aa', type: KotorResType.LYT, data: writeLyt(lyt) });
    writeFileSync(mod, writeErf(erf));
    const intoMod = await exportJson(project, '--to', mod, '--rebake');
    expect(intoMod.status).toBe(0);
    const doc = readErf(read(mod));
    expect(doc.resources).toHaveLength(rooms.length + 1);
    for (const v of intoMod.json.verified) {
      const res = doc.resources.find((x) => x.type === KotorResType.WOK && `${x.resRef}.wok`.toLowerCase() === v.resource!.toLowerCase())!;
      expect(sha(res.data)).toBe(sha(bakes.get(v.file)!));
    }
  }, 120_000);
});

describe('walkbench project import and export: Source and Skyrim game folders', () => {
  it('imports the maps folder of a Source game and exports the navs into another one identically', async () => {
    const project = path.join(tmp, 'source.wbproj');
    await run('create', project, '--game', 'source');
    const src = path.join(tmp, 'cstrike');
    mkdirSync(path.join(src, 'maps'), { recursive: true });
    writeFileSync(path.join(src, 'readme.txt'), 'not a map');
    const navs = listFixtures('source/css', ['.nav']);
    for (const n of navs) copyFileSync(n, path.join(src, 'maps', path.basename(n).toUpperCase()));
    const imported = await run('import', project, src, '--module', 'maps');
    expect(imported.out).toContain(`${navs.length} added, 0 changed, 0 unchanged, 0 skipped`);

    const dest = path.join(tmp, 'cstrike-out');
    mkdirSync(path.join(dest, 'Maps'), { recursive: true });
    const r = await exportJson(project, '--to', dest);
    expect(r.status).toBe(0);
    expect(r.json.verified).toHaveLength(navs.length);
    for (const n of navs) {
      const out = path.join(dest, 'Maps', path.basename(n).toUpperCase());
      expect(sha(read(out))).toBe(sha(readFixture(n)));
    }
  });

  it('exports a Skyrim plugin into Data identically, and refuses a target that does not exist', async () => {
    const project = path.join(tmp, 'skyrim.wbproj');
    await run('create', project, '--game', 'skyrim');
    const plugin = path.join(fixturesRoot, 'skyrim/FreeCamera.esp');
    expect((await run('import', project, plugin, '--module', 'free')).status).toBe(0);
    const dest = path.join(tmp, 'Skyrim Special Edition');
    mkdirSync(path.join(dest, 'Data'), { recursive: true });
    const r = await exportJson(project, '--to', dest);
    expect(r.status).toBe(0);
    expect(sha(read(path.join(dest, 'Data', 'FreeCamera.esp')))).toBe(sha(readFixture(plugin)));
    const missing = path.join(tmp, 'no-such-game');
    const bad = await run('export', project, '--to', missing);
    expect(bad.status).toBe(1);
    expect(bad.err).toBe(`walkbench: ${missing}: no such folder or archive (export writes into an existing game folder)\n`);
    expect(existsSync(missing)).toBe(false);
  });
});

describe('walkbench project restore: what an export killed mid-write left', () => {
  it('removes the temporary file of the export it restores, beside its target, and says so', async () => {
    const project = path.join(tmp, 'restore-temp.wbproj');
    await run('create', project, '--game', 'source');
    const nav = path.join(fixturesRoot, 'source/tf2/itemtest.nav');
    expect((await run('import', project, nav, '--module', 'maps')).status).toBe(0);
    const dest = path.join(tmp, 'restore-temp-game');
    mkdirSync(path.join(dest, 'maps'), { recursive: true });
    expect((await exportJson(project, '--to', dest)).status).toBe(0);
    // What a kill between writing the temporary file and renaming it leaves (durable-write.ts
    // names it `.NAME.PID.walkbench-tmp` beside the target), and someone else's file that is not one.
    const leftover = path.join(dest, 'maps', '.itemtest.nav.48213.walkbench-tmp');
    writeFileSync(leftover, readFixture(nav).subarray(0, 1000));
    const unrelated = path.join(dest, 'maps', '.notes.txt');
    writeFileSync(unrelated, 'mine');

    const dry = await run('restore', project, '--to', dest, '--dry-run');
    expect(dry.out).toContain(`would remove ${leftover}`);
    expect(existsSync(leftover)).toBe(true);
    const r = await run('restore', project, '--to', dest);
    expect(r.status).toBe(0);
    expect(r.out).toContain(`removed ${leftover} (left by an export stopped mid-write)`);
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(path.join(dest, 'maps', 'itemtest.nav'))).toBe(false);
    expect(readFileSync(unrelated, 'utf8')).toBe('mine');
  });
});

describe('exportProject (the function the app calls)', () => {
  it('stops between files when its AbortSignal fires, leaving whole files, and a second call finishes', async () => {
    const project = path.join(tmp, 'abort.wbproj');
    const store = ProjectStore.create(project, { name: 'abort', game: 'source' });
    try {
      await importSources(store, [path.join(fixturesRoot, 'source/css')], { module: 'maps' });
      const dest = path.join(tmp, 'abort-game');
      mkdirSync(path.join(dest, 'maps'), { recursive: true });
      const controller = new AbortController();
      const seen: [number, number, string][] = [];
      const first = await exportProject(store, {
        to: dest,
        signal: controller.signal,
        onProgress: (done, total, label) => {
          seen.push([done, total, label]);
          controller.abort();
        },
      });
      expect(first.status).toBe('aborted');
      expect(seen).toEqual([[1, 4, 'maps/cs_assault.nav']]);
      expect(readdirSync(path.join(dest, 'maps'))).toEqual(['cs_assault.nav']);
      expect(sha(read(path.join(dest, 'maps', 'cs_assault.nav')))).toBe(sha(readFixture(path.join(fixturesRoot, 'source/css/cs_assault.nav'))));
      expect(store.listExportRuns()[0]).toMatchObject({ id: first.runId, status: 'failed' });

      const second = await exportProject(store, { to: dest });
      expect(second.status).toBe('done');
      expect(second.plan.entries.map((e) => e.action)).toEqual(['unchanged', 'create', 'create', 'create']);
      expect(second.verified).toHaveLength(3);
      // Restore undoes the interrupted run and the one that finished it.
      const restored = restoreLastExport(store, dest);
      expect(restored.runs.map((r) => r.id)).toEqual([second.runId, first.runId]);
      expect(readdirSync(path.join(dest, 'maps'))).toEqual([]);
    } finally {
      store.close();
    }
  });
});

describe('walkbench project export: files the project cannot stand behind', () => {
  it('refuses an edited TRX that no bake covers, naming it; after a rebake it exports the bake of the edit', async () => {
    const project = path.join(tmp, 'edited.wbproj');
    await run('create', project, '--game', 'nwn2');
    const imported = readFixture(path.join(fixturesRoot, 'nwn2/kaedrin/dm001_cargohold.trx'));
    // The edit stands for the designer's work: other bytes than the imported ones.
    const edited = readFixture(path.join(fixturesRoot, 'nwn2/kaedrin/dm_dungeon.trx'));
    let store = ProjectStore.open(project);
    try {
      const { fileId } = store.upsertFile({ module: 'm', name: 'cargo.trx', kind: 'walkmesh', format: TRX_FORMAT, bytes: imported });
      store.saveEdit(fileId, edited);
    } finally {
      store.close();
    }
    const dir = path.join(tmp, 'edited-out');
    mkdirSync(dir);
    const r = await run('export', project, '--to', dir);
    expect(r.status).toBe(1);
    expect(r.out).toContain('refused m/cargo.trx: has no bake of its current edited bytes; run `walkbench project rebake` first');
    expect(readdirSync(dir)).toEqual([]);

    expect((await run('rebake', project)).status).toBe(0);
    expect((await run('export', project, '--to', dir)).status).toBe(0);
    const written = readFileSync(path.join(dir, 'cargo.trx'));
    store = ProjectStore.open(project);
    try {
      const bakes = store.listBakes();
      expect(bakes).toHaveLength(1);
      const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
      // Baked from the edit, not from the imported bytes.
      const file = store.listFiles()[0]!;
      expect(file.editSha256).toBe(sha(edited));
      // Recorded under the edit and the imported bytes (whose unchanged tiles keep their tables).
      expect(bakes[0]!.inputs.map((i) => i.sha256)).toEqual([sha(edited), sha(imported)]);
      expect(store.lookupBake(bakeJobOf(store, file)!.spec)?.id).toBe(bakes[0]!.id);
      expect(store.lookupBake({ ...bakeSpecOf(file, 'nwn2-rebake'), inputs: [{ name: 'm/cargo.trx', sha256: sha(imported) }] })).toBeUndefined();
      expect(Buffer.compare(written, Buffer.from(store.loadBakeOutput(bakes[0]!.id)))).toBe(0);
      expect(inspectBytes('cargo.trx', new Uint8Array(written), nodeFormatEnvironment).summary?.counts).toEqual(
        inspectBytes('dm_dungeon.trx', edited, nodeFormatEnvironment).summary?.counts,
      );
    } finally {
      store.close();
    }
  });
});
