const f = Math.fround;

/**
 * 2-D distance computed in float32 operations, as the toolset computes the lengths it
 * stores and searches with: it reproduces every fixture's island distances bit for bit,
 * and with float32 path sums every stored tile next hop (see shortest-paths.ts).
 */
export function distance32(ax: number, ay: number, bx: number, by: number): number {
  const dx = f(bx - ax);
  const dy = f(by - ay);
  return f(Math.sqrt(f(f(dx * dx) + f(dy * dy))));
}
