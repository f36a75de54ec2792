/**
 * Field-by-field comparison of two documents as the readers build them (plain objects,
 * arrays and typed-array columns), to tell which stored records an edit changed.
 */

/** One difference: the field's path and, for a typed-array column, the element index (−1: the lengths differ). */
export interface FieldDifference {
  path: string;
  index: number;
  /** Short rendering of both values. */
  was: string;
  now: string;
}

type TypedArray = Exclude<ArrayBufferView, DataView>;

function isTypedArray(v: unknown): v is TypedArray {
  return ArrayBuffer.isView(v) && !(v instanceof DataView);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function show(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/**
 * Every difference between `a` and `b` (at most `limit`). Typed arrays are compared
 * element by element (float columns are stored as bit patterns, so this is bit for bit);
 * `ignore(key, parent)` skips fields that are not stored data (a reader's source offset,
 * the cached bytes of an unedited packet).
 */
export function documentDifferences(a: unknown, b: unknown, ignore: (key: string, parent: Record<string, unknown>) => boolean = () => false, limit = 200): FieldDifference[] {
  const out: FieldDifference[] = [];
  const walk = (x: unknown, y: unknown, path: string): void => {
    if (out.length >= limit) return;
    if (isTypedArray(x) || isTypedArray(y)) {
      if (!isTypedArray(x) || !isTypedArray(y) || x.constructor !== y.constructor) {
        out.push({ path, index: -1, was: show(x?.constructor.name), now: show(y?.constructor.name) });
        return;
      }
      const xs = x as unknown as ArrayLike<number | bigint>;
      const ys = y as unknown as ArrayLike<number | bigint>;
      if (xs.length !== ys.length) {
        out.push({ path, index: -1, was: `length ${xs.length}`, now: `length ${ys.length}` });
        return;
      }
      for (let i = 0; i < xs.length && out.length < limit; i++) {
        if (!Object.is(xs[i], ys[i])) out.push({ path, index: i, was: show(xs[i]), now: show(ys[i]) });
      }
      return;
    }
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) {
        out.push({ path, index: -1, was: Array.isArray(x) ? `${x.length} items` : show(x), now: Array.isArray(y) ? `${y.length} items` : show(y) });
        return;
      }
      for (let i = 0; i < x.length; i++) walk(x[i], y[i], `${path}[${i}]`);
      return;
    }
    if (isObject(x) && isObject(y)) {
      const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
      for (const k of keys) {
        if (ignore(k, x) || ignore(k, y)) continue;
        walk(x[k], y[k], path === '' ? k : `${path}.${k}`);
      }
      return;
    }
    if (!Object.is(x, y)) out.push({ path, index: -1, was: show(x), now: show(y) });
  };
  walk(a, b, '');
  return out;
}

/** The path of `target` (found by identity) inside `root`, in documentDifferences' notation. */
export function pathOf(root: unknown, target: unknown): string | undefined {
  const seen = new Set<unknown>();
  const find = (x: unknown, path: string): string | undefined => {
    if (x === target) return path;
    if (!isObject(x) || isTypedArray(x) || seen.has(x)) return undefined;
    seen.add(x);
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) {
        const p = find(x[i], `${path}[${i}]`);
        if (p !== undefined) return p;
      }
      return undefined;
    }
    for (const [k, v] of Object.entries(x)) {
      const p = find(v, path === '' ? k : `${path}.${k}`);
      if (p !== undefined) return p;
    }
    return undefined;
  };
  return find(root, '');
}
