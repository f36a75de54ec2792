import { NO_NEIGHBOR } from '../model/face-adjacency';
import type { Walkmesh } from '../model/walkmesh';
import { OverlayBuilder, type LineOverlay } from './view-overlay';

/**
 * The border of the walkable region: every edge of a walkable face whose neighbour (through
 * welded vertices, see face-islands.ts) is missing or not walkable. Classes: open border
 * (no face beyond) and walkable/blocked border.
 */
export function perimeterOverlay(meshes: readonly Walkmesh[], neighbors: readonly Int32Array[]): LineOverlay | null {
  const out = new OverlayBuilder('perimeter', ['open edge', 'edge against non-walkable']);
  meshes.forEach((mesh, i) => {
    const p = mesh.positions;
    const t = mesh.triangles;
    const nb = neighbors[i]!;
    for (let f = 0; f < t.length / 3; f++) {
      if (mesh.faceWalkable[f] === 0) continue;
      for (let e = 0; e < 3; e++) {
        const g = nb[f * 3 + e]!;
        if (g !== NO_NEIGHBOR && mesh.faceWalkable[g] !== 0) continue;
        const c = g === NO_NEIGHBOR ? 0 : 1;
        const a = t[f * 3 + e]! * 3;
        const b = t[f * 3 + (e === 2 ? 0 : e + 1)]! * 3;
        out.countItem(c);
        out.segment(c, p[a]!, p[a + 1]!, p[a + 2]!, p[b]!, p[b + 1]!, p[b + 2]!);
      }
    }
  });
  return out.finish();
}

/**
 * One line per face from its centre along its normal, a third of its mean edge long.
 * Classes tell up-facing from down-facing (flipped winding) and degenerate faces.
 */
export function normalsOverlay(meshes: readonly Walkmesh[]): LineOverlay | null {
  const out = new OverlayBuilder('normals', ['facing up', 'facing down', 'degenerate (no normal)']);
  for (const mesh of meshes) {
    const p = mesh.positions;
    const t = mesh.triangles;
    for (let f = 0; f < t.length / 3; f++) {
      const a = t[f * 3]! * 3, b = t[f * 3 + 1]! * 3, c = t[f * 3 + 2]! * 3;
      const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
      const vx = p[c]! - p[a]!, vy = p[c + 1]! - p[a + 1]!, vz = p[c + 2]! - p[a + 2]!;
      const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      const len = Math.hypot(nx, ny, nz);
      const cx = (p[a]! + p[b]! + p[c]!) / 3, cy = (p[a + 1]! + p[b + 1]! + p[c + 1]!) / 3, cz = (p[a + 2]! + p[b + 2]! + p[c + 2]!) / 3;
      if (!(len > 0) || !Number.isFinite(len)) {
        out.countItem(2);
        continue;
      }
      const wx = p[c]! - p[b]!, wy = p[c + 1]! - p[b + 1]!, wz = p[c + 2]! - p[b + 2]!;
      const edge = (Math.hypot(ux, uy, uz) + Math.hypot(vx, vy, vz) + Math.hypot(wx, wy, wz)) / 3;
      const s = edge / 3 / len;
      const cls = nz >= 0 ? 0 : 1;
      out.countItem(cls);
      out.segment(cls, cx, cy, cz, cx + nx * s, cy + ny * s, cz + nz * s);
    }
  }
  return out.finish();
}
