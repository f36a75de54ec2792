import { faceCount, vertexCount, type Walkmesh } from '../model/walkmesh';
import { EditError } from './edit-error';

/** Checks a face list (integers in range, none twice) and returns it sorted ascending. */
export function checkFaceList(mesh: Walkmesh, faces: readonly number[], kind: string): number[] {
  const n = faceCount(mesh);
  const seen = new Set<number>();
  for (let i = 0; i < faces.length; i++) {
    const f = faces[i]!;
    if (!Number.isInteger(f) || f < 0 || f >= n) throw new EditError(kind, `faces[${i}] is ${f}, not a face of "${mesh.name}" (0..${n - 1})`);
    if (seen.has(f)) throw new EditError(kind, `face ${f} is listed twice`);
    seen.add(f);
  }
  return [...seen].sort((a, b) => a - b);
}

export function checkVertex(mesh: Walkmesh, v: number, kind: string, field: string): void {
  const n = vertexCount(mesh);
  if (!Number.isInteger(v) || v < 0 || v >= n) throw new EditError(kind, `${field} is ${v}, not a vertex of "${mesh.name}" (0..${n - 1})`);
}

export function checkVertexList(mesh: Walkmesh, vertices: readonly number[], kind: string): void {
  const seen = new Set<number>();
  for (let i = 0; i < vertices.length; i++) {
    checkVertex(mesh, vertices[i]!, kind, `vertices[${i}]`);
    if (seen.has(vertices[i]!)) throw new EditError(kind, `vertex ${vertices[i]} is listed twice`);
    seen.add(vertices[i]!);
  }
}

/** A finite float32 coordinate (the model stores float32; anything else would not survive a write). */
export function checkCoordinate(value: number, kind: string, field: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || !Number.isFinite(Math.fround(value))) {
    throw new EditError(kind, `${field} is ${value}, not a finite float32 coordinate`);
  }
}

export function checkUint32(value: number, kind: string, field: string): void {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new EditError(kind, `${field} is ${value}, not an unsigned 32-bit value`);
}

/** The vertices used by the given faces, without repeats. */
export function verticesOfFaces(triangles: Uint32Array, faces: Iterable<number>): Uint32Array {
  const out = new Set<number>();
  for (const f of faces) {
    out.add(triangles[f * 3]!);
    out.add(triangles[f * 3 + 1]!);
    out.add(triangles[f * 3 + 2]!);
  }
  return Uint32Array.from(out);
}

/** One value per face from a scalar-or-array field, checked for length. */
export function valueAt(values: number | number[], i: number): number {
  return typeof values === 'number' ? values : values[i]!;
}

export function checkFaceValues(values: number | number[] | undefined, count: number, kind: string, field: string): void {
  if (values === undefined) return;
  if (typeof values === 'number') {
    checkUint32(values, kind, field);
    return;
  }
  if (!Array.isArray(values) || values.length !== count) throw new EditError(kind, `${field} must be one number or ${count} numbers, one per face`);
  for (let i = 0; i < values.length; i++) checkUint32(values[i]!, kind, `${field}[${i}]`);
}

/** A scalar when every value is the same: a stroke over one material stores one number. */
export function compactValues(values: number[]): number | number[] {
  if (values.length === 0) return values;
  const first = values[0]!;
  for (let i = 1; i < values.length; i++) if (values[i] !== first) return values;
  return first;
}
