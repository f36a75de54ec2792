import { projectResolver } from '../support/project-resolver';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebakeProject } from '../../electron/services/bake-pool/project-rebake';
import { createExportService, type ExportService } from '../../electron/services/export-service';
import { nodeFormatEnvironment } from '../../electron/services/node-format-environment';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createErfDocument } from '../../shared/formats/aurora/erf-document';
import { readErf } from '../../shared/formats/aurora/erf-reader';
import { writeErf } from '../../shared/formats/aurora/erf-writer';
import { KotorResType } from '../../shared/formats/aurora/resource-types';
import { BWM_FORMAT } from '../../shared/formats/kotor/bwm-document';
import { inspectBytes } from '../../shared/formats/inspect-file';
import { paramSchemas, eventSchemas } from '../../shared/ipc/contract';
import type { ExportProgress } from '../../shared/ipc/export-contract';
import { ServiceError } from '../../shared/ipc/rpc-error';
import { validate } from '../../shared/ipc/schema';
import { listFixtures, readFixture } from '../support/fixtures';

const woks = listFixtures('kotor/k1-blackvulkar', ['.wok']).slice(0, 3);
const read = (f: string) => new Uint8Array(readFileSync(f));

function withStore<T>(file: string, fn: (store: ProjectStore) => T): T {
  const store = ProjectStore.open(file);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

/** What a call rejected with, as code, parameter and message. */
async function failure(p: Promise<unknown>): Promise<{ code: string; parameter: string | undefined; message: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ServiceError) return { code: e.code, parameter: e.parameter, message: e.message };
    throw e;
  }
  throw new Error('the call did not fail');
}

describe('export service: the open project into a KotOR game folder', () => {
  let tmp = '';
  let project = '';
  let game = '';
  let override = '';
  let service: ExportService;
  let open: string | null = null;
  const events: ExportProgress[] = [];
  /** The bake output of each project file, by `module/name`. */
  let bakes = new Map<string, Uint8Array>();
  const oldName = () => path.basename(woks[0]!).toUpperCase();

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-export-service-'));
    project = path.join(tmp, 'vulkar.wbproj');
    game = path.join(tmp, 'kotor-game');
    override = path.join(game, 'Override');
    mkdirSync(override, { recursive: true });
    // A file the export replaces, named in another case than the project's.
    writeFileSync(path.join(override, oldName()), 'the old walkmesh');
    const store = ProjectStore.create(project, { name: 'Vulkar', game: 'kotor' });
    try {
      for (const f of woks) store.upsertFile({ module: 'm10aa', name: path.basename(f), kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(f) });
    } finally {
      store.close();
    }
    service = createExportService({
      emit: (event, payload) => {
        if (event !== 'export.progress') return;
        // Every event must pass the schema the renderer checks it with.
        expect(validate(eventSchemas['export.progress'], payload).ok).toBe(true);
        events.push(payload as ExportProgress);
      },
      resolveProject: projectResolver(() => open),
      progressIntervalMs: 0,
    });
  });

  afterAll(async () => {
    await service?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('refuses a relative or missing game folder, and answers when no project is open', async () => {
    expect(await failure(service.handlers['export.plan']({ gameDir: game, rebake: true }))).toMatchObject({ code: 'invalid-params', message: expect.stringMatching(/name the project/) });
    open = project;
    expect(await failure(service.handlers['export.plan']({ gameDir: 'kotor-game' }))).toMatchObject({
      code: 'invalid-params',
      parameter: 'params.gameDir',
      message: expect.stringContaining('must be an absolute path, not "kotor-game"'),
    });
    const missing = path.join(tmp, 'no-such-game');
    expect(await failure(service.handlers['export.run']({ gameDir: missing }))).toMatchObject({
      code: 'not-found',
      parameter: 'params.gameDir',
      message: `${missing}: no such folder or archive (export writes into an existing game folder)`,
    });
    const notAFolder = path.join(tmp, 'notes.txt');
    writeFileSync(notAFolder, 'not a game');
    expect(await failure(service.handlers['export.plan']({ gameDir: notAFolder }))).toMatchObject({
      code: 'unreadable',
      parameter: 'params.gameDir',
      message: `${notAFolder}: is a file; kotor exports go into a folder or a .mod/.erf/.rim archive`,
    });
    // The schemas refuse what is not a contract parameter before a service sees it.
    expect(validate(paramSchemas['export.plan'], { gameDir: game, force: true }).ok).toBe(false);
    expect(validate(paramSchemas['export.plan'], { gameDir: game, rebake: 'yes' }).ok).toBe(false);
    expect(validate(paramSchemas['export.restore'], { gameDir: '' }).ok).toBe(false);
  });

  it('plans unedited walkmeshes as imported, byte for byte, whether baked or not (issue 15 §4)', async () => {
    const plan = await service.handlers['export.plan']({ gameDir: game });
    expect(plan.refused).toEqual([]);
    expect(plan.entries.map((e) => [e.file, e.source, e.change, e.bytes])).toEqual(woks.map((f) => [`m10aa/${path.basename(f)}`, 'import', 'unchanged', readFixture(f).length]));
    expect(plan.entries.map((e) => e.why)).toEqual(woks.map(() => expect.stringMatching(/^unedited since import/)));
  });

  it('asked to re-bake, lists unbaked walkmeshes as refused, with the reason, and writes nothing when asked to run', async () => {
    const plan = await service.handlers['export.plan']({ gameDir: game, rebake: true });
    expect(plan.entries).toEqual([]);
    expect(plan.refused.map((r) => r.file).sort()).toEqual(woks.map((f) => `m10aa/${path.basename(f)}`).sort());
    for (const r of plan.refused) expect(r.reason).toMatch(/has no bake of its current bytes/);
    const refused = await failure(service.handlers['export.run']({ gameDir: game, rebake: true }));
    expect(refused.code).toBe('invalid-params');
    expect(refused.message).toMatch(/^export\.run: nothing was written: 3 file\(s\) cannot be exported, e\.g\. m10aa\/.*has no bake/);
    expect(readdirSync(override)).toEqual([oldName()]);
  });

  it('plans the baked walkmeshes into override/: what goes where, create or replace, without writing', async () => {
    const store = ProjectStore.open(project);
    try {
      expect((await rebakeProject(store, { jobs: 1 })).counts.baked).toBe(woks.length);
    } finally {
      store.close();
    }
    bakes = withStore(project, (s) => new Map(s.listBakes().map((b) => [b.inputs[0]!.name, s.loadBakeOutput(b.id)])));
    expect(bakes.size).toBe(woks.length);
    const plan = await service.handlers['export.plan']({ gameDir: game, rebake: true });
    expect(plan.refused).toEqual([]);
    expect(plan.target).toEqual({ kind: 'folder', path: override });
    const rows = plan.entries.map((e) => [e.file, path.basename(e.targetPath), e.action, e.source, e.change, e.why, e.bytes]);
    expect(rows).toEqual(
      woks.map((f, i) => {
        const file = `m10aa/${path.basename(f)}`;
        return [file, i === 0 ? oldName() : path.basename(f), i === 0 ? 'replace' : 'create', 'bake', 'rebaked', 'a re-bake of unedited files was asked for', bakes.get(file)!.length];
      }),
    );
    for (const e of plan.entries) expect(path.dirname(e.targetPath)).toBe(override);
    expect(readdirSync(override)).toEqual([oldName()]);
    expect(readFileSync(path.join(override, oldName()), 'utf8')).toBe('the old walkmesh');
  });

  it('cancels a run between files: every file is whole, the old or the new', async () => {
    const { jobId } = await service.handlers['export.run']({ gameDir: game, rebake: true });
    expect((await service.handlers['export.cancel']({ jobId })).cancelled).toBe(true);
    const end = await service.settled(jobId);
    expect(end.state).toBe('cancelled');
    expect(end.done).toBeLessThan(end.total);
    expect(end.label).toMatch(/^Cancelled after \d+ files?/);
    for (const name of readdirSync(override)) {
      const bytes = read(path.join(override, name));
      const isOld = Buffer.from(bytes).toString('utf8') === 'the old walkmesh';
      const isNew = [...bakes.values()].some((b) => Buffer.compare(Buffer.from(b), Buffer.from(bytes)) === 0);
      expect(isOld || isNew, name).toBe(true);
    }
    expect((await service.handlers['export.cancel']({ jobId })).cancelled).toBe(false);
  });

  it('runs with progress events up to done; each file is on disk, reads back identical to its bake and validates', async () => {
    events.length = 0;
    const { jobId } = await service.handlers['export.run']({ gameDir: game, rebake: true });
    // One export at a time: a second one (or a restore) while it runs is refused.
    expect(await failure(service.handlers['export.restore']({ gameDir: game }))).toMatchObject({ code: 'forbidden' });
    const end = await service.settled(jobId);
    expect(end.state).toBe('done');
    expect(end.error).toBeNull();
    const mine = events.filter((e) => e.jobId === jobId);
    expect(mine[0]!.state).toBe('running');
    expect(mine.at(-1)).toEqual(end);
    for (let i = 1; i < mine.length; i++) expect(mine[i]!.seq).toBeGreaterThan(mine[i - 1]!.seq);
    expect(mine.some((e) => e.state === 'running' && e.done > 0)).toBe(true);
    expect(await service.handlers['export.status']({ jobId })).toEqual(end);

    expect(end.verified.map((v) => v.file).sort()).toEqual([...bakes.keys()].sort());
    for (const v of end.verified) {
      const onDisk = read(v.targetPath);
      expect(Buffer.compare(Buffer.from(onDisk), Buffer.from(bakes.get(v.file)!)), v.file).toBe(0);
      expect(v.bytes).toBe(onDisk.length);
      const report = inspectBytes(v.targetPath, onDisk, nodeFormatEnvironment);
      expect(report.readFailure, v.file).toBeNull();
      expect(report.format).toBe(BWM_FORMAT);
    }
    expect(end.verified.find((v) => path.basename(v.targetPath) === oldName())?.action).toBe('replace');
    // The replaced file is backed up beside the project, outside the game folder.
    expect(end.backupDir!.startsWith(`${project}.backups${path.sep}`)).toBe(true);
    expect(readFileSync(path.join(end.backupDir!, 'Override', oldName()), 'utf8')).toBe('the old walkmesh');

    // Planned again, every file is already up to date.
    const again = await service.handlers['export.plan']({ gameDir: game, rebake: true });
    expect(again.entries.map((e) => e.action)).toEqual(woks.map(() => 'unchanged'));
  });

  it('restores: the old bytes are back and the files the export created are gone', async () => {
    const result = await service.handlers['export.restore']({ gameDir: game });
    expect(result.runs.length).toBeGreaterThanOrEqual(1);
    const by = (a: string) => result.files.filter((f) => f.action === a).map((f) => path.basename(f.targetPath));
    expect(by('restored')).toEqual([oldName()]);
    expect(by('removed').sort()).toEqual(woks.slice(1).map((f) => path.basename(f)).sort());
    expect(by('kept')).toEqual([]);
    expect(readdirSync(override)).toEqual([oldName()]);
    expect(readFileSync(path.join(override, oldName()), 'utf8')).toBe('the old walkmesh');
    // Nothing left to undo.
    expect((await service.handlers['export.restore']({ gameDir: game })).runs).toEqual([]);
  });

  it('reports a file that cannot be written by its path and reason; the files before it stay verified and restore undoes them', async () => {
    // A folder where the second walkmesh goes: the rename over it fails.
    const blocked = path.join(override, path.basename(woks[1]!));
    mkdirSync(path.join(blocked, 'inside'), { recursive: true });
    const { jobId } = await service.handlers['export.run']({ gameDir: game, rebake: true });
    const end = await service.settled(jobId);
    expect(end.state).toBe('failed');
    expect(end.label).toBe('Failed');
    expect(end.error!.startsWith(`${blocked}: `)).toBe(true);
    // The file written before the failure is listed as verified.
    expect(end.verified.map((v) => [v.file, v.targetPath, v.action])).toEqual([[`m10aa/${path.basename(woks[0]!)}`, path.join(override, oldName()), 'replace']]);
    // The first file was replaced before the failure: its backup folder is reported.
    expect(end.backupDir!.startsWith(`${project}.backups${path.sep}`)).toBe(true);
    const restored = await service.handlers['export.restore']({ gameDir: game });
    expect(restored.files.find((f) => f.action === 'restored')?.targetPath).toBe(path.join(override, oldName()));
    expect(readFileSync(path.join(override, oldName()), 'utf8')).toBe('the old walkmesh');
    rmSync(blocked, { recursive: true });
    expect(readdirSync(override)).toEqual([oldName()]);
  });

  it('exports into a module archive: the plan names the resources, the run rewrites the archive and keeps its other resources', async () => {
    const mod = path.join(game, 'Modules', 'm10aa.mod');
    mkdirSync(path.dirname(mod));
    const erf = createErfDocument('MOD ', 'V1.0');
    const other = new TextEncoder().encode('#MAXLAYOUT ASCII\nbeginlayout\ndonelayout\n');
    erf.resources.push({ resRef: 'm10aa', type: KotorResType.LYT, data: other });
    writeFileSync(mod, writeErf(erf));
    const plan = await service.handlers['export.plan']({ gameDir: mod, rebake: true });
    expect(plan.target).toEqual({ kind: 'archive', path: mod });
    expect(plan.entries.map((e) => [e.targetPath, e.resource, e.action])).toEqual(woks.map((f) => [mod, path.basename(f), 'create']));
    const { jobId } = await service.handlers['export.run']({ gameDir: mod, rebake: true });
    const end = await service.settled(jobId);
    expect(end.state).toBe('done');
    expect(end.verified.map((v) => v.resource)).toEqual(woks.map((f) => path.basename(f)));
    const doc = readErf(read(mod));
    expect(doc.resources).toHaveLength(woks.length + 1);
    expect(Buffer.from(doc.resources.find((r) => r.type === KotorResType.LYT)!.data).toString()).toBe(Buffer.from(other).toString());
    for (const v of end.verified) {
      const res = doc.resources.find((r) => r.type === KotorResType.WOK && `${r.resRef}.wok` === v.resource!.toLowerCase())!;
      expect(Buffer.compare(Buffer.from(res.data), Buffer.from(bakes.get(v.file)!)), v.file).toBe(0);
    }
    // The archive was backed up whole before it was rewritten, and restore puts it back.
    expect(Buffer.compare(read(path.join(end.backupDir!, 'm10aa.mod')), Buffer.from(writeErf(erf)))).toBe(0);
    const restored = await service.handlers['export.restore']({ gameDir: mod });
    expect(restored.files).toEqual([{ targetPath: mod, action: 'restored' }]);
    expect(readErf(read(mod)).resources).toHaveLength(1);
  });

  it('names the module it cannot find', async () => {
    expect(await failure(service.handlers['export.plan']({ gameDir: game, module: 'nowhere' }))).toMatchObject({
      code: 'not-found',
      parameter: 'params.module',
      message: expect.stringContaining('module "nowhere"'),
    });
  });
});
