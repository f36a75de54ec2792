/**
 * Viewport figures for a generated 100,000-triangle walkmesh: the BVH build and the pick
 * time (Node, the same code the renderer runs), and in browser mode (Debian's Chromium,
 * software WebGL) the time from asking for the file to the first frame that shows it, and
 * a hover pick in the page. Printed, never asserted.
 * Run alone with `node --import tsx test/bench/viewport-bench.ts [--faces N --runs N --no-browser]`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bwmFromWalkmesh } from '../../shared/formats/kotor/bwm-walkmesh';
import { writeBwm } from '../../shared/formats/kotor/bwm-writer';
import { buildTriangleBvh, raycastBvh } from '../../shared/geometry/triangle-bvh';
import { createWalkmesh, type Walkmesh } from '../../shared/model/walkmesh';
import { faceIslands } from '../../shared/views/face-islands';
import { startBrowserServer } from '../../electron/services/browser-server';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { buildRenderer, launchChromium } from '../support/browser-app';
import { median } from './measure';
import { renderTable } from './text-table';

export interface ViewportBenchOptions {
  faces?: number;
  runs?: number;
  browser?: boolean;
  out?: (text: string) => void;
}

/** A rolling terrain of about `faces` triangles (two per grid square), a few unwalkable patches. */
export function generatedWalkmesh(faces: number): Walkmesh {
  const w = Math.max(1, Math.round(Math.sqrt(faces / 2) * 1.25));
  const h = Math.max(1, Math.round(faces / 2 / w));
  const positions = new Float32Array((w + 1) * (h + 1) * 3);
  for (let y = 0; y <= h; y++) {
    for (let x = 0; x <= w; x++) positions.set([x * 2, y * 2, Math.sin(x * 0.07) * 3 + Math.cos(y * 0.05) * 2], (y * (w + 1) + x) * 3);
  }
  const triangles = new Uint32Array(w * h * 6);
  const faceMaterial = new Uint32Array(w * h * 2);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const a = y * (w + 1) + x;
      const q = y * w + x;
      triangles.set([a, a + 1, a + w + 2, a, a + w + 2, a + w + 1], q * 6);
      // Surface materials: stone (walkable), with a band of non-walkable (7) every 40 rows.
      const m = y % 40 === 20 ? 7 : 4;
      faceMaterial[q * 2] = m;
      faceMaterial[q * 2 + 1] = m;
    }
  }
  const faceWalkable = Uint8Array.from(faceMaterial, (m) => (m === 7 ? 0 : 1));
  return createWalkmesh({ name: 'generated', game: 'kotor', format: 'kotor-bwm', positions, triangles, faceMaterial, faceWalkable });
}

function timeMs(fn: () => void, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

/** xorshift32: the same rays on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

interface BrowserFigures {
  loadMs: number;
  firstFrameMs: number;
  bvhBuildMs: number | null;
  pickMs: number | null;
  /** Turning the AABB view on until it is drawn (its legend says how much is drawn). */
  aabbOnMs: number | null;
  /** Of which building the line system in the page. */
  aabbBuildMs: number | null;
}

async function browserFigures(mesh: Walkmesh, runs: number): Promise<BrowserFigures> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-viewport-bench-'));
  const file = path.join(tmp, 'generated.wok');
  writeFileSync(file, writeBwm(bwmFromWalkmesh(mesh, undefined)));
  await buildRenderer(path.join(tmp, 'renderer'));
  const server = await startBrowserServer({ service: createWalkbenchService(), rendererDir: path.join(tmp, 'renderer') });
  const browser = await launchChromium();
  try {
    const firstFrames: number[] = [];
    const loads: number[] = [];
    let bvhBuildMs: number | null = null;
    let pickMs: number | null = null;
    let aabbOnMs: number | null = null;
    let aabbBuildMs: number | null = null;
    for (let r = 0; r < runs; r++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(server.url);
      await page.getByTestId('open-file-input').setInputFiles(file);
      const viewport = page.getByTestId('viewport');
      await viewport.locator('xpath=.').waitFor();
      await page.waitForFunction(() => document.querySelector('[data-testid="viewport"]')?.getAttribute('data-first-frame-ms'), undefined, { timeout: 300_000 });
      firstFrames.push(Number(await viewport.getAttribute('data-first-frame-ms')));
      loads.push(await page.evaluate(() => (window as unknown as { __walkbench: { timings: { loadMs: number }[] } }).__walkbench.timings[0]!.loadMs));
      if (r === 0) {
        const box = (await page.getByTestId('viewport-canvas').boundingBox())!;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.waitForFunction(() => (window as unknown as { __walkbench?: { timings: { lastPickMs: number | null }[] } }).__walkbench?.timings.some((t) => t.lastPickMs !== null), undefined, { timeout: 60_000 });
        const t = await page.evaluate(() => (window as unknown as { __walkbench: { timings: { bvhBuildMs: number | null; lastPickMs: number | null }[] } }).__walkbench.timings[0]!);
        bvhBuildMs = t.bvhBuildMs;
        // The first pick builds the BVH; a second one is the steady-state pick.
        await page.mouse.move(box.x + box.width / 2 + 30, box.y + box.height / 2 + 20);
        await page.waitForTimeout(200);
        pickMs = await page.evaluate(() => (window as unknown as { __walkbench: { timings: { lastPickMs: number | null }[] } }).__walkbench.timings[0]!.lastPickMs);
        // Timed in the page: the toggle's click to the end of the frame that shows the boxes
        // (the second animation frame after it), without the test driver's own waits.
        aabbOnMs = await page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              const t0 = performance.now();
              (document.querySelector('[data-testid="view-toggle-aabb"]') as HTMLInputElement).click();
              requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t0)));
            }),
        );
        await page.waitForFunction(() => document.querySelector('[data-testid="viewport"]')?.getAttribute('data-overlays')?.includes('aabb'), undefined, { timeout: 120_000 });
        aabbBuildMs = await page.evaluate(() => (window as unknown as { __walkbench: { timings: { overlaysMs: number | null }[] } }).__walkbench.timings[0]!.overlaysMs);
      }
      await page.close();
    }
    return { loadMs: median(loads), firstFrameMs: median(firstFrames), bvhBuildMs, pickMs, aabbOnMs, aabbBuildMs };
  } finally {
    await browser.close();
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

export async function runViewportBench(options: ViewportBenchOptions = {}): Promise<void> {
  const out = options.out ?? ((t: string) => process.stdout.write(t));
  const runs = options.runs ?? 5;
  const mesh = generatedWalkmesh(options.faces ?? 100_000);
  const faces = mesh.triangles.length / 3;
  const buildMs = timeMs(() => buildTriangleBvh(mesh.positions, mesh.triangles), runs);
  const bvh = buildTriangleBvh(mesh.positions, mesh.triangles);
  // Rays from above at random points, tilted like a perspective camera's.
  const next = rng(7);
  const rays = Array.from({ length: 10_000 }, () => [next() * 600, next() * 400, 100, next() - 0.5, next() - 0.5, -1] as const);
  let hits = 0;
  const pickMs = timeMs(() => {
    hits = 0;
    for (const r of rays) if (raycastBvh(bvh, r[0], r[1], r[2], r[3], r[4], r[5])) hits++;
  }, runs) / rays.length;
  const islandsMs = timeMs(() => faceIslands(mesh), runs);
  const rows = [
    ['BVH build (node)', faces.toLocaleString('en-US'), buildMs.toFixed(1)],
    [`pick, 1 ray (node; ${hits} of ${rays.length} hit)`, faces.toLocaleString('en-US'), pickMs.toFixed(4)],
    ['islands flood fill (node)', faces.toLocaleString('en-US'), islandsMs.toFixed(1)],
  ];
  if (options.browser !== false) {
    try {
      const b = await browserFigures(mesh, Math.min(runs, 3));
      rows.push(['open to file in page (upload, read, transfer)', faces.toLocaleString('en-US'), b.loadMs.toFixed(0)]);
      rows.push(['open to first frame (chromium, swiftshader)', faces.toLocaleString('en-US'), b.firstFrameMs.toFixed(0)]);
      if (b.bvhBuildMs !== null) rows.push(['BVH build on first hover (chromium)', faces.toLocaleString('en-US'), b.bvhBuildMs.toFixed(1)]);
      if (b.pickMs !== null) rows.push(['hover pick (chromium; timer resolution 0.1 ms)', faces.toLocaleString('en-US'), b.pickMs.toFixed(3)]);
      if (b.aabbOnMs !== null) rows.push(['AABB view on, click to drawn (chromium; 10,000 boxes at most)', faces.toLocaleString('en-US'), b.aabbOnMs.toFixed(0)]);
      if (b.aabbBuildMs !== null) rows.push(['  of which building its lines (chromium)', faces.toLocaleString('en-US'), b.aabbBuildMs.toFixed(0)]);
    } catch (e) {
      rows.push([`browser figures unavailable: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, '', '']);
    }
  }
  out(`viewport: generated walkmesh, median of ${runs} run(s)\n`);
  out(`${renderTable([{ header: 'step', align: 'left' }, { header: 'faces' }, { header: 'ms' }], rows)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { faces: { type: 'string', default: '100000' }, runs: { type: 'string', default: '5' }, 'no-browser': { type: 'boolean', default: false } } });
  await runViewportBench({ faces: Number(values.faces), runs: Number(values.runs), browser: !values['no-browser'] });
}
