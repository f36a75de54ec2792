/**
 * New project from a game layout, in the page (issue 16 §1): the dialog creates the project,
 * imports an NWN2 module folder built in a temp folder from the fixtures, shows progress and
 * what was found and skipped; an area opens from the summary; a loose file (typed path, then
 * dropped bytes) is added to the project in one step and opens as the project's copy; after
 * a reload the start screen reopens the project from the recent list; Save As says where
 * the project now lives and the path box follows. With `WALKBENCH_SCREENSHOTS=DIR` the
 * dialog's screenshots are written there.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserServer, type BrowserServer } from '../../electron/services/browser-server';
import { createRecentProjects } from '../../electron/services/recent-projects';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { createEventHub } from '../../shared/ipc/event-hub';
import { recordPageProblems } from '../support/browser-app';
import { browserSuite } from '../support/browser-suite';
import { fixturesRoot } from '../support/fixtures';

const shotsDir = process.env['WALKBENCH_SCREENSHOTS'];
const suite = browserSuite('walkbench-e2e-newproj-');

describe('New project from a game folder, in the page', () => {
  let tmp = '';
  let server: BrowserServer | undefined;
  let closeService: (() => Promise<void>) | undefined;
  let page: Page;
  const problems: string[] = [];
  const text = async (testId: string) => (await page.getByTestId(testId).first().textContent())?.trim() ?? '';
  const shot = async (name: string) => {
    if (!shotsDir) return;
    mkdirSync(shotsDir, { recursive: true });
    await page.screenshot({ path: path.join(shotsDir, name) });
  };

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-newproj-'));
    const events = createEventHub();
    const service = createWalkbenchService({ events, recentProjects: createRecentProjects(path.join(tmp, 'recent.json')), onClose: (c) => (closeService = c) });
    server = await startBrowserServer({ service, events, rendererDir: suite.rendererDir });
    page = await suite.browser.newPage({ viewport: { width: 1280, height: 860 } });
    // The event stream is cut when the test reloads the page (the reopen-from-recent step), and
    // so is a read of the level around the open area still under way then (context.load runs
    // for seconds on a loaded machine); any other failed request is a problem.
    recordPageProblems(page, problems, { ignoreFailedRequest: (url) => ['/events', '/rpc/context.load'].includes(new URL(url).pathname) });
    expect((await page.goto(server.url))?.status()).toBe(200);
  });

  afterAll(async () => {
    await page?.close();
    await server?.close();
    await closeService?.();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('creates a project from a module folder, opens an area, adds loose files, reopens it from the recent list', async () => {
    // An NWN2 install as the toolset leaves it: Modules/<name>/ with module.ifo, the area's files, a table and a stray note.
    const game = path.join(tmp, 'NWN2');
    const moduleDir = path.join(game, 'Modules', 'mordtest');
    mkdirSync(moduleDir, { recursive: true });
    for (const ext of ['TRN', 'TRX', 'GIT', 'ARE']) copyFileSync(path.join(fixturesRoot, 'nwn2/mordmansion', `CSLMordMansion.${ext}`), path.join(moduleDir, `CSLMordMansion.${ext}`));
    copyFileSync(path.join(fixturesRoot, 'nwn2/2da/terrainmaterials.2da'), path.join(moduleDir, 'terrainmaterials.2da'));
    writeFileSync(path.join(moduleDir, 'module.ifo'), 'not a real ifo');
    writeFileSync(path.join(moduleDir, 'readme.txt'), 'notes');
    const loose = path.join(tmp, 'loose', 'dm001_cargohold.trx');
    mkdirSync(path.dirname(loose));
    copyFileSync(path.join(fixturesRoot, 'nwn2/kaedrin/dm001_cargohold.trx'), loose);
    const projectFile = path.join(tmp, 'levels', 'mord.wbproj');
    mkdirSync(path.dirname(projectFile));

    // The start screen offers New project; nothing is recent yet.
    await page.getByTestId('start-screen').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('recent-project').count()).toBe(0);
    await page.getByTestId('start-new-project').click();
    const dialog = page.getByTestId('new-project-dialog');
    await dialog.waitFor();
    expect(await dialog.getAttribute('data-mode')).toBe('new');
    await page.getByTestId('new-project-game').selectOption('nwn2');
    await page.getByTestId('new-project-path').fill(projectFile);
    await page.getByTestId('new-project-source').fill(moduleDir);
    await page.locator('details.more summary').click();
    await page.getByTestId('new-project-game-folder').fill(game);
    await shot('new-project-dialog.png');

    await page.getByTestId('new-project-create').click();
    await page.locator('[data-testid="import-run"][data-state="done"]').waitFor({ timeout: 60_000 });
    // The progress: the steps the import went through (its events, in order) and the full bar.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="import-step"]').length >= 3);
    const steps = (await page.getByTestId('import-step').allTextContents()).map((s) => s.trim());
    expect(steps[0]).toBe('Looking through mordtest…');
    expect(steps).toContain('Importing: 7 of 7 files');
    expect(steps.at(-1)).toBe('5 added, 0 changed, 0 unchanged, 2 skipped');
    expect(await text('import-label')).toBe('5 added, 0 changed, 0 unchanged, 2 skipped');
    expect(await page.getByTestId('import-progress').evaluate((el) => (el as HTMLProgressElement).value)).toBe(100);

    // What was found, and what is missing with the reason.
    expect(await text('import-found-areas')).toBe('1 areas');
    expect(await text('import-found-walkmeshes')).toBe('2 walkmeshes (TRX/TRN)');
    expect(await text('import-found-placements')).toBe('1 placement files (GIT)');
    expect(await text('import-found-twoDas')).toBe('1 2DA tables');
    expect(await page.getByTestId('import-found-masters').count()).toBe(0);
    const skipped = (await page.getByTestId('import-skipped-group').allTextContents()).map((s) => s.replace(/\s+/g, ' ').trim());
    expect(skipped).toEqual([expect.stringMatching(/^2 × not a file Walkbench uses — (module\.ifo, readme\.txt|readme\.txt, module\.ifo)$/)]);
    await shot('new-project-summary.png');

    // The project is open in the tree (read again once the import ended), under the module folder's name, and the path box says where it lives.
    await page.locator('[data-testid="tree-file"][data-file-name="CSLMordMansion.TRX"]').waitFor();
    expect(await text('project-name')).toBe('mord');
    expect(await page.getByTestId('project-path').inputValue()).toBe(projectFile);
    expect(await page.locator('[data-testid="tree-file"][data-file-name="CSLMordMansion.TRX"]').count()).toBe(1);

    // Open an area from the summary: the dialog closes and the project's TRX is the active tab.
    await page.locator('[data-testid="import-open-area"]', { hasText: 'mordtest/CSLMordMansion.TRX' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.waitForFunction(() => {
      const s = (window as unknown as { __walkbench?: { state?: () => { tabs: { name: string; active: boolean; session: string | null; faces: number }[] } } }).__walkbench?.state?.();
      return s?.tabs.some((t) => t.active && t.name === 'CSLMordMansion.TRX' && t.session !== null && t.faces > 0) ?? false;
    });

    // A loose file by typed path: opened loose, then added to the project in one step.
    await page.getByTestId('open-path').fill(loose);
    await page.getByTestId('open-path-submit').click();
    await page.getByTestId('loose-add').waitFor();
    expect(await page.getByTestId('loose-add-module').inputValue()).toBe('mordtest');
    await shot('loose-file-add.png');
    await page.getByTestId('loose-add-submit').click();
    await page.getByTestId('loose-add-note').waitFor({ timeout: 30_000 });
    expect(await text('loose-add-note')).toBe('dm001_cargohold.trx is now in mordtest (added); edits go to the project');
    const tabsNow = await page.evaluate(() => (window as unknown as { __walkbench: { state: () => { tabs: { name: string; active: boolean; session: string | null }[] } } }).__walkbench.state().tabs);
    // The loose tab is replaced by the project's copy (a project file: editable, undoable).
    expect(tabsNow.filter((t) => t.name.startsWith('dm001_cargohold'))).toEqual([expect.objectContaining({ name: 'dm001_cargohold.trx', active: true, session: expect.any(String) })]);
    expect(await page.locator('[data-testid="tree-file"][data-file-name="dm001_cargohold.trx"]').count()).toBe(1);
    expect(await page.getByTestId('loose-add').count()).toBe(0);

    // A dropped file (bytes only: the page never learns its path) is added the same way.
    const dropped = readFileSync(path.join(fixturesRoot, 'nwn2/kaedrin/md_fancy fox fashions_rlg.TRN')).toString('base64');
    await page.evaluate(
      ({ name, b64 }) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], name));
        document.querySelector('.app')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      },
      { name: 'fancy_fox.trn', b64: dropped },
    );
    await page.getByTestId('loose-add').waitFor();
    await page.getByTestId('loose-add-submit').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="loose-add-note"]')?.textContent?.includes('fancy_fox.trn') ?? false, undefined, { timeout: 30_000 }).catch(async () => {
      throw new Error(`no note about fancy_fox.trn; the page says: ${await text('loose-add-note')} / ${await text('status').catch(() => '')}`);
    });
    expect(await text('loose-add-note')).toBe('fancy_fox.trn is now in mordtest (added); edits go to the project');
    expect(await page.locator('[data-testid="tree-file"][data-file-name="fancy_fox.trn"]').count()).toBe(1);

    // Reload: the start screen lists the project and reopens it.
    await page.reload();
    await page.getByTestId('start-screen').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('recent-project').first().getAttribute('data-path')).toBe(projectFile);
    expect(await text('reopen-last')).toBe('Reopen mord.wbproj');
    await shot('start-screen-recent.png');
    await page.getByTestId('reopen-last').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="project-name"]')?.textContent?.trim() === 'mord');
    expect(await page.locator('[data-testid="tree-file"][data-file-name="dm001_cargohold.trx"]').count()).toBe(1);
    expect(await page.getByTestId('project-path').inputValue()).toBe(projectFile);

    // Save As: the note says where the project lives now, and the path box follows it.
    const copy = path.join(tmp, 'levels', 'mord-copy.wbproj');
    await page.getByTestId('project-save-as-path').fill(copy);
    await page.getByTestId('project-save-as').click();
    await page.waitForFunction((p) => document.querySelector('[data-testid="project-note"]')?.textContent?.includes(p) ?? false, copy);
    expect(await text('project-note')).toBe(`Saved as ${copy}; you are now working in the copy`);
    expect(await page.getByTestId('project-path').inputValue()).toBe(copy);

    // Add to project…: a game folder's 2DA table later, without re-importing the module.
    await page.getByTestId('add-to-project').click();
    await page.getByTestId('new-project-source').fill(path.join(fixturesRoot, 'nwn2/2da/doortypes.2da'));
    await page.getByTestId('new-project-module').fill('mordtest');
    await page.getByTestId('new-project-create').click();
    await page.locator('[data-testid="import-run"][data-state="done"]').waitFor({ timeout: 60_000 });
    expect(await text('import-label')).toBe('1 added, 0 changed, 0 unchanged, 0 skipped');
    expect(await text('import-found-twoDas')).toBe('1 2DA tables');
    await page.getByTestId('new-project-close').click();

    expect(problems).toEqual([]);
  }, 240_000);

  it('shows a clear error for a relative project path and creates nothing', async () => {
    await page.getByTestId('new-project').click();
    await page.getByTestId('new-project-path').fill('levels/relative.wbproj');
    await page.getByTestId('new-project-create').click();
    await page.getByTestId('new-project-error').waitFor();
    expect(await text('new-project-error')).toBe('params.path must be an absolute path, not "levels/relative.wbproj"');
    await page.getByTestId('new-project-close').click();
    // The refused call is the one 400 answer the browser logs; nothing else went wrong.
    expect(problems).toEqual(['console: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  });
});
