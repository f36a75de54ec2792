import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserServer, type BrowserServer } from '../../electron/services/browser-server';
import type { JobService } from '../../electron/services/job-service';
import { nodeFormatEnvironment } from '../../electron/services/node-format-environment';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { BWM_FORMAT } from '../../shared/formats/kotor/bwm-document';
import { inspectBytes } from '../../shared/formats/inspect-file';
import { NAV_FORMAT } from '../../shared/formats/source/nav-reader';
import { createEventHub, type EventHub } from '../../shared/ipc/event-hub';
import { buildRenderer, launchChromium } from '../support/browser-app';
import { fixturesRoot, listFixtures, readFixture } from '../support/fixtures';

const woks = listFixtures('kotor/k1-blackvulkar', ['.wok']).slice(0, 4);
const OLD = 'the walkmesh the game folder had';
/** A 2.8 MB navmesh, copied under many names so that an export takes long enough to cancel. */
const NAV_FIXTURE = path.join(fixturesRoot, 'source/cs16/de_piranesi.nav');
const NAV_COPIES = 30;
const EXPECTED_FAILURES = ['dialog.openFolder', 'export.plan'];

function withStore<T>(file: string, fn: (store: ProjectStore) => T): T {
  const store = ProjectStore.open(file);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

describe('export from the page in browser mode', () => {
  let tmp = '';
  let project = '';
  let game = '';
  let override = '';
  let events: EventHub;
  let server: BrowserServer | undefined;
  let jobs: JobService | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const problems: string[] = [];
  /** Calls the test makes fail on purpose (the folder dialog of browser mode, a relative folder). */
  const failedCalls: string[] = [];
  /** The name the game folder already has for the first walkmesh (another case than the project's). */
  const replaced = () => path.basename(woks[0]!).toUpperCase();
  const dialog = () => page.getByTestId('export-dialog');
  const texts = async (testId: string) => (await page.getByTestId(testId).allTextContents()).map((t) => t.trim());

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-export-'));
    const rendererDir = path.join(tmp, 'renderer');
    await buildRenderer(rendererDir);
    project = path.join(tmp, 'vulkar.wbproj');
    game = path.join(tmp, 'swkotor');
    override = path.join(game, 'override');
    mkdirSync(override, { recursive: true });
    writeFileSync(path.join(override, replaced()), OLD);
    const store = ProjectStore.create(project, { name: 'Vulkar base', game: 'kotor' });
    try {
      for (const f of woks) store.upsertFile({ module: 'm10aa', name: path.basename(f), kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(f) });
    } finally {
      store.close();
    }
    events = createEventHub();
    server = await startBrowserServer({
      service: createWalkbenchService({ startupFile: project, startupIsProject: true, events, onJobService: (j) => (jobs = j) }),
      events,
      rendererDir,
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      // The calls this test makes fail on purpose answer with an HTTP error, which Chromium logs.
      const url = msg.location().url;
      if (/^Failed to load resource/.test(msg.text()) && EXPECTED_FAILURES.some((m) => url.endsWith(`/rpc/${m}`))) failedCalls.push(`${path.basename(url)} ${msg.text()}`);
      else problems.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => {
      if (!r.url().endsWith('/events')) problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`);
    });
    expect((await page.goto(server.url))?.status()).toBe(200);
    await page.getByTestId('jobs-panel').waitFor({ timeout: 30_000 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await jobs?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('bakes everything, then the menu command opens Export; a relative folder is refused with its reason', async () => {
    await page.getByTestId('bake-all').click();
    await expect.poll(async () => page.getByTestId('job').first().getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
    expect(withStore(project, (s) => s.listBakes().length)).toBe(woks.length);

    // File ▸ Export… of the Electron menu arrives as an app.command event.
    await expect.poll(() => page.getByTestId('export-open').isEnabled(), { timeout: 10_000 }).toBe(true);
    events.emit('app.command', { command: 'export' });
    await dialog().waitFor({ timeout: 10_000 });
    expect(await dialog().getAttribute('data-step')).toBe('choose');

    // Browser mode has no folder dialog: the page says so and the path is typed.
    await page.getByTestId('export-browse').click();
    await expect.poll(() => page.getByTestId('export-browse').count()).toBe(0);
    expect(await dialog().textContent()).toContain("type the folder's full path");

    await page.getByTestId('export-game-dir').fill('swkotor');
    await page.getByTestId('export-preview').click();
    await expect.poll(() => texts('export-error')).toEqual([expect.stringContaining('params.gameDir must be an absolute path, not "swkotor"')]);
    expect(await dialog().getAttribute('data-step')).toBe('choose');
  }, 180_000);

  it('shows the dry-run list of what will be written where, create or replace, kept as imported or re-baked, and writes nothing', async () => {
    await page.getByTestId('export-game-dir').fill(game);
    // Unedited walkmeshes go out as imported (issue 15 §4), baked or not.
    expect(await page.getByTestId('export-rebake').isChecked()).toBe(false);
    await page.getByTestId('export-preview').click();
    await expect.poll(() => dialog().getAttribute('data-step'), { timeout: 30_000 }).toBe('planned');
    expect(await page.getByTestId('export-error').count()).toBe(0);
    expect(await page.getByTestId('export-planned').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-change')))).toEqual(woks.map(() => 'unchanged'));
    expect(await texts('export-change')).toEqual(woks.map(() => 'unchanged (kept as imported)'));
    expect(await page.getByTestId('export-changes').textContent()).toContain(`${woks.length} kept as imported, 0 written (edited), 0 re-baked`);
    // Asked to re-bake them, the plan writes their bakes and says why.
    await page.getByTestId('export-back').click();
    await page.getByTestId('export-rebake').check();
    await page.getByTestId('export-preview').click();
    await expect.poll(() => dialog().getAttribute('data-step'), { timeout: 30_000 }).toBe('planned');
    expect(await texts('export-change')).toEqual(woks.map(() => 're-baked: a re-bake of unedited files was asked for'));
    expect(await page.getByTestId('export-changes').textContent()).toContain(`0 kept as imported, 0 written (edited), ${woks.length} re-baked`);
    const rows = page.getByTestId('export-planned');
    expect(await rows.count()).toBe(woks.length);
    const planned: [string | null, string | null][] = [];
    for (let i = 0; i < woks.length; i++) planned.push([await rows.nth(i).getAttribute('data-target'), await rows.nth(i).getAttribute('data-action')]);
    expect(planned).toEqual(woks.map((f, i) => [path.join(override, i === 0 ? replaced() : path.basename(f)), i === 0 ? 'replace' : 'create']));
    expect(await page.getByTestId('export-target').textContent()).toContain(`${woks.length - 1} to create, 1 to replace, 0 unchanged`);
    expect(await page.getByTestId('export-target').textContent()).toContain(override);
    // A dry run: the game folder is as it was.
    expect(readdirSync(override)).toEqual([replaced()]);
    expect(readFileSync(path.join(override, replaced()), 'utf8')).toBe(OLD);
  }, 60_000);

  it('writes with progress to done, lists each file verified and the backup folder; the files on disk are the bakes and validate', async () => {
    await page.getByTestId('export-confirm').click();
    await expect.poll(async () => page.getByTestId('export-run').getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    expect((await page.getByTestId('export-count').textContent())?.trim()).toBe(`${woks.length}/${woks.length}`);
    expect(await page.getByTestId('export-progress').getAttribute('value')).toBe('100');
    expect(await page.getByTestId('export-label').textContent()).toContain(`${woks.length} files written and verified`);
    const verified = page.getByTestId('export-verified');
    expect(await verified.count()).toBe(woks.length);
    for (const t of await texts('export-verified')) expect(t.startsWith('✓')).toBe(true);
    const backupDir = ((await page.getByTestId('export-backup-dir').textContent()) ?? '').trim();
    expect(backupDir.startsWith(`${project}.backups${path.sep}`)).toBe(true);
    expect(readFileSync(path.join(backupDir, 'override', replaced()), 'utf8')).toBe(OLD);

    const bakes = withStore(project, (s) => new Map(s.listBakes().map((b) => [b.inputs[0]!.name, s.loadBakeOutput(b.id)])));
    const onDisk = readdirSync(override).sort();
    expect(onDisk).toEqual([replaced(), ...woks.slice(1).map((f) => path.basename(f))].sort());
    for (let i = 0; i < woks.length; i++) {
      const file = path.join(override, i === 0 ? replaced() : path.basename(woks[i]!));
      const bytes = new Uint8Array(readFileSync(file));
      expect(Buffer.compare(Buffer.from(bytes), Buffer.from(bakes.get(`m10aa/${path.basename(woks[i]!)}`)!)), file).toBe(0);
      const report = inspectBytes(file, bytes, nodeFormatEnvironment);
      expect(report.readFailure, file).toBeNull();
      expect(report.format).toBe(BWM_FORMAT);
      expect(await verified.nth(i).getAttribute('data-target')).toBe(file);
    }
  }, 90_000);

  it('restores: the old file is back, the created ones are gone, and the page lists each', async () => {
    await page.getByTestId('export-restore').click();
    await expect.poll(() => dialog().getAttribute('data-step'), { timeout: 30_000 }).toBe('restored');
    const files = page.getByTestId('export-restored-file');
    expect(await files.count()).toBe(woks.length);
    const actions: Record<string, string> = {};
    for (let i = 0; i < woks.length; i++) actions[path.basename((await files.nth(i).getAttribute('data-target')) ?? '')] = (await files.nth(i).getAttribute('data-action')) ?? '';
    expect(actions).toEqual(Object.fromEntries(woks.map((f, i) => (i === 0 ? [replaced(), 'restored'] : [path.basename(f), 'removed']))));
    expect(readdirSync(override)).toEqual([replaced()]);
    expect(readFileSync(path.join(override, replaced()), 'utf8')).toBe(OLD);
    await page.getByTestId('export-done').click();
    await expect.poll(() => dialog().count()).toBe(0);
  }, 60_000);

  it('lists a walkmesh without a bake as refused, with the reason, and will not start', async () => {
    const extra = listFixtures('kotor/k1-blackvulkar', ['.wok'])[woks.length]!;
    withStore(project, (s) => s.upsertFile({ module: 'm10aa', name: 'extra.wok', kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(extra) }));
    await page.getByTestId('export-open').click();
    await dialog().waitFor({ timeout: 10_000 });
    // The folder of the last export is offered again.
    expect(await page.getByTestId('export-game-dir').inputValue()).toBe(game);
    // Still asked to re-bake: a walkmesh without a bake cannot be.
    expect(await page.getByTestId('export-rebake').isChecked()).toBe(true);
    await page.getByTestId('export-preview').click();
    await expect.poll(() => dialog().getAttribute('data-step'), { timeout: 30_000 }).toBe('planned');
    expect(await texts('export-refused')).toEqual([expect.stringMatching(/^m10aa\/extra\.wok: has no bake of its current bytes/)]);
    expect(await page.getByTestId('export-planned').count()).toBe(woks.length);
    expect(await page.getByTestId('export-confirm').isDisabled()).toBe(true);
    expect(readdirSync(override)).toEqual([replaced()]);
    await page.getByTestId('export-close').click();
  }, 60_000);

  it('cancels a long export from the page: it stops between files, and restore removes what it wrote', async () => {
    // Source navmeshes export their imported bytes (no bake), each big enough to take a while.
    const nav = readFixture(NAV_FIXTURE);
    const sourceProject = path.join(tmp, 'maps.wbproj');
    const sourceGame = path.join(tmp, 'cstrike');
    const maps = path.join(sourceGame, 'maps');
    mkdirSync(maps, { recursive: true });
    const store = ProjectStore.create(sourceProject, { name: 'Many maps', game: 'source' });
    try {
      for (let i = 0; i < NAV_COPIES; i++) store.upsertFile({ module: 'maps', name: `copy_${String(i).padStart(2, '0')}.nav`, kind: 'walkmesh', format: NAV_FORMAT, bytes: nav });
    } finally {
      store.close();
    }
    // File ▸ Open Project… of the Electron menu.
    events.emit('app.openProjectRequested', { path: sourceProject });
    await expect.poll(async () => (await page.getByTestId('project-name').textContent())?.trim(), { timeout: 30_000 }).toBe('Many maps');
    await page.getByTestId('export-open').click();
    await page.getByTestId('export-game-dir').fill(sourceGame);
    await page.getByTestId('export-preview').click();
    await expect.poll(() => dialog().getAttribute('data-step'), { timeout: 60_000 }).toBe('planned');
    expect(await page.getByTestId('export-planned').count()).toBe(NAV_COPIES);
    expect(await page.getByTestId('export-target').textContent()).toContain(maps);

    await page.getByTestId('export-confirm').click();
    await page.getByTestId('export-cancel').click({ timeout: 30_000 });
    await expect.poll(async () => page.getByTestId('export-run').getAttribute('data-state'), { timeout: 60_000 }).toBe('cancelled');
    expect(await page.getByTestId('export-label').textContent()).toMatch(/^Cancelled after \d+ files?/);
    const written = await page.getByTestId('export-verified').count();
    expect(written).toBeLessThan(NAV_COPIES);
    // Every file on disk is whole: exactly the navmesh, never a part of it or a temporary file.
    const onDisk = readdirSync(maps);
    expect(onDisk).toHaveLength(written);
    for (const name of onDisk) expect(Buffer.compare(readFileSync(path.join(maps, name)), Buffer.from(nav)), name).toBe(0);

    await page.getByTestId('export-restore').click();
    await expect.poll(() => dialog().getAttribute('data-step'), { timeout: 30_000 }).toBe('restored');
    expect(readdirSync(maps)).toEqual([]);
    await page.getByTestId('export-done').click();
  }, 180_000);

  it('ran without console errors, failed requests or CSP violations', () => {
    expect(problems).toEqual([]);
    expect(failedCalls).toEqual([
      'dialog.openFolder Failed to load resource: the server responded with a status of 501 (Not Implemented)',
      'export.plan Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
  });
});
