import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserServer } from '../../electron/services/browser-server';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectEdits } from '../../electron/services/project/project-edits';
import { ProjectStore } from '../../electron/services/project/project-store';
import { facesUnderBrush, walkmeshGrid } from '../../shared/edits/selection';
import { readGff } from '../../shared/formats/aurora/gff-reader';
import { readGitPlaceables, readGitWalkmeshCutters } from '../../shared/formats/aurora/nwn2-git';
import { loadDocument } from '../../shared/formats/inspect-file';
import { TRX_FORMAT } from '../../shared/formats/nwn2/trx-document';
import { faceCount, type Walkmesh } from '../../shared/model/walkmesh';
import { openProjectPage } from '../support/browser-app';
import { browserSuite } from '../support/browser-suite';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { pageActions } from '../support/page-actions';
import { centroid, clearFaces, withStore, type P3 } from '../support/walkmesh-probes';

/**
 * Issue 16 §4, NWN2: the tools designers know from the toolset, through the page on a whole
 * interior area (TRN + TRX + GIT): drag a placeable with the gizmo and turn it on its ring
 * (one GIT edit per drag, Esc cancels, undo), draw a cutter corner by corner with snapping
 * (a crossing corner refused with the reason, Backspace, closed on its first corner), and
 * brush the ground unwalkable with the brush's circle shown. With WALKBENCH_SCREENSHOTS=DIR
 * the gizmo and the cutter being drawn are photographed there.
 */

const app = browserSuite('walkbench-e2e-nwn2-tools-');
const shots = process.env['WALKBENCH_SCREENSHOTS'];

interface PlaceableGizmoHook {
  centre: P3;
  length: number;
  handles: Partial<Record<'z' | 'xy' | 'centre', [number, number]>>;
  ring: [number, number] | null;
}

describe('NWN2 toolset tools: placeable gizmo, cutter drawing, ground brush', () => {
  const AREA = 'CSLMordMansion';
  const MODULE = 'mordmansion';
  const dir = path.join(fixturesRoot, 'nwn2/mordmansion');
  const trnBytes = readFixture(path.join(dir, `${AREA}.TRN`));
  const ground: Walkmesh = (() => {
    const d = loadDocument(`${AREA}.TRN`, trnBytes, env);
    return d.handler.toWalkmeshes(d.document, `${AREA}.TRN`)[0]!;
  })();
  const importedGit = readGff(readFixture(path.join(dir, `${AREA}.GIT`)));
  const CUTTERS = readGitWalkmeshCutters(importedGit).length;

  let tmp = '';
  let project = '';
  let gitId = 0;
  let trnId = 0;
  let server: BrowserServer | undefined;
  let page: Page;
  const problems: string[] = [];
  const ui = pageActions(() => page);
  const gitBytes = () => withStore(project, (s) => s.loadEdit(gitId)?.bytes ?? s.loadFileBytes(gitId));
  const placeables = () => readGitPlaceables(readGff(gitBytes()));
  const cutters = () => readGitWalkmeshCutters(readGff(gitBytes()));
  const groundNow = () => withStore(project, (s) => new ProjectEdits(s, env).meshes(trnId)[0]!);
  const historyCount = () => page.locator('[data-testid="history-entry"][data-undone="false"]').count();

  async function rebaked(action: () => Promise<void>): Promise<void> {
    await ui.edited(action, 60_000);
    await expect.poll(() => ui.text('edit-message'), { timeout: 60_000 }).toMatch(/area re-baked in \d+ ms/);
    await expect.poll(() => page.getByTestId('rebake-status').count(), { timeout: 60_000 }).toBe(0);
  }

  async function canvasBox(): Promise<{ x: number; y: number; width: number; height: number }> {
    return (await page.getByTestId('viewport-canvas').boundingBox())!;
  }

  /** Whether a game point shows on the canvas, clear of the legend and the bottom bars. */
  async function clearOnScreen(p: P3, margin: number): Promise<boolean> {
    const s = await ui.screenOf(p);
    const box = await canvasBox();
    const legend = (await page.getByTestId('legend').boundingBox())!;
    const inCanvas = s.x >= box.x + margin && s.x <= box.x + box.width - margin && s.y >= box.y + margin && s.y <= box.y + box.height - 70;
    const inLegend = s.x >= legend.x - margin && s.x <= legend.x + legend.width + margin && s.y >= legend.y - margin && s.y <= legend.y + legend.height + margin;
    return inCanvas && !inLegend;
  }

  const gizmo = () => page.evaluate(() => (window as unknown as { __walkbench: { placeableGizmo?: () => unknown } }).__walkbench.placeableGizmo?.() ?? null) as Promise<PlaceableGizmoHook | null>;

  async function draftState(): Promise<{ corners: number; snap: string; refused: string; closes: boolean; point: P3 }> {
    const el = page.getByTestId('cutter-draft');
    const a = async (n: string) => (await el.getAttribute(n)) ?? '';
    return { corners: Number(await a('data-corners')), snap: await a('data-snap'), refused: await a('data-refused'), closes: (await a('data-closes')) === 'true', point: [Number(await a('data-x')), Number(await a('data-y')), Number(await a('data-z'))] };
  }

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-nwn2-tools-'));
    project = path.join(tmp, 'nwn2.wbproj');
    const store = ProjectStore.create(project, { name: 'Mord mansion', game: 'nwn2' });
    try {
      trnId = store.upsertFile({ module: MODULE, area: AREA, name: `${AREA}.TRN`, kind: 'trn', format: TRX_FORMAT, bytes: trnBytes }).fileId;
      store.upsertFile({ module: MODULE, area: AREA, name: `${AREA}.TRX`, kind: 'walkmesh', format: TRX_FORMAT, bytes: readFixture(path.join(dir, `${AREA}.TRX`)) });
      gitId = store.upsertFile({ module: MODULE, area: AREA, name: `${AREA}.GIT`, kind: 'git', format: null, bytes: readFixture(path.join(dir, `${AREA}.GIT`)) }).fileId;
    } finally {
      store.close();
    }
    ({ server, page } = await openProjectPage(project, app.rendererDir, problems, { requests: false }, { browser: app.browser }));
    if (shots) mkdirSync(shots, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await page?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('drags a picked placeable with the gizmo, turns it on the ring in 15° steps, cancels a drag with Esc, and undoes', async () => {
    await ui.openFromTree(`${AREA}.TRN`);
    expect(await page.getByTestId('nwn2-tools').innerText()).toContain('(GIT)');
    await page.getByTestId('tool-placeable-gizmo').click();
    // Closer than the whole area, as a designer works: a placeable with no other within 3 m
    // (a click picks it alone), well inside the view; less close when the view holds none
    // (how much of the area a zoom step shows depends on the viewport's size).
    const view = await canvasBox();
    const all = placeables();
    let index = -1;
    for (let zoom = 4; zoom >= 1 && index < 0; zoom--) {
      await page.getByTestId('frame-all').click();
      await page.getByTestId('top-view').click();
      await page.mouse.move(view.x + view.width / 2, view.y + view.height / 2);
      for (let i = 0; i < zoom; i++) await page.mouse.wheel(0, -250);
      await page.evaluate(() => new Promise((r) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(r)), 300)));
      for (let i = 0; i < all.length && index < 0; i++) {
        const p = all[i]!;
        if (all.some((q, j) => j !== i && Math.hypot(q.x - p.x, q.y - p.y) < 3)) continue;
        if (await clearOnScreen([p.x, p.y, p.z], 110)) index = i;
      }
    }
    expect(index).toBeGreaterThanOrEqual(0);
    const before = all[index]!;
    await ui.clickAt([before.x, before.y, before.z]);
    await expect.poll(() => page.getByTestId('placeable-index').inputValue()).toBe(String(index));
    await expect.poll(async () => (await gizmo())?.centre).toEqual([before.x, before.y, before.z]);
    const g = (await gizmo())!;
    expect(Object.keys(g.handles).sort()).toEqual(['centre', 'xy', 'z']);
    expect(g.ring).not.toBeNull();

    // Game units per pixel at the placeable, looking straight down with north up.
    const s0 = await ui.screenOf([before.x, before.y, before.z]);
    const s1 = await ui.screenOf([before.x + 1, before.y, before.z]);
    const ppu = s1.x - s0.x;
    expect(ppu).toBeGreaterThan(3);
    let box = await canvasBox();
    const [hx, hy] = g.handles.xy!;
    const [dx, dy] = [60, -40];
    const historyBefore = await historyCount();
    await page.mouse.move(box.x + hx, box.y + hy);
    await page.mouse.down();
    await page.mouse.move(box.x + hx + dx, box.y + hy + dy, { steps: 8 });
    await expect.poll(() => page.getByTestId('placeable-drag').getAttribute('data-kind')).toBe('move');
    expect(await ui.text('placeable-drag')).toMatch(/^Move Δx \+\d/);
    // The footprint's live preview is drawn while dragging.
    expect(await page.evaluate(() => (window as unknown as { __walkbench: { placeablePreview?: number } }).__walkbench.placeablePreview)).toBeGreaterThanOrEqual(4);
    if (shots) await page.screenshot({ path: path.join(shots, 'nwn2-placeable-gizmo.png') });
    await rebaked(() => page.mouse.up());
    const moved = placeables()[index]!;
    // Within 4 %: the top view is a perspective camera a hair off vertical, and ppu is measured along x.
    expect(Math.abs(moved.x - before.x - dx / ppu)).toBeLessThan(0.04 * Math.abs(dx / ppu));
    expect(Math.abs(moved.y - before.y + dy / ppu)).toBeLessThan(0.04 * Math.abs(dy / ppu));
    expect(moved.z).toBe(before.z);
    expect(moved.bearing).toBe(before.bearing);
    // One drag, one edit.
    expect(await historyCount()).toBe(historyBefore + 1);
    await expect.poll(async () => (await gizmo())?.centre[0]).toBeCloseTo(moved.x, 4);

    // The ring from its east side to its north side: a quarter turn counter-clockwise, snapped.
    await page.getByTestId('grid-snap').check();
    // The bar above the view may have grown a line with the edit's message.
    box = await canvasBox();
    const t = (await gizmo())!;
    const [cx, cy] = (await page.evaluate(([x, y, z]) => (window as unknown as { __walkbench: { toScreen(x: number, y: number, z: number): [number, number] } }).__walkbench.toScreen(x!, y!, z!), t.centre))!;
    const r = Math.hypot(t.ring![0] - cx, t.ring![1] - cy);
    await page.mouse.move(box.x + t.ring![0], box.y + t.ring![1]);
    await page.mouse.down();
    await page.mouse.move(box.x + cx + 3, box.y + cy - r, { steps: 10 });
    await expect.poll(() => page.getByTestId('placeable-drag').getAttribute('data-kind')).toBe('turn');
    expect(await ui.text('placeable-drag')).toContain('Turn +90.00° (snapped)');
    await rebaked(() => page.mouse.up());
    const turned = placeables()[index]!;
    const quarter = Math.atan2(Math.sin(turned.bearing - before.bearing), Math.cos(turned.bearing - before.bearing));
    expect(quarter).toBeCloseTo(Math.PI / 2, 5);
    expect([turned.x, turned.y, turned.z]).toEqual([moved.x, moved.y, moved.z]);

    // A drag cancelled with Esc sends nothing.
    const bytes = gitBytes();
    const count = await historyCount();
    box = await canvasBox();
    const again = (await gizmo())!;
    await page.mouse.move(box.x + again.ring![0], box.y + again.ring![1]);
    await page.mouse.down();
    await page.mouse.move(box.x + cx - r, box.y + cy, { steps: 6 });
    await expect.poll(() => page.getByTestId('placeable-drag').count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('placeable-drag').count()).toBe(0);
    await page.mouse.up();
    await page.waitForTimeout(300);
    expect(await historyCount()).toBe(count);
    expect(gitBytes()).toEqual(bytes);

    await rebaked(() => page.getByTestId('undo').click());
    expect(placeables()[index]!.bearing).toBe(before.bearing);
    await rebaked(() => page.getByTestId('undo').click());
    expect([placeables()[index]!.x, placeables()[index]!.y]).toEqual([before.x, before.y]);
    await expect.poll(async () => (await gizmo())?.centre).toEqual([before.x, before.y, before.z]);
    await page.getByTestId('grid-snap').uncheck();
  }, 240_000);

  it('draws a cutter corner by corner: snaps to a cutter corner, vertices or the grid, refuses a crossing corner, Backspace, closes on the first corner; undo', async () => {
    await page.getByTestId('nwn2-view-ground').click();
    await page.getByTestId('tool-draw-cutter').click();
    await expect.poll(() => page.getByTestId('cutter-draft').count()).toBe(1);

    // An existing cutter corner in view, alone on screen (the snap takes the nearest within
    // 10 px), with room on one side of it inside the area (54 m square) and the view.
    const existing = cutters();
    const allCorners = existing.flatMap((c) => Array.from({ length: c.polygon.length / 2 }, (_, i): P3 => [c.polygon[i * 2]!, c.polygon[i * 2 + 1]!, c.position.z]));
    const o = await ui.screenOf([27, 27, 0]);
    const ppu = (await ui.screenOf([28, 27, 0])).x - o.x;
    const alone = Math.max(1, 16 / ppu);
    let K: P3 | null = null;
    let ex = -1, ey = 1;
    for (const p of allCorners) {
      if (allCorners.some((q) => q !== p && Math.hypot(q[0] - p[0], q[1] - p[1]) < alone)) continue;
      if (!(await clearOnScreen(p, 60))) continue;
      for (const [sx, sy] of [[-1, 1], [1, 1], [-1, -1], [1, -1]] as const) {
        const far: P3 = [p[0] + 4 * sx, p[1] + 4 * sy, p[2]];
        if (!K && far[0] > 1 && far[0] < 53 && far[1] > 1 && far[1] < 53 && (await clearOnScreen(far, 60))) {
          K = p;
          [ex, ey] = [sx, sy];
        }
      }
      if (K) break;
    }
    expect(K).not.toBeNull();
    const k = K!;
    /** A point `a` metres along the drawing's x side and `b` along its y side of the first corner. */
    const at = (a: number, b: number): P3 => [k[0] + a * ex, k[1] + b * ey, k[2]];
    const sk = await ui.screenOf(k);

    /** Moves to a game point (offset in pixels), reads where the corner would go, and clicks. */
    async function corner(p: P3, off: [number, number] = [0, 0], alt = false): Promise<{ corners: number; snap: string; refused: string; closes: boolean; point: P3 }> {
      const s = await ui.screenOf(p);
      if (alt) await page.keyboard.down('Alt');
      await page.mouse.move(s.x + off[0], s.y + off[1], { steps: 2 });
      const state = await draftState();
      await page.mouse.click(s.x + off[0], s.y + off[1]);
      if (alt) await page.keyboard.up('Alt');
      return state;
    }

    const drawn: P3[] = [];
    // 4 px off the existing corner: it takes the corner exactly.
    const first = await corner(k, [3, -3]);
    expect(first.snap).toBe('cutter-corner');
    expect(first.point[0]).toBeCloseTo(k[0], 4);
    expect(first.point[1]).toBeCloseTo(k[1], 4);
    drawn.push(first.point);
    await expect.poll(async () => (await draftState()).corners).toBe(1);

    // Further corners: what the page said each snapped to must hold of the point.
    const vertexAt = (x: number, y: number) => {
      for (let v = 0; v * 3 < ground.positions.length; v++) if (Math.abs(ground.positions[v * 3]! - x) < 1e-4 && Math.abs(ground.positions[v * 3 + 1]! - y) < 1e-4) return true;
      return false;
    };
    for (const [ox, oy] of [[-0.3, 3.3], [3.4, 3.2]]) {
      const st = await corner(at(ox!, oy!));
      expect(st.refused).toBe('');
      expect(['vertex', 'grid', 'cutter-corner']).toContain(st.snap);
      if (st.snap === 'grid') expect([st.point[0] % 1, st.point[1] % 1].map(Math.abs)).toEqual([0, 0]);
      if (st.snap === 'vertex') expect(vertexAt(st.point[0], st.point[1])).toBe(true);
      drawn.push(st.point);
    }
    await expect.poll(async () => (await draftState()).corners).toBe(3);
    // The outline follows the pointer: the cursor point is shown before any click.
    const sc = await ui.screenOf(at(3, 0.5));
    await page.mouse.move(sc.x, sc.y);
    await expect.poll(async () => Math.abs((await draftState()).point[1] - at(3, 0.5)[1])).toBeLessThan(1.5);
    if (shots) await page.screenshot({ path: path.join(shots, 'nwn2-cutter-drawing.png') });

    // A corner past the first edge, seen from the last one: the edge to it would cross the first edge through its middle. Refused, with the reason.
    const mid = [(drawn[0]![0] + drawn[1]![0]) / 2, (drawn[0]![1] + drawn[1]![1]) / 2];
    const crossing = await corner([2 * mid[0]! - drawn[2]![0], 2 * mid[1]! - drawn[2]![1], k[2]], [0, 0], true);
    expect(crossing.refused).toMatch(/cross/);
    await expect.poll(() => ui.text('edit-error')).toMatch(/cross/);
    expect((await draftState()).corners).toBe(3);

    // With Alt held, no snapping: the point where the pointer meets the ground.
    const free = await corner(at(3.37, 0.41), [0, 0], true);
    expect(free.snap).toBe('none');
    expect(free.refused).toBe('');
    await expect.poll(async () => (await draftState()).corners).toBe(4);
    // Backspace takes it off again; then a snapped one instead.
    await page.keyboard.press('Backspace');
    await expect.poll(async () => (await draftState()).corners).toBe(3);
    const fourth = await corner(at(3.2, 0.3));
    expect(fourth.refused).toBe('');
    drawn.push(fourth.point);
    await expect.poll(async () => (await draftState()).corners).toBe(4);

    // The first corner closes it: one edit, the area baked again.
    await page.mouse.move(sk.x, sk.y, { steps: 2 });
    await expect.poll(async () => (await draftState()).closes).toBe(true);
    const historyBefore = await historyCount();
    await rebaked(() => page.mouse.click(sk.x, sk.y));
    expect(await historyCount()).toBe(historyBefore + 1);
    const now = cutters();
    expect(now).toHaveLength(CUTTERS + 1);
    const added = now[CUTTERS]!;
    expect(added.polygon.length).toBe(drawn.length * 2);
    drawn.forEach((p, i) => {
      expect(added.polygon[i * 2]).toBeCloseTo(p[0], 4);
      expect(added.polygon[i * 2 + 1]).toBeCloseTo(p[1], 4);
    });
    expect((await draftState()).corners).toBe(0);
    // The page lists it, and the cutters view counts it.
    await expect.poll(() => page.getByTestId('cutter-list').locator('option').count()).toBe(CUTTERS + 2);
    if (!(await page.getByTestId('view-toggle-cutters').isChecked())) await page.getByTestId('view-toggle-cutters').check();
    await expect.poll(() => page.getByTestId('view-legend-cutters').getAttribute('data-total')).toBe(String(CUTTERS + 1));

    await rebaked(() => page.getByTestId('undo').click());
    expect(cutters()).toHaveLength(CUTTERS);
    await expect.poll(() => page.getByTestId('view-legend-cutters').getAttribute('data-total')).toBe(String(CUTTERS));
  }, 240_000);

  it('brushes the ground unwalkable with the radius shown as a circle on the ground: one stroke, one edit, the area baked again', async () => {
    await page.getByTestId('nwn2-view-ground').click();
    await page.getByTestId('brush-unwalkable').click();
    await page.getByTestId('brush-radius').fill('1.5');
    const walkable = clearFaces(ground).filter((f) => ground.faceWalkable[f]);
    let start: P3 | null = null;
    for (const f of walkable) {
      const c = centroid(ground, f);
      if (await clearOnScreen(c, 120)) {
        start = c;
        break;
      }
    }
    expect(start).not.toBeNull();
    const a = await ui.screenOf(start!);
    await page.mouse.move(a.x, a.y, { steps: 2 });
    const circle = () => page.evaluate(() => (window as unknown as { __walkbench: { brushCircle?: { centre: P3; radius: number } | null } }).__walkbench.brushCircle ?? null);
    await expect.poll(async () => (await circle())?.radius).toBe(1.5);
    const c = (await circle())!;
    expect(Math.hypot(c.centre[0] - start![0], c.centre[1] - start![1])).toBeLessThan(0.2);
    if (shots) await page.screenshot({ path: path.join(shots, 'nwn2-brush-circle.png') });

    const grid = walkmeshGrid(ground);
    const under = facesUnderBrush(ground, grid, c.centre[0], c.centre[1], 1.5).filter((f) => ground.faceWalkable[f]);
    expect(under.length).toBeGreaterThan(0);
    const historyBefore = await historyCount();
    await page.mouse.down();
    await page.mouse.move(a.x + 12, a.y + 6, { steps: 4 });
    await rebaked(() => page.mouse.up());
    expect(await historyCount()).toBe(historyBefore + 1);
    const painted = groundNow();
    expect(faceCount(painted)).toBe(faceCount(ground));
    for (const f of under) expect(painted.faceWalkable[f]).toBe(0);
    // The area's bake follows the ground: the TRX is re-baked from the painted TRN.
    await expect.poll(() => page.getByTestId('bake-state').getAttribute('data-status')).toMatch(/^(baked|unbaked)$/);
    expect(await ui.text('bake-state-label')).toContain(`${AREA}.TRX`);
    // Moving off the canvas takes the circle away.
    await page.mouse.move(5, 5);
    await expect.poll(circle).toBeNull();
    await ui.undo();
    expect(groundNow().faceWalkable[under[0]!]).toBe(1);
  }, 180_000);

  it('ran without console errors or page errors', () => {
    expect(problems).toEqual([]);
  });
});
