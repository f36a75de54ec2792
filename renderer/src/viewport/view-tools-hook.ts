interface HookWindow {
  __walkbench?: { timings: unknown[]; camera?: () => { target: [number, number, number]; radius: number } };
}

/** Exposes `window.__walkbench.camera()`: the orbit target (game space) and distance, for the e2e tests. */
export function exposeCamera(state: () => { target: [number, number, number]; radius: number }): void {
  const w = window as unknown as HookWindow;
  w.__walkbench ??= { timings: [] };
  w.__walkbench.camera = state;
}
