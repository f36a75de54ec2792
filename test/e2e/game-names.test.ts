import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserServer } from '../../electron/services/browser-server';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectStore } from '../../electron/services/project/project-store';
import { loadDocument } from '../../shared/formats/inspect-file';
import { BWM_FORMAT } from '../../shared/formats/kotor/bwm-document';
import type { NavDocument } from '../../shared/formats/source/nav-document';
import { NAV_FORMAT } from '../../shared/formats/source/nav-reader';
import { faceCount, type Walkmesh } from '../../shared/model/walkmesh';
import { gameValueNames, rawValue, valueName } from '../../shared/views/game-attribute-names';
import { openProjectPage } from '../support/browser-app';
import { browserSuite } from '../support/browser-suite';
import { editShown } from '../support/edit-waits';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { centroid, clearFaces, withStore, type P3 } from '../support/walkmesh-probes';

/**
 * The game's names in the app: a KotOR face painted by picking a material by name, a Source
 * area's attribute set by name, and the inspector and legend naming them (raw values kept
 * for experts). With `WALKBENCH_SCREENSHOTS=DIR` the picker and legend screenshots are
 * written there.
 */
const shotsDir = process.env['WALKBENCH_SCREENSHOTS'];
const suite = browserSuite('walkbench-e2e-game-names-');

async function shot(page: Page, name: string): Promise<void> {
  const png = await page.screenshot();
  expect(png.byteLength).toBeGreaterThan(10_000);
  if (shotsDir) {
    mkdirSync(shotsDir, { recursive: true });
    writeFileSync(path.join(shotsDir, `${name}.png`), png);
  }
}

interface Opened {
  page: Page;
  server: BrowserServer;
  text: (id: string) => Promise<string>;
  open: (name: string, faces: number) => Promise<void>;
  clickAt: (p: P3) => Promise<void>;
}

async function openProject(project: string, problems: string[]): Promise<Opened> {
  const { page, server } = await openProjectPage(project, suite.rendererDir, problems, { requests: false }, { browser: suite.browser });
  const text = async (id: string) => (await page.getByTestId(id).first().textContent())?.trim() ?? '';
  const open = async (name: string, faces: number) => {
    await page.locator(`[data-testid="tree-file"][data-file-name="${name}"]`).click();
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-face-count'), { timeout: 30_000 }).toBe(String(faces));
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await page.getByTestId('frame-all').click();
    await page.getByTestId('top-view').click();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  };
  const clickAt = async (p: P3) => {
    const box = (await page.getByTestId('viewport-canvas').boundingBox())!;
    const s = await page.evaluate(([x, y, z]) => (window as unknown as { __walkbench: { toScreen(x: number, y: number, z: number): [number, number] | null } }).__walkbench.toScreen(x!, y!, z!), p);
    expect(s, `point ${p.join(', ')} is in front of the camera`).not.toBeNull();
    await page.mouse.click(box.x + s![0], box.y + s![1]);
  };
  return { page, server, text, open, clickAt };
}

describe('the game names in the app', () => {
  let tmp = '';
  const problems: string[] = [];
  const opened: Opened[] = [];

  beforeAll(() => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-game-names-'));
  });
  afterAll(async () => {
    for (const o of opened) {
      await o.page.close();
      await o.server.close();
    }
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('paints a KotOR face by picking a material by name; the inspector and legend name it', async () => {
    const ROOM = 'm10aa_09a.wok';
    const project = path.join(tmp, 'kotor.wbproj');
    const store = ProjectStore.create(project, { name: 'KotOR names', game: 'kotor' });
    let fileId = 0;
    try {
      fileId = store.upsertFile({ module: 'blackvulkar', area: 'm10aa', name: ROOM, kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(path.join(fixturesRoot, 'kotor/k1-blackvulkar', ROOM)) }).fileId;
    } finally {
      store.close();
    }
    const meshNow = (): Walkmesh =>
      withStore(project, (s) => {
        const d = loadDocument(ROOM, s.loadEdit(fileId)?.bytes ?? s.loadFileBytes(fileId), env);
        return d.handler.toWalkmeshes(d.document, ROOM)[0]!;
      });
    const original = meshNow();
    const o = await openProject(project, problems);
    opened.push(o);
    const { page, text } = o;
    await o.open(ROOM, faceCount(original));
    const face = clearFaces(original)[0]!;
    await o.clickAt(centroid(original, face));
    await expect.poll(() => text('inspector-face')).toBe(String(face));
    const names = gameValueNames('kotor');
    const before = original.faceMaterial[face]!;
    expect(await text('inspector-material')).toBe(valueName(names, before));
    expect(await text('inspector-raw')).toBe(String(before));

    // Stone (surfacemat row 4), or Wood when the face is stone already.
    const pickName = valueName(names, before) === 'Stone' ? 'Wood' : 'Stone';
    const picked = names.choices.find((c) => c.name === pickName)!.value;
    await page.getByTestId('paint-material-picker').click();
    const options = page.getByTestId('paint-material-options');
    await expect.poll(() => options.getByRole('option').count()).toBe(names.choices.length + 1);
    // Each option has a swatch of the colour the legend uses.
    const option = options.getByRole('option', { name: new RegExp(`^${pickName}\\b`) });
    expect(await option.locator('.swatch').evaluate((e) => getComputedStyle(e).backgroundColor)).toMatch(/^rgb\(/);
    await shot(page, 'game-names-material-picker');
    await option.click();
    await expect.poll(() => text('paint-material-picker')).toBe(`Material: ${pickName} (${picked}) ▾`);
    // The raw field follows the pick, for experts.
    expect(await page.getByTestId('paint-material').inputValue()).toBe(String(picked));
    await editShown(page, () => page.getByTestId('paint-fill').click());
    await expect.poll(() => text('inspector-material')).toBe(pickName);
    expect(await text('inspector-raw')).toBe(String(picked));
    expect(meshNow().faceMaterial[face]).toBe(picked);

    // The legend names materials, never "65 (0x41)"; its entry keeps the stored value as a tooltip.
    await page.getByTestId('colour-mode-material').click();
    const entry = page.getByTestId('legend-entry').filter({ has: page.locator('.label', { hasText: new RegExp(`^${pickName}$`) }) });
    await expect.poll(() => entry.count()).toBe(1);
    expect(await entry.getAttribute('title')).toBe(`stored value ${picked}`);
    const labels = await page.getByTestId('legend-entry').locator('.label').allInnerTexts();
    expect(labels.length).toBeGreaterThan(1);
    for (const l of labels) expect(l).not.toMatch(/0x|^\d/);
    await shot(page, 'game-names-material-legend');
    expect(problems).toEqual([]);
  }, 180_000);

  it("sets a Source area's attribute by name; the inspector and legend name it", async () => {
    const NAV = 'source/csgo/2nd_mythic_town_v5.nav';
    const NAV_NAME = path.basename(NAV);
    const project = path.join(tmp, 'source.wbproj');
    const store = ProjectStore.create(project, { name: 'Source names', game: 'source' });
    let navId = 0;
    try {
      navId = store.upsertFile({ module: 'csgo', area: '2nd_mythic_town_v5', name: NAV_NAME, kind: 'walkmesh', format: NAV_FORMAT, bytes: readFixture(path.join(fixturesRoot, NAV)) }).fileId;
    } finally {
      store.close();
    }
    const nav = (): { doc: NavDocument; mesh: Walkmesh } =>
      withStore(project, (s) => {
        const d = loadDocument(NAV_NAME, s.loadEdit(navId)?.bytes ?? s.loadFileBytes(navId), env);
        return { doc: d.document as NavDocument, mesh: d.handler.toWalkmeshes(d.document, NAV_NAME)[0]! };
      });
    const { doc, mesh } = nav();
    const o = await openProject(project, problems);
    opened.push(o);
    const { page, text } = o;
    await o.open(NAV_NAME, faceCount(mesh));
    const face = clearFaces(mesh)[0]!;
    await o.clickAt(centroid(mesh, face));
    await expect.poll(() => text('inspector-face')).toBe(String(face));
    const a = Array.from(doc.areas.id).indexOf(mesh.faceOwner[face]!);
    const names = gameValueNames('source');
    const old = doc.areas.attributes[a]!;
    expect(await text('inspector-material')).toBe(valueName(names, old));
    // "no jump" (0x8), or "stop" (0x10) when the area has no jump already.
    const [bit, name] = (old & 0x8) === 0 ? [0x8, 'no jump'] : [0x10, 'stop'];

    await page.getByTestId('paint-flags-picker').click();
    const chip = page.getByTestId(`paint-flag-${name.replace(' ', '-')}`);
    await chip.click();
    await expect.poll(() => chip.getAttribute('data-state')).toBe('set');
    await expect.poll(() => text('paint-flags-picker')).toBe(`Attributes: +${name} ▾`);
    expect(await page.getByTestId('paint-set-bits').inputValue()).toBe(`0x${bit.toString(16)}`);
    await shot(page, 'game-names-attribute-picker');
    // Closed again (as a designer would) so it does not cover the Fill button.
    await page.getByTestId('paint-flags-picker').click();
    await expect.poll(() => page.getByTestId('paint-flags-options').count()).toBe(0);
    await editShown(page, () => page.getByTestId('paint-fill').click(), { drawn: false });
    const now = (old | bit) >>> 0;
    await expect.poll(() => text('inspector-material')).toBe(valueName(names, now));
    expect(await text('inspector-material')).toContain(name);
    expect(await text('inspector-raw')).toBe(rawValue(names, now));
    expect(nav().doc.areas.attributes[a]).toBe(now);

    await page.getByTestId('colour-mode-material').click();
    await expect.poll(async () => (await page.getByTestId('legend-entry').locator('.label').allInnerTexts()).join('|')).toContain(valueName(names, now));
    for (const l of await page.getByTestId('legend-entry').locator('.label').allInnerTexts()) expect(l).not.toMatch(/^attributes 0x/);
    // The area is named as the .nav stores it, in the inspector and the owner legend alike.
    expect(await text('inspector-owner')).toBe(`area ${mesh.faceOwner[face]}`);
    await shot(page, 'game-names-attribute-legend');
    expect(problems).toEqual([]);
  }, 180_000);
});
