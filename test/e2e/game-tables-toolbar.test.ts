import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserServer } from '../../electron/services/browser-server';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectStore } from '../../electron/services/project/project-store';
import { readTwoDaText } from '../../shared/formats/aurora/twoda-text';
import { loadDocument } from '../../shared/formats/inspect-file';
import { BWM_FORMAT } from '../../shared/formats/kotor/bwm-document';
import { aswmPacketOf, TRX_FORMAT, type TrxDocument } from '../../shared/formats/nwn2/trx-document';
import { PLUGIN_FORMAT, type PluginDocument } from '../../shared/formats/skyrim/plugin-document';
import { pluginNavmeshes } from '../../shared/formats/skyrim/plugin-navmeshes';
import { faceCount, type Walkmesh } from '../../shared/model/walkmesh';
import { gameValueNames } from '../../shared/views/game-attribute-names';
import { openProjectPage } from '../support/browser-app';
import { browserSuite } from '../support/browser-suite';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { pageActions } from '../support/page-actions';
import { centroid, clearFaces, withStore } from '../support/walkmesh-probes';

/**
 * Issue 16, what the last session left: the pickers name values by the project's own
 * tables (KotOR surfacemat.2da, NWN2 terrainmaterials.2da) and Skyrim cover by its edges;
 * the stored NWN2 island of a triangle on hover and in the inspector, named as messages
 * name it; and the edit toolbar in two rows at 1280×800 with the game's tools beside the
 * inspector, so an NWN2 area keeps a large viewport.
 */
const app = browserSuite('walkbench-e2e-game-tables-');

interface Opened {
  page: Page;
  server: BrowserServer;
}

describe('project tables, stored islands, cover by name, a two-row toolbar', () => {
  let tmp = '';
  const problems: string[] = [];
  const opened: Opened[] = [];
  let page: Page;
  const ui = pageActions(() => page);

  beforeAll(() => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-game-tables-'));
  });
  afterAll(async () => {
    for (const o of opened) {
      await o.page.close();
      await o.server.close();
    }
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  async function open(project: string): Promise<void> {
    const o = await openProjectPage(project, app.rendererDir, problems, { requests: false }, { browser: app.browser });
    opened.push(o);
    page = o.page;
  }

  it('NWN2: two toolbar rows, the area tools beside the inspector; surfaces from terrainmaterials.2da; the stored island on hover', async () => {
    const AREA = 'CSLMordMansion';
    const dir = path.join(fixturesRoot, 'nwn2/mordmansion');
    const trxBytes = readFixture(path.join(dir, `${AREA}.TRX`));
    const project = path.join(tmp, 'nwn2.wbproj');
    const store = ProjectStore.create(project, { name: 'Mord mansion', game: 'nwn2' });
    try {
      store.upsertFile({ module: 'mordmansion', area: AREA, name: `${AREA}.TRX`, kind: 'walkmesh', format: TRX_FORMAT, bytes: trxBytes });
      store.upsertFile({ module: 'mordmansion', area: AREA, name: `${AREA}.GIT`, kind: 'git', format: null, bytes: readFixture(path.join(dir, `${AREA}.GIT`)) });
      store.upsertFile({ module: 'mordmansion', area: null, name: 'terrainmaterials.2da', kind: '2da', format: '2da', bytes: readFixture(path.join(fixturesRoot, 'nwn2/2da/terrainmaterials.2da')) });
    } finally {
      store.close();
    }
    const loaded = loadDocument(`${AREA}.TRX`, trxBytes, env);
    const mesh: Walkmesh = loaded.handler.toWalkmeshes(loaded.document, `${AREA}.TRX`)[0]!;
    const stored = aswmPacketOf(loaded.document as TrxDocument)!.aswm.triIsland;
    await open(project);
    await ui.openFromTree(`${AREA}.TRX`, faceCount(mesh));

    // The shared tools take two rows, each one line high; the NWN2 tools are in the side panel.
    const rowHeights = await page.locator('[data-testid^="toolbar-row-"]').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    expect(rowHeights.length).toBe(2);
    const button = (await page.getByTestId('tool-select').boundingBox())!.height;
    for (const h of rowHeights) expect(h).toBeLessThan(button * 1.8);
    const toolbar = (await page.getByTestId('edit-toolbar').boundingBox())!;
    expect(toolbar.height).toBeLessThan(button * 3.6);
    expect(await page.getByTestId('game-tools').getByTestId('nwn2-tools').count()).toBe(1);
    expect(await page.getByTestId('edit-toolbar').getByTestId('nwn2-tools').count()).toBe(0);
    const canvas = (await page.getByTestId('viewport-canvas').boundingBox())!;
    expect(canvas.height).toBeGreaterThan(500);
    // A tool scrolled out of its row is still reached (the row scrolls, nothing hides).
    await page.getByTestId('drop-to-surface').scrollIntoViewIfNeeded();
    expect(await page.getByTestId('drop-to-surface').isVisible()).toBe(true);

    // The surface picker: the surfaces as terrainmaterials.2da uses them, its terrain textures beside.
    await page.getByTestId('paint-material-picker').click();
    await expect.poll(() => ui.text('paint-material-source')).toBe('from terrainmaterials.2da (project, module mordmansion)');
    const t = readTwoDaText(readFixture(path.join(fixturesRoot, 'nwn2/2da/terrainmaterials.2da')));
    const first = t.cell(0, 'Material')!;
    const option = page.getByTestId('paint-material-options').getByRole('option').nth(1);
    expect((await option.innerText()).trim()).toMatch(new RegExp(`^${first}\\b`));
    expect(await option.getAttribute('data-detail')).toMatch(new RegExp(`^\\d+ terrain textures: ${t.cell(0, 'Terrain')}`));
    // The picker's list is not clipped by the scrolling row: it shows below its button.
    const list = (await page.getByTestId('paint-material-options').boundingBox())!;
    const trigger = (await page.getByTestId('paint-material-picker').boundingBox())!;
    expect(list.y).toBeGreaterThanOrEqual(trigger.y + trigger.height - 1);
    expect(list.height).toBeGreaterThan(100);
    await page.keyboard.press('Escape');

    // Hover and inspector: the stored island, named as the validator and path messages name it.
    const face = clearFaces(mesh).find((f) => stored[f] !== 0xffff)!;
    expect(face).toBeDefined();
    const s = await ui.screenOf(centroid(mesh, face));
    await page.mouse.move(s.x, s.y);
    await expect.poll(async () => (await page.getByTestId('hover-tooltip').innerText().catch(() => '')), { timeout: 10_000 }).toContain(`baked island ${stored[face]}`);
    await page.mouse.click(s.x, s.y);
    await expect.poll(() => ui.text('inspector-face')).toBe(String(face));
    expect(await ui.text('inspector-baked-island')).toBe(`baked island ${stored[face]}`);
    expect(await ui.text('inspector-island')).toMatch(/^island #\d+$/);
    expect(problems).toEqual([]);
  }, 180_000);

  it("KotOR: the project's surfacemat.2da names the materials in the picker and the inspector", async () => {
    const ROOM = 'm10aa_09a.wok';
    const bytes = readFixture(path.join(fixturesRoot, 'kotor/k1-blackvulkar', ROOM));
    const loaded = loadDocument(ROOM, bytes, env);
    const mesh = loaded.handler.toWalkmeshes(loaded.document, ROOM)[0]!;
    const face = clearFaces(mesh)[0]!;
    const row = mesh.faceMaterial[face]!;
    // The project's own table: the default labels with the clicked face's row renamed.
    const labels = gameValueNames('kotor').choices.map((c) => c.name);
    labels[row] = 'MossyFlagstone';
    const twoDa = `2DA V2.0\n\n\tlabel\tWalk\n${labels.map((l, i) => `${i}\t${l}\t1`).join('\n')}\n`;
    const project = path.join(tmp, 'kotor.wbproj');
    const store = ProjectStore.create(project, { name: 'KotOR tables', game: 'kotor' });
    try {
      store.upsertFile({ module: 'm10aa', area: 'm10aa', name: ROOM, kind: 'walkmesh', format: BWM_FORMAT, bytes });
      store.upsertFile({ module: 'm10aa', area: null, name: 'surfacemat.2da', kind: '2da', format: '2da', bytes: new TextEncoder().encode(twoDa) });
    } finally {
      store.close();
    }
    await open(project);
    await ui.openFromTree(ROOM, faceCount(mesh));
    await ui.clickAt(centroid(mesh, face));
    await expect.poll(() => ui.text('inspector-face')).toBe(String(face));
    expect(await ui.text('inspector-material')).toBe('MossyFlagstone');
    await page.getByTestId('paint-material-picker').click();
    await expect.poll(() => ui.text('paint-material-source')).toBe('from surfacemat.2da (project, module m10aa)');
    expect(await page.getByTestId('paint-material-options').getByRole('option', { name: /^MossyFlagstone\b/ }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.getByTestId('colour-mode-material').click();
    await expect.poll(async () => (await page.getByTestId('legend-entry').locator('.label').allInnerTexts()).join('|')).toContain('MossyFlagstone');
    expect(problems).toEqual([]);
  }, 180_000);

  it('Skyrim: cover chosen by edge, type and side writes the cover word and sets it on the triangle', async () => {
    const DSH = 'DawnOfTheSilverHand.esp';
    const bytes = readFixture(path.join(fixturesRoot, 'skyrim', DSH));
    const project = path.join(tmp, 'skyrim.wbproj');
    const store = ProjectStore.create(project, { name: 'Skyrim cover', game: 'skyrim' });
    let fileId = 0;
    try {
      fileId = store.upsertFile({ module: 'plugins', area: 'DawnOfTheSilverHand', name: DSH, kind: 'walkmesh', format: PLUGIN_FORMAT, bytes }).fileId;
    } finally {
      store.close();
    }
    const loaded = loadDocument(DSH, bytes, env);
    const meshes = loaded.handler.toWalkmeshes(loaded.document, DSH);
    await open(project);
    await ui.openFromTree(DSH, meshes.reduce((n, m) => n + faceCount(m), 0));
    // The largest navmesh shown alone, and one of its triangles clicked.
    const mi = meshes.reduce((best, m, i) => (faceCount(m) > faceCount(meshes[best]!) ? i : best), 0);
    const m = meshes[mi]!;
    const hex = /NAVM (0x[0-9a-f]+)/i.exec(m.name)![1]!;
    const formId = parseInt(hex, 16);
    const face = clearFaces(m)[0]!;
    await page.locator(`[data-testid="tree-navmesh"][data-formid="${hex}"]`).click();
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-shown-meshes')).toBe('1');
    await page.getByTestId('frame-all').click();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await ui.clickAt(centroid(m, face));
    await expect.poll(() => ui.text('inspector-face')).toBe(String(face));
    await page.getByTestId('skyrim-cover-type-0').selectOption('8');
    await page.getByTestId('skyrim-cover-left-0').check();
    await page.getByTestId('skyrim-cover-type-1').selectOption('2');
    await page.getByTestId('skyrim-cover-right-1').check();
    const word = 0x8 | 0x10 | (2 << 6) | 0x800;
    expect(await page.getByTestId('skyrim-cover').inputValue()).toBe(`0x${word.toString(16)}`);
    expect(await ui.text('skyrim-cover-name')).toBe('edge 0-1: wall cover 128, left; edge 1-2: ledge cover, right');
    await ui.edited(() => page.getByTestId('skyrim-cover-set').click());
    const now = withStore(project, (s) => s.loadEdit(fileId)?.bytes ?? s.loadFileBytes(fileId));
    const nav = pluginNavmeshes(loadDocument(DSH, now, env).document as PluginDocument).find((n) => n.formId === formId)!;
    expect(nav.nvnm!.triCover[face]).toBe(word);
    expect(problems).toEqual([]);
  }, 180_000);
});
