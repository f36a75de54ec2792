import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserServer, type BrowserServer } from '../../electron/services/browser-server';
import { importSources } from '../../electron/services/project/project-import';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createRecentProjects } from '../../electron/services/recent-projects';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { loadDocument } from '../../shared/formats/inspect-file';
import { BWM_FORMAT } from '../../shared/formats/kotor/bwm-document';
import { writeLyt } from '../../shared/formats/kotor/lyt-writer';
import { cellLabel, pluginCells } from '../../shared/formats/skyrim/plugin-cells';
import { formIdHex, PLUGIN_FORMAT, type PluginDocument } from '../../shared/formats/skyrim/plugin-document';
import { NAV_FORMAT } from '../../shared/formats/source/nav-reader';
import { faceCount, type Walkmesh } from '../../shared/model/walkmesh';
import { faceIslands } from '../../shared/views/face-islands';
import { createEventHub } from '../../shared/ipc/event-hub';
import { openProjectPage, recordPageProblems } from '../support/browser-app';
import { browserSuite } from '../support/browser-suite';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { pageActions } from '../support/page-actions';
import { areaXY, centroid } from '../support/walkmesh-probes';
import { BLACK_VULKAR_ROOMS, blackVulkarLyt, blackVulkarWok } from '../unit/kotor-area/black-vulkar-area';

/**
 * The README's quick-start screenshots (issue 16 Evidence), taken from the app in Chromium
 * at 1280×800: New project from a fixture game layout, a KotOR area assembled from its
 * layout with room names, a Skyrim cell with one navmesh isolated, a Source map with its
 * places, and the path, cutter and link lines over each face colouring. Each step asserts
 * what the page shows; only with WALKBENCH_DOC_SHOTS set are the PNGs written, to
 * docs/screenshots/ (the files the README shows).
 */
const write = process.env['WALKBENCH_DOC_SHOTS'] !== undefined && process.env['WALKBENCH_DOC_SHOTS'] !== '';
const OUT = path.resolve(__dirname, '../../docs/screenshots');
const app = browserSuite('walkbench-e2e-docs-shots-');
const VIEW = { width: 1280, height: 800 };

async function shot(page: Page, name: string): Promise<void> {
  // The level around the walkmesh streams in after it: the pictures show it loaded (or its gaps), not "Loading…".
  await expect.poll(() => page.getByTestId('level-context-progress').count(), { timeout: 90_000 }).toBe(0);
  await page.mouse.move(2, 2);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const png = await page.screenshot();
  expect(png.byteLength).toBeGreaterThan(20_000);
  if (write) {
    mkdirSync(OUT, { recursive: true });
    writeFileSync(path.join(OUT, name), png);
  }
}

describe('README screenshots', () => {
  let tmp = '';
  const problems: string[] = [];
  const closers: (() => Promise<void>)[] = [];
  beforeAll(() => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-docs-shots-'));
  });
  afterAll(async () => {
    for (const c of closers.reverse()) await c();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  async function projectPage(name: string, game: 'nwn2' | 'kotor' | 'skyrim' | 'source', fill: (store: ProjectStore) => Promise<void> | void): Promise<Page> {
    const file = path.join(tmp, `${name}.wbproj`);
    const store = ProjectStore.create(file, { name, game });
    try {
      await fill(store);
    } finally {
      store.close();
    }
    const { server, page } = await openProjectPage(file, app.rendererDir, problems, { requests: false }, { browser: app.browser });
    closers.push(async () => {
      await page.close();
      await server.close();
    });
    return page;
  }

  it('New project from a game layout: the dialog after importing an NWN2 module folder', async () => {
    const moduleDir = path.join(tmp, 'NWN2', 'Modules', 'mordtest');
    mkdirSync(moduleDir, { recursive: true });
    for (const ext of ['TRN', 'TRX', 'GIT', 'ARE']) copyFileSync(path.join(fixturesRoot, 'nwn2/mordmansion', `CSLMordMansion.${ext}`), path.join(moduleDir, `CSLMordMansion.${ext}`));
    copyFileSync(path.join(fixturesRoot, 'nwn2/2da/terrainmaterials.2da'), path.join(moduleDir, 'terrainmaterials.2da'));
    writeFileSync(path.join(moduleDir, 'module.ifo'), 'not a real ifo');
    const events = createEventHub();
    let closeService: (() => Promise<void>) | undefined;
    const service = createWalkbenchService({ events, recentProjects: createRecentProjects(path.join(tmp, 'recent.json')), onClose: (c) => (closeService = c) });
    const server: BrowserServer = await startBrowserServer({ service, events, rendererDir: app.rendererDir });
    const page = await app.browser.newPage({ viewport: VIEW });
    recordPageProblems(page, problems);
    closers.push(async () => {
      await page.close();
      await server.close();
      await closeService?.();
    });
    expect((await page.goto(server.url))?.status()).toBe(200);
    await page.getByTestId('start-new-project').click();
    await page.getByTestId('new-project-game').selectOption('nwn2');
    await page.getByTestId('new-project-path').fill(path.join(tmp, 'mord.wbproj'));
    await page.getByTestId('new-project-source').fill(moduleDir);
    await page.getByTestId('new-project-create').click();
    await page.locator('[data-testid="import-run"][data-state="done"]').waitFor({ timeout: 60_000 });
    expect((await page.getByTestId('import-label').textContent())?.trim()).toBe('5 added, 0 changed, 0 unchanged, 1 skipped');
    expect((await page.getByTestId('import-found-areas').textContent())?.trim()).toBe('1 areas');
    await page.locator('[data-testid="tree-file"][data-file-name="CSLMordMansion.TRX"]').waitFor();
    await shot(page, 'new-project.png');
  }, 180_000);

  it('KotOR: an area assembled from its layout, rooms named in the tree and the legend', async () => {
    const lyt = blackVulkarLyt();
    const page = await projectPage('blackvulkar', 'kotor', (store) => {
      store.upsertFile({ module: 'm10aa', area: 'm10aa', name: 'm10aa.lyt', kind: 'lyt', bytes: writeLyt(lyt) });
      for (const n of BLACK_VULKAR_ROOMS) store.upsertFile({ module: 'm10aa', area: 'm10aa', name: `${n}.wok`, kind: 'walkmesh', format: BWM_FORMAT, bytes: blackVulkarWok(n) });
    });
    const ui = pageActions(() => page);
    await ui.openFromTree('m10aa.lyt');
    expect(await page.getByTestId('viewport').getAttribute('data-mesh-count')).toBe(String(BLACK_VULKAR_ROOMS.length));
    await page.getByTestId('colour-mode-owner').click();
    const legend = (await page.getByTestId('legend').innerText()).toLowerCase();
    for (const r of lyt.rooms.slice(0, 4)) expect(legend).toContain(r.name.toLowerCase());
    await page.getByTestId('view-toggle-transitions').check();
    await page.getByTestId('frame-all').click();
    await shot(page, 'kotor-area-layout.png');
  }, 180_000);

  it('Skyrim: a plugin\'s navmeshes listed by cell, one cell shown alone', async () => {
    const ESP = 'DawnOfTheSilverHand.esp';
    const bytes = readFixture(path.join(fixturesRoot, 'skyrim', ESP));
    const page = await projectPage('silverhand', 'skyrim', (store) => {
      store.upsertFile({ module: 'plugins', area: 'DawnOfTheSilverHand', name: ESP, kind: 'walkmesh', format: PLUGIN_FORMAT, bytes });
    });
    const loaded = loadDocument(ESP, bytes);
    // The cell's navmeshes that are drawn (a deleted navmesh has none).
    const drawn = new Set(loaded.handler.toWalkmeshes(loaded.document, ESP).map((m) => /NAVM (0x[0-9a-f]+)/i.exec(m.name)![1]!.toLowerCase()));
    const live = (c: { navmeshFormIds: number[] }) => c.navmeshFormIds.filter((id) => drawn.has(formIdHex(id).toLowerCase())).length;
    const cell = pluginCells(loaded.document as PluginDocument).filter((c) => !c.interior).sort((a, b) => live(b) - live(a))[0]!;
    const ui = pageActions(() => page);
    await ui.openFromTree(ESP);
    const row = page.locator(`[data-testid="tree-cell"][data-cell="${cellLabel(cell)}"]`);
    await row.getByTestId('tree-cell-isolate').click();
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-shown-meshes')).toBe(String(live(cell)));
    expect((await page.getByTestId('tree-isolated').textContent())?.trim()).toBe(`Showing ${cellLabel(cell)} alone`);
    await page.getByTestId('view-toggle-edge-links').check();
    await page.getByTestId('frame-all').click();
    await page.getByTestId('top-view').click();
    await shot(page, 'skyrim-cell-isolated.png');
  }, 180_000);

  it('Source: a map coloured by its places, named in the legend and the Places panel', async () => {
    const NAV = 'de_shortnuke.nav';
    const page = await projectPage('shortnuke', 'source', (store) => {
      store.upsertFile({ module: 'csgo', area: 'de_shortnuke', name: NAV, kind: 'walkmesh', format: NAV_FORMAT, bytes: readFixture(path.join(fixturesRoot, 'source/csgo', NAV)) });
    });
    const ui = pageActions(() => page);
    await ui.openFromTree(NAV);
    await page.getByTestId('places-toggle').check();
    await expect.poll(() => page.locator('[data-testid="colour-mode-places"]').getAttribute('aria-checked')).toBe('true');
    const names = await page.getByTestId('place-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
    expect(names.length).toBeGreaterThan(5);
    const legend = await page.getByTestId('legend').innerText();
    expect(legend).toContain(names[0]!);
    await page.getByTestId('frame-all').click();
    await shot(page, 'source-places.png');
  }, 180_000);

  it('contrast: path, cutter and link lines over each face colouring (NWN2 area, KotOR room)', async () => {
    const page = await projectPage('contrast', 'nwn2', async (store) => {
      await importSources(store, ['fh_settlement.trx', 'fh_settlement.GIT'].map((f) => path.join(fixturesRoot, 'nwn2/kaedrin', f)), { module: 'nwn2' });
      store.upsertFile({ module: 'm10aa', area: 'm10aa', name: 'm10aa.lyt', kind: 'lyt', bytes: writeLyt(blackVulkarLyt()) });
      for (const n of BLACK_VULKAR_ROOMS) store.upsertFile({ module: 'm10aa', area: 'm10aa', name: `${n}.wok`, kind: 'walkmesh', format: BWM_FORMAT, bytes: blackVulkarWok(n) });
    });
    const ui = pageActions(() => page);
    const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const tiles: { label: string; png: string }[] = [];
    const MODES = ['walkable', 'material', 'island', 'owner'] as const;
    const cases = [
      { file: 'fh_settlement.trx', views: ['cutters'], label: 'NWN2 fh_settlement: path, cutters' },
      { file: 'm10aa_09a.wok', views: ['transitions'], label: 'KotOR m10aa_09a: path, room links' },
    ];
    for (const c of cases) {
      await ui.openFromTree(c.file);
      // The largest walkmesh: a path between its roomiest walkable faces farthest apart along x + y.
      const meshes = meshesOf(c.file);
      const m = meshes.reduce((a, b) => (faceCount(b) > faceCount(a) ? b : a));
      const islands = faceIslands(m).faceIsland;
      const faces: number[] = [];
      for (let f = 0; f < faceCount(m); f++) if (islands[f] === 0) faces.push(f);
      const median = faces.map((f) => areaXY(m, f)).sort((a, b) => a - b)[Math.floor(faces.length / 2)]!;
      const roomy = faces.filter((f) => areaXY(m, f) >= median).sort((a, b) => centroid(m, a)[0] + centroid(m, a)[1] - centroid(m, b)[0] - centroid(m, b)[1]);
      await page.getByTestId('tool-path').click();
      const answered = async () => /^(true|false)$/.test((await page.getByTestId('path-result').getAttribute('data-found')) ?? '');
      for (let i = 0; i < Math.min(5, roomy.length) && !(await answered()); i++) {
        await ui.clickAt(centroid(m, roomy[i]!));
        if (((await page.getByTestId('path-result').textContent()) ?? '').includes('Click the start')) continue;
        for (let j = roomy.length - 1; j >= Math.max(roomy.length - 5, i + 1) && !(await answered()); j--) {
          await ui.clickAt(centroid(m, roomy[j]!));
          for (let wait = 0; wait < 25 && !(await answered()); wait++) await page.waitForTimeout(200);
        }
        if (!(await answered())) await page.getByTestId('path-clear').click();
      }
      expect(await page.getByTestId('path-result').getAttribute('data-found')).toBe('true');
      await page.getByTestId('tool-select').click();
      for (const v of c.views) await page.getByTestId(`view-toggle-${v}`).check();
      for (const mode of MODES) {
        await page.getByTestId(`colour-mode-${mode}`).click();
        await expect.poll(() => page.getByTestId(`colour-mode-${mode}`).getAttribute('aria-checked')).toBe('true');
        await page.mouse.move(2, 2);
        await expect.poll(() => page.getByTestId('viewport').getAttribute('data-drawn')).toBe('true');
        await frames();
        const png = await page.getByTestId('viewport-canvas').screenshot();
        expect(png.byteLength).toBeGreaterThan(5_000);
        tiles.push({ label: `${c.label} · ${mode}`, png: png.toString('base64') });
      }
    }
    // One 1280×800 sheet: a row per file, a column per colouring.
    const sheet = await app.browser.newPage({ viewport: VIEW });
    closers.push(() => sheet.close());
    const out = await sheet.evaluate(async ({ list, w, h }) => {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const g = canvas.getContext('2d')!;
      g.fillStyle = '#14171c';
      g.fillRect(0, 0, w, h);
      const cw = w / 4, ch = h / 2;
      for (let i = 0; i < list.length; i++) {
        const bytes = Uint8Array.from(atob(list[i]!.png), (c) => c.charCodeAt(0));
        const img = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        // The whole canvas, fitted into the tile under its label.
        const x = (i % 4) * cw, y = Math.floor(i / 4) * ch;
        const scale = Math.min((cw - 2) / img.width, (ch - 24) / img.height);
        const dw = img.width * scale, dh = img.height * scale;
        g.drawImage(img, x + (cw - dw) / 2, y + 23 + (ch - 24 - dh) / 2, dw, dh);
        g.fillStyle = 'rgba(20, 23, 28, 0.85)';
        g.fillRect(x + 1, y + 1, cw - 2, 22);
        g.fillStyle = '#e6e6e6';
        g.font = '13px sans-serif';
        g.fillText(list[i]!.label, x + 8, y + 16);
      }
      return { url: canvas.toDataURL('image/png'), width: canvas.width, height: canvas.height };
    }, { list: tiles, w: VIEW.width, h: VIEW.height });
    expect([out.width, out.height, tiles.length]).toEqual([1280, 800, 8]);
    const png = Buffer.from(out.url.replace(/^data:image\/png;base64,/, ''), 'base64');
    expect(png.byteLength).toBeGreaterThan(50_000);
    if (write) writeFileSync(path.join(OUT, 'overlay-contrast.png'), png);
    expect(problems).toEqual([]);
  }, 300_000);
});

/** The walkmeshes a project file of this test opens as. */
function meshesOf(name: string): Walkmesh[] {
  if (name.endsWith('.wok')) {
    const d = loadDocument(name, blackVulkarWok(name.replace(/\.wok$/, '')));
    return d.handler.toWalkmeshes(d.document, name);
  }
  const file = path.join(fixturesRoot, 'nwn2/kaedrin', name);
  const d = loadDocument(file, readFixture(file));
  return d.handler.toWalkmeshes(d.document, name);
}
