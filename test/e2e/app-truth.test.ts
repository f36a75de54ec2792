import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserServer } from '../../electron/services/browser-server';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectEdits } from '../../electron/services/project/project-edits';
import { importSources } from '../../electron/services/project/project-import';
import { ProjectStore } from '../../electron/services/project/project-store';
import { inspectBytes } from '../../shared/formats/inspect-file';
import { writeLyt } from '../../shared/formats/kotor/lyt-writer';
import { BWM_FORMAT } from '../../shared/formats/kotor/bwm-document';
import { LYT_FORMAT } from '../../shared/formats/kotor/lyt-document';
import { faceCount, type Walkmesh } from '../../shared/model/walkmesh';
import type { AppHookState } from '../../renderer/src/tools/state-hook';
import { buildRenderer, launchChromium, openProjectPage } from '../support/browser-app';
import { fixturesRoot } from '../support/fixtures';
import { pageActions } from '../support/page-actions';
import { centroid, clearFaces, withStore } from '../support/walkmesh-probes';
import { blackVulkarLyt, blackVulkarWok } from '../unit/kotor-area/black-vulkar-area';

/**
 * Issue 13 through the page: what a designer clicking freely saw go wrong, each as a
 * regression test in Chromium. Two projects and several tabs (a leftover tab of the first
 * project must not edit the second), undo per tab with the project's history shown, bake
 * states reaching open tabs, the NWN2 TRN's ground painted and baked, and TRX edits the
 * export will not carry named when the GIT is edited and in the dry run. With
 * `WALKBENCH_SCREENSHOTS=DIR` the screenshots the issue asks for are written there.
 */

const shotsDir = process.env['WALKBENCH_SCREENSHOTS'];
let tmp = '';
let rendererDir = '';
let browser: Browser | undefined;
let server: BrowserServer | undefined;
let page: Page;
const problems: string[] = [];
const ui = pageActions(() => page);
const projects = { kotor: '', source: '', nwn2: '' };
const ROOMS = ['m10aa_09a', 'm10aa_09b'];
const AREA = 'CSLMordMansion';

async function shot(name: string): Promise<void> {
  const png = await page.screenshot();
  expect(png.byteLength).toBeGreaterThan(10_000);
  if (shotsDir) {
    mkdirSync(shotsDir, { recursive: true });
    writeFileSync(path.join(shotsDir, `${name}.png`), png);
  }
}

function state(): Promise<AppHookState> {
  return page.evaluate(() => (window as unknown as { __walkbench: { state(): AppHookState } }).__walkbench.state());
}

function fileId(project: string, name: string): number {
  return withStore(project, (s) => s.listFiles().find((f) => f.name.toLowerCase() === name.toLowerCase())!.id);
}

function editedMesh(project: string, id: number): Walkmesh {
  return withStore(project, (s) => new ProjectEdits(s, env).meshes(id)[0]!);
}

async function openProject(file: string): Promise<void> {
  await page.getByTestId('project-path').fill(file);
  await page.getByTestId('project-open').click();
  await expect.poll(async () => (await state()).project?.path).toBe(file);
}

/** Selects a face by clicking its centre (the tab must be framed from the top). */
async function select(m: Walkmesh, face: number): Promise<void> {
  await page.getByTestId('tool-select').click();
  await ui.clickAt(centroid(m, face));
  await expect.poll(() => ui.text('inspector-face')).toBe(String(face));
}

/** Waits until the active tab's report is the edited bytes' (not "checking"). */
async function reportSettled(): Promise<void> {
  await expect.poll(() => page.getByTestId('findings').getAttribute('data-pending'), { timeout: 30_000 }).toBe('false');
}

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-truth-'));
  rendererDir = path.join(tmp, 'renderer');
  await buildRenderer(rendererDir);
  browser = await launchChromium();

  projects.kotor = path.join(tmp, 'vulkar.wbproj');
  let store = ProjectStore.create(projects.kotor, { name: 'Black Vulkar', game: 'kotor' });
  // The rooms first: room m10aa_09a has file id 1, as the Source project's map has.
  for (const r of ROOMS) store.upsertFile({ module: 'm10aa', area: r, name: `${r}.wok`, kind: 'walkmesh', format: BWM_FORMAT, bytes: blackVulkarWok(r) });
  store.upsertFile({ module: 'm10aa', area: 'm10aa', name: 'm10aa.lyt', kind: 'lyt', format: LYT_FORMAT, bytes: writeLyt(blackVulkarLyt()) });
  store.close();

  projects.source = path.join(tmp, 'itemtest.wbproj');
  store = ProjectStore.create(projects.source, { name: 'Item test', game: 'source' });
  await importSources(store, [path.join(fixturesRoot, 'source/tf2/itemtest.nav')]);
  store.close();

  projects.nwn2 = path.join(tmp, 'mord.wbproj');
  store = ProjectStore.create(projects.nwn2, { name: 'Mord Mansion', game: 'nwn2' });
  await importSources(store, [path.join(fixturesRoot, 'nwn2/mordmansion')], { module: 'mord' });
  store.close();

  ({ server, page } = await openProjectPage(projects.kotor, rendererDir, problems, {}, { browser }));

}, 240_000);

afterAll(async () => {
  await page?.close();
  await server?.close();
  await browser?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('several tabs of one project: undo per tab, the history, bake states reaching the tabs', () => {
  it('each tab undoes its own edits; the history panel shows every edit with its file', async () => {
    const [a, b] = ROOMS.map((r) => fileId(projects.kotor, `${r}.wok`)) as [number, number];
    expect(a).toBe(1);
    const painted = new Map<number, { face: number; before: number; after: number }>();
    for (const [room, id] of [[ROOMS[0]!, a], [ROOMS[1]!, b]] as const) {
      const m = editedMesh(projects.kotor, id);
      await ui.openFromTree(`${room}.wok`, faceCount(m));
      const face = clearFaces(m)[0]!;
      await select(m, face);
      const material = m.faceMaterial[face] === 3 ? 4 : 3;
      await page.getByTestId('paint-material').fill(String(material));
      await ui.edited(() => page.getByTestId('paint-fill').click());
      expect(editedMesh(projects.kotor, id).faceMaterial[face]).toBe(material);
      painted.set(id, { face, before: m.faceMaterial[face]!, after: material });
      await page.getByTestId('paint-material').fill('');
    }
    // The project's latest edit is b's; undo in a's tab takes a's.
    await page.getByTestId('tab').filter({ hasText: `${ROOMS[0]}.wok` }).click();
    await ui.undo();
    const pa = painted.get(a)!;
    const pb = painted.get(b)!;
    expect(editedMesh(projects.kotor, a).faceMaterial[pa.face]).toBe(pa.before);
    expect(editedMesh(projects.kotor, b).faceMaterial[pb.face]).toBe(pb.after);
    const historyOf = async () => page.getByTestId('history-entry').evaluateAll((rows) => rows.map((r) => [r.textContent?.replace(/\s+/g, ' ').trim(), r.getAttribute('data-undone'), r.getAttribute('data-in-tab')]));
    await expect.poll(historyOf).toEqual([
      [expect.stringContaining(`${ROOMS[1]}.wok`), 'false', 'false'],
      [expect.stringContaining(`${ROOMS[0]}.wok`), 'true', 'true'],
    ]);
    const s = await state();
    expect(s.edit.history).toBe(2);
    // b's edit stands: its file still has it.
    expect(withStore(projects.kotor, (st) => st.fileById(b)!.edited)).toBe(true);
    expect(withStore(projects.kotor, (st) => st.listHistory().map((h) => [h.files, h.undone]))).toEqual([
      [[a], true],
      [[b], false],
    ]);
    // Nothing more to undo in a's tab (b's edit is not a's); the button says so.
    await expect.poll(() => page.getByTestId('undo').isDisabled()).toBe(true);
  });

  it('a bake reaches the open tabs: their bake state turns to baked, with the bake\'s counts', async () => {
    await expect.poll(() => page.getByTestId('bake-state').getAttribute('data-status')).toBe('unbaked');
    await page.getByTestId('bake-all').click();
    await expect.poll(() => page.getByTestId('job').first().getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
    await expect.poll(() => page.getByTestId('bake-state').getAttribute('data-status'), { timeout: 30_000 }).toBe('baked');
    expect(await ui.text('bake-state-counts')).toMatch(/faces/);
    const s = await state();
    for (const t of s.tabs) expect(t.bake?.status, t.name).toBe('baked');
    for (const id of ROOMS.map((r) => fileId(projects.kotor, `${r}.wok`))) expect(s.treeBake[id]).toBe('baked');
  });
});

describe('a second project: the tabs of the first are closed, its jobs not listed, the same file id opens the new file', () => {
  it('switching closes the leftover tabs; an edit lands in the file the tab shows', async () => {
    const before = await state();
    expect(before.tabs.length).toBe(2);
    await openProject(projects.source);
    await expect.poll(async () => (await state()).tabs.length).toBe(0);
    expect(await ui.text('project-note')).toMatch(/Closed 2 tabs of Black Vulkar/);
    // The first project's bake job is not this project's.
    expect(await page.getByTestId('job').count()).toBe(0);
    const nav = fileId(projects.source, 'itemtest.nav');
    expect(nav).toBe(1);
    const m = editedMesh(projects.source, nav);
    await ui.openFromTree('itemtest.nav', faceCount(m));
    const s = await state();
    expect(s.tabs).toHaveLength(1);
    expect(s.tabs[0]).toMatchObject({ session: s.project!.session, fileId: nav, revision: 0 });
    await shot('two-project-switch');
    const face = clearFaces(m, false)[0]!;
    await select(m, face);
    await page.getByTestId('paint-set-bits').fill('0x8');
    await ui.edited(() => page.getByTestId('paint-fill').click());
    await page.getByTestId('paint-set-bits').fill('');
    // In the Source project's file, not in the KotOR room with the same id.
    expect(withStore(projects.source, (st) => st.listHistory().map((h) => h.files))).toEqual([[nav]]);
    expect(withStore(projects.kotor, (st) => st.listHistory().length)).toBe(2);
    expect(await ui.text('edit-message')).toMatch(/^Done: Paint/);
  });
});

describe('NWN2: TRX edits the export will not carry named; the TRN\'s ground painted, baked and shown as baked', () => {
  let trn = 0;
  let trx = 0;

  it('a GIT edit after a TRX edit says at once that the TRX edit will not be exported; the dry run names it', async () => {
    await openProject(projects.nwn2);
    trn = fileId(projects.nwn2, `${AREA}.TRN`);
    trx = fileId(projects.nwn2, `${AREA}.TRX`);
    const m = editedMesh(projects.nwn2, trx);
    await ui.openFromTree(`${AREA}.TRX`, faceCount(m));
    const face = clearFaces(m)[0]!;
    await select(m, face);
    await page.getByTestId('paint-set-bits').fill('0x20');
    await ui.edited(() => page.getByTestId('paint-fill').click());
    await page.getByTestId('paint-set-bits').fill('');
    expect(await page.getByTestId('edit-warning').count()).toBe(0);

    // A cutter placed from the TRN's tab: the second kind of edit of the area.
    const ground = editedMesh(projects.nwn2, trn);
    await ui.openFromTree(`${AREA}.TRN`, faceCount(ground));
    // Three corners on open ground a few metres apart (far enough on screen not to grab the last one).
    const open = clearFaces(ground).map((f) => centroid(ground, f));
    const apart = (p: number[], q: number[]) => Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!);
    const corners = [open[0]!];
    for (const p of open) if (corners.length < 3 && corners.every((q) => apart(p, q) >= 2) && apart(p, open[0]!) <= 8) corners.push(p);
    expect(corners).toHaveLength(3);
    await page.getByTestId('tool-place').click();
    for (const p of corners) await ui.clickAt(p);
    await expect.poll(() => ui.text('placed-count')).toBe('3 points');
    await ui.edited(() => page.getByTestId('add-cutter').click(), 60_000);
    await expect.poll(() => ui.text('edit-warning')).toMatch(/"Paint 1 face".*will not be in the exported CSLMordMansion\.TRX/);
    // The re-bake shows the area with the cutter; the TRX now takes no walkmesh edit, with the reason.
    await expect.poll(() => page.getByTestId('rebake-status').count(), { timeout: 60_000 }).toBe(0);
    await ui.openFromTree(`${AREA}.TRX`);
    await expect.poll(() => page.getByTestId('paint-fill').getAttribute('title')).toMatch(/exported as baked from its TRN and GIT/);
    await expect.poll(async () => (await state()).tabs.find((t) => t.active)!.warnings.some((w) => w.startsWith('project.edit-not-exported'))).toBe(true);

    await page.getByTestId('bake-all').click();
    await expect.poll(() => page.getByTestId('job').first().getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
    const game = path.join(tmp, 'nwn2-module');
    mkdirSync(game, { recursive: true });
    await page.getByTestId('export-open').click();
    await page.getByTestId('export-game-dir').fill(game);
    await page.getByTestId('export-preview').click();
    await expect.poll(() => page.getByTestId('export-not-carried').count(), { timeout: 30_000 }).toBe(1);
    expect(await ui.text('export-not-carried')).toMatch(/"Paint 1 face" on mord\/CSLMordMansion\.TRX, not in mord\/CSLMordMansion\.TRX: the area is exported as baked from its TRN and GIT/);
    await shot('dry-run-not-carried');
    await page.getByTestId('export-close').click();
  });

  it('paints the TRN\'s ground unwalkable; reshaping is off with the reason; the report is the written bytes\'', async () => {
    const ground = editedMesh(projects.nwn2, trn);
    // The tab showed the area as baked after the cutter: the ground is what it edits.
    await ui.openFromTree(`${AREA}.TRN`);
    await page.getByTestId('nwn2-view-ground').click();
    await expect.poll(() => ui.faceCountShown()).toBe(String(faceCount(ground)));
    // The TRN is painted, not reshaped: those tools are off and say why. (Its largest clear
    // face holds the cutter placed before; the next one is painted.)
    for (const id of ['delete-faces', 'tool-move', 'nudge-up']) {
      await expect.poll(() => page.getByTestId(id).getAttribute('title')).toMatch(/painted .*not reshaped/);
      expect(await page.getByTestId(id).isDisabled()).toBe(true);
    }
    const face = clearFaces(ground)[1]!;
    await select(ground, face);
    await page.getByTestId('paint-walkable').selectOption('no');
    await ui.edited(() => page.getByTestId('paint-fill').click());
    await page.getByTestId('paint-walkable').selectOption('keep');
    expect(editedMesh(projects.nwn2, trn).faceWalkable[face]).toBe(0);
    await reportSettled();
    const shown = (await state()).tabs.find((t) => t.active)!;
    const bytes = withStore(projects.nwn2, (s) => s.loadCurrentBytes(s.fileById(trn)!));
    const cli = inspectBytes(`${AREA}.TRN`, bytes, env);
    expect(shown.errors).toEqual(cli.errors.map((f) => `${f.code}: ${f.message}`));
    expect(shown.warnings).toEqual(cli.warnings.map((f) => `${f.code}: ${f.message}`));
    // The area is baked again in the background from the painted ground: its bake can be shown.
    await expect.poll(() => page.getByTestId('rebake-status').count(), { timeout: 60_000 }).toBe(0);
    expect(await ui.text('edit-message')).toMatch(/area re-baked in \d+ ms/);
    expect(await page.getByTestId('nwn2-view-baked').getAttribute('data-available')).toBe('true');
  });

  it('bakes everything: the area\'s bake state is baked; the bake is shown on request, read-only', async () => {
    await page.getByTestId('bake-all').click();
    await expect.poll(() => page.getByTestId('job').first().getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
    await expect.poll(() => page.getByTestId('bake-state').getAttribute('data-status'), { timeout: 30_000 }).toBe('baked');
    expect(await ui.text('bake-state-label')).toMatch(/from its TRN and GIT as edited/);
    expect(await ui.text('bake-state-counts')).toMatch(/islands/);
    const groundFaces = await ui.faceCountShown();
    await page.getByTestId('nwn2-view-baked').click();
    await expect.poll(() => ui.faceCountShown()).not.toBe(groundFaces);
    // The bake takes no walkmesh edit, and says so.
    await expect.poll(() => page.getByTestId('paint-fill').getAttribute('title')).toMatch(/as baked .*Ground/);
    await shot('nwn2-trn-paint-and-bake');
    await page.getByTestId('nwn2-view-ground').click();
    await expect.poll(() => ui.faceCountShown()).toBe(groundFaces);
  });

  it('ran without console errors or page errors', () => {
    // A 409 is the service refusing a request made on a revision the file no longer has
    // (a report asked for just before a background bake landed): by design, and the page
    // re-syncs from it (checked by the steps above). Chromium logs every such status as a
    // console error; anything else is a problem.
    expect(problems.filter((p) => !/status of 409 \(Conflict\)$/.test(p))).toEqual([]);
  });
});
