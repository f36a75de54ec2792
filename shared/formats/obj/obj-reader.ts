import { GrowableU32 } from '../../binary/growable-array';
import { MalformedInputError } from '../../binary/malformed-input-error';
import { createWalkmesh, NO_OWNER, type GameId, type Walkmesh } from '../../model/walkmesh';
import { decodeMaterialName, type FaceAttributes } from './obj-material-name';

export const OBJ_FORMAT = 'obj';

export interface ObjReadOptions {
  /** Name of the walkmesh that takes the faces written before any `o` line. */
  name: string;
  game: GameId;
  /** Format identifier the walkmeshes are tagged with. */
  format: string;
}

/** Attributes of a face whose material name Walkbench did not write. */
const DEFAULT_ATTRIBUTES: FaceAttributes = { walkable: 1, material: 0, owner: NO_OWNER };

interface ObjObject {
  name: string;
  /** Three global, 0-based vertex indices per triangle. */
  triangles: GrowableU32;
  /** Material slot per triangle. */
  slots: GrowableU32;
  /** Named by an `o` line (kept even when empty), not the implicit first object. */
  named: boolean;
}

/**
 * Walkmeshes from Wavefront OBJ text: one per `o` object (faces before any `o` go to one
 * named `options.name`). Reads `v`, `f` (with `v`, `v/vt`, `v//vn`, `v/vt/vn` corners and
 * negative indices; polygons are fanned into triangles) and `usemtl`, whose name gives the
 * face attributes (obj-material-name.ts). Everything else (`vt`, `vn`, `s`, `g`, `mtllib`,
 * `l`, `p`, comments, unknown statements) is ignored. Each object gets its own compact
 * vertex array holding only the vertices its faces use.
 *
 * Malformed statements throw MalformedInputError with the line's character offset.
 */
export function readObj(text: string, options: ObjReadOptions): Walkmesh[] {
  const positions = new GrowableF32(1024);
  const objects: ObjObject[] = [newObject(options.name, false)];
  let object = objects[0]!;
  const slotAttributes: FaceAttributes[] = [DEFAULT_ATTRIBUTES];
  const slotByName = new Map<string, number>();
  let slot = 0;
  const corners = new GrowableU32(16);

  const len = text.length;
  let lineStart = 0;
  let lineNo = 0;
  // Token cursor over the current line (kept in locals to avoid an object per token).
  let lineEnd = 0;
  let tokStart = 0;
  let tokEnd = 0;
  let keyword = '';

  const nextToken = (): boolean => {
    let i = tokEnd;
    while (i < lineEnd && isBlank(text.charCodeAt(i))) i++;
    if (i >= lineEnd) return false;
    tokStart = i;
    while (i < lineEnd && !isBlank(text.charCodeAt(i))) i++;
    tokEnd = i;
    return true;
  };
  const fail = (expected: string, found: string): MalformedInputError =>
    new MalformedInputError({ format: OBJ_FORMAT, offset: lineStart, field: `line ${lineNo} (${keyword})`, expected, found });
  const restOfLine = (): string => text.slice(tokEnd, lineEnd).trim();

  while (lineStart < len) {
    let next = text.indexOf('\n', lineStart);
    if (next < 0) next = len;
    lineNo++;
    lineEnd = next;
    if (lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === 13) lineEnd--;
    tokEnd = lineStart;
    if (nextToken()) {
      const k = tokEnd - tokStart;
      const c0 = text.charCodeAt(tokStart);
      if (k === 1 && c0 === 118 /* v */) {
        keyword = 'v';
        for (let axis = 0; axis < 3; axis++) {
          if (!nextToken()) throw fail('3 coordinates', `${axis} coordinate(s)`);
          positions.push(readFloat(text, tokStart, tokEnd, fail));
        }
      } else if (k === 1 && c0 === 102 /* f */) {
        keyword = 'f';
        corners.length = 0;
        const vertices = positions.length / 3;
        while (nextToken()) corners.push(readIndex(text, tokStart, tokEnd, vertices, fail));
        if (corners.length < 3) throw fail('at least 3 vertices', `${corners.length}`);
        const c = corners.array;
        for (let i = 1; i + 1 < corners.length; i++) {
          const at = object.triangles.reserve(3);
          const t = object.triangles.array;
          t[at] = c[0]!;
          t[at + 1] = c[i]!;
          t[at + 2] = c[i + 1]!;
          object.slots.push(slot);
        }
      } else if (k === 1 && c0 === 111 /* o */) {
        keyword = 'o';
        object = newObject(restOfLine() || options.name, true);
        objects.push(object);
      } else if (k === 6 && text.startsWith('usemtl', tokStart)) {
        keyword = 'usemtl';
        const name = restOfLine();
        let s = slotByName.get(name);
        if (s === undefined) {
          s = slotAttributes.length;
          slotAttributes.push(decodeMaterialName(name) ?? DEFAULT_ATTRIBUTES);
          slotByName.set(name, s);
        }
        slot = s;
      }
    }
    lineStart = next + 1;
  }

  const used = objects.filter((o) => o.named || o.triangles.length > 0);
  const local = new Int32Array(used.length > 0 ? positions.length / 3 : 0).fill(-1);
  return used.map((o) => buildWalkmesh(o, positions.array, local, slotAttributes, options));
}

function buildWalkmesh(
  o: ObjObject,
  allPositions: Float32Array,
  local: Int32Array,
  slotAttributes: readonly FaceAttributes[],
  options: ObjReadOptions,
): Walkmesh {
  const global = o.triangles.array;
  const n = o.triangles.length;
  const triangles = new Uint32Array(n);
  const order = new GrowableU32(Math.min(n, 1 << 16));
  for (let i = 0; i < n; i++) {
    const g = global[i]!;
    let l = local[g]!;
    if (l < 0) {
      l = order.length;
      local[g] = l;
      order.push(g);
    }
    triangles[i] = l;
  }
  const positions = new Float32Array(order.length * 3);
  const used = order.array;
  for (let l = 0; l < order.length; l++) {
    const g = used[l]!;
    positions[l * 3] = allPositions[g * 3]!;
    positions[l * 3 + 1] = allPositions[g * 3 + 1]!;
    positions[l * 3 + 2] = allPositions[g * 3 + 2]!;
    local[g] = -1; // ready for the next object
  }
  const faces = n / 3;
  const faceWalkable = new Uint8Array(faces);
  const faceMaterial = new Uint32Array(faces);
  const faceOwner = new Uint32Array(faces);
  const slots = o.slots.array;
  for (let f = 0; f < faces; f++) {
    const a = slotAttributes[slots[f]!]!;
    faceWalkable[f] = a.walkable;
    faceMaterial[f] = a.material;
    faceOwner[f] = a.owner;
  }
  return createWalkmesh({ name: o.name, game: options.game, format: options.format, positions, triangles, faceWalkable, faceMaterial, faceOwner });
}

function newObject(name: string, named: boolean): ObjObject {
  return { name, triangles: new GrowableU32(96), slots: new GrowableU32(32), named };
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 11 || c === 12;
}

type Fail = (expected: string, found: string) => MalformedInputError;

function shown(text: string, start: number, end: number): string {
  const s = text.slice(start, Math.min(end, start + 40));
  return JSON.stringify(end - start > 40 ? `${s}…` : s);
}

const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

/** A decimal number (optionally with exponent); hex, `nan`, `inf` and overflow are refused. */
function readFloat(text: string, start: number, end: number, fail: Fail): number {
  // Fast path for plain decimals of up to 15 digits: the digits form an exact integer and
  // 10^k (k <= 22) is exact, so one division rounds correctly and gives what Number()
  // would, without cutting a string per coordinate.
  let i = start;
  let c = text.charCodeAt(i);
  const negative = c === 45;
  if (negative || c === 43) c = text.charCodeAt(++i);
  let mantissa = 0;
  let digits = 0;
  let scale = 0;
  while (c >= 48 && c <= 57 && i < end) {
    mantissa = mantissa * 10 + (c - 48);
    digits++;
    c = text.charCodeAt(++i);
  }
  if (c === 46 && i < end) {
    c = text.charCodeAt(++i);
    while (c >= 48 && c <= 57 && i < end) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
      scale++;
      c = text.charCodeAt(++i);
    }
  }
  if (i === end && digits > 0 && digits <= 15) {
    const v = scale === 0 ? mantissa : mantissa / POW10[scale]!;
    return negative ? -v : v;
  }
  for (let j = start; j < end; j++) {
    const d = text.charCodeAt(j);
    // digits . + - e E
    if (!((d >= 48 && d <= 57) || d === 46 || d === 43 || d === 45 || d === 101 || d === 69)) {
      throw fail('a finite decimal number', shown(text, start, end));
    }
  }
  const v = Number(text.slice(start, end));
  if (!Number.isFinite(v)) throw fail('a finite decimal number', shown(text, start, end));
  return v;
}

/**
 * The 0-based vertex of a face corner (`v`, `v/vt`, `v//vn` or `v/vt/vn`): 1..n counts
 * from the first vertex, -1..-n back from the last one read so far.
 */
function readIndex(text: string, start: number, end: number, vertices: number, fail: Fail): number {
  let i = start;
  const negative = text.charCodeAt(i) === 45;
  if (negative) i++;
  const digitsStart = i;
  let value = 0;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 47 /* / */) break;
    if (c < 48 || c > 57) throw fail('a vertex index', shown(text, start, end));
    // Past 2^40 the index is out of range anyway; stop growing so it stays exact.
    if (value < 2 ** 40) value = value * 10 + (c - 48);
  }
  if (i === digitsStart) throw fail('a vertex index', shown(text, start, end));
  const index = negative ? vertices - value : value - 1;
  if (value === 0 || index < 0 || index >= vertices) {
    const range = vertices === 0 ? 'a vertex index, but no vertex is defined yet' : `a vertex index in 1..${vertices} or -${vertices}..-1`;
    throw fail(range, shown(text, start, end));
  }
  return index;
}

/** Append-only Float32Array; values are rounded to float32 as they are stored. */
class GrowableF32 {
  private data: Float32Array;
  length = 0;

  constructor(capacity: number) {
    this.data = new Float32Array(capacity);
  }

  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Float32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }

  get array(): Float32Array {
    return this.data;
  }
}
