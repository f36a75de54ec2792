import { floatView, NAV_LADDER_AREAS, NAV_LADDER_WORDS, NavCorner as C, type NavDocument } from '../formats/source/nav-document';
import { navToWalkmesh } from '../formats/source/nav-walkmesh';
import { NavGraphBuilder } from './nav-graph';
import { PathSurface, SOURCE_SNAP_TOLERANCE } from './path-surface';

/**
 * A path surface over a Source `.nav`: one node per area (its rectangle NW, NE, SE, SW),
 * one directed link per stored connection (connections are one-way in the file: a drop
 * down a ledge is linked only downwards). The portal of a connection is the stretch of the
 * area's side in the connection's direction that the target area also spans, so string
 * pulling runs through doorways; targets that do not share that stretch (jumps, diagonal
 * neighbours) give a one-point portal at the nearest point of the side. Each ladder is a
 * node of its own after the areas, entered and left through one-point portals at its
 * bottom (the bottom area) and top (the four top areas), in both directions.
 */
export function sourcePathSurface(doc: NavDocument, name: string): PathSurface {
  const mesh = navToWalkmesh(doc, name);
  const A = doc.areas;
  const n = A.count;
  const c = floatView(A.corners);
  const L = doc.ladders.count;
  const lw = floatView(doc.ladders.words);
  const polyStart = new Uint32Array(n + L + 1);
  for (let a = 0; a <= n; a++) polyStart[a] = a * 4;
  for (let l = 1; l <= L; l++) polyStart[n + l] = n * 4 + l * 2;
  // Outline point k of area a is walkmesh vertex 4a + k (NW, NE, SE, SW), so outline edge
  // d is the side in direction d (north, east, south, west). A ladder's outline is its
  // bottom and top point.
  const polyPoints = new Float64Array((n * 4 + L * 2) * 3);
  polyPoints.set(mesh.positions);
  for (let l = 0; l < L; l++) {
    const w = l * NAV_LADDER_WORDS, at = (n * 4 + l * 2) * 3;
    polyPoints.set([lw[w + 4]!, lw[w + 5]!, lw[w + 6]!, lw[w + 1]!, lw[w + 2]!, lw[w + 3]!], at);
  }
  const indexOfId = new Map<number, number>();
  for (let a = 0; a < n; a++) if (!indexOfId.has(A.id[a]!)) indexOfId.set(A.id[a]!, a);
  const b = new NavGraphBuilder(n + L, polyStart, polyPoints, new Uint8Array(n + L).fill(1));
  const rect = (a: number) => {
    const k = a * 8;
    const x0 = c[k + C.NwX]!, y0 = c[k + C.NwY]!, x1 = c[k + C.SeX]!, y1 = c[k + C.SeY]!;
    return [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)] as const;
  };
  for (let a = 0; a < n; a++) {
    const [ax0, ay0, ax1, ay1] = rect(a);
    for (let d = 0; d < 4; d++) {
      const s = a * 4 + d;
      for (let i = A.connectionStart[s]!; i < A.connectionStart[s + 1]!; i++) {
        const t = indexOfId.get(A.connectionTarget[i]!);
        if (t === undefined || t === a) continue;
        const [bx0, by0, bx1, by1] = rect(t);
        // The side's two outline points, and the part of it the target spans.
        const p = polyPoints, i0 = (a * 4 + d) * 3, i1 = (a * 4 + ((d + 1) & 3)) * 3;
        const horizontal = d === 0 || d === 2;
        let lo = horizontal ? Math.max(ax0, bx0) : Math.max(ay0, by0);
        let hi = horizontal ? Math.min(ax1, bx1) : Math.min(ay1, by1);
        const sideLo = horizontal ? ax0 : ay0, sideHi = horizontal ? ax1 : ay1;
        if (hi < lo) {
          const mid = Math.min(sideHi, Math.max(sideLo, (lo + hi) / 2));
          lo = hi = mid;
        }
        const along = (v: number): [number, number, number] => {
          const s0 = horizontal ? p[i0]! : p[i0 + 1]!, s1 = horizontal ? p[i1]! : p[i1 + 1]!;
          const f = s1 === s0 ? 0 : (v - s0) / (s1 - s0);
          return [p[i0]! + f * (p[i1]! - p[i0]!), p[i0 + 1]! + f * (p[i1 + 1]! - p[i0 + 1]!), p[i0 + 2]! + f * (p[i1 + 2]! - p[i0 + 2]!)];
        };
        const pa = along(lo), pb = along(hi);
        b.add(a, t, ...pa, ...pb, d);
      }
    }
  }
  for (let l = 0; l < L; l++) {
    const node = n + l, at = (n * 4 + l * 2) * 3;
    const bottom = [polyPoints[at]!, polyPoints[at + 1]!, polyPoints[at + 2]!] as const;
    const top = [polyPoints[at + 3]!, polyPoints[at + 4]!, polyPoints[at + 5]!] as const;
    for (let k = 0; k < NAV_LADDER_AREAS; k++) {
      const id = doc.ladders.areas[l * NAV_LADDER_AREAS + k]!;
      const a = id === 0 ? undefined : indexOfId.get(id);
      if (a === undefined) continue;
      // Slot 4 is the bottom area; slots 0-3 are the areas at the top.
      const p = k === 4 ? bottom : top;
      b.add(a, node, ...p, ...p, -1);
      b.add(node, a, ...p, ...p, k === 4 ? 0 : 1);
    }
  }
  const graph = b.finish((a) => (a < n ? `area ${A.id[a]!}` : `ladder ${doc.ladders.id[a - n]!}`), 'areas');
  const faceNode = new Int32Array(n * 2);
  for (let f = 0; f < n * 2; f++) faceNode[f] = f >> 1;
  const surface = new PathSurface(graph, mesh.positions, mesh.triangles, mesh.faceWalkable, faceNode);
  surface.snapTolerance = SOURCE_SNAP_TOLERANCE;
  return surface;
}
