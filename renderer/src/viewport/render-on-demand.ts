/**
 * The viewport draws a frame only when something may have changed (issue 19: a large level
 * open and idle must cost no frames): a call into any of the scene's classes (which is how
 * every change reaches Babylon), a pointer, wheel or key event anywhere in the page, a
 * resize, a camera still gliding (inertia), or a frame someone waits for. After the last
 * such change frames go on for a short grace period (follow-ups of one input arriving in
 * the next ticks), then stop until the next change.
 */

/** Frames go on this long after the last change. */
export const RENDER_GRACE_MS = 400;

let lastChange = performance.now();
let listening = false;

export function markChanged(): void {
  lastChange = performance.now();
}

export function changedWithin(ms: number): boolean {
  return performance.now() - lastChange < ms;
}

/**
 * Makes every method of `proto` (a class's prototype) mark a change when called, so code
 * that reaches Babylon through these classes never leaves a stale frame on screen.
 */
export function markChangesOnCalls(proto: object, skip: readonly string[] = []): void {
  const target = proto as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(proto)) {
    if (name === 'constructor' || skip.includes(name)) continue;
    const d = Object.getOwnPropertyDescriptor(proto, name);
    if (!d || typeof d.value !== 'function') continue;
    const method = d.value as (...args: unknown[]) => unknown;
    target[name] = function (this: unknown, ...args: unknown[]) {
      markChanged();
      return method.apply(this, args);
    };
  }
}

/** Page input marks a change (the camera's own controls act on it in the frames after). */
export function listenForInput(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  for (const type of ['pointerdown', 'pointermove', 'pointerup', 'wheel', 'keydown', 'keyup', 'resize', 'focus', 'blur']) {
    window.addEventListener(type, markChanged, { capture: true, passive: true });
  }
}

interface FrameHookWindow {
  __walkbench?: { timings: unknown[]; frames?: number };
}

/** Counts drawn frames as `window.__walkbench.frames` (the e2e test and the bench read it). */
export function countFrame(): void {
  const w = window as unknown as FrameHookWindow;
  w.__walkbench ??= { timings: [] };
  w.__walkbench.frames = (w.__walkbench.frames ?? 0) + 1;
}
