import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecentProjects } from '../../electron/services/recent-projects';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import type { ContractHandlers, Method } from '../../shared/ipc/contract';
import { dispatch } from '../../shared/ipc/dispatch';
import { createEventHub } from '../../shared/ipc/event-hub';
import type { ImportJobState } from '../../shared/ipc/import-contract';
import type { RpcOutcome } from '../../shared/ipc/rpc-error';
import { fixturesRoot, readFixture } from '../support/fixtures';

const mord = path.join(fixturesRoot, 'nwn2/mordmansion');

/** A fake NWN2 module folder in the toolset's directory mode, from the mordmansion fixture. */
function nwn2Module(root: string): string {
  const dir = path.join(root, 'Modules', 'mordtest');
  mkdirSync(dir, { recursive: true });
  for (const ext of ['TRN', 'TRX', 'GIT', 'ARE', 'GIC']) copyFileSync(path.join(mord, `CSLMordMansion.${ext}`), path.join(dir, `CSLMordMansion.${ext}`));
  copyFileSync(path.join(fixturesRoot, 'nwn2/2da/terrainmaterials.2da'), path.join(dir, 'terrainmaterials.2da'));
  // Not GFF: a module.ifo that names the folder a module, and is itself skipped with its reason.
  writeFileSync(path.join(dir, 'module.ifo'), 'not a real ifo');
  writeFileSync(path.join(dir, 'notes.txt'), 'designer notes');
  return dir;
}

describe('New project and Import through the contract', () => {
  let tmp = '';
  let service: ContractHandlers;
  const events: ImportJobState[] = [];
  const call = (method: Method, params: unknown): Promise<RpcOutcome<unknown>> => dispatch(service, method, params);
  async function ok<T>(method: Method, params: unknown): Promise<T> {
    const r = await call(method, params);
    if (!r.ok) throw new Error(`${method}: ${r.error.code}: ${r.error.message}`);
    return r.value as T;
  }
  async function settled(jobId: number): Promise<ImportJobState> {
    for (let i = 0; i < 600; i++) {
      const s = await ok<ImportJobState>('import.status', { jobId });
      if (s.state !== 'running') return s;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`import ${jobId} did not end`);
  }

  beforeAll(() => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-import-svc-'));
    const hub = createEventHub();
    hub.subscribe((event, payload) => {
      if (event === 'import.progress') events.push(payload as ImportJobState);
    });
    service = createWalkbenchService({ events: hub, recentProjects: createRecentProjects(path.join(tmp, 'recent.json')) });
  });
  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('refuses project.create arguments of the wrong type, relative paths, missing folders and existing files', async () => {
    const expectError = async (params: unknown, code: string, parameter: string, text: RegExp) => {
      const r = await call('project.create', params);
      expect(r.ok, JSON.stringify(params)).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe(code);
      expect(r.error.parameter).toBe(parameter);
      expect(r.error.message).toMatch(text);
    };
    const file = path.join(tmp, 'bad.wbproj');
    await expectError({ path: 5, game: 'nwn2' }, 'invalid-params', 'params.path', /expected a string/);
    await expectError({ path: file, game: 'doom' }, 'invalid-params', 'params.game', /nwn2/);
    await expectError({ path: file }, 'invalid-params', 'params.game', /required/);
    await expectError({ path: file, game: 'nwn2', extra: 1 }, 'invalid-params', 'params.extra', /not a parameter/);
    await expectError({ path: 'levels/new.wbproj', game: 'nwn2' }, 'invalid-params', 'params.path', /absolute path/);
    await expectError({ path: path.join(tmp, 'no-such-folder', 'x.wbproj'), game: 'nwn2' }, 'not-found', 'params.path', /no such folder/);
    await expectError({ path: tmp, game: 'nwn2' }, 'not-a-file', 'params.path', /is a folder/);
    writeFileSync(path.join(tmp, 'taken.wbproj'), 'x');
    await expectError({ path: path.join(tmp, 'taken.wbproj'), game: 'nwn2' }, 'exists', 'params.path', /already exists/);
    await expectError({ path: file, game: 'nwn2', gameFolders: 'C:/games' }, 'invalid-params', 'params.gameFolders', /array/);
    await expectError({ path: file, game: 'nwn2', gameFolders: ['games/nwn2'] }, 'invalid-params', 'params.gameFolders[0]', /absolute path/);
    await expectError({ path: file, game: 'nwn2', gameFolders: [path.join(tmp, 'nowhere')] }, 'not-found', 'params.gameFolders[0]', /no such folder/);
    await expectError({ path: file, game: 'nwn2', gameFolders: [path.join(tmp, 'taken.wbproj')] }, 'not-a-file', 'params.gameFolders[0]', /not a folder/);
    // Nothing was created by the refused calls.
    expect((await call('project.open', { path: file })).ok).toBe(false);
  });

  it('creates an NWN2 project, imports a module folder as a job and reports what it found and skipped', async () => {
    const layout = path.join(tmp, 'nwn2-game');
    const moduleDir = nwn2Module(layout);
    const file = path.join(tmp, 'mord.wbproj');
    const created = await ok<{ path: string; name: string; game: string; gameFolders: string[] }>('project.create', { path: file, game: 'nwn2', gameFolders: [layout] });
    expect(created).toEqual({ path: file, name: 'mord', game: 'nwn2', gameFolders: [layout] });

    // No project is open yet: the import is refused as about no open project.
    const early = await call('import.start', { session: 'not-a-session', sources: [moduleDir] });
    expect(early.ok ? null : early.error.code).toBe('stale');

    const tree = await ok<{ session: string }>('project.open', { path: file });
    const session = tree.session;
    const refused = async (params: unknown, code: string, parameter: string, text: RegExp) => {
      const r = await call('import.start', params);
      expect(r.ok, JSON.stringify(params)).toBe(false);
      if (r.ok) return;
      expect([r.error.code, r.error.parameter]).toEqual([code, parameter]);
      expect(r.error.message).toMatch(text);
    };
    await refused({ session, sources: moduleDir }, 'invalid-params', 'params.sources', /array/);
    await refused({ session, sources: [42] }, 'invalid-params', 'params.sources[0]', /string/);
    await refused({ session, sources: [] }, 'invalid-params', 'params.sources', /at least one/);
    await refused({ session, sources: ['Modules/mordtest'] }, 'invalid-params', 'params.sources[0]', /absolute path/);
    await refused({ session, sources: [path.join(tmp, 'gone')] }, 'not-found', 'params.sources[0]', /no such file or folder/);
    await refused({ session, sources: [moduleDir], modelDirs: [path.join(moduleDir, 'notes.txt')] }, 'not-a-file', 'params.modelDirs[0]', /not a folder/);
    await refused({ session, sources: [moduleDir], twoDaDir: path.join(tmp, 'no-2da') }, 'not-found', 'params.twoDaDir', /no such folder/);
    await refused({ session, sources: [moduleDir], twoDaDir: 'rel/2da' }, 'invalid-params', 'params.twoDaDir', /absolute path/);
    await refused({ session, sources: [moduleDir], module: '' }, 'invalid-params', 'params.module', /1 to/);
    await refused({ session: 'short', sources: [moduleDir] }, 'invalid-params', 'params.session', /8 to/);

    const { jobId } = await ok<{ jobId: number }>('import.start', { session, sources: [moduleDir] });
    const final = await settled(jobId);
    expect(final.state).toBe('done');
    expect(final.project).toBe(file);
    expect(final.found).toMatchObject({ areas: 1, walkmeshes: 2, placements: 1, twoDas: 1, rooms: 0, navmeshes: 0, masters: 0 });
    expect(final.counts).toEqual({ added: 6, changed: 0, unchanged: 0, skipped: 2 });
    const skipped = final.skipped.flatMap((g) => g.examples.map((p) => `${path.basename(p)}: ${g.reason}`));
    expect(skipped).toEqual(expect.arrayContaining([expect.stringMatching(/^module\.ifo: not a file Walkbench uses/), expect.stringMatching(/^notes\.txt: not a file Walkbench uses/)]));
    // Every imported file is in the project under the module folder's name, with its id.
    const reopened = await ok<{ session: string; modules: { name: string; areas: { name: string; files: { id: number; name: string }[] }[] }[] }>('project.open', { path: file });
    const area = reopened.modules.find((m) => m.name === 'mordtest')?.areas.find((a) => a.name === 'CSLMordMansion');
    expect(area?.files.map((f) => f.name).sort()).toEqual(['CSLMordMansion.ARE', 'CSLMordMansion.GIC', 'CSLMordMansion.GIT', 'CSLMordMansion.TRN', 'CSLMordMansion.TRX']);
    const trx = final.imported.find((e) => e.name === 'CSLMordMansion.TRX');
    expect(trx?.fileId).toBe(area?.files.find((f) => f.name === 'CSLMordMansion.TRX')?.id);

    // The events told the same story: running first, the final state last, sequence rising.
    const mine = events.filter((e) => e.jobId === jobId);
    expect(mine[0]?.state).toBe('running');
    expect(mine.at(-1)).toMatchObject({ state: 'done', counts: final.counts });
    expect(mine.every((e, i) => i === 0 || e.seq > mine[i - 1]!.seq)).toBe(true);

    // Importing the same folder again changes nothing; the recent list has the project first.
    const stale = await call('import.start', { session, sources: [moduleDir] });
    expect(stale.ok ? null : stale.error.code).toBe('stale');
    const second = await settled((await ok<{ jobId: number }>('import.start', { session: reopened.session, sources: [moduleDir] })).jobId);
    expect(second.counts).toMatchObject({ added: 0, changed: 0, unchanged: 6 });
    expect((await ok<{ projects: string[] }>('recent.list', {})).projects[0]).toBe(file);
  });

  it('adds a dropped file by its bytes into the open project, and refuses names that are not files', async () => {
    const file = path.join(tmp, 'source.wbproj');
    await ok('project.create', { path: file, game: 'source' });
    const { session } = await ok<{ session: string }>('project.open', { path: file });
    const bytes = readFixture(path.join(fixturesRoot, 'source/hl2dm/dm_lockdown.nav'));
    const bad = await call('import.bytes', { session, name: '..', bytes, module: 'maps' });
    expect(bad.ok ? null : [bad.error.code, bad.error.parameter]).toEqual(['invalid-params', 'params.name']);
    const notBytes = await call('import.bytes', { session, name: 'x.nav', bytes: [1, 2, 3], module: 'maps' });
    expect(notBytes.ok ? null : notBytes.error.parameter).toBe('params.bytes');
    const final = await settled((await ok<{ jobId: number }>('import.bytes', { session, name: '/somewhere/dm_lockdown.nav', bytes, module: 'maps' })).jobId);
    expect(final.state).toBe('done');
    expect(final.found).toMatchObject({ areas: 1, navmeshes: 1 });
    expect(final.imported).toEqual([{ fileId: expect.any(Number), module: 'maps', name: 'dm_lockdown.nav', kind: 'walkmesh', status: 'added' }]);
    const tree = await ok<{ session: string }>('project.open', { path: file });
    const opened = await ok<{ name: string; walkmeshes: unknown[]; projectFile?: { fileId: number } }>('project.openFile', { session: tree.session, fileId: final.imported[0]!.fileId });
    expect(opened.walkmeshes.length).toBeGreaterThan(0);
    expect(opened.projectFile?.fileId).toBe(final.imported[0]!.fileId);
  });

  it('ends a job as failed, with the file and the reason, when a named archive is damaged', async () => {
    const file = path.join(tmp, 'broken.wbproj');
    await ok('project.create', { path: file, game: 'nwn2' });
    const { session } = await ok<{ session: string }>('project.open', { path: file });
    const broken = path.join(tmp, 'broken.mod');
    // An ERF header cut short: the reader must refuse it, not read past the end.
    writeFileSync(path.join(tmp, 'broken.mod'), Buffer.concat([Buffer.from('MOD V1.0'), Buffer.alloc(12)]));
    const final = await settled((await ok<{ jobId: number }>('import.start', { session, sources: [broken] })).jobId);
    expect(final.state).toBe('failed');
    expect(final.error).toContain('broken.mod');
    expect(final.label.startsWith('Import failed: ')).toBe(true);
    expect(final.counts.added).toBe(0);
  });

  it('lists a KotOR game folder’s modules only for a KotOR game folder', async () => {
    const rel = await call('import.kotorModules', { folder: 'games/kotor' });
    expect(rel.ok ? null : [rel.error.code, rel.error.parameter]).toEqual(['invalid-params', 'params.folder']);
    const missing = await call('import.kotorModules', { folder: path.join(tmp, 'no-kotor') });
    expect(missing.ok ? null : missing.error.code).toBe('not-found');
    const notKotor = await call('import.kotorModules', { folder: tmp });
    // An existing folder without chitin.key is an answer (no modules, and why), not an error: the dialog probes every folder typed.
    const answer = notKotor.ok ? (notKotor.value as { modules: string[]; notGameFolder?: string }) : null;
    expect(answer?.modules).toEqual([]);
    expect(answer?.notGameFolder).toMatch(/no chitin\.key/);
  });
});
