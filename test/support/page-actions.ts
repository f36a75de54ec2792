import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { editShown } from './edit-waits';
import type { P3 } from './walkmesh-probes';

/** The waits and clicks the browser suites make on a project page. */
export function pageActions(page: () => Page) {
  const text = async (id: string) => (await page().getByTestId(id).first().textContent())?.trim() ?? '';
  const faceCountShown = () => page().getByTestId('viewport').getAttribute('data-face-count');

  /** Runs an action that makes one edit, undo or redo, and waits until the page shows it. */
  const edited = (action: () => Promise<void>, timeout = 30_000) => editShown(page(), action, { timeout });

  async function openFromTree(name: string, faces?: number): Promise<void> {
    await page().locator(`[data-testid="tree-file"][data-file-name="${name}"]`).click();
    await expect.poll(() => page().getByTestId('tab').filter({ hasText: name }).getAttribute('data-active'), { timeout: 30_000 }).toBe('true');
    if (faces !== undefined) await expect.poll(faceCountShown, { timeout: 30_000 }).toBe(String(faces));
    else await expect.poll(faceCountShown, { timeout: 30_000 }).not.toBe('0');
    await expect.poll(() => page().getByTestId('viewport').getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await page().getByTestId('frame-all').click();
    await page().getByTestId('top-view').click();
    // One frame with the new camera before anything is projected.
    await page().evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }

  async function screenOf(p: P3): Promise<{ x: number; y: number }> {
    const box = (await page().getByTestId('viewport-canvas').boundingBox())!;
    const s = await page().evaluate(([x, y, z]) => (window as unknown as { __walkbench: { toScreen(x: number, y: number, z: number): [number, number] | null } }).__walkbench.toScreen(x!, y!, z!), p);
    expect(s, `point ${p.join(', ')} is in front of the camera`).not.toBeNull();
    return { x: box.x + s![0], y: box.y + s![1] };
  }

  async function clickAt(p: P3): Promise<void> {
    const s = await screenOf(p);
    await page().mouse.click(s.x, s.y);
  }

  async function reload(): Promise<void> {
    await page().reload();
    await page().getByTestId('project-tree').waitFor({ timeout: 30_000 });
  }

  return {
    text,
    faceCountShown,
    edited,
    openFromTree,
    screenOf,
    clickAt,
    reload,
    undo: (timeout?: number) => edited(() => page().getByTestId('undo').click(), timeout),
    redo: (timeout?: number) => edited(() => page().getByTestId('redo').click(), timeout),
  };
}
