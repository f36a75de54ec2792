import { writePendingEdits } from '../../electron/services/project/pending-edit-writes';
import { ProjectStore } from '../../electron/services/project/project-store';
import { faceCount, type Walkmesh } from '../../shared/model/walkmesh';

/**
 * Small geometric questions the browser tests ask of a walkmesh (where to click, which face
 * is where) and a scoped handle on a project file. Plain loops: the fixtures are small.
 */

export type P3 = [number, number, number];

/** Opens the project file, runs `fn` and closes it again, so the app's own handle is not held up. */
export function withStore<T>(file: string, fn: (store: ProjectStore) => T): T {
  const store = ProjectStore.open(file);
  try {
    // As every reader of a project's edited bytes does: the app writes a paint's bytes behind.
    writePendingEdits(store);
    return fn(store);
  } finally {
    store.close();
  }
}

export function centroid(m: Walkmesh, f: number): P3 {
  const out: P3 = [0, 0, 0];
  for (let k = 0; k < 3; k++) for (let c = 0; c < 3; c++) out[c] += m.positions[m.triangles[f * 3 + k]! * 3 + c]! / 3;
  return out;
}

export function vertex(m: Walkmesh, v: number): P3 {
  return [m.positions[v * 3]!, m.positions[v * 3 + 1]!, m.positions[v * 3 + 2]!];
}

export function areaXY(m: Walkmesh, f: number): number {
  const [a, b, c] = [0, 1, 2].map((k) => vertex(m, m.triangles[f * 3 + k]!));
  return Math.abs((b![0] - a![0]) * (c![1] - a![1]) - (c![0] - a![0]) * (b![1] - a![1])) / 2;
}

export function coversXY(m: Walkmesh, f: number, x: number, y: number): boolean {
  const [a, b, c] = [0, 1, 2].map((k) => vertex(m, m.triangles[f * 3 + k]!));
  const s = (p: P3, q: P3) => (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
  const d1 = s(a!, b!), d2 = s(b!, c!), d3 = s(c!, a!);
  return (d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0);
}

/** Height of face `f`'s plane at (x, y). */
export function heightAt(m: Walkmesh, f: number, x: number, y: number): number {
  const [a, b, c] = [0, 1, 2].map((k) => vertex(m, m.triangles[f * 3 + k]!)) as [P3, P3, P3];
  const d = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
  if (Math.abs(d) < 1e-12) return Math.max(a[2], b[2], c[2]);
  const wa = ((b[1] - c[1]) * (x - c[0]) + (c[0] - b[0]) * (y - c[1])) / d;
  const wb = ((c[1] - a[1]) * (x - c[0]) + (a[0] - c[0]) * (y - c[1])) / d;
  return wa * a[2] + wb * b[2] + (1 - wa - wb) * c[2];
}

/** Faces (walkable ones unless `walkableOnly` is false) with nothing above their centroid, largest first: a click there from the top view hits them. */
export function clearFaces(m: Walkmesh, walkableOnly = true): number[] {
  const out: number[] = [];
  for (let f = 0; f < faceCount(m); f++) {
    if ((walkableOnly && !m.faceWalkable[f]) || areaXY(m, f) < 0.5) continue;
    const [x, y, z] = centroid(m, f);
    let alone = true;
    for (let g = 0; g < faceCount(m) && alone; g++) if (g !== f && coversXY(m, g, x, y) && heightAt(m, g, x, y) > z + 0.01) alone = false;
    if (alone) out.push(f);
  }
  return out.sort((a, b) => areaXY(m, b) - areaXY(m, a));
}

/** The face of `m` with the same corner positions as face `f` of `of` (face order may differ). */
export function sameFace(m: Walkmesh, of: Walkmesh, f: number): number {
  const key = (w: Walkmesh, g: number) => [0, 1, 2].map((k) => vertex(w, w.triangles[g * 3 + k]!).join(',')).sort().join(' ');
  const want = key(of, f);
  for (let g = 0; g < faceCount(m); g++) if (key(m, g) === want) return g;
  throw new Error(`no face with the corners of face ${f}`);
}

/**
 * Where to click to pick corner `v` with the vertex tool: beside it, inside a walkable face
 * that uses it with nothing above (not `avoid`), so a wall's corner above is not picked.
 * Null when no such face exists.
 */
export function vertexPickPoint(m: Walkmesh, v: number, avoid: number): P3 | null {
  const best = clearFaces(m).find((f) => f !== avoid && [0, 1, 2].some((k) => m.triangles[f * 3 + k] === v));
  if (best === undefined) return null;
  const c = centroid(m, best);
  const p = vertex(m, v);
  return [p[0] * 0.8 + c[0] * 0.2, p[1] * 0.8 + c[1] * 0.2, p[2] * 0.8 + c[2] * 0.2];
}
