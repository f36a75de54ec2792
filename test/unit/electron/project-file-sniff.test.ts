import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isProjectFile } from '../../../electron/services/project-file-sniff';
import { ProjectStore } from '../../../electron/services/project/project-store';
import { fixturesRoot } from '../../support/fixtures';

const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-sniff-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('isProjectFile', () => {
  it('tells a Walkbench project from walkmeshes, other SQLite databases and short files', async () => {
    const project = path.join(tmp, 'a.wbproj');
    ProjectStore.create(project, { name: 'a', game: 'nwn2' }).close();
    expect(await isProjectFile(project)).toBe(true);

    const other = path.join(tmp, 'other.sqlite');
    const db = new Database(other);
    db.exec('CREATE TABLE t (x)');
    db.close();
    expect(await isProjectFile(other)).toBe(false);

    expect(await isProjectFile(path.join(fixturesRoot, 'source/tf2/itemtest.nav'))).toBe(false);
    const short = path.join(tmp, 'short.bin');
    writeFileSync(short, 'SQLite format 3\0');
    expect(await isProjectFile(short)).toBe(false);
    await expect(isProjectFile(path.join(tmp, 'missing'))).rejects.toThrow(/missing: no such file/);
  });
});
