import { filterTriangles, type TrnSurface } from './trn-surface';

export interface BorderGrid {
  gridWidth: number;
  gridHeight: number;
  /** Tile edge in metres. */
  tileWidth: number;
  /** Border tiles on each side (8 for exteriors, 0 for interiors). */
  borderSize: number;
}

/**
 * Removes an exterior's border (spec §5.2, as nwn-lib-d bakes): keeps the triangles whose
 * centre lies in [border·w, (grid − border)·w] on both axes. The grid and the border size
 * stay as they are; the border tiles simply become empty. Interiors (border 0) come back
 * unchanged.
 */
export function removeBorder(s: TrnSurface, g: BorderGrid): { surface: TrnSurface; removed: number } {
  if (g.borderSize <= 0) return { surface: s, removed: 0 };
  const w = g.tileWidth;
  const x0 = g.borderSize * w;
  const y0 = g.borderSize * w;
  const x1 = (g.gridWidth - g.borderSize) * w;
  const y1 = (g.gridHeight - g.borderSize) * w;
  const p = s.positions;
  const keep = (t: number) => {
    const a = s.triangles[t * 3]! * 3, b = s.triangles[t * 3 + 1]! * 3, c = s.triangles[t * 3 + 2]! * 3;
    const cx = (p[a]! + p[b]! + p[c]!) / 3;
    const cy = (p[a + 1]! + p[b + 1]! + p[c + 1]!) / 3;
    return cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1;
  };
  const surface = filterTriangles(s, keep);
  return { surface, removed: s.flags.length - surface.flags.length };
}
