/** The largest divisor xEdit accepts (its cell counter returns 0 above 12). */
export const MAX_GRID_DIVISOR = 12;

/** The CK's divisor for `triangles` triangles: a curve fit of every sample (spec §7), not a known formula. */
export function gridDivisorFor(triangles: number): number {
  return Math.max(1, Math.min(MAX_GRID_DIVISOR, Math.floor(0.1 * Math.pow(triangles, 0.75) + 1)));
}
