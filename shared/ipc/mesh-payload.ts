/**
 * How contract values (walkmeshes with their typed arrays, file bytes, reports) cross the
 * browser-mode HTTP transport. Electron's IPC passes typed arrays by structured clone;
 * HTTP needs an encoding, and base64 inside JSON would grow a 100,000-face mesh by a third
 * and cost a decode pass. A frame instead carries the JSON skeleton and the raw array
 * bytes side by side:
 *
 *   0   "WBF1"                       magic (the 1 also means little-endian arrays)
 *   4   u32 LE  jsonByteLength
 *   8   UTF-8 JSON, typed arrays replaced by {"$wb":"ta","t":kind,"o":offset,"n":length}
 *   …   zero padding to a multiple of 8
 *   …   blob section: each array's bytes, each starting at a multiple of 8
 *
 * Offsets are relative to the blob section, so decoding makes views straight onto the
 * received buffer (no copy) when it is aligned. Everything structured clone keeps and
 * JSON would lose is tagged too: NaN, ±Infinity, -0 and undefined. The `$wb` key is
 * reserved; values the contract never holds (Map, Date, class instances…) are refused
 * rather than silently mangled. All supported platforms are little-endian; the codec
 * refuses to run on a big-endian host instead of swapping.
 */

const MAGIC = [0x57, 0x42, 0x46, 0x31]; // "WBF1"
const HEADER_BYTES = 8;
const TAG = '$wb';
/** Contract values nest a few levels; a hostile frame must not exhaust the stack. */
const MAX_DEPTH = 200;

export const FRAME_CONTENT_TYPE = 'application/x-walkbench-frame';

type TypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array;

interface TypedArrayKind {
  ctor: { new (buffer: ArrayBufferLike, byteOffset: number, length: number): TypedArray; BYTES_PER_ELEMENT: number };
  name: string;
}

const kinds: Record<string, TypedArrayKind> = {
  i8: { ctor: Int8Array, name: 'Int8Array' },
  u8: { ctor: Uint8Array, name: 'Uint8Array' },
  u8c: { ctor: Uint8ClampedArray, name: 'Uint8ClampedArray' },
  i16: { ctor: Int16Array, name: 'Int16Array' },
  u16: { ctor: Uint16Array, name: 'Uint16Array' },
  i32: { ctor: Int32Array, name: 'Int32Array' },
  u32: { ctor: Uint32Array, name: 'Uint32Array' },
  f32: { ctor: Float32Array, name: 'Float32Array' },
  f64: { ctor: Float64Array, name: 'Float64Array' },
};

function kindOf(view: ArrayBufferView): string | undefined {
  for (const [id, k] of Object.entries(kinds)) if (view instanceof k.ctor) return id;
  return undefined;
}

/** A frame that is not what `encodeFrame` writes (truncated, corrupt or hostile). */
export class FrameError extends Error {
  constructor(message: string) {
    super(`invalid Walkbench frame: ${message}`);
    this.name = 'FrameError';
  }
}

// TextEncoder and TextDecoder exist in every runtime Walkbench targets (Node, browsers,
// workers), but shared/ compiles without the DOM library, so they are typed here.
interface TextCodecs {
  TextEncoder: new () => { encode(text: string): Uint8Array };
  TextDecoder: new (label: string, options: { fatal: boolean }) => { decode(bytes: Uint8Array): string };
}
const textCodecs = globalThis as unknown as TextCodecs;

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function requireLittleEndian(): void {
  if (!littleEndian) throw new Error('the Walkbench frame codec needs a little-endian host');
}

const align8 = (n: number) => (n + 7) & ~7;

function specialNumber(n: number): string | null {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  if (Object.is(n, -0)) return '-0';
  return null;
}

function isPlainContainer(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Encodes a contract value (params or result) into one frame. */
export function encodeFrame(value: unknown): Uint8Array<ArrayBuffer> {
  requireLittleEndian();
  const blobs: { bytes: Uint8Array; offset: number }[] = [];
  let blobBytes = 0;
  const replacer = function (this: unknown, key: string, v: unknown): unknown {
    // `this` is the holder (`{"": value}` for the root); its raw property is checked so a
    // toJSON method (Date) cannot hide a type the codec refuses.
    const raw: unknown = (this as Record<string, unknown>)[key];
    if (raw === undefined) return { [TAG]: 'undef' };
    if (typeof raw === 'number') {
      const special = specialNumber(raw);
      return special === null ? raw : { [TAG]: 'num', v: special };
    }
    if (typeof raw === 'function' || typeof raw === 'symbol' || typeof raw === 'bigint') {
      throw new TypeError(`cannot encode a ${typeof raw} (at key ${JSON.stringify(key)})`);
    }
    if (raw === null || typeof raw !== 'object') return v;
    if (ArrayBuffer.isView(raw)) {
      const t = kindOf(raw);
      if (t === undefined) throw new TypeError(`cannot encode a ${raw.constructor.name} (at key ${JSON.stringify(key)})`);
      const offset = blobBytes;
      blobs.push({ bytes: new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength), offset });
      blobBytes = align8(blobBytes + raw.byteLength);
      return { [TAG]: 'ta', t, o: offset, n: raw.byteLength / kinds[t]!.ctor.BYTES_PER_ELEMENT };
    }
    if (!isPlainContainer(raw)) {
      throw new TypeError(`cannot encode a ${raw.constructor?.name ?? 'non-plain object'} (at key ${JSON.stringify(key)})`);
    }
    if (Object.hasOwn(raw, TAG)) throw new TypeError(`the key ${TAG} is reserved by the frame codec`);
    return v;
  };
  const json = new textCodecs.TextEncoder().encode(JSON.stringify(value, replacer));
  const blobStart = align8(HEADER_BYTES + json.byteLength);
  const frame = new Uint8Array(blobStart + blobBytes);
  frame.set(MAGIC, 0);
  new DataView(frame.buffer).setUint32(4, json.byteLength, true);
  frame.set(json, HEADER_BYTES);
  for (const b of blobs) frame.set(b.bytes, blobStart + b.offset);
  return frame;
}

function isNonNegativeInteger(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function reviveTag(tag: Record<string, unknown>, frame: Uint8Array, blobStart: number): unknown {
  switch (tag[TAG]) {
    case 'undef':
      return undefined;
    case 'num': {
      const v = tag['v'];
      if (v === 'NaN') return NaN;
      if (v === 'Infinity') return Infinity;
      if (v === '-Infinity') return -Infinity;
      if (v === '-0') return -0;
      throw new FrameError(`unknown special number ${JSON.stringify(v)}`);
    }
    case 'ta': {
      const kind = typeof tag['t'] === 'string' && Object.hasOwn(kinds, tag['t']) ? kinds[tag['t']]! : undefined;
      const o = tag['o'];
      const n = tag['n'];
      if (!kind) throw new FrameError(`unknown typed array kind ${JSON.stringify(tag['t'])}`);
      if (!isNonNegativeInteger(o) || o % 8 !== 0) throw new FrameError(`${kind.name} offset ${String(o)} is not a multiple of 8`);
      if (!isNonNegativeInteger(n)) throw new FrameError(`${kind.name} length ${String(n)} is not a count`);
      const byteLength = n * kind.ctor.BYTES_PER_ELEMENT;
      const start = blobStart + o;
      if (start + byteLength > frame.byteLength) {
        throw new FrameError(`${kind.name} of ${byteLength} bytes at ${start} runs past the frame end ${frame.byteLength}`);
      }
      const absolute = frame.byteOffset + start;
      if (absolute % kind.ctor.BYTES_PER_ELEMENT === 0) return new kind.ctor(frame.buffer, absolute, n);
      // Misaligned in the underlying buffer (a sliced input): copy rather than fail.
      return new kind.ctor(frame.slice(start, start + byteLength).buffer, 0, n);
    }
    default:
      throw new FrameError(`unknown tag ${JSON.stringify(tag[TAG])}`);
  }
}

/**
 * Decodes a frame. Typed arrays in the result are views onto `frame`'s buffer where the
 * alignment allows, so the caller must not reuse that buffer afterwards.
 */
export function decodeFrame(frame: Uint8Array): unknown {
  requireLittleEndian();
  if (frame.byteLength < HEADER_BYTES) throw new FrameError(`${frame.byteLength} bytes is shorter than the header`);
  for (let i = 0; i < MAGIC.length; i++) {
    if (frame[i] !== MAGIC[i]) throw new FrameError('the magic number is not WBF1');
  }
  const jsonLength = new DataView(frame.buffer, frame.byteOffset, HEADER_BYTES).getUint32(4, true);
  if (HEADER_BYTES + jsonLength > frame.byteLength) {
    throw new FrameError(`the JSON part of ${jsonLength} bytes runs past the frame end ${frame.byteLength}`);
  }
  const blobStart = align8(HEADER_BYTES + jsonLength);
  if (blobStart > frame.byteLength) throw new FrameError('the padding after the JSON part is missing');
  let text: string;
  try {
    text = new textCodecs.TextDecoder('utf-8', { fatal: true }).decode(frame.subarray(HEADER_BYTES, HEADER_BYTES + jsonLength));
  } catch {
    throw new FrameError('the JSON part is not valid UTF-8');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new FrameError(`the JSON part does not parse (${e instanceof Error ? e.message : String(e)})`);
  }
  return revive(parsed, frame, blobStart);
}

function isTag(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, TAG);
}

// A walk rather than a JSON.parse reviver: a reviver that returns undefined deletes the
// key, and structured clone keeps `{ a: undefined }` as it is.
function revive(value: unknown, frame: Uint8Array, blobStart: number, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new FrameError(`values nest deeper than ${MAX_DEPTH} levels`);
  if (isTag(value)) return reviveTag(value, frame, blobStart);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = revive(value[i], frame, blobStart, depth + 1);
  } else if (value !== null && typeof value === 'object') {
    // JSON.parse made every key an own data property, so assignment never reaches a
    // setter such as __proto__.
    const obj = value as Record<string, unknown>;
    for (const key of Object.keys(obj)) obj[key] = revive(obj[key], frame, blobStart, depth + 1);
  }
  return value;
}
