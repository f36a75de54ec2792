import type { OpenedFile } from '../../../shared/ipc/contract';
import { buildTriangleBvh, raycastBvh, refitTriangleBvhFaces, type TriangleBvh } from '../../../shared/geometry/triangle-bvh';
import { buildVertexFaces, facesOfVertices, type VertexFaces } from '../../../shared/model/vertex-faces';
import { vertexCount, type Walkmesh } from '../../../shared/model/walkmesh';
import { faceIslands, NO_ISLAND, type FaceIslands } from '../../../shared/views/face-islands';
import { normalsOverlay, perimeterOverlay } from '../../../shared/views/model-overlays';
import type { LineOverlay, OverlayId } from '../../../shared/views/view-overlay';

/** What an edit answered with a delta changed, as far as the view data cares. */
export interface CarriedChange {
  mesh: number;
  movedVertices: Uint32Array;
  /** Walkability or owners changed: islands are found again. */
  islands: boolean;
}

export interface FacePick {
  mesh: number;
  face: number;
  /** Ray parameter of the hit, for choosing the nearest mesh. */
  t: number;
}

/**
 * What the views and picking derive from one open file, computed when first asked for and
 * kept with the file: islands (flood fill), a BVH per walkmesh, the model overlays. Held
 * in a WeakMap, so closing a tab frees it with the file.
 */
export class FileViewData {
  private islandsCache: FaceIslands[] | null = null;
  private islandIdCache: Int32Array[] | null = null;
  private bvhCache: (TriangleBvh | null)[] = [];
  private readonly overlayCache = new Map<OverlayId, LineOverlay | null>();
  /** Milliseconds spent building each BVH, for the timings hook. */
  bvhBuildMs = 0;

  constructor(readonly file: OpenedFile) {}

  islands(): FaceIslands[] {
    // Source areas meet through connections, not shared edges: those join islands too.
    const links = this.file.overlays?.find((o) => o.id === 'connections')?.ownerLinks;
    this.islandsCache ??= this.file.walkmeshes.map((m) => faceIslands(m, m.game === 'source' ? links : undefined));
    return this.islandsCache;
  }

  /**
   * Island per face numbered across the whole file, largest first (a plugin's navmeshes
   * each have their own island 0 in `islands()`); NO_ISLAND for non-walkable faces.
   */
  islandIds(): Int32Array[] {
    if (this.islandIdCache) return this.islandIdCache;
    const per = this.islands();
    const all: { mesh: number; local: number; size: number }[] = [];
    per.forEach((p, mesh) => p.sizes.forEach((size, local) => all.push({ mesh, local, size })));
    all.sort((a, b) => b.size - a.size || a.mesh - b.mesh || a.local - b.local);
    const globalOf = per.map((p) => new Int32Array(p.sizes.length));
    all.forEach((e, g) => (globalOf[e.mesh]![e.local] = g));
    this.islandIdCache = per.map((p, mesh) => p.faceIsland.map((i) => (i === NO_ISLAND ? NO_ISLAND : globalOf[mesh]![i]!)));
    return this.islandIdCache;
  }

  bvh(mesh: number): TriangleBvh {
    let b = this.bvhCache[mesh];
    if (!b) {
      const m = this.file.walkmeshes[mesh]!;
      const start = performance.now();
      b = buildTriangleBvh(m.positions, m.triangles);
      this.bvhBuildMs += performance.now() - start;
      this.bvhCache[mesh] = b;
    }
    return b;
  }

  /** The nearest face along a game-space ray over every walkmesh (those `shown`, when given), or null. */
  pick(origin: readonly number[], dir: readonly number[], shown: ReadonlySet<number> | null = null): FacePick | null {
    let best: FacePick | null = null;
    for (let i = 0; i < this.file.walkmeshes.length; i++) {
      // An isolated cell or navmesh: the hidden walkmeshes are not picked through.
      if (shown !== null && !shown.has(i)) continue;
      const hit = raycastBvh(this.bvh(i), origin[0]!, origin[1]!, origin[2]!, dir[0]!, dir[1]!, dir[2]!, best?.t ?? Infinity);
      if (hit && (!best || hit.t < best.t)) best = { mesh: i, face: hit.face, t: hit.t };
    }
    return best;
  }

  /** The overlay for a view, or null when the file has none. */
  overlay(id: OverlayId): LineOverlay | null {
    if (!this.overlayCache.has(id)) this.overlayCache.set(id, this.compute(id));
    return this.overlayCache.get(id)!;
  }

  private compute(id: OverlayId): LineOverlay | null {
    const meshes = this.file.walkmeshes;
    if (id === 'perimeter') return perimeterOverlay(meshes, this.islands().map((i) => i.neighbors));
    if (id === 'normals') return normalsOverlay(meshes);
    return this.file.overlays?.find((o) => o.id === id) ?? null;
  }
  /** Forgets the views made so far (the file's line views changed). */
  dropOverlays(): void {
    this.overlayCache.clear();
  }

  /**
   * What this file's data still holds for `next`, the same file after an edit that changed
   * no corners (its walkmeshes' arrays patched in place): the BVHs (walkmesh `mesh`'s
   * refitted round `movedVertices`), the islands unless walkability or owners changed; the
   * model overlays are derived again when next shown.
   */
  carryTo(next: OpenedFile, change: CarriedChange): FileViewData {
    const d = new FileViewData(next);
    d.bvhCache = this.bvhCache;
    const bvh = d.bvhCache[change.mesh];
    const m = next.walkmeshes[change.mesh];
    if (bvh && m && change.movedVertices.length > 0) refitTriangleBvhFaces(bvh, facesOfVertices(vertexFacesOf(m), change.movedVertices));
    if (!change.islands) {
      d.islandsCache = this.islandsCache;
      d.islandIdCache = this.islandIdCache;
    }
    for (const [id, o] of this.overlayCache) if (id !== 'perimeter' && id !== 'normals') d.overlayCache.set(id, o);
    return d;
  }
}

const cache = new WeakMap<OpenedFile, FileViewData>();

/** Per corner list (keyed by the mesh's triangles array, which an edit of corners replaces). */
const vertexFacesCache = new WeakMap<Uint32Array, VertexFaces>();

/** The faces round each vertex of the mesh, built once per corner list. */
export function vertexFacesOf(mesh: Walkmesh): VertexFaces {
  let v = vertexFacesCache.get(mesh.triangles);
  if (!v) vertexFacesCache.set(mesh.triangles, (v = buildVertexFaces(mesh.triangles, vertexCount(mesh))));
  return v;
}

/**
 * Hands the view data of `before` to `after` (see FileViewData.carryTo), so a paint stroke
 * on a 100,000-face mesh does not rebuild its BVH on the next hover.
 */
export function carryViewData(before: OpenedFile, after: OpenedFile, change: CarriedChange): void {
  const d = cache.get(before);
  if (d && !cache.has(after)) cache.set(after, d.carryTo(after, change));
}

export function viewDataOf(file: OpenedFile): FileViewData {
  let d = cache.get(file);
  if (!d) cache.set(file, (d = new FileViewData(file)));
  return d;
}

/**
 * The same file with other facts about it (its report, its project view: revision, bake
 * state) and the same walkmeshes and views: its view data goes with it untouched, so the
 * viewport neither redraws nor rebuilds picking for a new report.
 */
export function withFileFacts(before: OpenedFile, facts: Partial<Pick<OpenedFile, 'report' | 'projectFile' | 'name'>>): OpenedFile {
  const after: OpenedFile = { ...before, ...facts };
  const d = cache.get(before);
  if (d && !cache.has(after)) cache.set(after, d.carryTo(after, { mesh: 0, movedVertices: new Uint32Array(0), islands: false }));
  return after;
}

/** True when `after` differs from `before` only in facts (report, project view), not in what is drawn. */
export function sameDrawing(before: OpenedFile, after: OpenedFile): boolean {
  return before.walkmeshes === after.walkmeshes && before.overlays === after.overlays;
}

/**
 * The same file with other line views (an NWN2 area's cutter outlines and footprints after
 * a GIT edit): its picking and islands go with it; the views are made again when shown.
 */
export function withFileOverlays(before: OpenedFile, overlays: OpenedFile['overlays']): OpenedFile {
  const after: OpenedFile = { ...before, ...(overlays !== undefined ? { overlays } : {}) };
  const d = cache.get(before);
  if (d && !cache.has(after)) {
    const carried = d.carryTo(after, { mesh: 0, movedVertices: new Uint32Array(0), islands: false });
    carried.dropOverlays();
    cache.set(after, carried);
  }
  return after;
}
