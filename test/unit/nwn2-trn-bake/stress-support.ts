import polygonClipping from 'polygon-clipping';
import { createGffDocument, createGffStruct, type GffDocument } from '../../../shared/formats/aurora/gff-document';
import { gff, optList, setField } from '../../../shared/formats/aurora/gff-fields';
import { readGitWalkmeshCutters } from '../../../shared/formats/aurora/nwn2-git';
import { floatView, TriangleFlag, type AswmDocument } from '../../../shared/formats/nwn2/aswm-document';
import { cutterStruct } from './bake-support';

export type Polygon = [number, number][];

/** A small star-shaped cutter of 5 to 8 points around (cx, cy), radius rMin..rMax, never self-intersecting. */
export function smallCutter(random: () => number, cx: number, cy: number, rMin: number, rMax: number): Polygon {
  const k = 5 + Math.floor(random() * 4);
  const phase = random() * 2 * Math.PI;
  const r = rMin + random() * (rMax - rMin);
  return Array.from({ length: k }, (_, i) => {
    const a = phase + ((i + 0.2 + random() * 0.6) / k) * 2 * Math.PI;
    const ri = r * (0.75 + random() * 0.25);
    return [cx + ri * Math.cos(a), cy + ri * Math.sin(a)] as [number, number];
  });
}

/** A copy of a GIT with extra walkmesh cutters appended to its TriggerList. */
export function withCutters(git: GffDocument, cutters: readonly Polygon[]): GffDocument {
  const root = createGffStruct(git.root.type, git.root.fields.slice());
  const list = optList(git.root, 'TriggerList').slice();
  list.push(...cutters.map(cutterStruct));
  setField(root, gff.list('TriggerList', list));
  return createGffDocument(git.fileType, root);
}

/** Corners of a closed polygon-clipping ring (last point = first) that are not on a straight line (within `tolerance` m). */
function cornersOf(ring: polygonClipping.Ring, tolerance: number): number {
  const pts = ring.slice(0, ring.length - 1);
  const n = pts.length;
  let corners = 0;
  for (let i = 0; i < n; i++) {
    const [ax, ay] = pts[(i + n - 1) % n]!;
    const [bx, by] = pts[i]!;
    const [cx, cy] = pts[(i + 1) % n]!;
    const len = Math.hypot(cx - ax, cy - ay);
    const dist = len > 0 ? Math.abs((cx - ax) * (by - ay) - (cy - ay) * (bx - ax)) / len : Infinity;
    if (dist > tolerance) corners++;
  }
  return corners;
}

/**
 * The merged-polygon count of each tile of a flat area whose walkable floor covers the
 * whole grid in one plane and one material: the tile's square minus the cutters
 * (polygon-clipping, independent of the bake), and for each piece of n corners and h
 * holes the n + 2h − 2 triangles every triangulation of it has. No triangulation whose
 * triangles lie in their tile (the tile holding the centre) covers the piece with fewer.
 */
export function mergedPolygonCounts(gridSize: number, tileWidth: number, cutters: readonly Polygon[], tolerance = 0.001): number[] {
  const out: number[] = [];
  const polys = cutters.map((c): polygonClipping.Polygon => [c]);
  const cut = polys.length > 0 ? polygonClipping.union(polys[0]!, ...polys.slice(1)) : [];
  for (let ty = 0; ty < gridSize; ty++) {
    for (let tx = 0; tx < gridSize; tx++) {
      const x0 = tx * tileWidth, y0 = ty * tileWidth, x1 = x0 + tileWidth, y1 = y0 + tileWidth;
      const square: polygonClipping.Polygon = [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]];
      const pieces = cut.length > 0 ? polygonClipping.difference(square, cut) : [square];
      let count = 0;
      for (const piece of pieces) {
        let n = 0;
        for (const ring of piece) n += cornersOf(ring, tolerance);
        count += n + 2 * (piece.length - 1) - 2;
      }
      out.push(count);
    }
  }
  return out;
}

/** Walkable triangles of each tile of a baked ASWM. */
export function walkablePerTile(a: AswmDocument): number[] {
  const out: number[] = [];
  for (let k = 0; k < a.tiles.count; k++) {
    let n = 0;
    const s = a.tiles.triangleOffset[k]!;
    for (let t = s; t < s + a.tiles.triangleCount[k]!; t++) if (a.triFlags[t]! & TriangleFlag.walkable) n++;
    out.push(n);
  }
  return out;
}

/** The GIT's cutter polygons as point lists. */
export function cutterPolygons(git: GffDocument): Polygon[] {
  return readGitWalkmeshCutters(git).map((c) => {
    const out: Polygon = [];
    for (let i = 0; i + 1 < c.polygon.length; i += 2) out.push([c.polygon[i]!, c.polygon[i + 1]!]);
    return out;
  });
}

/** Smallest altitude (m) over the walkable triangles of a baked ASWM. */
export function thinnestWalkable(a: AswmDocument): number {
  const p = floatView(a.vertices);
  let min = Infinity;
  for (let t = 0; t < a.triFlags.length; t++) {
    if (!(a.triFlags[t]! & TriangleFlag.walkable)) continue;
    const [i, j, k] = [0, 1, 2].map((c) => a.triVertices[t * 3 + c]! * 3) as [number, number, number];
    const area2 = Math.abs((p[j]! - p[i]!) * (p[k + 1]! - p[i + 1]!) - (p[j + 1]! - p[i + 1]!) * (p[k]! - p[i]!));
    const longest = Math.max(Math.hypot(p[j]! - p[i]!, p[j + 1]! - p[i + 1]!), Math.hypot(p[k]! - p[j]!, p[k + 1]! - p[j + 1]!), Math.hypot(p[i]! - p[k]!, p[i + 1]! - p[k + 1]!));
    min = Math.min(min, area2 / longest);
  }
  return min;
}
