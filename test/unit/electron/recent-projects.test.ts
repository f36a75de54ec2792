import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRecentProjects, defaultRecentProjectsFile, MAX_RECENT_PROJECTS, parseRecentProjects } from '../../../electron/services/recent-projects';

const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-recent-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const store = (options: Parameters<typeof createRecentProjects>[1] = {}) => {
  const file = path.join(tmp, `case-${n++}`, 'recent-projects.json');
  return { file, recent: createRecentProjects(file, { exists: () => true, caseInsensitive: false, ...options }) };
};

describe('recent projects', () => {
  it('starts empty, puts the latest first once, and survives a restart', () => {
    const { file, recent } = store();
    expect(recent.list()).toEqual([]);
    recent.add('/p/a.wbproj');
    recent.add('/p/b.wbproj');
    expect(recent.add('/p/a.wbproj')).toEqual(['/p/a.wbproj', '/p/b.wbproj']);
    const again = createRecentProjects(file, { exists: () => true, caseInsensitive: false });
    expect(again.list()).toEqual(['/p/a.wbproj', '/p/b.wbproj']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, projects: ['/p/a.wbproj', '/p/b.wbproj'] });
  });

  it(`keeps at most ${MAX_RECENT_PROJECTS}, dropping the oldest`, () => {
    const { recent } = store();
    for (let i = 0; i < MAX_RECENT_PROJECTS + 3; i++) recent.add(`/p/${i}.wbproj`);
    const list = recent.list();
    expect(list).toHaveLength(MAX_RECENT_PROJECTS);
    expect(list[0]).toBe(`/p/${MAX_RECENT_PROJECTS + 2}.wbproj`);
    expect(list).not.toContain('/p/0.wbproj');
  });

  it('lists only projects that still exist, and removes and clears', () => {
    const gone = new Set(['/p/gone.wbproj']);
    const { recent } = store({ exists: (f) => !gone.has(f) });
    recent.add('/p/gone.wbproj');
    recent.add('/p/here.wbproj');
    expect(recent.list()).toEqual(['/p/here.wbproj']);
    expect(recent.remove('/p/here.wbproj')).toEqual(['/p/gone.wbproj']);
    recent.clear();
    expect(recent.list()).toEqual([]);
  });

  it('treats paths differing only in case as one where the file system does', () => {
    const { recent } = store({ caseInsensitive: true });
    recent.add('/P/Level.wbproj');
    expect(recent.add('/p/level.wbproj')).toEqual(['/p/level.wbproj']);
  });

  it('refuses a relative path', () => {
    expect(() => store().recent.add('level.wbproj')).toThrow(/absolute path/);
  });

  it('reads a damaged or hand-edited file as empty or keeps only its valid entries', () => {
    const { file, recent } = store();
    recent.add('/p/a.wbproj');
    writeFileSync(file, '{"projects": [');
    expect(recent.list()).toEqual([]);
    expect(parseRecentProjects('null')).toEqual([]);
    expect(parseRecentProjects('{"projects": "x"}')).toEqual([]);
    expect(parseRecentProjects(JSON.stringify({ projects: ['/ok.wbproj', 3, '', 'relative.wbproj', '/nul\0.wbproj'] }))).toEqual(['/ok.wbproj']);
    // Adding after damage rewrites a good file.
    expect(recent.add('/p/b.wbproj')).toEqual(['/p/b.wbproj']);
  });
});

describe('the browser mode recent projects file', () => {
  it('lives in the user config folder of the platform, never a relative one', () => {
    expect(defaultRecentProjectsFile({ XDG_CONFIG_HOME: '/cfg' }, 'linux', '/home/me')).toBe(path.join('/cfg', 'walkbench', 'recent-projects.json'));
    expect(defaultRecentProjectsFile({ XDG_CONFIG_HOME: 'relative/cfg' }, 'linux', '/home/me')).toBe(path.join('/home/me', '.config', 'walkbench', 'recent-projects.json'));
    expect(defaultRecentProjectsFile({}, 'darwin', '/Users/me')).toBe(path.join('/Users/me', '.config', 'walkbench', 'recent-projects.json'));
    expect(defaultRecentProjectsFile({ APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, 'win32', 'C:\\Users\\me')).toBe(path.join('C:\\Users\\me\\AppData\\Roaming', 'Walkbench', 'recent-projects.json'));
  });
});
