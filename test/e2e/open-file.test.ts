import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectBytes } from '../../shared/formats/inspect-file';
import { startBrowserServer, type BrowserServer } from '../../electron/services/browser-server';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { buildRenderer, launchChromium, recordPageProblems } from '../support/browser-app';

const itemtest = path.join(fixturesRoot, 'source/tf2/itemtest.nav');

interface PixelStats {
  width: number;
  height: number;
  distinctColours: number;
  /** Pixels of the walkable colour family: clearly more green than red and blue. */
  greenish: number;
  /** Pixels of the background colour. */
  background: number;
}

/** Decodes a PNG in a blank page (Chromium's decoder) and counts what the view shows. */
async function pixelStats(browser: Browser, png: Buffer): Promise<PixelStats> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(async (base64: string) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const colours = new Set<number>();
      let greenish = 0;
      let background = 0;
      for (let i = 0; i < data.length; i += 4) {
        const r = data[i]!, g = data[i + 1]!, b = data[i + 2]!;
        colours.add((r << 16) | (g << 8) | b);
        if (g > r + 40 && g > b + 40) greenish++;
        // The clear colour (0.114, 0.129, 0.153) = (29, 33, 39).
        if (Math.abs(r - 29) <= 2 && Math.abs(g - 33) <= 2 && Math.abs(b - 39) <= 2) background++;
      }
      return { width: bitmap.width, height: bitmap.height, distinctColours: colours.size, greenish, background };
    }, png.toString('base64'));
  } finally {
    await page.close();
  }
}

describe('opening a file in browser mode', () => {
  let tmp = '';
  let server: BrowserServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const problems: string[] = [];
  /** The trimmed text of the element with this test ID. */
  const text = async (testId: string) => (await page.getByTestId(testId).textContent())?.trim() ?? null;
  const firstLegendEntry = async () => (await page.getByTestId('legend-entry').first().textContent())?.trim() ?? null;

  beforeAll(async () => {
    // The renderer is built from the current sources into a private folder, so the test
    // never serves a stale dist/renderer and never races another build.
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-'));
    const rendererDir = path.join(tmp, 'renderer');
    await buildRenderer(rendererDir);
    server = await startBrowserServer({ service: createWalkbenchService(), rendererDir });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    recordPageProblems(page, problems);
    const response = await page.goto(server.url);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('starts, asks the services who they are, and offers to open a file', async () => {
    await expect.poll(() => text('app-version'), { timeout: 20_000 }).toBe('development');
    await expect.poll(() => text('empty-state')).toContain('.nav');
  });

  it('opens a .nav through the file input and shows its summary and findings', async () => {
    await page.getByTestId('open-file-input').setInputFiles(itemtest);
    const areas = page.getByTestId('count-areas');
    await areas.waitFor({ timeout: 30_000 });
    expect((await areas.textContent())?.trim()).toBe('33');
    expect(await text('summary-format')).toContain('source-nav');
    expect(await text('summary-model')).toMatch(/1 walkmesh, 66 faces, 132 vertices/);

    const expected = inspectBytes('itemtest.nav', readFixture(itemtest));
    const findings = page.getByTestId('findings');
    expect(await findings.isVisible()).toBe(true);
    const e = expected.errors.length;
    const w = expected.warnings.length;
    expect(await text('findings-title')).toBe(`${e} error${e === 1 ? '' : 's'}, ${w} warning${w === 1 ? '' : 's'}`);
    expect(await page.getByTestId('finding').count()).toBe(Math.min(e + w, 500));
    if (e + w === 0) expect(await text('findings-none')).toBe('No problems found.');
  });

  it('draws the walkmesh as one Babylon mesh of 66 faces', async () => {
    const viewport = page.getByTestId('viewport');
    await expect.poll(() => viewport.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    expect(await viewport.getAttribute('data-mesh-count')).toBe('1');
    expect(await viewport.getAttribute('data-face-count')).toBe('66');

    const shot = await pixelStats(browser!, await page.locator('canvas').screenshot());
    expect(shot.width).toBeGreaterThan(400);
    // Not a uniform clear: the walkable faces (green) and the grid cover part of the view,
    // the background the rest.
    expect(shot.distinctColours).toBeGreaterThan(20);
    expect(shot.greenish).toBeGreaterThan(shot.width * shot.height * 0.01);
    expect(shot.background).toBeGreaterThan(shot.width * shot.height * 0.05);
  });

  it('recolours by material/flags with a legend, without rebuilding the mesh', async () => {
    const before = await pixelStats(browser!, await page.locator('canvas').screenshot());
    expect(await firstLegendEntry()).toContain('walkable');
    await page.getByTestId('colour-mode-material').click();
    await expect.poll(() => firstLegendEntry()).toMatch(/faces/);
    expect(await firstLegendEntry()).not.toContain('walkable');
    await expect
      .poll(async () => (await pixelStats(browser!, await page.locator('canvas').screenshot())).greenish, { timeout: 10_000 })
      .not.toBe(before.greenish);
    expect(await page.getByTestId('viewport').getAttribute('data-mesh-count')).toBe('1');
  });

  it('shows why a file cannot be read', async () => {
    await page.getByTestId('open-file-input').setInputFiles({ name: 'broken.nav', mimeType: 'application/octet-stream', buffer: Buffer.from([0xce, 0xfa, 0xed, 0xfe, 1, 0]) });
    const failure = page.getByTestId('read-failure');
    await failure.waitFor({ timeout: 20_000 });
    expect(await failure.textContent()).toContain('broken.nav');
    expect(await page.getByTestId('viewport').getAttribute('data-mesh-count')).toBe('0');
  });

  it('ran without console errors, failed requests or CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
