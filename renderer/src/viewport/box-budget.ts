import type { LineOverlay } from '../../../shared/views/view-overlay';

/**
 * Most boxes a view draws: 12 lines each, so 10,000 boxes are 120,000 lines, which software
 * WebGL still redraws while orbiting; deeper levels of a huge tree are one mess of lines
 * anyway. A 100,000-face KotOR room has 200,000 AABB nodes.
 */
export const MAX_DRAWN_BOXES = 10_000;

/**
 * The highest box class (AABB depth) drawn whole within the budget: classes are drawn from
 * 0 up while they fit, so a huge tree shows its upper levels rather than a random part.
 * Every class when the overlay has no boxes or all of them fit.
 */
export function drawnBoxClasses(overlay: LineOverlay, budget = MAX_DRAWN_BOXES): number {
  if (overlay.boxClass.length <= budget) return overlay.classes.length - 1;
  const perClass = new Array<number>(overlay.classes.length).fill(0);
  for (const c of overlay.boxClass) perClass[c]!++;
  let total = 0;
  for (let c = 0; c < perClass.length; c++) {
    total += perClass[c]!;
    if (total > budget) return c - 1;
  }
  return perClass.length - 1;
}
