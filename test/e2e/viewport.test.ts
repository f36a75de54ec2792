import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserServer, type BrowserServer } from '../../electron/services/browser-server';
import { importSources } from '../../electron/services/project/project-import';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { inspectDocument, loadDocument } from '../../shared/formats/inspect-file';
import type { Walkmesh } from '../../shared/model/walkmesh';
import { documentOverlays } from '../../shared/views/document-overlays';
import { faceIslands } from '../../shared/views/face-islands';
import { gameValueNames, rawValue, valueName } from '../../shared/views/game-attribute-names';
import { gitOverlays } from '../../shared/views/placement-overlays';
import { normalsOverlay, perimeterOverlay } from '../../shared/views/model-overlays';
import { overlayIds, type LineOverlay, type OverlayId } from '../../shared/views/view-overlay';
import type { Finding } from '../../shared/validation/finding';
import { buildRenderer, launchChromium, recordPageProblems } from '../support/browser-app';
import { areaXY } from '../support/walkmesh-probes';
import { fixturesRoot, readFixture, repoRoot } from '../support/fixtures';

/** One modest walkmesh per game (SwiftShader is slow), each in a module named after its game. */
const inputs = [
  { module: 'source', file: 'source/tf2/itemtest.nav' },
  { module: 'kotor', file: 'kotor/k1-blackvulkar/m10aa_03a.wok' },
  // With its GIT, so the area's cutters and placements are shown too.
  { module: 'nwn2', file: 'nwn2/kaedrin/fh_settlement.trx', git: 'nwn2/kaedrin/fh_settlement.GIT' },
  { module: 'skyrim', file: 'skyrim/DwemerSecrets.esp' },
] as const;

interface Expected {
  name: string;
  meshes: Walkmesh[];
  faces: number;
  findings: Finding[];
  /** Items each view's legend must total; undefined when the file has none of it. */
  viewTotals: Partial<Record<OverlayId, number>>;
}

function total(o: LineOverlay | null): number | undefined {
  if (!o) return undefined;
  return o.classes.reduce((n, c) => n + c.count, 0);
}

/** What the page must show for a fixture, worked out here from the same bytes. */
function expectedFor(rel: string, gitRel?: string): Expected {
  const file = path.join(fixturesRoot, rel);
  const loaded = loadDocument(file, readFixture(file));
  const name = path.basename(file);
  const meshes = loaded.handler.toWalkmeshes(loaded.document, name);
  const report = inspectDocument(file, loaded);
  const viewTotals: Partial<Record<OverlayId, number>> = {};
  for (const o of documentOverlays(loaded.handler.id, loaded.document)) viewTotals[o.id] = total(o);
  if (gitRel) for (const o of gitOverlays(loaded.handler.game, readFixture(path.join(fixturesRoot, gitRel)))) viewTotals[o.id] = total(o);
  viewTotals.perimeter = total(perimeterOverlay(meshes, meshes.map((m) => faceIslands(m).neighbors)));
  viewTotals.normals = total(normalsOverlay(meshes));
  return { name, meshes, faces: meshes.reduce((n, m) => n + m.triangles.length / 3, 0), findings: [...report.errors, ...report.warnings], viewTotals };
}

function centroid(mesh: Walkmesh, face: number): [number, number, number] {
  const c: [number, number, number] = [0, 0, 0];
  for (let k = 0; k < 3; k++) for (let a = 0; a < 3; a++) c[a] += mesh.positions[mesh.triangles[face * 3 + k]! * 3 + a]! / 3;
  return c;
}

/** True when the face, seen from above, covers (x, y) (with a little slack for points on an edge). */
function coversXY(mesh: Walkmesh, face: number, x: number, y: number): boolean {
  const p = (k: number, a: number) => mesh.positions[mesh.triangles[face * 3 + k]! * 3 + a]!;
  const d = (p(1, 1) - p(2, 1)) * (p(0, 0) - p(2, 0)) + (p(2, 0) - p(1, 0)) * (p(0, 1) - p(2, 1));
  if (d === 0) return false;
  const u = ((p(1, 1) - p(2, 1)) * (x - p(2, 0)) + (p(2, 0) - p(1, 0)) * (y - p(2, 1))) / d;
  const v = ((p(2, 1) - p(0, 1)) * (x - p(2, 0)) + (p(0, 0) - p(2, 0)) * (y - p(2, 1))) / d;
  const eps = 0.02;
  return u >= -eps && v >= -eps && u + v <= 1 + eps;
}

/**
 * Pixels of `after` that are white or yellow (the perimeter view's two line colours) where
 * `before` was not, decoded by Chromium in a blank page.
 */
async function newLinePixels(browser: Browser, before: Buffer, after: Buffer, mode: 'lines' | 'any' = 'lines'): Promise<number> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(async ([a, b, mode]: string[]) => {
      const decode = async (base64: string) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const ctx = canvas.getContext('2d')!;
        ctx.drawImage(bitmap, 0, 0);
        return ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
      };
      const x = await decode(a!);
      const y = await decode(b!);
      const isLine = (d: Uint8ClampedArray, i: number) => d[i]! > 200 && d[i + 1]! > 170 && (d[i + 2]! > 200 || d[i + 2]! < 110);
      let n = 0;
      for (let i = 0; i < y.length; i += 4) if (mode === 'lines' ? isLine(y, i) && !isLine(x, i) : y[i] !== x[i] || y[i + 1] !== x[i + 1] || y[i + 2] !== x[i + 2]) n++;
      return n;
    }, [before.toString('base64'), after.toString('base64'), mode]);
  } finally {
    await page.close();
  }
}

describe('the viewport, views, picking and project tree in browser mode', () => {
  let tmp = '';
  let artifacts = '';
  let server: BrowserServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const problems: string[] = [];
  const expected = new Map(inputs.map((i) => [i.module, expectedFor(i.file, 'git' in i ? i.git : undefined)]));
  const text = async (testId: string) => (await page.getByTestId(testId).first().textContent())?.trim() ?? null;
  const viewport = () => page.getByTestId('viewport');

  async function openFromTree(fileName: string, faces: number): Promise<void> {
    await page.locator(`[data-testid="tree-file"][data-file-name="${fileName}"]`).click();
    await expect.poll(() => page.getByTestId('tab').filter({ hasText: fileName }).getAttribute('data-active'), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => viewport().getAttribute('data-face-count'), { timeout: 30_000 }).toBe(String(faces));
    await expect.poll(() => viewport().getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
  }

  async function shot(name: string): Promise<Buffer> {
    return page.screenshot({ path: path.join(artifacts, `${name}.png`) });
  }

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-viewport-e2e-'));
    artifacts = path.join(tmp, 'artifacts');
    mkdirSync(artifacts);
    const rendererDir = path.join(tmp, 'renderer');
    await buildRenderer(rendererDir);
    const projectFile = path.join(tmp, 'fixtures.walkbench');
    const store = ProjectStore.create(projectFile, { name: 'four games', game: 'nwn2' });
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
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    // The screenshots stay when asked for (WALKBENCH_E2E_ARTIFACTS=DIR), e.g. for a CI upload.
    const keep = process.env.WALKBENCH_E2E_ARTIFACTS;
    if (keep && artifacts) {
      mkdirSync(keep, { recursive: true });
      for (const f of ['tree', 'source', 'kotor', 'nwn2', 'skyrim', 'finding-selected', 'area']) {
        try {
          copyFileSync(path.join(artifacts, `${f}.png`), path.join(keep, `viewport-${f}.png`));
        } catch {
          // A test that failed early left no screenshot; the failure says why.
        }
      }
    }
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('opens the project given at start and shows its modules, areas and files', async () => {
    await expect.poll(() => text('project-name'), { timeout: 30_000 }).toBe('four games');
    expect(await page.getByTestId('tree-module').allTextContents()).toHaveLength(4);
    const files = await page.getByTestId('tree-file').evaluateAll((els) => els.map((e) => e.getAttribute('data-file-name')));
    expect(files.sort()).toEqual([...inputs.map((i) => path.basename(i.file)), 'fh_settlement.GIT'].sort());
    expect(await page.getByTestId('tree-area').count()).toBe(4);
    await shot('tree');
  });

  for (const input of inputs) {
    it(`opens the ${input.module} walkmesh from the tree and toggles every view with its legend`, async () => {
      const e = expected.get(input.module)!;
      await openFromTree(e.name, e.faces);
      expect(await viewport().getAttribute('data-mesh-count')).toBe(String(e.meshes.length));
      expect(Number(await viewport().getAttribute('data-first-frame-ms'))).toBeGreaterThan(0);
      expect(await text('status-totals')).toContain(`${e.faces.toLocaleString('en-US')} faces`);

      for (const id of overlayIds) {
        await page.getByTestId(`view-toggle-${id}`).check();
        const want = e.viewTotals[id];
        if (want === undefined) {
          expect(await text(`view-none-${id}`)).toBe('none in this file');
        } else {
          const legend = page.getByTestId(`view-legend-${id}`);
          await expect.poll(() => legend.getAttribute('data-total')).toBe(String(want));
          if (want > 0) await expect.poll(() => viewport().getAttribute('data-overlays')).toContain(id);
        }
        await page.getByTestId(`view-toggle-${id}`).uncheck();
      }
      await expect.poll(() => viewport().getAttribute('data-overlays')).toBe('');

      // Face colour views: islands and owners name what they colour.
      await page.getByTestId('colour-mode-island').click();
      await expect.poll(async () => (await page.getByTestId('legend-entry').first().locator('.label').textContent())?.trim()).toBe('island #1');
      await page.getByTestId('colour-mode-owner').click();
      const noun = { source: 'area', kotor: 'no owner', nwn2: 'tile', skyrim: 'navmesh' }[input.module];
      await expect.poll(() => text('legend-entry')).toContain(noun);
      await page.getByTestId('colour-mode-walkable').click();
      await expect.poll(() => text('legend-entry')).toContain('walkable');

      await page.getByTestId('view-toggle-perimeter').check();
      await shot(input.module);
      await page.getByTestId('view-toggle-perimeter').uncheck();
    }, 120_000);
  }

  it('draws perimeter lines where the view says, seen in the pixels', async () => {
    const e = expected.get('kotor')!;
    await openFromTree(e.name, e.faces);
    await page.getByTestId('top-view').click();
    const canvas = page.getByTestId('viewport-canvas');
    await page.mouse.move(5, 5);
    await expect.poll(() => viewport().getAttribute('data-drawn')).toBe('true');
    const before = await canvas.screenshot();
    await page.getByTestId('view-toggle-perimeter').check();
    // 45 border edges of a room some 20 units across, at least a few pixels each.
    await expect.poll(async () => newLinePixels(browser!, before, await canvas.screenshot()), { timeout: 15_000 }).toBeGreaterThan(300);
    await shot('perimeter');
    await page.getByTestId('view-toggle-perimeter').uncheck();
  });

  it('focuses the face a finding names, and picks that face under the cursor on hover and click', async () => {
    const e = expected.get('kotor')!;
    await openFromTree(e.name, e.faces);
    const finding = e.findings.find((f) => f.subject?.kind === 'face');
    expect(finding, 'm10aa_03a.wok has a finding about a face').toBeDefined();
    const face = finding!.subject!.id;
    await page.getByTestId('top-view').click();
    await page.getByTestId('finding').filter({ hasText: finding!.message }).click();
    await expect.poll(() => text('inspector-face')).toBe(String(face));
    const mesh = e.meshes[0]!;
    expect(await text('inspector-raw')).toBe(rawValue(gameValueNames(mesh.game), mesh.faceMaterial[face]!));
    expect(await text('inspector-material')).toBe(valueName(gameValueNames(mesh.game), mesh.faceMaterial[face]!));
    expect(await text('inspector-walkable')).toBe(mesh.faceWalkable[face] ? 'yes' : 'no');
    await shot('finding-selected');

    // The camera now looks straight down at the face's centroid, so the face under the
    // canvas centre must cover that point seen from above. (This finding's face has zero
    // area and cannot be hit itself; a neighbour sharing its edge is.)
    const canvas = page.getByTestId('viewport-canvas');
    const box = (await canvas.boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const target = centroid(mesh, face);
    await page.mouse.move(cx - 40, cy - 40);
    await page.mouse.move(cx, cy, { steps: 4 });
    await expect.poll(() => text('status-hover')).toMatch(/^face \d+ · /);
    const hovered = Number(/^face (\d+)/.exec((await text('status-hover'))!)![1]);
    expect(coversXY(mesh, hovered, target[0], target[1])).toBe(true);
    const hoveredName = valueName(gameValueNames(mesh.game), mesh.faceMaterial[hovered]!);
    expect(await text('status-hover')).toContain(`· ${hoveredName} ·`);
    // The same face, beside the cursor.
    expect(await page.getByTestId('hover-tooltip').innerText()).toMatch(new RegExp(`^face ${hovered}\\s+${hoveredName}\\s`));
    await page.mouse.click(cx, cy);
    await expect.poll(() => text('inspector-face')).toBe(String(hovered));
    expect(await text('inspector-raw')).toBe(rawValue(gameValueNames(mesh.game), mesh.faceMaterial[hovered]!));
    // Away from the mesh, a click clears the selection.
    await page.mouse.click(box.x + 4, box.y + 4);
    await expect.poll(() => text('inspector-empty')).toBe('Click a face to inspect it.');
    const pick = await page.evaluate(() => (window as unknown as { __walkbench: { timings: { file: string; lastPickMs: number | null }[] } }).__walkbench.timings);
    expect(pick.find((t) => t.file === e.name)?.lastPickMs).toBeGreaterThanOrEqual(0);
  });

  it('orbits on a drag and zooms on the wheel without selecting anything', async () => {
    const e = expected.get('kotor')!;
    await openFromTree(e.name, e.faces);
    await page.getByTestId('frame-all').click();
    const canvas = page.getByTestId('viewport-canvas');
    const box = (await canvas.boundingBox())!;
    await page.mouse.click(box.x + 4, box.y + 4);
    await expect.poll(() => text('inspector-empty')).toBe('Click a face to inspect it.');
    const still = await canvas.screenshot();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 160, box.y + box.height / 2 + 40, { steps: 8 });
    await page.mouse.up();
    const orbited = await canvas.screenshot();
    expect(await newLinePixels(browser!, still, orbited, 'any')).toBeGreaterThan(box.width * box.height * 0.05);
    // A drag is not a click: nothing got selected.
    expect(await text('inspector-empty')).toBe('Click a face to inspect it.');
    for (let i = 0; i < 12; i++) await page.mouse.wheel(0, -240);
    await expect.poll(async () => newLinePixels(browser!, orbited, await canvas.screenshot(), 'any')).toBeGreaterThan(box.width * box.height * 0.05);
  });

  it('shows tabs for the open walkmeshes and closes them', async () => {
    expect(await page.getByTestId('tab').count()).toBe(4);
    const nav = page.getByTestId('tab').filter({ hasText: 'itemtest.nav' });
    await nav.click();
    await expect.poll(() => viewport().getAttribute('data-face-count')).toBe('66');
    // Switching back and forth shows each tab's own meshes (kept built, not rebuilt).
    const esp = expected.get('skyrim')!;
    await page.getByTestId('tab').filter({ hasText: esp.name }).click();
    await expect.poll(() => viewport().getAttribute('data-face-count')).toBe(String(esp.faces));
    expect(await viewport().getAttribute('data-mesh-count')).toBe(String(esp.meshes.length));
    expect(Number(await viewport().getAttribute('data-first-frame-ms'))).toBeGreaterThan(0);
    await nav.click();
    await expect.poll(() => viewport().getAttribute('data-face-count')).toBe('66');
    expect(await viewport().getAttribute('data-mesh-count')).toBe('1');
    await nav.getByTestId('tab-close').click();
    await expect.poll(() => page.getByTestId('tab').count()).toBe(3);
  });

  it('shows a real NWN2 area with its tiles for the README', async () => {
    const e = expected.get('nwn2')!;
    await openFromTree(e.name, e.faces);
    // The tree lists what the area's GIT places under the open walkmesh.
    const children = await page.getByTestId('tree-child').allTextContents();
    expect(children.map((c) => c.trim())).toContain(`${e.viewTotals.cutters} × walkmesh cutter`);
    const placed = children.map((c) => /^(\d+) × (placeable|door)\b/.exec(c.trim())).filter((m) => m !== null);
    expect(placed.reduce((n, m) => n + Number(m[1]), 0)).toBe(e.viewTotals.footprints);
    await page.getByTestId('colour-mode-owner').click();
    for (const id of ['perimeter', 'cutters', 'footprints']) await page.getByTestId(`view-toggle-${id}`).check();
    await expect.poll(() => viewport().getAttribute('data-overlays')).toBe('cutters footprints perimeter');
    await page.getByTestId('frame-all').click();
    const canvas = page.getByTestId('viewport-canvas');
    const box = (await canvas.boundingBox())!;
    // Over the largest walkable face (the area has holes; the canvas centre may fall in one).
    const mesh = e.meshes[0]!;
    let largest = -1;
    for (let f = 0; f < mesh.triangles.length / 3; f++) if (mesh.faceWalkable[f] && (largest < 0 || areaXY(mesh, f) > areaXY(mesh, largest))) largest = f;
    const c = centroid(mesh, largest);
    const at = (await page.evaluate(([x, y, z]) => (window as unknown as { __walkbench: { toScreen(x: number, y: number, z: number): [number, number] | null } }).__walkbench.toScreen(x!, y!, z!), c))!;
    await page.mouse.move(box.x + at[0], box.y + at[1]);
    await expect.poll(() => text('status-hover')).toMatch(/face \d+ · [^·]+ · (walkable|not walkable) · owner tile \d+,\d+ · island #\d+/);
    await page.mouse.click(box.x + at[0], box.y + at[1]);
    await expect.poll(() => text('inspector-owner')).toMatch(/^tile \d+,\d+$/);
    await expect.poll(() => viewport().getAttribute('data-drawn')).toBe('true');
    await shot('area');
    if (process.env.WALKBENCH_README_SCREENSHOT === '1') {
      mkdirSync(path.join(repoRoot, 'build/assets'), { recursive: true });
      copyFileSync(path.join(artifacts, 'area.png'), path.join(repoRoot, 'build/assets/screenshot-area.png'));
    }
    for (const id of ['perimeter', 'cutters', 'footprints']) await page.getByTestId(`view-toggle-${id}`).uncheck();
  });

  it('ran without console errors, failed requests or CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
