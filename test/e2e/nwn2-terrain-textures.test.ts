import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserServer } from '../../electron/services/browser-server';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectStore } from '../../electron/services/project/project-store';
import { TRX_FORMAT } from '../../shared/formats/nwn2/trx-document';
import { openProjectPage } from '../support/browser-app';
import { browserSuite } from '../support/browser-suite';
import { dxt1Block, solidDxt1, writeDxtDds } from '../support/dds-writer';
import { generateExteriorTrxBytes } from '../support/nwn2-exterior-generator';
import { pageActions } from '../support/page-actions';
import { writeZip } from '../support/zip-writer';

/**
 * Issue 19: an NWN2 exterior's terrain drawn with its textures where the install has them.
 * A temp install holds, in Data/NWN2_Materials.zip, a magenta/yellow checker for
 * tt_grass01 (the generated megatiles' west halves) and a cyan tt_snow01 (east halves);
 * the other four textures are missing and listed as one gap. The screenshot is read back
 * in the browser and must show the texture colours, which no blend colour of the
 * generated terrain has. With `WALKBENCH_SCREENSHOTS=DIR` it is written there.
 */
const app = browserSuite('walkbench-e2e-terrain-textures-renderer-');
const shotsDir = process.env['WALKBENCH_SCREENSHOTS'];

// R5G6B5: 0xF81F magenta, 0xFFE0 yellow, 0x07FF cyan.
const checker = writeDxtDds('DXT1', 8, 8, [0xf81f, 0xffe0, 0xffe0, 0xf81f].map((c) => dxt1Block(c, 0, new Array<number>(16).fill(0))));

/** Pixels of a PNG screenshot by hue, counted in the browser (no PNG decoder in Node here). */
async function hueCounts(page: Page, png: Buffer): Promise<{ magenta: number; cyan: number; total: number }> {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d')!;
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let magenta = 0, cyan = 0;
    for (let i = 0; i < d.length; i += 4) {
      const r = d[i]!, gr = d[i + 1]!, b = d[i + 2]!;
      if (r > 60 && b > 60 && gr < 0.4 * Math.min(r, b)) magenta++;
      if (gr > 60 && b > 60 && r < 0.4 * Math.min(gr, b)) cyan++;
    }
    return { magenta, cyan, total: d.length / 4 };
  }, png.toString('base64'));
}

describe('NWN2: a generated exterior drawn with the install\'s terrain textures', () => {
  let tmp = '';
  let server: BrowserServer | undefined;
  let page: Page | undefined;
  const problems: string[] = [];
  const ui = pageActions(() => page!);

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-terrain-textures-'));
    const install = path.join(tmp, 'Neverwinter Nights 2');
    mkdirSync(path.join(install, 'Data'), { recursive: true });
    writeFileSync(path.join(install, 'Data', 'NWN2_Materials.zip'), writeZip([
      { name: 'NWN2_Materials/Terrain/tt_grass01.dds', data: checker },
      { name: 'NWN2_Materials/Terrain/tt_snow01.dds', data: solidDxt1(16, 0x07ff) },
    ]));
    const project = path.join(tmp, 'nwn2.wbproj');
    const store = ProjectStore.create(project, { name: 'Terrain textures', game: 'nwn2' });
    try {
      store.upsertFile({ module: 'generated', area: 'exterior', name: 'exterior.trx', kind: 'walkmesh', format: TRX_FORMAT, bytes: generateExteriorTrxBytes({ megatiles: 2 }, env) });
      store.addGameFolder(install);
    } finally {
      store.close();
    }
    ({ server, page } = await openProjectPage(project, app.rendererDir, problems, { requests: false }, { browser: app.browser }));
  }, 120_000);
  afterAll(async () => {
    await page?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('shows the textures on the terrain, and names the missing ones', async () => {
    const p = page!;
    await ui.openFromTree('exterior.trx');
    const view = p.getByTestId('view-level-context');
    await expect.poll(() => view.getAttribute('data-state'), { timeout: 60_000 }).toBe('ready');
    const gaps = (await p.getByTestId('level-context-gap').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(gaps.some((g) => g.includes('tt_dirt01.dds, tt_rock01.dds, tt_sand01.dds, tt_mud01.dds'))).toBe(true);
    // The generated walkmesh lies on the whole terrain: seen through (x-ray), the terrain under it shows.
    await p.getByTestId('xray-toggle').check();
    await view.scrollIntoViewIfNeeded();
    await p.getByTestId('frame-all').click();
    await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const png = await p.screenshot();
    if (shotsDir) {
      mkdirSync(shotsDir, { recursive: true });
      writeFileSync(path.join(shotsDir, 'nwn2-generated-exterior-textured.png'), png);
    }
    const hues = await hueCounts(p, png);
    // The checker's magenta (west halves) and the cyan (east halves) are both in sight.
    expect(hues.magenta).toBeGreaterThan(hues.total * 0.002);
    expect(hues.cyan).toBeGreaterThan(hues.total * 0.002);
    expect(problems).toEqual([]);
  }, 120_000);
});
