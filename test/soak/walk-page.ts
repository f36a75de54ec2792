import type { Page } from 'playwright-core';
import type { AppHookState } from '../../renderer/src/tools/state-hook';

/**
 * What the random walk reads from the page and the small moves it makes there: the
 * state hook (`window.__walkbench.state()`, renderer/src/tools/state-hook.ts) with what
 * the DOM shows beside it, the wait for an idle page, and clicks at game points.
 */

/** What the DOM shows that the oracle compares with the state hook and the project. */
export interface DomFacts {
  /** Tree rows: file name → data-bake / data-edited. */
  tree: { name: string; bake: string; edited: string }[];
  findingsTitle: string | null;
  findingsPending: string | null;
  bakeStatus: string | null;
  bakeLabel: string | null;
  editError: string | null;
  editMessage: string | null;
  revision: number | null;
  busy: string | null;
  projectError: string | null;
  projectPath: string | null;
  undoDisabled: boolean | null;
  redoDisabled: boolean | null;
}

export interface PageSnapshot {
  state: AppHookState;
  dom: DomFacts;
}

/**
 * The page side of `snapshot`, as source text: a function given to page.evaluate would be
 * compiled by tsx, whose helpers (`__name`) do not exist in the page.
 */
const SNAPSHOT_SOURCE = `(() => {
  const q = (id) => document.querySelector('[data-testid="' + id + '"]');
  const text = (id) => { const e = q(id); return e && e.textContent !== null ? e.textContent.trim() : null; };
  const tree = Array.from(document.querySelectorAll('[data-testid="tree-file"]')).map((e) => ({
    name: e.getAttribute('data-file-name') || '',
    bake: e.getAttribute('data-bake') || '',
    edited: e.getAttribute('data-edited') || '',
  }));
  const toolbar = q('edit-toolbar');
  const findings = q('findings');
  const bake = q('bake-state');
  const path = q('project-path');
  return {
    state: window.__walkbench.state(),
    dom: {
      tree,
      findingsTitle: text('findings-title'),
      findingsPending: findings ? findings.getAttribute('data-pending') : null,
      bakeStatus: bake ? bake.getAttribute('data-status') : null,
      bakeLabel: text('bake-state-label'),
      editError: text('edit-error'),
      editMessage: text('edit-message'),
      revision: toolbar ? Number(toolbar.getAttribute('data-revision')) : null,
      busy: toolbar ? toolbar.getAttribute('data-busy') : null,
      projectError: text('project-error'),
      projectPath: path ? path.value : null,
      undoDisabled: q('undo') ? q('undo').disabled : null,
      redoDisabled: q('redo') ? q('redo').disabled : null,
    },
  };
})()`;

/** The state hook and the DOM facts, read in one round trip. */
export async function snapshot(page: Page): Promise<PageSnapshot> {
  return (await page.evaluate(SNAPSHOT_SOURCE)) as PageSnapshot;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `probe` until it returns a non-null value or `timeoutMs` passes (then null). */
export async function pollFor<T>(probe: () => Promise<T | null | undefined>, timeoutMs: number, everyMs = 25): Promise<T | null> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== null && v !== undefined) return v;
    if (Date.now() > end) return null;
    await sleep(everyMs);
  }
}

/** Why the page is not idle yet, or null when it is: no edit running, no job, no re-bake, no report on its way. */
export function busyReason(s: AppHookState): string | null {
  if (s.edit.busy) return 'an edit is running (toolbar busy)';
  if (s.jobsRunning) return 'a bake job is running';
  if (s.edit.rebaking > 0) return `${s.edit.rebaking} NWN2 re-bake(s) pending`;
  const pending = s.tabs.find((t) => t.reportPending);
  if (pending) return `the report of ${pending.name} is pending`;
  return null;
}

/** A click on the canvas at a game point of the active tab, with the camera as it is now; false when the point is off screen. */
export async function clickGamePoint(page: Page, p: readonly [number, number, number], modifiers: ('Shift' | 'Control')[] = []): Promise<boolean> {
  const at = await screenOf(page, p);
  if (!at) return false;
  for (const k of modifiers) await page.keyboard.down(k);
  try {
    await page.mouse.click(at.x, at.y);
  } finally {
    for (const k of modifiers) await page.keyboard.up(k);
  }
  return true;
}

/** Where a game point is on the page (CSS pixels), or null when it is off the canvas or under the colour legend. */
export async function screenOf(page: Page, p: readonly [number, number, number]): Promise<{ x: number; y: number } | null> {
  const r = (await page.evaluate(`(() => {
    const s = window.__walkbench.toScreen(${p[0]}, ${p[1]}, ${p[2]});
    const c = document.querySelector('[data-testid="viewport-canvas"]').getBoundingClientRect();
    const boxes = ['legend', 'gizmo-panel'].map((id) => document.querySelector('[data-testid="' + id + '"]')).filter((e) => e !== null).map((e) => e.getBoundingClientRect()).map((b) => ({ x: b.x, y: b.y, w: b.width, h: b.height }));
    return { s, canvas: { x: c.x, y: c.y, w: c.width, h: c.height }, boxes };
  })()`)) as { s: [number, number] | null; canvas: { x: number; y: number; w: number; h: number }; boxes: { x: number; y: number; w: number; h: number }[] };
  if (!r.s) return null;
  const x = r.canvas.x + r.s[0];
  const y = r.canvas.y + r.s[1];
  const margin = 12;
  if (r.s[0] < margin || r.s[1] < margin || r.s[0] > r.canvas.w - margin || r.s[1] > r.canvas.h - margin) return null;
  for (const b of r.boxes) if (x >= b.x - 6 && x <= b.x + b.w + 6 && y >= b.y - 6 && y <= b.y + b.h + 6) return null;
  return { x, y };
}

/** For each game point, whether a click there lands on the canvas clear of the legend (the camera as it is now). */
export async function onScreen(page: Page, points: readonly (readonly [number, number, number])[]): Promise<boolean[]> {
  return (await page.evaluate(`(() => {
    const pts = ${JSON.stringify(points)};
    const c = document.querySelector('[data-testid="viewport-canvas"]').getBoundingClientRect();
    const boxes = ['legend', 'gizmo-panel'].map((id) => document.querySelector('[data-testid="' + id + '"]')).filter((e) => e !== null).map((e) => e.getBoundingClientRect());
    const m = 12;
    return pts.map((p) => {
      const s = window.__walkbench.toScreen(p[0], p[1], p[2]);
      if (!s || s[0] < m || s[1] < m || s[0] > c.width - m || s[1] > c.height - m) return false;
      const x = c.x + s[0], y = c.y + s[1];
      return !boxes.some((b) => x >= b.x - 6 && x <= b.x + b.width + 6 && y >= b.y - 6 && y <= b.y + b.height + 6);
    });
  })()`)) as boolean[];
}

/** The tab (and view) each page's camera was last framed from the top for. */
const framed = new WeakMap<Page, string>();

/** The camera may have moved (another tab, a reload): the next frameTop frames again. */
export function forgetFraming(page: Page): void {
  framed.delete(page);
}

/**
 * Frames the whole walkmesh from the top (as a user does before picking), and waits one
 * frame; skipped when the camera was framed so for the tab and view shown now (edits keep it).
 */
export async function frameTop(page: Page): Promise<void> {
  const shown = (await page.evaluate(`(() => { const t = window.__walkbench.state().tabs.find((x) => x.active); return t ? t.key + '|' + t.showBaked : ''; })()`)) as string;
  if (shown !== '' && framed.get(page) === shown) return;
  framed.set(page, shown);
  await page.getByTestId('frame-all').click();
  await page.getByTestId('top-view').click();
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
}

/** Takes the keyboard focus out of any field (so the viewport's keys reach it) and puts it on the canvas. */
export async function focusCanvas(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
    const c = document.querySelector('[data-testid="viewport-canvas"]');
    if (c) c.focus();
  })()`);
}

/** Text of the first element with this test id, trimmed ('' when there is none). */
export async function textOf(page: Page, id: string): Promise<string> {
  return (await page.evaluate(`(() => { const e = document.querySelector('[data-testid="${id}"]'); return e && e.textContent ? e.textContent.trim() : ''; })()`)) as string;
}

/** Picks a tool in the toolbar unless it is the one in use. */
export async function useTool(page: Page, tool: string): Promise<void> {
  const on = (await page.evaluate(`(() => { const e = document.querySelector('[data-testid="tool-${tool}"]'); return e ? e.getAttribute('aria-pressed') : null; })()`)) as string | null;
  if (on !== 'true') await page.getByTestId(`tool-${tool}`).click();
}
