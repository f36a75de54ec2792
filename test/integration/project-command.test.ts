import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../electron/cli/cli-io';
import { projectCommand } from '../../electron/cli/commands/project-command';
import { ProjectStore } from '../../electron/services/project/project-store';
import { fixturesRoot, listFixtures, readFixture } from '../support/fixtures';
import { commandRunner } from '../support/run-command';

const run = commandRunner(projectCommand);

const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-project-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const kaedrin = path.join(fixturesRoot, 'nwn2/kaedrin');
const kaedrinFiles = readdirSync(kaedrin);

interface ImportJson {
  counts: Record<string, number>;
  files: { name: string; module: string; kind: string | null; status: string; reason?: string }[];
}

describe('walkbench project', () => {
  it('creates a project and shows it with info', async () => {
    const file = path.join(tmp, 'created.wbproj');
    const created = await run('create', file, '--game', 'kotor', '--game-folder', tmp);
    expect(created.status).toBe(0);
    expect(created.out).toMatch(/created project "created" for kotor/);
    const info = await run('info', file, '--json');
    expect(info.status).toBe(0);
    expect(JSON.parse(info.out)).toMatchObject({ name: 'created', game: 'kotor', gameFolders: [{ path: tmp, role: 'game' }], counts: { files: 0 } });
    const again = await run('create', file, '--game', 'kotor');
    expect(again.status).toBe(1);
    expect(again.err).toMatch(/already exists/);
  });

  it('refuses a wrong command line', async () => {
    await expect(run('create', path.join(tmp, 'x.wbproj'), '--game', 'quake')).rejects.toThrow(UsageError);
    await expect(run('import', path.join(tmp, 'x.wbproj'))).rejects.toThrow(UsageError);
    await expect(run('frobnicate')).rejects.toThrow(UsageError);
  });

  it('reports a file that is not a project in one line', async () => {
    const bogus = path.join(tmp, 'bogus.wbproj');
    writeFileSync(bogus, 'no database here, just text '.repeat(40));
    const r = await run('info', bogus);
    expect(r.status).toBe(1);
    expect(r.err).toBe(`walkbench: ${bogus}: is not a Walkbench project (not an SQLite database)\n`);
  });

  it('imports a game folder by content, then reports everything unchanged on a second import', async () => {
    const file = path.join(tmp, 'kaedrin.wbproj');
    expect((await run('create', file, '--game', 'nwn2')).status).toBe(0);
    const first = await run('import', file, kaedrin, '--json');
    expect(first.status).toBe(0);
    const report = JSON.parse(first.out) as ImportJson;
    expect(report.counts).toEqual({ added: kaedrinFiles.length, changed: 0, unchanged: 0, skipped: 0 });
    const byName = new Map(report.files.map((f) => [f.name, f]));
    expect(byName.get('fh_settlement.trx')).toMatchObject({ module: 'kaedrin', kind: 'walkmesh' });
    expect(byName.get('fh_settlement.TRN')).toMatchObject({ kind: 'trn' });
    expect(byName.get('fh_settlement.GIT')).toMatchObject({ kind: 'git' });
    expect(byName.get('fh_settlement.ARE')).toMatchObject({ kind: 'are' });

    const second = await run('import', file, kaedrin, '--json');
    expect((JSON.parse(second.out) as ImportJson).counts).toEqual({ added: 0, changed: 0, unchanged: kaedrinFiles.length, skipped: 0 });

    const store = ProjectStore.open(file);
    try {
      const files = store.listFiles({ module: 'kaedrin' });
      expect(files).toHaveLength(kaedrinFiles.length);
      const area = files.filter((f) => f.area?.toLowerCase() === 'fh_settlement').map((f) => f.kind).sort();
      expect(area).toEqual(['are', 'git', 'trn', 'walkmesh']);
      const trx = files.find((f) => f.name === 'enter world.trx')!;
      expect([...store.loadFileBytes(trx.id)]).toEqual([...readFixture(path.join(kaedrin, 'enter world.trx'))]);
    } finally {
      store.close();
    }
  });

  it('matches names without case and reports a changed file', async () => {
    const file = path.join(tmp, 'case.wbproj');
    await run('create', file, '--game', 'nwn2');
    await run('import', file, path.join(kaedrin, 'enter world.trx'), path.join(kaedrin, 'enter world.GIT'), '--module', 'M');
    const folder = path.join(tmp, 'renamed');
    mkdirSync(folder);
    copyFileSync(path.join(kaedrin, 'enter world.GIT'), path.join(folder, 'ENTER WORLD.git'));
    const trx = readFixture(path.join(kaedrin, 'enter world.trx'));
    writeFileSync(path.join(folder, 'Enter World.TRX'), Buffer.concat([trx, Buffer.from([0])]));
    const r = await run('import', file, folder, '--module', 'm');
    expect(r.status).toBe(0);
    expect(r.out).toMatch(/^changed m\/Enter World\.TRX \(walkmesh\)$/m);
    expect(r.out).toContain(`${file}: 0 added, 1 changed, 1 unchanged, 0 skipped`);
    const store = ProjectStore.open(file);
    try {
      expect(store.listFiles().map((f) => [f.module, f.name, f.size])).toEqual([
        ['M', 'ENTER WORLD.git', expect.any(Number)],
        ['M', 'Enter World.TRX', trx.length + 1],
      ]);
    } finally {
      store.close();
    }
  });

  it('imports Source navmeshes from nested folders, prints progress on stderr, and skips what it does not use', async () => {
    const file = path.join(tmp, 'source.wbproj');
    await run('create', file, '--game', 'source');
    const extra = path.join(tmp, 'source-extra');
    mkdirSync(extra);
    writeFileSync(path.join(extra, 'notes.txt'), 'map notes');
    const r = await run('import', file, path.join(fixturesRoot, 'source'), extra, '--module', 'maps');
    expect(r.status).toBe(0);
    const navs = listFixtures('source', ['.nav']).length;
    expect(r.out).toContain(`${file}: ${navs} added, 0 changed, 0 unchanged, 1 skipped`);
    expect(r.out).toMatch(/skipped .*notes\.txt: not a file Walkbench uses/);
    expect(r.err).toContain(`import: ${navs + 1}/${navs + 1} files`);
    const info = JSON.parse((await run('info', file, '--json')).out) as { kinds: Record<string, number>; modules: { name: string; fileCount: number }[] };
    expect(info.kinds).toEqual({ walkmesh: navs });
    expect(info.modules).toMatchObject([{ name: 'maps', fileCount: navs }]);
  });

  it('fails with the name of a source that does not exist', async () => {
    const file = path.join(tmp, 'missing-source.wbproj');
    await run('create', file, '--game', 'source');
    const missing = path.join(tmp, 'nowhere');
    const r = await run('import', file, missing);
    expect(r.status).toBe(1);
    expect(r.err).toBe(`walkbench: ${missing}: no such file or folder\n`);
  });
});
