import { floatView, TriangleFlag, type AswmDocument } from '../../formats/nwn2/aswm-document';

/**
 * The walkmesh while a TRN is being baked: plain float64 positions and one flat array
 * per triangle field, counter-clockwise seen from +Z, with no edges, tiles or tables
 * (those are derived at the end, once the geometry is final).
 */
export interface TrnSurface {
  /** x, y, z per vertex. */
  positions: Float64Array;
  /** Three vertex indices per triangle, counter-clockwise seen from +Z. */
  triangles: Uint32Array;
  /** ASWM triangle flags (walkable, surface material) without the clockwise bit. */
  flags: Uint16Array;
  /** Where each triangle came from: a TRN triangle index, or PLACEABLE_SOURCE | placeable index. */
  source: Uint32Array;
}

/** Marks `source` values of triangles that came from a placeable's walkmesh. */
export const PLACEABLE_SOURCE = 0x80000000;

export function triangleCountOfSurface(s: TrnSurface): number {
  return s.flags.length;
}

/** The ASWM's geometry as a TrnSurface (every triangle turned counter-clockwise). */
export function surfaceFromAswm(a: AswmDocument): TrnSurface {
  const p = floatView(a.vertices);
  const positions = new Float64Array(p.length);
  for (let i = 0; i < p.length; i++) positions[i] = p[i]!;
  const T = a.triFlags.length;
  const triangles = a.triVertices.slice(0, T * 3);
  const flags = new Uint16Array(T);
  const source = new Uint32Array(T);
  for (let t = 0; t < T; t++) {
    flags[t] = a.triFlags[t]! & ~TriangleFlag.clockwise;
    source[t] = t;
    if (signedArea2(positions, triangles, t) < 0) {
      const b = triangles[t * 3 + 1]!;
      triangles[t * 3 + 1] = triangles[t * 3 + 2]!;
      triangles[t * 3 + 2] = b;
    }
  }
  return { positions, triangles, flags, source };
}

/** Twice the signed x/y area of triangle t (> 0 counter-clockwise). */
export function signedArea2(positions: ArrayLike<number>, triangles: ArrayLike<number>, t: number): number {
  const a = triangles[t * 3]! * 3, b = triangles[t * 3 + 1]! * 3, c = triangles[t * 3 + 2]! * 3;
  return (positions[b]! - positions[a]!) * (positions[c + 1]! - positions[a + 1]!) - (positions[b + 1]! - positions[a + 1]!) * (positions[c]! - positions[a]!);
}

/** Area seen from above (x/y) of the walkable triangles, or of all with `walkableOnly` false. */
export function surfaceArea(s: TrnSurface, walkableOnly = true): number {
  let sum = 0;
  for (let t = 0; t < s.flags.length; t++) {
    if (walkableOnly && !(s.flags[t]! & TriangleFlag.walkable)) continue;
    sum += Math.abs(signedArea2(s.positions, s.triangles, t)) / 2;
  }
  return sum;
}

/** The surface without the vertices no triangle uses (indices renumbered in order). */
export function dropUnusedVertices(s: TrnSurface): TrnSurface {
  const V = s.positions.length / 3;
  const map = new Int32Array(V).fill(-1);
  for (let i = 0; i < s.triangles.length; i++) map[s.triangles[i]!] = 0;
  let n = 0;
  for (let v = 0; v < V; v++) if (map[v] === 0) map[v] = n++;
  if (n === V) return s;
  const positions = new Float64Array(n * 3);
  for (let v = 0; v < V; v++) {
    const m = map[v]!;
    if (m < 0) continue;
    positions[m * 3] = s.positions[v * 3]!;
    positions[m * 3 + 1] = s.positions[v * 3 + 1]!;
    positions[m * 3 + 2] = s.positions[v * 3 + 2]!;
  }
  const triangles = new Uint32Array(s.triangles.length);
  for (let i = 0; i < triangles.length; i++) triangles[i] = map[s.triangles[i]!]!;
  return { positions, triangles, flags: s.flags, source: s.source };
}

/** Keeps the triangles for which `keep` is true (vertices untouched). */
export function filterTriangles(s: TrnSurface, keep: (t: number) => boolean): TrnSurface {
  const T = s.flags.length;
  const b = new SurfaceBuilder(s.positions, T);
  for (let t = 0; t < T; t++) if (keep(t)) b.copyTriangle(s, t);
  return b.finish();
}

/** Appends vertices and triangles to a surface without reallocating per item. */
export class SurfaceBuilder {
  private pos: Float64Array;
  private vertexCount: number;
  private tri: Uint32Array;
  private fl: Uint16Array;
  private src: Uint32Array;
  private triangleCount = 0;

  constructor(basePositions: Float64Array, triangleCapacity: number) {
    this.pos = new Float64Array(Math.max(basePositions.length * 2, 48));
    this.pos.set(basePositions);
    this.vertexCount = basePositions.length / 3;
    const cap = Math.max(16, triangleCapacity);
    this.tri = new Uint32Array(cap * 3);
    this.fl = new Uint16Array(cap);
    this.src = new Uint32Array(cap);
  }

  get vertices(): number {
    return this.vertexCount;
  }

  /** The positions so far (a live view: valid until the next addVertex). */
  get positions(): Float64Array {
    return this.pos.subarray(0, this.vertexCount * 3);
  }

  addVertex(x: number, y: number, z: number): number {
    if ((this.vertexCount + 1) * 3 > this.pos.length) {
      const next = new Float64Array(this.pos.length * 2);
      next.set(this.pos);
      this.pos = next;
    }
    const v = this.vertexCount++;
    this.pos[v * 3] = x;
    this.pos[v * 3 + 1] = y;
    this.pos[v * 3 + 2] = z;
    return v;
  }

  addTriangle(a: number, b: number, c: number, flags: number, source: number): void {
    if (this.triangleCount === this.fl.length) {
      const cap = this.fl.length * 2;
      const tri = new Uint32Array(cap * 3);
      tri.set(this.tri);
      const fl = new Uint16Array(cap);
      fl.set(this.fl);
      const src = new Uint32Array(cap);
      src.set(this.src);
      this.tri = tri;
      this.fl = fl;
      this.src = src;
    }
    const t = this.triangleCount++;
    this.tri[t * 3] = a;
    this.tri[t * 3 + 1] = b;
    this.tri[t * 3 + 2] = c;
    this.fl[t] = flags;
    this.src[t] = source;
  }

  copyTriangle(s: TrnSurface, t: number): void {
    this.addTriangle(s.triangles[t * 3]!, s.triangles[t * 3 + 1]!, s.triangles[t * 3 + 2]!, s.flags[t]!, s.source[t]!);
  }

  finish(): TrnSurface {
    return {
      positions: this.pos.slice(0, this.vertexCount * 3),
      triangles: this.tri.slice(0, this.triangleCount * 3),
      flags: this.fl.slice(0, this.triangleCount),
      source: this.src.slice(0, this.triangleCount),
    };
  }
}
