/**
 * Figures the page exposes for the benchmark and the end-to-end tests, as
 * `window.__walkbench.timings`: reading them needs no log scraping and no debugger.
 */
export interface ViewportTimings {
  /** File the figures are for. */
  file: string;
  faces: number;
  /** From asking for the file to having it in the page (services, transport, decoding). */
  loadMs: number | null;
  /** From asking for the file to the first frame that shows it. */
  firstFrameMs: number | null;
  /** Building the BVHs of the file's walkmeshes. */
  bvhBuildMs: number | null;
  /** Building the shown views' line systems, the last time a view was turned on or off. */
  overlaysMs: number | null;
  /** The last hover or click pick (ray through every walkmesh's BVH). */
  lastPickMs: number | null;
  /**
   * Walkmesh meshes the viewport built, and edits it patched into a shown mesh instead
   * (a paint or move answered with a delta), since the page loaded, as of this file's last
   * showing or edit: a delta edit leaves meshBuilds as it was.
   */
  meshBuilds: number;
  deltaPatches: number;
  /** From asking for the file to the first frame showing its level context (issue 19), and its triangles. */
  contextFrameMs?: number;
  contextTriangles?: number;
}

interface HookWindow {
  __walkbench?: { timings: ViewportTimings[] };
}

export function recordTimings(update: Partial<ViewportTimings> & { file: string }): void {
  const w = window as unknown as HookWindow;
  w.__walkbench ??= { timings: [] };
  const list = w.__walkbench.timings;
  let entry = list.find((t) => t.file === update.file);
  if (!entry) list.push((entry = { file: update.file, faces: 0, loadMs: null, firstFrameMs: null, overlaysMs: null, bvhBuildMs: null, lastPickMs: null, meshBuilds: 0, deltaPatches: 0 }));
  Object.assign(entry, update);
}
