import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserServer, type BrowserServer } from '../../electron/services/browser-server';
import { importSources } from '../../electron/services/project/project-import';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { loadDocument } from '../../shared/formats/inspect-file';
import type { Walkmesh } from '../../shared/model/walkmesh';
import { faceIslands } from '../../shared/views/face-islands';
import type { OverlayId } from '../../shared/views/view-overlay';
import { casedContrast, contrastRatio } from '../../renderer/src/viewport/colour-contrast';
import type { ColourMode, Rgb } from '../../renderer/src/viewport/face-colours';
import { CASING_RGB, overlayColours, TOOL_COLOURS } from '../../renderer/src/viewport/overlay-colours';
import { buildRenderer, launchChromium, recordPageProblems } from '../support/browser-app';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { areaXY, centroid, type P3 } from '../support/walkmesh-probes';

/**
 * "See what you edit" (issue 16 §3), in the pixels Chromium draws: for one file per game,
 * with the link, cutter and path lines on, every face colouring is shown and the lines are
 * sampled across (line, its casing, the face beside it), the WCAG contrast of what is seen
 * is worked out (colour-contrast.ts) and must reach 3:1; and after Frame the colour legend
 * never covers the mesh. `WALKBENCH_SCREENSHOTS=DIR` keeps the screenshots.
 */
const inputs = [
  { module: 'source', file: 'source/tf2/itemtest.nav' },
  { module: 'kotor', file: 'kotor/k1-blackvulkar/m10aa_03a.wok' },
  { module: 'nwn2', file: 'nwn2/kaedrin/fh_settlement.trx', git: 'nwn2/kaedrin/fh_settlement.GIT' },
  // One small navmesh: a plugin whose navmeshes lie cells apart frames them all a few pixels wide.
  { module: 'skyrim', file: 'skyrim/FreeCamera.esp' },
] as const;

const MODES: ColourMode[] = ['walkable', 'material', 'island', 'owner'];
const LINK_VIEWS: OverlayId[] = ['transitions', 'edge-links', 'door-links', 'connections', 'cutters'];
const LINE_COLOURS: Rgb[] = [...LINK_VIEWS.flatMap((id) => overlayColours(id)), TOOL_COLOURS.path, TOOL_COLOURS.breaks, TOOL_COLOURS.marks];

const shotsDir = process.env['WALKBENCH_SCREENSHOTS'];

interface Sample {
  line: Rgb;
  casing: Rgb | null;
  face: Rgb;
}

/**
 * Pixels of a screenshot on the drawn lines (within 24/255 of a line colour), each with
 * what is seen beside it: walking across the line (left, right, up, down), the darkest
 * casing pixel and the first pixel past the casing, one more pixel out (past the blended
 * edge). Directions that run along the line or into another line are skipped.
 */
async function sampleLines(browser: Browser, png: Buffer, lineColours: readonly Rgb[], casing: Rgb): Promise<{ samples: Sample[]; linePixels: number; sides: number; casedSides: number }> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(
      async ([base64, lines, cas]) => {
        const bytes = Uint8Array.from(atob(base64 as string), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const ctx = canvas.getContext('2d')!;
        ctx.drawImage(bitmap, 0, 0);
        const { width: w, height: h } = bitmap;
        const d = ctx.getImageData(0, 0, w, h).data;
        const cols = (lines as number[][]).map((c) => c.map((x) => x * 255));
        const casingC = (cas as readonly number[]).map((x) => x * 255);
        const at = (x: number, y: number) => (y * w + x) * 4;
        const near = (i: number, c: number[], tol: number) => Math.abs(d[i]! - c[0]!) <= tol && Math.abs(d[i + 1]! - c[1]!) <= tol && Math.abs(d[i + 2]! - c[2]!) <= tol;
        const lineOf = (i: number) => cols.findIndex((c) => near(i, c, 24));
        const isCasing = (i: number) => Math.max(d[i]!, d[i + 1]!, d[i + 2]!) <= Math.max(...casingC) + 18;
        const rgb = (i: number) => [d[i]! / 255, d[i + 1]! / 255, d[i + 2]! / 255];
        const samples: { line: number[]; casing: number[] | null; face: number[] }[] = [];
        let linePixels = 0;
        let sides = 0;
        let casedSides = 0;
        // Every third pixel in each direction keeps the sample count modest on a big canvas.
        for (let y = 12; y < h - 12; y += 3) {
          for (let x = 12; x < w - 12; x += 3) {
            const i = at(x, y);
            const k = lineOf(i);
            if (k < 0) continue;
            linePixels++;
            for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
              const px = (k: number) => at(x + dx * k, y + dy * k);
              let s = 1;
              while (s < 4 && lineOf(px(s)) === k) s++;
              if (s >= 4) continue; // along the line
              // The casing: the darkest pixel just past the line.
              let dark = px(s);
              let kd = s;
              for (let t = s; t < s + 5; t++) {
                const j = px(t);
                if (d[j]! + d[j + 1]! + d[j + 2]! < d[dark]! + d[dark + 1]! + d[dark + 2]!) [dark, kd] = [j, t];
              }
              // The face: the first flat stretch (two like pixels) past the casing.
              let face = -1;
              for (let t = kd + 1; t < 12 && face < 0; t++) {
                const j = px(t);
                const n = px(t + 1);
                if (lineOf(j) >= 0) break;
                if (Math.abs(d[j]! - d[n]!) <= 10 && Math.abs(d[j + 1]! - d[n + 1]!) <= 10 && Math.abs(d[j + 2]! - d[n + 2]!) <= 10 && !isCasing(j)) face = j;
              }
              if (face < 0) continue;
              sides++;
              const casing = isCasing(dark) ? dark : null;
              if (casing !== null) casedSides++;
              samples.push({ line: rgb(i), casing: casing === null ? null : rgb(casing), face: rgb(face) });
            }
          }
        }
        return { samples, linePixels, sides, casedSides };
      },
      [png.toString('base64'), lineColours.map((c) => [...c]), [...casing]] as const,
    ) as unknown as { samples: Sample[]; linePixels: number; sides: number; casedSides: number };
  } finally {
    await page.close();
  }
}

describe('overlay lines read over every face colouring, and the legend never covers the mesh', () => {
  let tmp = '';
  let server: BrowserServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const problems: string[] = [];
  const report: string[] = [];
  const text = async (testId: string) => (await page.getByTestId(testId).first().textContent())?.trim() ?? null;
  const viewport = () => page.getByTestId('viewport');
  const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

  async function toScreen(points: readonly P3[]): Promise<([number, number] | null)[]> {
    return page.evaluate((pts) => {
      const hook = (window as unknown as { __walkbench: { toScreen(x: number, y: number, z: number): [number, number] | null } }).__walkbench;
      return pts.map((p) => hook.toScreen(p[0]!, p[1]!, p[2]!));
    }, points.map((p) => [...p]));
  }

  /** The projected bounds of every vertex the faces use, in page pixels. */
  async function meshScreenBounds(meshes: readonly Walkmesh[]): Promise<{ left: number; top: number; right: number; bottom: number }> {
    const canvasBox = (await page.getByTestId('viewport-canvas').boundingBox())!;
    const pts: P3[] = [];
    for (const m of meshes) {
      const used = new Set(m.triangles);
      for (const v of used) pts.push([m.positions[v * 3]!, m.positions[v * 3 + 1]!, m.positions[v * 3 + 2]!]);
    }
    const screen = await toScreen(pts);
    const b = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
    for (const s of screen) {
      expect(s, 'every vertex is in front of the camera after Frame').not.toBeNull();
      b.left = Math.min(b.left, canvasBox.x + s![0]);
      b.right = Math.max(b.right, canvasBox.x + s![0]);
      b.top = Math.min(b.top, canvasBox.y + s![1]);
      b.bottom = Math.max(b.bottom, canvasBox.y + s![1]);
    }
    return b;
  }

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-overlay-contrast-e2e-'));
    const rendererDir = path.join(tmp, 'renderer');
    await buildRenderer(rendererDir);
    const projectFile = path.join(tmp, 'contrast.walkbench');
    const store = ProjectStore.create(projectFile, { name: 'contrast', game: 'nwn2' });
    try {
      for (const i of inputs) {
        const files = [i.file, ...('git' in i ? [i.git] : [])].map((f) => path.join(fixturesRoot, f));
        await importSources(store, files, { module: i.module });
      }
    } finally {
      store.close();
    }
    server = await startBrowserServer({ service: createWalkbenchService({ startupFile: projectFile, startupIsProject: true }), rendererDir });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    recordPageProblems(page, problems);
    expect((await page.goto(server.url))?.status()).toBe(200);
    await page.getByTestId('project-name').filter({ hasText: 'contrast' }).waitFor({ timeout: 30_000 });
  }, 240_000);

  afterAll(async () => {
    console.log(`overlay contrast:\n${report.join('\n')}`);
    await browser?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  for (const input of inputs) {
    it(`${input.module}: path and link lines read at 3:1 over each colouring; the legend is clear of the mesh`, async () => {
      const file = path.join(fixturesRoot, input.file);
      const name = path.basename(file);
      const loaded = loadDocument(file, readFixture(file));
      const meshes = loaded.handler.toWalkmeshes(loaded.document, name);
      const faces = meshes.reduce((n, m) => n + m.triangles.length / 3, 0);
      await page.locator(`[data-testid="tree-file"][data-file-name="${name}"]`).click();
      await expect.poll(() => viewport().getAttribute('data-face-count'), { timeout: 30_000 }).toBe(String(faces));
      await expect.poll(() => viewport().getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
      await page.getByTestId('frame-all').click();
      await page.getByTestId('top-view').click();
      await frames();

      // A path across the largest walkable region of the largest walkmesh: its two
      // roomiest faces farthest apart along x + y.
      const mi = meshes.reduce((best, m, i) => (m.triangles.length > meshes[best]!.triangles.length ? i : best), 0);
      const m = meshes[mi]!;
      const islands = faceIslands(m).faceIsland;
      const candidates: number[] = [];
      for (let f = 0; f < m.triangles.length / 3; f++) if (islands[f] === 0) candidates.push(f);
      const areas = candidates.map((f) => areaXY(m, f)).sort((a, b) => a - b);
      const roomy = candidates.filter((f) => areaXY(m, f) >= areas[Math.floor(areas.length / 2)]!);
      const along = (f: number) => centroid(m, f)[0] + centroid(m, f)[1];
      roomy.sort((a, b) => along(a) - along(b));
      await page.getByTestId('tool-path').click();
      const canvasBox = (await page.getByTestId('viewport-canvas').boundingBox())!;
      const clickFace = async (f: number) => {
        const [p] = await toScreen([centroid(m, f)]);
        await page.mouse.click(canvasBox.x + p![0], canvasBox.y + p![1]);
      };
      const answered = async () => /^(true|false)$/.test((await page.getByTestId('path-result').getAttribute('data-found')) ?? '');
      // From the lowest end along x + y to the highest; where another floor hides a face
      // from the camera, the next one inwards is tried.
      for (let i = 0; i < Math.min(5, roomy.length) && !(await answered()); i++) {
        await clickFace(roomy[i]!);
        await expect.poll(() => text('path-result')).toMatch(/^(Start at|Click the start)/);
        if ((await text('path-result'))!.startsWith('Click the start')) continue;
        for (let j = roomy.length - 1; j >= Math.max(roomy.length - 5, i + 1); j--) {
          await clickFace(roomy[j]!);
          // A hit asks the services for the path; a miss leaves the start waiting for its end.
          for (let wait = 0; wait < 25 && !(await answered()); wait++) await page.waitForTimeout(200);
          if (await answered()) break;
        }
        if (!(await answered())) {
          await page.getByTestId('path-clear').click();
        }
      }
      await expect.poll(async () => `${await page.getByTestId('path-result').getAttribute('data-found')} ${await text('path-result')}`, { timeout: 30_000 }).toMatch(/^(true|false) /);
      const found = await page.getByTestId('path-result').getAttribute('data-found');
      await page.getByTestId('tool-select').click();
      for (const id of LINK_VIEWS) await page.getByTestId(`view-toggle-${id}`).check();
      await page.mouse.move(2, 2);

      for (const mode of MODES) {
        await page.getByTestId(`colour-mode-${mode}`).click();
        await expect.poll(() => page.getByTestId(`colour-mode-${mode}`).getAttribute('aria-checked')).toBe('true');
        // Frame with this colouring's legend: the legend's box and the mesh's projected box do not meet.
        await page.getByTestId('frame-all').click();
        await frames();
        const legend = (await page.getByTestId('legend').boundingBox())!;
        const b = await meshScreenBounds(meshes);
        const overlapX = Math.min(b.right, legend.x + legend.width) - Math.max(b.left, legend.x);
        const overlapY = Math.min(b.bottom, legend.y + legend.height) - Math.max(b.top, legend.y);
        expect(overlapX <= 0 || overlapY <= 0, `${input.module}/${mode}: mesh ${JSON.stringify(b)} vs legend ${JSON.stringify(legend)}`).toBe(true);
        // The mesh still fills a fair part of the canvas.
        expect(Math.max((b.right - b.left) / canvasBox.width, (b.bottom - b.top) / canvasBox.height)).toBeGreaterThan(0.3);

        await expect.poll(() => viewport().getAttribute('data-drawn')).toBe('true');
        await frames();
        const png = await page.getByTestId('viewport-canvas').screenshot();
        if (shotsDir) {
          mkdirSync(shotsDir, { recursive: true });
          await page.screenshot({ path: path.join(shotsDir, `overlay-contrast-${input.module}-${mode}.png`) });
        }
        const r = await sampleLines(browser!, png, LINE_COLOURS, CASING_RGB);
        const seen = r.samples.map((x) => (x.casing ? casedContrast(x.line, x.casing, x.face) : contrastRatio(x.line, x.face)));
        const bare = r.samples.map((x) => contrastRatio(x.line, x.face));
        const share = (xs: number[]) => xs.filter((c) => c >= 3).length / Math.max(xs.length, 1);
        const sorted = [...seen].sort((a, b) => a - b);
        report.push(
          `${input.module} ${mode} (path ${found === 'true' ? 'found' : 'breaks'}): ${r.linePixels} line pixels, ${r.samples.length} sides, cased ${((r.casedSides / Math.max(r.sides, 1)) * 100).toFixed(0)}%, ` +
            `≥3:1 seen ${(share(seen) * 100).toFixed(1)}% (without casing ${(share(bare) * 100).toFixed(1)}%), 5th percentile ${sorted[Math.floor(sorted.length * 0.05)]?.toFixed(2)}`,
        );
        expect(r.linePixels, `${input.module}/${mode}: lines are drawn`).toBeGreaterThan(10);
        expect(r.samples.length).toBeGreaterThan(20);
        // The casing is there beside most of the lines, and what is seen reads at 3:1 nearly
        // everywhere, never less often than the bare line would. (The rest: where lines run
        // within a few pixels of each other, as NWN2's cutters do, or blend at their ends,
        // or, in a plugin whose navmeshes lie far apart, where lines are only a few pixels long.)
        expect(r.casedSides / r.sides, `${input.module}/${mode}: casing drawn`).toBeGreaterThan(0.5);
        expect(share(seen), `${input.module}/${mode}: lines readable`).toBeGreaterThan(0.7);
        expect(share(seen)).toBeGreaterThanOrEqual(share(bare));
      }
      for (const id of LINK_VIEWS) await page.getByTestId(`view-toggle-${id}`).uncheck();
      await page.getByTestId('tool-path').click();
      await page.getByTestId('path-clear').click();
      await page.getByTestId('tool-select').click();
      await page.getByTestId('colour-mode-walkable').click();
    }, 400_000);
  }

  it('frames the face a finding names with its neighbours around it', async () => {
    const file = path.join(fixturesRoot, 'kotor/k1-blackvulkar/m10aa_03a.wok');
    const name = path.basename(file);
    await page.locator(`[data-testid="tree-file"][data-file-name="${name}"]`).click();
    await expect.poll(() => viewport().getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    const loaded = loadDocument(file, readFixture(file));
    const m = loaded.handler.toWalkmeshes(loaded.document, name)[0]!;
    const finding = page.getByTestId('finding').first();
    await page.getByTestId('top-view').click();
    await finding.click();
    await expect.poll(async () => Number(await text('inspector-face'))).toBeGreaterThanOrEqual(0);
    const face = Number(await text('inspector-face'));
    await frames();
    // Every face touching the framed face's corners is on screen, inside the canvas.
    const corners = new Set([0, 1, 2].map((k) => m.triangles[face * 3 + k]!));
    const ring: number[] = [];
    for (let f = 0; f < m.triangles.length / 3; f++) if ([0, 1, 2].some((k) => corners.has(m.triangles[f * 3 + k]!))) ring.push(f);
    expect(ring.length).toBeGreaterThan(1);
    const box = (await page.getByTestId('viewport-canvas').boundingBox())!;
    const pts = ring.flatMap((f) => [0, 1, 2].map((k) => [...m.positions.subarray(m.triangles[f * 3 + k]! * 3, m.triangles[f * 3 + k]! * 3 + 3)] as P3));
    const screen = await toScreen(pts);
    for (const p of screen) {
      expect(p).not.toBeNull();
      expect(p![0]).toBeGreaterThanOrEqual(0);
      expect(p![0]).toBeLessThanOrEqual(box.width);
      expect(p![1]).toBeGreaterThanOrEqual(0);
      expect(p![1]).toBeLessThanOrEqual(box.height);
    }
    if (shotsDir) await page.screenshot({ path: path.join(shotsDir, 'overlay-contrast-finding-frame.png') });
  });

  it('ran without console errors, failed requests or CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
