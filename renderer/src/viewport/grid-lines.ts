import type { GameBounds } from './game-to-babylon';

export type GridLineKind = 'minor' | 'major' | 'x-axis' | 'y-axis';

export interface GridLine {
  /** Game-space end points (z is the grid's height). */
  from: [number, number, number];
  to: [number, number, number];
  kind: GridLineKind;
}

export interface Grid {
  /** Game units per grid square. */
  step: number;
  lines: GridLine[];
}

/** The 1-2-5 step that gives roughly `target` squares across `span`. */
export function gridStep(span: number, target = 20): number {
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const raw = span / target;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const m = raw / pow;
  return pow * (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10);
}

/**
 * A ground grid in game units under the mesh: lines every `step` units covering the
 * bounds plus a margin, every fifth line major, and the game's X and Y axes marked where
 * they cross the grid, so the Z-up orientation can be read off the view.
 */
export function buildGrid(bounds: GameBounds): Grid {
  const spanX = bounds.max[0] - bounds.min[0];
  const spanY = bounds.max[1] - bounds.min[1];
  const step = gridStep(Math.max(spanX, spanY, 1e-3));
  const x0 = (Math.floor(bounds.min[0] / step) - 1) * step;
  const x1 = (Math.ceil(bounds.max[0] / step) + 1) * step;
  const y0 = (Math.floor(bounds.min[1] / step) - 1) * step;
  const y1 = (Math.ceil(bounds.max[1] / step) + 1) * step;
  // Just below the lowest face, so a flat floor does not flicker against its grid.
  const z = bounds.min[2] - step * 0.02;
  const lines: GridLine[] = [];
  const kindAt = (value: number, axis: GridLineKind): GridLineKind => {
    const i = Math.round(value / step);
    if (i === 0) return axis;
    return i % 5 === 0 ? 'major' : 'minor';
  };
  for (let i = Math.round(x0 / step); i <= Math.round(x1 / step); i++) {
    const x = i * step;
    // A line of constant x runs along Y: it is the Y axis where x = 0.
    lines.push({ from: [x, y0, z], to: [x, y1, z], kind: kindAt(x, 'y-axis') });
  }
  for (let i = Math.round(y0 / step); i <= Math.round(y1 / step); i++) {
    const y = i * step;
    lines.push({ from: [x0, y, z], to: [x1, y, z], kind: kindAt(y, 'x-axis') });
  }
  return { step, lines };
}
