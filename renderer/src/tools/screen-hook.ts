import type { ScreenProjector } from './face-selection';

interface HookWindow {
  __walkbench?: { timings: unknown[]; toScreen?: ScreenProjector };
}

/**
 * Exposes `window.__walkbench.toScreen(x, y, z)`: where a game-space point is on the
 * canvas (CSS pixels from its top left) for the camera as it is now, so the end-to-end
 * tests can click a known face or corner instead of guessing pixels.
 */
export function exposeScreenProjector(projector: () => ScreenProjector): void {
  const w = window as unknown as HookWindow;
  w.__walkbench ??= { timings: [] };
  w.__walkbench.toScreen = (x, y, z) => projector()(x, y, z);
}
