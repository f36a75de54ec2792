/**
 * The shortest decimal that reads back to the same 32-bit float, so an unedited OBJ
 * export and import gives every coordinate back bit for bit while staying readable
 * (`0.1`, not `0.10000000149011612`). Nine significant digits always suffice for float32.
 */
export function formatFloat32(value: number): string {
  const v = Math.fround(value);
  if (!Number.isFinite(v)) throw new RangeError(`${value} is not a finite number`);
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  // Whole numbers up to 2^24 are exact and as short as they get.
  if (Number.isInteger(v) && v <= 16777216 && v >= -16777216) return String(v);
  const a = v < 0 ? -v : v;
  const digits = a >= 1e-7 && a < 1e15 ? shortestScaled(a) : undefined;
  if (digits !== undefined) return v < 0 ? `-${digits}` : digits;
  return shortestByPrecision(v);
}

const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

/**
 * The fast path (an export writes millions of coordinates): `round(a·10^k) / 10^k` is the
 * double nearest a decimal of p digits, since both operands are exact and division rounds
 * correctly, and String() prints that double as those digits. Rounding to more digits
 * never moves further from `a`, so whether p digits read back is monotonic in p and a
 * binary search over 1..9 finds the fewest.
 */
function shortestScaled(a: number): string | undefined {
  const e = Math.floor(Math.log10(a));
  let lo = 1;
  let hi = 9;
  let best = NaN;
  while (lo < hi) {
    const p = (lo + hi) >> 1;
    const r = scaled(a, p - 1 - e);
    if (Math.fround(r) === a) {
      hi = p;
      best = r;
    } else {
      lo = p + 1;
    }
  }
  if (lo === 9) best = scaled(a, 8 - e);
  return Math.fround(best) === a ? String(best) : undefined;
}

function scaled(a: number, k: number): number {
  return k >= 0 ? Math.round(a * POW10[k]!) / POW10[k]! : Math.round(a / POW10[-k]!) * POW10[-k]!;
}

/** The slow path for tiny and huge magnitudes: toPrecision with 1..9 digits. */
function shortestByPrecision(v: number): string {
  let lo = 1;
  let hi = 9;
  while (lo < hi) {
    const p = (lo + hi) >> 1;
    if (Math.fround(Number(v.toPrecision(p))) === v) hi = p;
    else lo = p + 1;
  }
  // Number then String drops toPrecision's trailing zeros and, where it can, the exponent.
  return String(Number(v.toPrecision(lo)));
}
