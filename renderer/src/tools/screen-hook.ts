import type { ScreenProjector } from './face-selection';
import type { GizmoHandle } from './move-gizmo-math';

/** The move gizmo as a test sees it: where it is (game space) and where its handles are on the canvas. */
export interface GizmoHookState {
  centre: [number, number, number];
  /** The arrows' game-space length for the camera as it is now. */
  length: number;
  /** Canvas CSS pixels of each handle that can be taken now (left out when seen end-on). */
  handles: Partial<Record<GizmoHandle, [number, number]>>;
}

interface HookWindow {
  __walkbench?: { timings: unknown[]; toScreen?: ScreenProjector; gizmo?: () => GizmoHookState | null };
}

function hookWindow(): NonNullable<HookWindow['__walkbench']> {
  const w = window as unknown as HookWindow;
  w.__walkbench ??= { timings: [] };
  return w.__walkbench;
}

/**
 * Exposes `window.__walkbench.toScreen(x, y, z)`: where a game-space point is on the
 * canvas (CSS pixels from its top left) for the camera as it is now, so the end-to-end
 * tests can click a known face or corner instead of guessing pixels.
 */
export function exposeScreenProjector(projector: () => ScreenProjector): void {
  hookWindow().toScreen = (x, y, z) => projector()(x, y, z);
}

/**
 * Exposes `window.__walkbench.gizmo()`: the move gizmo's centre and its handles' canvas
 * positions, or null when it is not shown, so a test can press exactly on an arrow.
 */
export function exposeGizmoHandles(state: () => GizmoHookState | null): void {
  hookWindow().gizmo = state;
}
