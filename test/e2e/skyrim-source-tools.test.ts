import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserServer } from '../../electron/services/browser-server';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectEdits } from '../../electron/services/project/project-edits';
import { ProjectStore } from '../../electron/services/project/project-store';
import { dropToGround } from '../../shared/edits/drop-to-ground';
import { walkmeshGrid } from '../../shared/edits/selection';
import { planSkyrimLinks } from '../../shared/edits/skyrim-finalize';
import { checkSkyrimNavmeshes } from '../../shared/edits/skyrim-navmesh-check';
import { areaRects, nextAreaId, snapAreaRect } from '../../shared/edits/source-create-area';
import { areaConnections } from '../../shared/edits/source-connections';
import { inspectBytes, loadDocument } from '../../shared/formats/inspect-file';
import { PLUGIN_FORMAT, type PluginDocument } from '../../shared/formats/skyrim/plugin-document';
import { pluginNavmeshes } from '../../shared/formats/skyrim/plugin-navmeshes';
import type { NavDocument } from '../../shared/formats/source/nav-document';
import { NAV_FORMAT } from '../../shared/formats/source/nav-reader';
import { faceCount, type Walkmesh } from '../../shared/model/walkmesh';
import { openProjectPage } from '../support/browser-app';
import { browserSuite } from '../support/browser-suite';
import { newErrors } from '../support/export-probes';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { pageActions } from '../support/page-actions';
import { centroid, clearFaces, coversXY, heightAt, vertex, vertexPickPoint, withStore, type P3 } from '../support/walkmesh-probes';

/**
 * Issue 16 §4, Skyrim and Source: the Creation Kit's tools (create triangle to a new point,
 * merge vertices, drop to ground, Check navmeshes with a fix-up, Finalize) and nav_edit's
 * (draw an area by dragging a rectangle, ladders, what analysis data is kept), each driven
 * through the page and checked in what the page shows and in the project's bytes. With
 * `WALKBENCH_SCREENSHOTS=DIR` the Skyrim tools and a Source rectangle being drawn are
 * written there.
 */

const app = browserSuite('walkbench-e2e-skyrim-source-');
const shotsDir = process.env['WALKBENCH_SCREENSHOTS'];

function currentBytes(project: string, fileId: number): Uint8Array {
  return withStore(project, (s) => s.loadEdit(fileId)?.bytes ?? s.loadFileBytes(fileId));
}

function editedMesh(project: string, fileId: number): Walkmesh {
  return withStore(project, (s) => new ProjectEdits(s, env).meshes(fileId)[0]!);
}

/** Whether a world point shows on the canvas clear of the colour legend (a click there would hit the legend). */
async function clickable(page: Page, ui: ReturnType<typeof pageActions>, p: P3): Promise<boolean> {
  const legend = await page.getByTestId('legend').boundingBox();
  const canvas = (await page.getByTestId('viewport-canvas').boundingBox())!;
  const s = await ui.screenOf(p);
  if (s.x < canvas.x + 4 || s.y < canvas.y + 4 || s.x > canvas.x + canvas.width - 4 || s.y > canvas.y + canvas.height - 4) return false;
  return !legend || s.x < legend.x - 6 || s.x > legend.x + legend.width + 6 || s.y < legend.y - 6 || s.y > legend.y + legend.height + 6;
}

async function shot(page: Page, name: string): Promise<void> {
  if (!shotsDir) return;
  mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, name) });
}

describe('Skyrim: Check navmeshes, a fix-up, Finalize, create triangle to a point, drop to ground, merge vertices', () => {
  const DSH = 'DawnOfTheSilverHand.esp';
  const FC = 'FreeCamera.esp';
  const plugin = (name: string) => readFixture(path.join(fixturesRoot, 'skyrim', name));
  const docOf = (name: string, bytes: Uint8Array) => loadDocument(name, bytes, env).document as PluginDocument;
  let tmp = '';
  let project = '';
  const ids = new Map<string, number>();
  let server: BrowserServer | undefined;
  let page: Page;
  const problems: string[] = [];
  const ui = pageActions(() => page);
  const facesOf = (name: string) => {
    const d = loadDocument(name, plugin(name), env);
    return d.handler.toWalkmeshes(d.document, name).reduce((s, m) => s + faceCount(m), 0);
  };

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-skyrim-tools-'));
    project = path.join(tmp, 'skyrim.wbproj');
    const store = ProjectStore.create(project, { name: 'Skyrim tools', game: 'skyrim' });
    try {
      for (const name of [DSH, FC]) ids.set(name, store.upsertFile({ module: 'plugins', area: name.replace('.esp', ''), name, kind: 'walkmesh', format: PLUGIN_FORMAT, bytes: plugin(name) }).fileId);
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

  it('Check navmeshes lists what the check finds; a fix-up links one shared edge; Finalize links the rest and reports it; undo takes it back', async () => {
    const id = ids.get(DSH)!;
    const original = docOf(DSH, plugin(DSH));
    const expected = checkSkyrimNavmeshes(original);
    await ui.openFromTree(DSH, facesOf(DSH));
    await expect.poll(() => page.getByTestId('skyrim-tools').isVisible()).toBe(true);
    await page.getByTestId('skyrim-check').click();
    await expect.poll(() => ui.text('skyrim-check-summary'), { timeout: 30_000 }).toBe(
      `${expected.items.length} problems; Finalize would link ${expected.finalize.crossNavmesh} across navmeshes, ${expected.finalize.sharedEdges} shared, ${expected.finalize.reciprocals} way(s) back`);
    expect(await page.getByTestId('skyrim-check-item').count()).toBe(Math.min(50, expected.items.length));
    const shared = page.locator('[data-testid="skyrim-check-item"][data-code="shared-edge-unlinked"]');
    expect(await shared.count()).toBe(expected.items.filter((i) => i.code === 'shared-edge-unlinked').length);
    await expect.poll(() => shared.first().textContent()).toMatch(/should be linked, but they are not/);
    await shot(page, 'skyrim-tools-check.png');

    await ui.edited(() => shared.first().getByTestId('skyrim-check-fix').click());
    await expect.poll(() => ui.text('skyrim-check-summary'), { timeout: 30_000 }).toMatch(new RegExp(`^${expected.items.length - 1} problems; .* 0 shared`));
    expect(planSkyrimLinks(docOf(DSH, currentBytes(project, id))).counts.sharedEdges).toBe(0);

    await ui.edited(() => page.getByTestId('skyrim-finalize').click());
    await expect.poll(() => ui.text('skyrim-finalize-report'), { timeout: 30_000 }).toMatch(new RegExp(`^Finalize linked ${expected.finalize.crossNavmesh} edge pair\\(s\\) across navmeshes, 0 shared edge pair\\(s\\) within a navmesh and 0 missing way\\(s\\) back; Doors: ${expected.doorSummary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    // What the doors rest on: the plugin's own doors linked as their XNDP names them, the masters' kept.
    expect(expected.doorPortals).toEqual({ linked: 2, missing: 0, 'master-door': 3, 'master-navmesh': 2 });
    await expect.poll(() => ui.text('skyrim-check-summary'), { timeout: 30_000 }).toMatch(/Finalize would link 0 across navmeshes, 0 shared, 0 way\(s\) back$/);
    const finalized = currentBytes(project, id);
    expect(planSkyrimLinks(docOf(DSH, finalized)).sides).toEqual([]);
    expect(newErrors(inspectBytes(DSH, finalized, env).errors, inspectBytes(DSH, plugin(DSH), env).errors)).toEqual([]);
    await shot(page, 'skyrim-tools-finalized.png');

    await ui.undo();
    expect(planSkyrimLinks(docOf(DSH, currentBytes(project, id))).counts.crossNavmesh).toBe(expected.finalize.crossNavmesh);
    await ui.undo();
    expect(Buffer.from(currentBytes(project, id)).equals(Buffer.from(plugin(DSH)))).toBe(true);
  }, 180_000);

  it('creates a triangle on two picked vertices and a placed point, drops the raised new vertex back to the ground, merges two vertices', async () => {
    const id = ids.get(FC)!;
    const mesh = loadDocument(FC, plugin(FC), env);
    const m = mesh.handler.toWalkmeshes(mesh.document, FC)[0]!;
    const F = faceCount(m);
    await ui.openFromTree(FC, F);
    // A border edge (one face on it), and a face not on it whose centroid is the new point.
    const uses = new Map<string, number>();
    for (let f = 0; f < F; f++) for (let k = 0; k < 3; k++) {
      const a = m.triangles[f * 3 + k]!, b = m.triangles[f * 3 + ((k + 1) % 3)]!;
      const key = `${Math.min(a, b)},${Math.max(a, b)}`;
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
    let a = -1, b = -1, far = -1;
    for (const [key, n] of uses) {
      if (n !== 1) continue;
      const [u, w] = key.split(',').map(Number) as [number, number];
      if (!(await clickable(page, ui, vertexPickPoint(m, u, -1)!)) || !(await clickable(page, ui, vertexPickPoint(m, w, -1)!))) continue;
      for (const f of clearFaces(m)) {
        if ([0, 1, 2].some((k) => m.triangles[f * 3 + k] === u || m.triangles[f * 3 + k] === w) || !(await clickable(page, ui, centroid(m, f)))) continue;
        [a, b, far] = [u, w, f];
        break;
      }
      if (far >= 0) break;
    }
    expect(far).toBeGreaterThanOrEqual(0);
    await page.getByTestId('skyrim-pick-vertices').click();
    await ui.clickAt(vertexPickPoint(m, a, -1)!);
    await ui.clickAt(vertexPickPoint(m, b, -1)!);
    await page.getByTestId('skyrim-place-point').click();
    const point = centroid(m, far);
    await ui.clickAt(point);
    await expect.poll(() => ui.text('skyrim-picks'), { timeout: 30_000 }).toBe('2 vertices, 1 point');
    await ui.edited(() => page.getByTestId('skyrim-create-triangle').click());
    await expect.poll(ui.faceCountShown, { timeout: 30_000 }).toBe(String(F + 1));
    const nvnmOf = () => pluginNavmeshes(docOf(FC, currentBytes(project, id))).find((n) => n.nvnm)!.nvnm!;
    expect(nvnmOf().triFlags.length).toBe(F + 1);
    const V = m.positions.length / 3;
    expect(Array.from(nvnmOf().triVertices.subarray(F * 3)).sort()).toEqual([a, b, V].sort());

    // Raise a vertex with the nudge, then drop it to the ground: back to its floor's level.
    await page.getByTestId('skyrim-pick-vertices').click();
    await ui.clickAt(vertexPickPoint(m, a, -1)!);
    await expect.poll(() => ui.text('skyrim-picks'), { timeout: 30_000 }).toMatch(/^1 vertex,/);
    await page.getByTestId('grid-step').fill('10');
    await ui.edited(() => page.getByTestId('nudge-up').click());
    const raised = editedMesh(project, id);
    expect(vertex(raised, a)[2]).toBeCloseTo(vertex(m, a)[2] + 10, 3);
    const expectedDrop = dropToGround(raised, walkmeshGrid(raised), [a]).positions[2]!;
    await ui.edited(() => page.getByTestId('skyrim-drop').click());
    expect(vertex(editedMesh(project, id), a)[2]).toBe(expectedDrop);
    expect(Math.abs(expectedDrop - vertex(m, a)[2])).toBeLessThan(10);

    // Merge: two vertices no face shares, the second into the first.
    const now = editedMesh(project, id);
    const together = new Set<string>();
    for (let f = 0; f < faceCount(now); f++) for (const x of [0, 1, 2]) for (const y of [0, 1, 2]) together.add(`${now.triangles[f * 3 + x]},${now.triangles[f * 3 + y]}`);
    let pair: [number, number] | undefined;
    const pickable = async (v: number) => v !== a && vertexPickPoint(now, v, -1) !== null && (await clickable(page, ui, vertexPickPoint(now, v, -1)!));
    for (let u = 0; u < V && !pair; u++) {
      if (!(await pickable(u))) continue;
      for (let w = u + 1; w < V && !pair; w++) if (!together.has(`${u},${w}`) && (await pickable(w))) pair = [u, w];
    }
    expect(pair).toBeDefined();
    const [keep, gone] = pair!;
    // The dropped vertex is still picked: a second click on it unpicks it.
    await ui.clickAt(vertexPickPoint(m, a, -1)!);
    await expect.poll(() => ui.text('skyrim-picks'), { timeout: 30_000 }).toMatch(/^0 vertices,/);
    for (const v of [keep, gone]) await ui.clickAt(vertexPickPoint(now, v, -1)!);
    await expect.poll(() => ui.text('skyrim-picks'), { timeout: 30_000 }).toMatch(/^2 vertices,/);
    await ui.edited(() => page.getByTestId('skyrim-merge-vertices').click());
    const merged = nvnmOf();
    expect(merged.triFlags.length).toBe(F + 1);
    // Two vertices became one: the triangles use one vertex fewer (which two the clicks picked is the page's nearest-corner rule).
    expect(new Set(merged.triVertices).size).toBe(new Set(now.triangles).size - 1);
    expect(newErrors(inspectBytes(FC, currentBytes(project, id), env).errors, inspectBytes(FC, plugin(FC), env).errors)).toEqual([]);
  }, 180_000);

  it('ran without console errors or page errors', () => {
    expect(problems).toEqual([]);
  });
});

describe('Source: draw an area by dragging a rectangle, connect it; a ladder between two floors; analysis data kept', () => {
  const FLAT = 'itemtest.nav';
  const FLOORS = 'dm_lockdown.nav';
  const files: Record<string, string> = { [FLAT]: path.join(fixturesRoot, 'source', 'tf2', FLAT), [FLOORS]: path.join(fixturesRoot, 'source', 'hl2dm', FLOORS) };
  const navOf = (name: string, bytes: Uint8Array) => loadDocument(name, bytes, env).document as NavDocument;
  const meshOf = (name: string) => {
    const d = loadDocument(name, readFixture(files[name]!), env);
    return d.handler.toWalkmeshes(d.document, name)[0]!;
  };
  let tmp = '';
  let project = '';
  const ids = new Map<string, number>();
  let server: BrowserServer | undefined;
  let page: Page;
  const problems: string[] = [];
  const ui = pageActions(() => page);

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-source-tools-'));
    project = path.join(tmp, 'source.wbproj');
    const store = ProjectStore.create(project, { name: 'Source tools', game: 'source' });
    try {
      for (const [name, file] of Object.entries(files)) ids.set(name, store.upsertFile({ module: 'maps', area: name.replace('.nav', ''), name, kind: 'walkmesh', format: NAV_FORMAT, bytes: readFixture(file) }).fileId);
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

  it('a rectangle dragged east of an area snaps onto its side, becomes a new area connected both ways, and undo removes both steps', async () => {
    const id = ids.get(FLAT)!;
    const m = meshOf(FLAT);
    const original = navOf(FLAT, readFixture(files[FLAT]!));
    await ui.openFromTree(FLAT, faceCount(m));
    await expect.poll(() => ui.text('source-analysis-note'), { timeout: 30_000 }).toMatch(/kept as in the file .*Run nav_analyze in the game/);
    await expect.poll(() => ui.text('source-counts'), { timeout: 30_000 }).toBe(`${original.areas.count} areas, ${original.ladders.count} ladders`);
    const step = 25;
    await page.getByTestId('grid-step').fill(String(step));
    await page.getByTestId('source-draw-area').click();
    // The tools' row under the toolbar moves the viewport: screen points are taken after it.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const rects = areaRects(m);
    const east = (n: (typeof rects)[number]) => snapAreaRect(m, [n.maxX - 5, n.minY + 3, n.maxZ], [n.maxX + 100, n.maxY - 3, n.maxZ], step, 16);
    const free = (n: (typeof rects)[number], r: number[]) => !rects.some((o) => o.id !== n.id && Math.min(r[2]!, o.maxX) > Math.max(r[0]!, o.minX) && Math.min(r[3]!, o.maxY) > Math.max(r[1]!, o.minY));
    let target: (typeof rects)[number] | undefined;
    for (const n of [...rects].sort((x, y) => (y.maxX - y.minX) * (y.maxY - y.minY) - (x.maxX - x.minX) * (x.maxY - x.minY))) {
      if (n.maxY - n.minY <= 40 || !free(n, east(n))) continue;
      if (!(await clickable(page, ui, [n.maxX - 5, n.minY + 3, n.maxZ])) || !(await clickable(page, ui, [n.maxX + 100, n.maxY - 3, n.maxZ]))) continue;
      target = n;
      break;
    }
    if (!target) throw new Error('no area with free ground east of it and clear of the legend');
    // The drag starts on the area's ground, and the rectangle is drawn on that level.
    const sx = target.maxX - 5, sy = target.minY + 3;
    const under = Array.from({ length: faceCount(m) }, (_, f) => f).find((f) => m.faceOwner[f] === target!.id && coversXY(m, f, sx, sy))!;
    const z = heightAt(m, under, sx, sy);
    const rect = snapAreaRect(m, [sx, sy, z], [target.maxX + 100, target.maxY - 3, z], step, 16);
    expect(rect[0]).toBe(target.maxX);
    const from = await ui.screenOf([sx, sy, z]);
    const to = await ui.screenOf([target.maxX + 100, target.maxY - 3, z]);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => ui.text('source-area-preview'), { timeout: 30_000 }).toMatch(new RegExp(`^${rect[2] - rect[0]} × ${rect[3] - rect[1]} at \\(${rect[0]}, ${rect[1]}\\)`));
    await shot(page, 'source-rectangle-drawn.png');

    const newId = nextAreaId(m);
    await ui.edited(() => page.getByTestId('source-create-area').click());
    await expect.poll(() => ui.text('source-result'), { timeout: 30_000 }).toBe(`Area ${newId} created, connected both ways to area ${target.id} (a second step in the history)`);
    await expect.poll(ui.faceCountShown, { timeout: 30_000 }).toBe(String(faceCount(m) + 2));
    await expect.poll(() => ui.text('source-counts'), { timeout: 30_000 }).toBe(`${original.areas.count + 1} areas, ${original.ladders.count} ladders`);
    const saved = navOf(FLAT, currentBytes(project, id));
    expect(areaConnections(saved, newId)[3]).toEqual([target.id]);
    expect(areaConnections(saved, target.id)[1]).toContain(newId);
    expect(newErrors(inspectBytes(FLAT, currentBytes(project, id), env).errors, inspectBytes(FLAT, readFixture(files[FLAT]!), env).errors)).toEqual([]);
    await shot(page, 'source-area-created.png');

    await ui.undo();
    await ui.undo();
    await expect.poll(ui.faceCountShown, { timeout: 30_000 }).toBe(String(faceCount(m)));
    expect(Buffer.from(currentBytes(project, id)).equals(Buffer.from(readFixture(files[FLAT]!)))).toBe(true);
  }, 180_000);

  it('a ladder from a low floor to a high one is linked to the areas at its ends, shown in the counts, and undone', async () => {
    const id = ids.get(FLOORS)!;
    const m = meshOf(FLOORS);
    const original = navOf(FLOORS, readFixture(files[FLOORS]!));
    await ui.openFromTree(FLOORS, faceCount(m));
    const byHeight = clearFaces(m).sort((x, y) => centroid(m, x)[2] - centroid(m, y)[2]);
    let low = -1, high = -1;
    for (const f of byHeight) if (await clickable(page, ui, centroid(m, f))) { low = f; break; }
    for (const f of [...byHeight].reverse()) if (await clickable(page, ui, centroid(m, f))) { high = f; break; }
    expect(Math.min(low, high)).toBeGreaterThanOrEqual(0);
    const [bottom, top]: P3[] = [centroid(m, low), centroid(m, high)];
    expect(top[2]).toBeGreaterThan(bottom[2]);
    await page.getByTestId('source-ladder-mode').click();
    await ui.clickAt(bottom);
    await ui.clickAt(top);
    await expect.poll(() => ui.text('source-ladder-ends'), { timeout: 30_000 }).toMatch(/^bottom z -?\d+, top z -?\d+$/);
    const [shownBottom, shownTop] = (await ui.text('source-ladder-ends')).match(/-?\d+/g)!.map(Number);
    expect(Math.abs(shownBottom! - bottom[2])).toBeLessThanOrEqual(1);
    expect(Math.abs(shownTop! - top[2])).toBeLessThanOrEqual(1);
    await page.getByTestId('source-ladder-width').fill('24');
    await ui.edited(() => page.getByTestId('source-create-ladder').click());
    await expect.poll(() => ui.text('source-result'), { timeout: 30_000 }).toMatch(/^Ladder added \(\d+ units tall, 24 wide\), linked to the areas at its ends$/);
    await expect.poll(() => ui.text('source-counts'), { timeout: 30_000 }).toBe(`${original.areas.count} areas, ${original.ladders.count + 1} ladders`);
    const saved = navOf(FLOORS, currentBytes(project, id));
    expect(saved.ladders.count).toBe(original.ladders.count + 1);
    const ladder = saved.ladders.id[saved.ladders.count - 1]!;
    const areas = saved.ladders.areas.subarray((saved.ladders.count - 1) * 5, saved.ladders.count * 5);
    expect([areas[0], areas[4]]).toEqual([m.faceOwner[high], m.faceOwner[low]]);
    expect(newErrors(inspectBytes(FLOORS, currentBytes(project, id), env).errors, inspectBytes(FLOORS, readFixture(files[FLOORS]!), env).errors)).toEqual([]);
    expect(ladder).toBeGreaterThan(0);
    await ui.undo();
    await expect.poll(() => ui.text('source-counts'), { timeout: 30_000 }).toBe(`${original.areas.count} areas, ${original.ladders.count} ladders`);
    expect(Buffer.from(currentBytes(project, id)).equals(Buffer.from(readFixture(files[FLOORS]!)))).toBe(true);
  }, 180_000);

  it('ran without console errors or page errors', () => {
    expect(problems).toEqual([]);
  });
});
