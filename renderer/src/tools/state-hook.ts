import type { OpenedFile } from '../../../shared/ipc/contract';
import type { BakeState } from '../../../shared/ipc/project-contract';
import type { Walkmesh } from '../../../shared/model/walkmesh';

/** One open tab as a test's oracle sees it: which project file, which revision, what it shows. */
export interface TabHookState {
  key: string;
  name: string;
  /** Null for files opened from disk. */
  session: string | null;
  fileId: number | null;
  revision: number | null;
  active: boolean;
  showBaked: boolean;
  hasBaked: boolean;
  reportPending: boolean;
  /** Digest of the walkmeshes the tab edits (its file, not a baked view): see meshDigest. */
  meshDigest: string;
  faces: number;
  /** The findings shown for the file (its report), as `code: message`. */
  errors: string[];
  warnings: string[];
  bake: Pick<BakeState, 'status' | 'label'> | null;
}

/** What the page shows, for the random-walk oracle (test/soak): read with `window.__walkbench.state()`. */
export interface AppHookState {
  project: { session: string; path: string; name: string } | null;
  tabs: TabHookState[];
  edit: { busy: boolean; error: string | null; message: string | null; warnings: string[]; rebaking: number; history: number };
  jobsRunning: boolean;
  /** Bake marks of the project tree, by file id. */
  treeBake: Record<number, string>;
}

interface HookWindow {
  __walkbench?: { timings: unknown[]; state?: () => AppHookState };
}

/** FNV-1a over the bytes of typed arrays: equal arrays give equal digests on page and in Node. */
export function meshDigest(meshes: readonly Walkmesh[]): string {
  let h = 0x811c9dc5;
  const mix = (a: ArrayBufferView) => {
    const b = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    for (let i = 0; i < b.length; i++) {
      h ^= b[i]!;
      h = Math.imul(h, 0x01000193);
    }
  };
  for (const m of meshes) {
    mix(m.positions);
    mix(m.triangles);
    mix(m.faceWalkable);
    mix(m.faceMaterial);
    mix(m.faceOwner);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

export function tabFindings(file: OpenedFile): { errors: string[]; warnings: string[] } {
  return { errors: file.report.errors.map((f) => `${f.code}: ${f.message}`), warnings: file.report.warnings.map((f) => `${f.code}: ${f.message}`) };
}

/** Exposes `window.__walkbench.state()` for the end-to-end tests and the soak run. */
export function exposeAppState(state: () => AppHookState): void {
  const w = window as unknown as HookWindow;
  w.__walkbench ??= { timings: [] };
  w.__walkbench.state = state;
}
