/**
 * A small runtime validator for IPC parameters. Both transports (Electron IPC and the
 * browser-mode HTTP server) run every argument through one of these schemas before it
 * reaches a service, so a compromised or buggy renderer cannot hand a service a value of
 * the wrong shape. No external dependency: the contract needs only a handful of shapes.
 */

/** Where a value broke its schema, e.g. `params.path`, and why. */
export interface SchemaIssue {
  path: string;
  message: string;
}

export type SchemaResult<T> = { ok: true; value: T } | { ok: false; issue: SchemaIssue };

export interface Schema<T> {
  /** Short description used in messages, e.g. `a string of 1 to 4096 characters`. */
  readonly description: string;
  /** True when the object key may be absent (see `optional`). */
  readonly optional?: boolean;
  /** Checks `value` (found at `path`) and returns a fresh, validated copy. */
  check(value: unknown, path: string): SchemaResult<T>;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

function fail<T>(path: string, message: string): SchemaResult<T> {
  return { ok: false, issue: { path, message } };
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return `a value of type ${typeof value}`;
}

export interface StringOptions {
  minLength?: number;
  maxLength?: number;
}

export function string(options: StringOptions = {}): Schema<string> {
  const min = options.minLength ?? 0;
  const max = options.maxLength ?? 65_536;
  const description = min > 0 ? `a string of ${min} to ${max} characters` : `a string of at most ${max} characters`;
  return {
    description,
    check(value, path) {
      if (typeof value !== 'string') return fail(path, `expected ${description}, found ${describeValue(value)}`);
      if (value.length < min || value.length > max) {
        return fail(path, `expected ${description}, found ${value.length} characters`);
      }
      // A NUL byte in a path truncates it in some OS calls; no contract string needs one.
      if (value.includes('\0')) return fail(path, 'must not contain a NUL character');
      return { ok: true, value };
    },
  };
}

export interface NumberOptions {
  min?: number;
  max?: number;
  integer?: boolean;
}

export function number(options: NumberOptions = {}): Schema<number> {
  const min = options.min ?? -Number.MAX_VALUE;
  const max = options.max ?? Number.MAX_VALUE;
  const kind = options.integer ? 'an integer' : 'a finite number';
  const description = `${kind} from ${min} to ${max}`;
  return {
    description,
    check(value, path) {
      if (typeof value !== 'number' || !Number.isFinite(value) || (options.integer && !Number.isInteger(value))) {
        return fail(path, `expected ${kind}, found ${describeValue(value)}`);
      }
      if (value < min || value > max) return fail(path, `expected ${description}, found ${value}`);
      return { ok: true, value };
    },
  };
}

export function boolean(): Schema<boolean> {
  return {
    description: 'true or false',
    check: (value, path) =>
      typeof value === 'boolean' ? { ok: true, value } : fail(path, `expected true or false, found ${describeValue(value)}`),
  };
}

export function literal<const T extends string | number | boolean>(...values: readonly T[]): Schema<T> {
  const description = `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
  return {
    description,
    check(value, path) {
      const match = values.find((v) => v === value);
      return match !== undefined ? { ok: true, value: match } : fail(path, `expected ${description}, found ${describeValue(value)}`);
    },
  };
}

export interface BytesOptions {
  maxLength?: number;
}

/** Raw file contents: a Uint8Array (structured clone and the frame codec both give one). */
export function bytes(options: BytesOptions = {}): Schema<Uint8Array> {
  const max = options.maxLength ?? 1 << 30;
  const description = `a Uint8Array of at most ${max} bytes`;
  return {
    description,
    check(value, path) {
      if (!(value instanceof Uint8Array)) return fail(path, `expected ${description}, found ${describeValue(value)}`);
      if (value.byteLength > max) return fail(path, `expected ${description}, found ${value.byteLength} bytes`);
      return { ok: true, value };
    },
  };
}

export function array<T>(item: Schema<T>, options: { maxLength?: number } = {}): Schema<T[]> {
  const max = options.maxLength ?? 10_000;
  const description = `an array of at most ${max} items, each ${item.description}`;
  return {
    description,
    check(value, path) {
      if (!Array.isArray(value)) return fail(path, `expected ${description}, found ${describeValue(value)}`);
      if (value.length > max) return fail(path, `expected at most ${max} items, found ${value.length}`);
      const out: T[] = [];
      for (let i = 0; i < value.length; i++) {
        const r = item.check(value[i], `${path}[${i}]`);
        if (!r.ok) return r;
        out.push(r.value);
      }
      return { ok: true, value: out };
    },
  };
}

/** Marks an object key as optional; an absent key (or `undefined`) is left out of the result. */
export function optional<T>(inner: Schema<T>): Schema<T | undefined> {
  return {
    description: `${inner.description} (optional)`,
    optional: true,
    check: (value, path) => (value === undefined ? { ok: true, value: undefined } : inner.check(value, path)),
  };
}

type Shape = Record<string, Schema<unknown>>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K] extends { optional: true } ? K : never }[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
type Simplify<T> = { [K in keyof T]: T[K] };
export type ObjectOf<S extends Shape> = Simplify<
  { [K in RequiredKeys<S>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Exclude<Infer<S[K]>, undefined> }
>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || ArrayBuffer.isView(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A plain object with exactly these keys. Unknown keys are refused (a typo in a parameter
 * name is an error, not a silently ignored value) and the result is a fresh object, so
 * nothing but the checked keys reaches the service.
 */
export function object<S extends Shape>(shape: S): Schema<ObjectOf<S>> & { readonly shape: S } {
  const keys = Object.keys(shape);
  const description = keys.length === 0 ? 'an empty object' : `an object with ${keys.join(', ')}`;
  return {
    description,
    shape,
    check(value, path) {
      if (!isPlainObject(value)) return fail(path, `expected ${description}, found ${describeValue(value)}`);
      for (const key of Object.keys(value)) {
        if (!Object.hasOwn(shape, key)) return fail(`${path}.${key}`, 'is not a parameter of this call');
      }
      const out: Record<string, unknown> = {};
      for (const key of keys) {
        const schema = shape[key]!;
        const present = Object.hasOwn(value, key) && value[key] !== undefined;
        if (!present) {
          if (schema.optional) continue;
          return fail(`${path}.${key}`, `is required (${schema.description})`);
        }
        const r = schema.check(value[key], `${path}.${key}`);
        if (!r.ok) return r;
        out[key] = r.value;
      }
      return { ok: true, value: out as ObjectOf<S> };
    },
  };
}

/** Validates `value` against `schema`; issue paths start at `root` (e.g. `params`). */
export function validate<T>(schema: Schema<T>, value: unknown, root = 'params'): SchemaResult<T> {
  return schema.check(value, root);
}
