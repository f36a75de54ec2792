import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserServer, type BrowserServer } from '../../electron/services/browser-server';
import type { JobService } from '../../electron/services/job-service';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { BWM_FORMAT } from '../../shared/formats/kotor/bwm-document';
import { TRX_FORMAT } from '../../shared/formats/nwn2/trx-document';
import { createEventHub } from '../../shared/ipc/event-hub';
import { fixturesRoot, listFixtures, readFixture } from '../support/fixtures';
import { buildRenderer, launchChromium, recordPageProblems } from '../support/browser-app';


const woks = listFixtures('kotor/k1-blackvulkar', ['.wok']);
const smallTrx = ['a winding path.trx', 'daggerdale_scorps_lv1.trx'].map((n) => path.join(fixturesRoot, 'nwn2/kaedrin', n));
/** The largest fixture TRX: its re-bake takes seconds, long enough to cancel from the page. */
const bigTrx = path.join(fixturesRoot, 'nwn2/kaedrin/ud_maze_to_lake_03.trx');
const BROKEN_FACE = 3;

function withStore<T>(file: string, fn: (store: ProjectStore) => T): T {
  const store = ProjectStore.open(file);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

describe('bake jobs from the page in browser mode', () => {
  let tmp = '';
  let project = '';
  let server: BrowserServer | undefined;
  let jobs: JobService | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const problems: string[] = [];
  /** The newest job in the panel (the list is newest first). */
  const newest = (): Locator => page.getByTestId('job').first();
  const stateOf = async (job: Locator) => (await job.getAttribute('data-state')) ?? '';
  const jobCount = async () => page.getByTestId('job').count();

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-jobs-'));
    const rendererDir = path.join(tmp, 'renderer');
    await buildRenderer(rendererDir);
    project = path.join(tmp, 'bake.wbproj');
    const store = ProjectStore.create(project, { name: 'Bake jobs', game: 'kotor' });
    try {
      for (const f of woks) store.upsertFile({ module: 'blackvulkar', name: path.basename(f), kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(f) });
      for (const f of smallTrx) store.upsertFile({ module: 'kaedrin', name: path.basename(f), kind: 'walkmesh', format: TRX_FORMAT, bytes: readFixture(f) });
    } finally {
      store.close();
    }
    const events = createEventHub();
    server = await startBrowserServer({
      service: createWalkbenchService({ startupFile: project, startupIsProject: true, events, onJobService: (j) => (jobs = j) }),
      events,
      rendererDir,
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // The event stream is aborted when the page goes away at the end; nothing else may fail.
    recordPageProblems(page, problems, { ignoreFailedRequest: (url) => url.endsWith('/events') });
    expect((await page.goto(server.url))?.status()).toBe(200);
    await page.getByTestId('jobs-panel').waitFor({ timeout: 30_000 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await jobs?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('bakes everything from the panel, shows progress up to done, and records every bake in the project', async () => {
    const total = woks.length + smallTrx.length;
    expect(withStore(project, (s) => s.listBakes().length)).toBe(0);
    await page.getByTestId('bake-all').click();
    await expect.poll(() => jobCount(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => stateOf(newest()), { timeout: 120_000 }).toBe('done');
    expect((await newest().getByTestId('job-count').textContent())?.trim()).toBe(`${total}/${total}`);
    expect(await newest().getByTestId('job-progress').getAttribute('value')).toBe('100');
    expect(await newest().getByTestId('job-label').textContent()).toContain(`${total} baked, 0 unchanged, 0 failed`);
    expect(await newest().getByTestId('job-cancel').count()).toBe(0);
    // The results are in the project file, one bake per walkmesh, each for its current bytes.
    const bakes = withStore(project, (s) => s.listBakes());
    expect(bakes).toHaveLength(total);
    expect(new Set(bakes.map((b) => b.bakerId))).toEqual(new Set(['kotor-bake', 'nwn2-rebake']));
    for (const b of bakes) expect(b.outputSize).toBeGreaterThan(0);
  }, 180_000);

  it('shows a failure with its message and a link to the face it names', async () => {
    const bytes = readFixture(woks[0]!).slice();
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    view.setUint32(view.getUint32(0x54, true) + BROKEN_FACE * 12, 0xffff, true);
    withStore(project, (s) => s.upsertFile({ module: 'broken', name: 'bad-face.wok', kind: 'walkmesh', format: BWM_FORMAT, bytes }));
    await page.getByTestId('bake-all').click();
    await expect.poll(() => jobCount(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => stateOf(newest()), { timeout: 60_000 }).toBe('failed');
    const failure = newest().getByTestId('job-failure');
    expect(await failure.count()).toBe(1);
    expect(await failure.textContent()).toContain(`face ${BROKEN_FACE} uses vertex 65535`);
    const link = failure.getByTestId('job-failure-focus');
    expect((await link.textContent())?.trim()).toBe(`broken/bad-face.wok · face ${BROKEN_FACE}`);
    // Everything else was unchanged since the first job.
    expect(await newest().getByTestId('job-label').textContent()).toContain(`0 baked, ${woks.length + smallTrx.length} unchanged, 1 failed`);
  }, 120_000);

  it('cancels a running bake from the panel; nothing is recorded for it', async () => {
    withStore(project, (s) => s.upsertFile({ module: 'slow', name: path.basename(bigTrx), kind: 'walkmesh', format: TRX_FORMAT, bytes: readFixture(bigTrx) }));
    const before = withStore(project, (s) => s.listBakes().length);
    await page.getByTestId('bake-all').click();
    await expect.poll(() => jobCount(), { timeout: 10_000 }).toBe(3);
    // The unchanged files are skipped at once; the big one is then baking (the label names what the workers are on).
    await expect.poll(async () => (await newest().getByTestId('job-label').textContent()) ?? '', { timeout: 30_000 }).toMatch(/^Baking .*slow\//);
    await newest().getByTestId('job-cancel').click();
    await expect.poll(() => stateOf(newest()), { timeout: 30_000 }).toBe('cancelled');
    expect(await newest().getByTestId('job-label').textContent()).toMatch(/^Cancelled after/);
    const [done, total] = ((await newest().getByTestId('job-count').textContent()) ?? '').trim().split('/').map(Number);
    expect(done).toBeLessThan(total!);
    expect(withStore(project, (s) => s.listBakes().length)).toBe(before);
    expect(withStore(project, (s) => s.listBakes().some((b) => b.inputs[0]?.name === `slow/${path.basename(bigTrx)}`))).toBe(false);
  }, 120_000);

  it('bakes one module again when forced, from the module list of the project', async () => {
    await page.getByTestId('bake-module-name').selectOption('kaedrin');
    await page.getByTestId('bake-force').check();
    await page.getByTestId('bake-module').click();
    await expect.poll(() => jobCount(), { timeout: 10_000 }).toBe(4);
    await expect.poll(() => stateOf(newest()), { timeout: 60_000 }).toBe('done');
    expect((await newest().locator('.title').textContent())?.trim()).toBe('Bake module kaedrin');
    expect((await newest().getByTestId('job-count').textContent())?.trim()).toBe(`${smallTrx.length}/${smallTrx.length}`);
    expect(await newest().getByTestId('job-label').textContent()).toContain(`${smallTrx.length} baked, 0 unchanged, 0 failed`);
    await page.getByTestId('bake-force').uncheck();
  }, 120_000);

  it('saves a copy of the project from the tree (Save Project As with a typed path), bakes included, and keeps working in it', async () => {
    const copy = path.join(tmp, 'saved copy.wbproj');
    const before = ProjectStore.open(project);
    const bakes = before.listBakes().length;
    const names = before.listFiles().map((f) => f.name).sort();
    before.close();
    expect(bakes).toBeGreaterThan(0);
    await page.getByTestId('project-save-as-path').fill(copy);
    await page.getByTestId('project-save-as').click();
    await expect.poll(() => existsSync(copy), { timeout: 30_000 }).toBe(true);
    await expect.poll(async () => (await page.getByTestId('project-name').textContent())?.trim(), { timeout: 30_000 }).toBe('Bake jobs');
    expect(await page.getByTestId('project-error').count()).toBe(0);
    const saved = ProjectStore.open(copy);
    try {
      expect(saved.listBakes()).toHaveLength(bakes);
      expect(saved.listFiles().map((f) => f.name).sort()).toEqual(names);
    } finally {
      saved.close();
    }
  }, 60_000);

  it('asks "Replace …?" before Save As writes over an existing file: Cancel leaves it, Replace saves over it', async () => {
    const existing = path.join(tmp, 'existing.wbproj');
    const theirs = 'a file of the same name the user did not mean to lose';
    writeFileSync(existing, theirs);
    const confirm = page.getByTestId('project-save-as-confirm');
    const problemsBefore = problems.length;

    await page.getByTestId('project-save-as-path').fill(existing);
    await page.getByTestId('project-save-as').click();
    await confirm.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('project-save-as-confirm-text').textContent()).toContain(`Replace ${existing}?`);
    expect(readFileSync(existing, 'utf8')).toBe(theirs);
    expect(await page.getByTestId('project-error').count()).toBe(0);
    await page.getByTestId('project-save-as-cancel').click();
    await confirm.waitFor({ state: 'detached', timeout: 10_000 });
    expect(readFileSync(existing, 'utf8')).toBe(theirs);

    await page.getByTestId('project-save-as').click();
    await confirm.waitFor({ timeout: 30_000 });
    await page.getByTestId('project-save-as-replace').click();
    await expect.poll(async () => (await page.getByTestId('project-note').textContent()) ?? '', { timeout: 30_000 }).toContain(`Saved as ${existing}`);
    expect(await confirm.count()).toBe(0);
    const saved = ProjectStore.open(existing);
    try {
      expect(saved.listBakes().length).toBeGreaterThan(0);
    } finally {
      saved.close();
    }
    // The two refusals (HTTP 409) are the only console lines Chromium wrote, as it does for any error status.
    const refusals = problems.splice(problemsBefore).filter((p) => !/status of 409 \(Conflict\)/.test(p));
    expect(refusals).toEqual([]);
  }, 90_000);

  it('took the browser-mode token from the address once: gone from the address bar, never a cookie, and a reload still works', async () => {
    expect(page.url()).not.toContain('token=');
    expect(await page.context().cookies()).toEqual([]);
    await page.reload();
    await page.getByTestId('jobs-panel').waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await page.getByTestId('project-name').textContent())?.trim(), { timeout: 30_000 }).toBe('Bake jobs');
    expect(await page.context().cookies()).toEqual([]);
  }, 60_000);

  it('ran without console errors, failed requests or CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
