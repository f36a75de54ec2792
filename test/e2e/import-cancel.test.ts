import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserServer } from '../../electron/services/browser-server';
import { ProjectStore } from '../../electron/services/project/project-store';
import { openProjectPage } from '../support/browser-app';
import { browserSuite } from '../support/browser-suite';
import { withStore } from '../support/walkmesh-probes';

/**
 * Issue 16: an import started from the app can be cancelled from its dialog, and the
 * project is left as it was (the service takes back what it had written). The dialog is
 * drawn with the modal style it shares with the export dialog (styles.css).
 */
const app = browserSuite('walkbench-e2e-import-cancel-');
/** Enough small tables that the import is still running when Cancel is clicked (it writes 64 per batch). */
const FILES = 4000;

describe('Add to project: Cancel import', () => {
  let tmp = '';
  let project = '';
  let folder = '';
  let server: BrowserServer | undefined;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-import-cancel-'));
    folder = path.join(tmp, 'tables');
    mkdirSync(folder);
    for (let i = 0; i < FILES; i++) writeFileSync(path.join(folder, `t${String(i).padStart(4, '0')}.2da`), `2DA V2.0\n\n\tLabel\n0\trow_${i}\n`);
    project = path.join(tmp, 'cancel.wbproj');
    const store = ProjectStore.create(project, { name: 'Cancel', game: 'nwn2' });
    store.upsertFile({ module: 'kept', name: 'kept.2da', kind: '2da', format: '2da', bytes: new TextEncoder().encode('2DA V2.0\n\n\tLabel\n0\tkept\n') });
    store.close();
    ({ server, page } = await openProjectPage(project, app.rendererDir, problems, { requests: false }, { browser: app.browser }));
  }, 120_000);

  afterAll(async () => {
    await page?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('stops a running import; the dialog says Cancelled and the project holds what it held', async () => {
    const treeBefore = await page.locator('[data-testid="tree-file"]').allTextContents();
    await page.getByTestId('add-to-project').click();
    const dialog = page.getByTestId('new-project-dialog');
    await dialog.waitFor();
    // The shared modal style: a fixed backdrop over the window, the dialog a panel in it.
    const style = await dialog.evaluate((d) => {
      const b = getComputedStyle(d.parentElement!);
      const s = getComputedStyle(d);
      return { backdrop: d.parentElement!.className, position: b.position, z: b.zIndex, radius: s.borderRadius, shadow: s.boxShadow !== 'none', overflow: s.overflowY };
    });
    expect(style).toEqual({ backdrop: 'modal-backdrop', position: 'fixed', z: '20', radius: '6px', shadow: true, overflow: 'auto' });
    await page.getByTestId('new-project-source').fill(folder);
    await page.getByTestId('new-project-module').fill('tables');
    await page.getByTestId('new-project-create').click();
    const cancel = page.getByTestId('import-cancel');
    await cancel.waitFor({ timeout: 60_000 });
    // Some files are written before the click lands: the import is past its first batch.
    await page.waitForFunction(() => /Importing: ([1-9]\d{2,}) of/.test(document.querySelector('[data-testid="import-label"]')?.textContent ?? ''), undefined, { timeout: 60_000 });
    await cancel.click();
    await page.locator('[data-testid="import-run"][data-state="cancelled"]').waitFor({ timeout: 60_000 });
    expect((await page.locator('[data-testid="import-run"] .state').textContent())?.trim()).toBe('Cancelled');
    expect((await page.getByTestId('import-label').textContent())?.trim()).toMatch(/^Import cancelled: nothing was added \(\d+ file\(s\) written were taken back\)$/);
    expect(await page.getByTestId('import-cancel').count()).toBe(0);
    // The project: only the file it held before; the tree (read again) shows that.
    expect(withStore(project, (s) => s.listFiles().map((f) => f.name))).toEqual(['kept.2da']);
    expect(withStore(project, (s) => s.listModules().map((m) => m.name))).toEqual(['kept']);
    await page.getByTestId('new-project-close').click();
    await expect.poll(() => page.locator('[data-testid="tree-file"]').allTextContents()).toEqual(treeBefore);
    expect(problems).toEqual([]);
  }, 180_000);
});
