import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Runs an action that makes one edit, undo or redo in the page and waits until the page
 * shows it (the edit toolbar's revision moves on), failing with the page's own message when
 * the edit is refused; then, unless `drawn` is false, until the viewport has drawn it.
 */
export async function editShown(page: Page, action: () => Promise<void>, options: { timeout?: number; drawn?: boolean } = {}): Promise<void> {
  const revision = async () => Number(await page.getByTestId('edit-toolbar').getAttribute('data-revision'));
  const before = await revision();
  await action();
  const refused = page.getByTestId('edit-error');
  const outcome = async () => ((await refused.count()) > 0 ? `refused: ${await refused.textContent()}` : (await revision()) > before ? 'done' : 'waiting');
  await expect.poll(outcome, { timeout: options.timeout ?? 30_000 }).toBe('done');
  if (options.drawn !== false) await expect.poll(() => page.getByTestId('viewport').getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
}
