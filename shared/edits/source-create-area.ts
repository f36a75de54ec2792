import { faceCount, NO_OWNER, vertexCount, type Walkmesh } from '../model/walkmesh';
import type { SourceConnectCommand } from './document-edit-command';
import type { BatchCommand, SourceCreateAreaCommand } from './edit-command';
import { EditError } from './edit-error';
import { checkCoordinate, checkUint32 } from './edit-checks';

/**
 * Two areas whose rectangles overlap are refused only when they are this close in height:
 * areas of different floors lie over each other (a standing player is 72 units tall).
 */
const FLOOR_GAP = 72;
/** The engine's step height (nav_generate's StepHeight, spec §8): neighbours further apart in height are not walked onto. */
const STEP_HEIGHT = 18;

/** A Source area's rectangle and mean height, from its faces in the model. */
export interface AreaRect {
  id: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  minZ: number;
  maxZ: number;
}

/** Every area's rectangle (x, y bounds of its faces), one pass over the faces. */
export function areaRects(mesh: Walkmesh): AreaRect[] {
  const byId = new Map<number, AreaRect>();
  const P = mesh.positions;
  const F = faceCount(mesh);
  for (let f = 0; f < F; f++) {
    const id = mesh.faceOwner[f]!;
    if (id === NO_OWNER) continue;
    let r = byId.get(id);
    if (!r) byId.set(id, (r = { id, minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity, minZ: Infinity, maxZ: -Infinity }));
    for (let k = 0; k < 3; k++) {
      const v = mesh.triangles[f * 3 + k]!;
      r.minX = Math.min(r.minX, P[v * 3]!);
      r.maxX = Math.max(r.maxX, P[v * 3]!);
      r.minY = Math.min(r.minY, P[v * 3 + 1]!);
      r.maxY = Math.max(r.maxY, P[v * 3 + 1]!);
      r.minZ = Math.min(r.minZ, P[v * 3 + 2]!);
      r.maxZ = Math.max(r.maxZ, P[v * 3 + 2]!);
    }
  }
  return [...byId.values()];
}

/**
 * A dragged rectangle (two corners, any order) snapped as nav_edit's area drawing does:
 * each side goes to the nearest side of a neighbouring area at about the same height
 * within `reach` (so the new area meets it edge to edge and can be connected), otherwise
 * to the grid `step`. Returns minX, minY, maxX, maxY.
 */
export function snapAreaRect(mesh: Walkmesh, a: readonly number[], b: readonly number[], step: number, reach: number): [number, number, number, number] {
  const z = (a[2]! + b[2]!) / 2;
  const near = areaRects(mesh).filter((r) => z >= r.minZ - FLOOR_GAP && z <= r.maxZ + FLOOR_GAP);
  const grid = (c: number) => (step > 0 ? Math.round(c / step) * step : c);
  const snap = (c: number, candidates: number[]) => {
    let best = grid(c);
    let bestD = reach;
    for (const x of candidates) {
      const d = Math.abs(x - c);
      if (d <= bestD) [best, bestD] = [x, d];
    }
    return Math.fround(best);
  };
  const xs = near.flatMap((r) => [r.minX, r.maxX]);
  const ys = near.flatMap((r) => [r.minY, r.maxY]);
  const x0 = snap(Math.min(a[0]!, b[0]!), xs), x1 = snap(Math.max(a[0]!, b[0]!), xs);
  const y0 = snap(Math.min(a[1]!, b[1]!), ys), y1 = snap(Math.max(a[1]!, b[1]!), ys);
  return [x0, y0, x1, y1];
}

/**
 * The two-way connections a new area makes with every area it shares a stretch of edge
 * with (nav_edit connects a created area to the areas it touches): one area's east side
 * on the other's west side (or north on south) over a positive length, heights within a
 * step. North is −Y (spec §3).
 */
export function sharedEdgeConnections(mesh: Walkmesh, id: number): SourceConnectCommand[] {
  const rects = areaRects(mesh);
  const a = rects.find((r) => r.id === id);
  if (!a) return [];
  const out: SourceConnectCommand[] = [];
  const overlap = (lo1: number, hi1: number, lo2: number, hi2: number) => Math.min(hi1, hi2) - Math.max(lo1, lo2) > 0;
  const level = (b: AreaRect) => a.minZ <= b.maxZ + STEP_HEIGHT && b.minZ <= a.maxZ + STEP_HEIGHT;
  for (const b of rects) {
    if (b.id === id || !level(b)) continue;
    let direction = -1;
    if (b.maxX === a.minX && overlap(a.minY, a.maxY, b.minY, b.maxY)) direction = 3;
    else if (b.minX === a.maxX && overlap(a.minY, a.maxY, b.minY, b.maxY)) direction = 1;
    else if (b.maxY === a.minY && overlap(a.minX, a.maxX, b.minX, b.maxX)) direction = 0;
    else if (b.minY === a.maxY && overlap(a.minX, a.maxX, b.minX, b.maxX)) direction = 2;
    if (direction >= 0) out.push({ kind: 'source-connect', from: id, to: b.id, direction, twoWay: true });
  }
  return out;
}

/** The ID a new area gets: one above the highest. */
export function nextAreaId(mesh: Walkmesh): number {
  let max = 0;
  for (let f = 0; f < faceCount(mesh); f++) if (mesh.faceOwner[f] !== NO_OWNER) max = Math.max(max, mesh.faceOwner[f]!);
  return max + 1;
}

/**
 * A new Source area: four corners appended and the two faces laid out as navToWalkmesh
 * lays out an area ((NW, NE, SE) and (NW, SE, SW)), tagged with the next free area ID, so
 * the .nav writer adds it with empty lists (no connections, hiding spots or encounter
 * paths: connections are a document edit of their own, analysis data is nav_analyze's).
 * Refused when it would overlap an area at about the same height.
 */
export function compileCreateArea(mesh: Walkmesh, cmd: SourceCreateAreaCommand): BatchCommand {
  const kind = cmd.kind;
  if (mesh.game !== 'source') throw new EditError(kind, `"${mesh.name}" is not a Source .nav mesh; areas are a Source notion`);
  if (!Array.isArray(cmd.rect) || cmd.rect.length !== 4) throw new EditError(kind, 'rect must be minX, minY, maxX, maxY');
  if (!Array.isArray(cmd.heights) || cmd.heights.length !== 4) throw new EditError(kind, 'heights must be the NW, NE, SE and SW corner heights');
  cmd.rect.forEach((c, i) => checkCoordinate(c, kind, `rect[${i}]`));
  cmd.heights.forEach((c, i) => checkCoordinate(c, kind, `heights[${i}]`));
  const attributes = cmd.attributes ?? 0;
  checkUint32(attributes, kind, 'attributes');
  const [x0, y0, x1, y1] = cmd.rect.map((c) => Math.fround(c)) as [number, number, number, number];
  const [nw, ne, se, sw] = cmd.heights.map((c) => Math.fround(c)) as [number, number, number, number];
  if (!(x1 > x0 && y1 > y0)) throw new EditError(kind, `the rectangle ${x0}, ${y0} .. ${x1}, ${y1} has no area: drag out both a width and a depth`);
  const lo = Math.min(nw, ne, se, sw), hi = Math.max(nw, ne, se, sw);
  for (const r of areaRects(mesh)) {
    if (Math.min(x1, r.maxX) - Math.max(x0, r.minX) > 0 && Math.min(y1, r.maxY) - Math.max(y0, r.minY) > 0 && lo <= r.maxZ + FLOOR_GAP && r.minZ <= hi + FLOOR_GAP) {
      throw new EditError(kind, `the rectangle overlaps area ${r.id} (${r.minX}, ${r.minY} .. ${r.maxX}, ${r.maxY}) on the same floor; areas of one floor meet edge to edge`);
    }
  }
  const V = vertexCount(mesh);
  const F = faceCount(mesh);
  const id = nextAreaId(mesh);
  return {
    kind: 'batch',
    commands: [
      { kind: 'append-vertices', positions: [x0, y0, nw, x1, y0, ne, x1, y1, se, x0, y1, sw] },
      { kind: 'insert-faces', at: [F, F + 1], triangles: [V, V + 1, V + 2, V, V + 2, V + 3], walkable: [1, 1], material: [attributes, attributes], owner: [id, id] },
    ],
  };
}
