/**
 * Math.hypot(x, y, z), bit for bit, without calling the builtin: V8's Math.hypot (Node 20)
 * copies its arguments into a freshly allocated array on every call, which made it most of
 * the time of a path search (issue 18: about 7 calls per node settled). The same steps in
 * the same order give the same float64 result: the largest magnitude, each value divided by
 * it, the squares summed with Kahan compensation, the square root times the largest (V8's
 * builtins/math.tq). test/unit/pathing/exact-hypot.test.ts checks it against Math.hypot
 * on millions of random and special values.
 */
export function hypot3(x: number, y: number, z: number): number {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  const az = Math.abs(z);
  // NaN fails every comparison, so it never becomes the largest (Math.hypot(NaN, ∞) is ∞).
  let max = 0;
  if (ax > max) max = ax;
  if (ay > max) max = ay;
  if (az > max) max = az;
  if (max === Infinity) return Infinity;
  if (x !== x || y !== y || z !== z) return NaN;
  if (max === 0) return 0;
  const a = ax / max;
  const b = ay / max;
  const c = az / max;
  // Kahan summation as the builtin runs it; its first step adds a · a to 0 exactly.
  const first = a * a;
  const second = b * b;
  const sum = first + second;
  const compensation = sum - first - second;
  return Math.sqrt(sum + (c * c - compensation)) * max;
}
