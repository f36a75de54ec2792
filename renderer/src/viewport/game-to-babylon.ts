import type { Walkmesh } from '../../../shared/model/walkmesh';

/**
 * Game space to Babylon space.
 *
 * Every supported game is Z-up and right-handed: x east, y north, z up. Babylon is Y-up
 * and left-handed. Game (x, y, z) becomes Babylon (x, z, y). Swapping two axes is a
 * reflection of the coordinates, and the change from a right- to a left-handed frame is
 * another, so the two cancel: the level appears as in the game, not mirrored (seen from
 * above, east is still to the right of north).
 *
 * Winding: the model stores upward faces counter-clockwise seen from above. Because the
 * view is not mirrored, they are still counter-clockwise on screen when seen from above,
 * and a left-handed Babylon mesh treats counter-clockwise as its front (Mesh.sideOrientation
 * defaults to CounterClockWiseSideOrientation there), so the corners are emitted in the
 * model's order and upward faces are front faces. Normals are computed in game space and
 * converted like positions. (Checked in the app: with back-face culling on, every face of
 * a Source map stays visible from above.)
 */
export function gameToBabylon(x: number, y: number, z: number): [number, number, number] {
  return [x, z, y];
}

/** Flat-shaded buffers for one Babylon mesh: three vertices of its own per face. */
export interface FlatMeshData {
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
  faceCount: number;
}

/**
 * Un-indexed copies of every face's corners, so each face has one colour and one normal
 * (flat shading) while the whole walkmesh stays one mesh. Vertex 3f..3f+2 belongs to face
 * f, so a Babylon pick's faceId is the walkmesh face index.
 */
export function buildFlatMesh(mesh: Walkmesh): FlatMeshData {
  const faceCount = mesh.triangles.length / 3;
  const positions = new Float32Array(faceCount * 9);
  const normals = new Float32Array(faceCount * 9);
  const indices = new Uint32Array(faceCount * 3);
  for (let f = 0; f < faceCount; f++) {
    writeFlatFace(mesh, f, positions, normals);
    indices[f * 3] = f * 3;
    indices[f * 3 + 1] = f * 3 + 1;
    indices[f * 3 + 2] = f * 3 + 2;
  }
  return { positions, normals, indices, faceCount };
}

/**
 * Face f's three corners and its normal into a flat mesh's buffers (floats 9f..9f+8), also
 * used to patch the faces round moved vertices without building the mesh again.
 */
export function writeFlatFace(mesh: Walkmesh, f: number, positions: Float32Array, normals: Float32Array): void {
  const p = mesh.positions;
  const t = mesh.triangles;
  const a = t[f * 3]! * 3;
  const b = t[f * 3 + 1]! * 3;
  const c = t[f * 3 + 2]! * 3;
  const ax = p[a]!, ay = p[a + 1]!, az = p[a + 2]!;
  const bx = p[b]!, by = p[b + 1]!, bz = p[b + 2]!;
  const cx = p[c]!, cy = p[c + 1]!, cz = p[c + 2]!;
  // Game-space normal (b - a) × (c - a): +z for an upward, counter-clockwise face.
  const ux = bx - ax, uy = by - ay, uz = bz - az;
  const vx = cx - ax, vy = cy - ay, vz = cz - az;
  let nx = uy * vz - uz * vy;
  let ny = uz * vx - ux * vz;
  let nz = ux * vy - uy * vx;
  const len = Math.hypot(nx, ny, nz);
  if (len > 0) {
    nx /= len;
    ny /= len;
    nz /= len;
  } else {
    // A degenerate face has no direction; treat it as facing up so it is still lit.
    nx = 0;
    ny = 0;
    nz = 1;
  }
  const o = f * 9;
  // Corners a, b, c in the model's order, game (x, y, z) → Babylon (x, z, y).
  positions[o] = ax;
  positions[o + 1] = az;
  positions[o + 2] = ay;
  positions[o + 3] = bx;
  positions[o + 4] = bz;
  positions[o + 5] = by;
  positions[o + 6] = cx;
  positions[o + 7] = cz;
  positions[o + 8] = cy;
  for (let k = 0; k < 3; k++) {
    normals[o + k * 3] = nx;
    normals[o + k * 3 + 1] = nz;
    normals[o + k * 3 + 2] = ny;
  }
}

/** Per-vertex RGBA for a flat mesh from per-face RGB. */
export function flatVertexColours(faceRgb: Float32Array): Float32Array {
  const faces = faceRgb.length / 3;
  const out = new Float32Array(faces * 12);
  for (let f = 0; f < faces; f++) {
    const r = faceRgb[f * 3]!, g = faceRgb[f * 3 + 1]!, b = faceRgb[f * 3 + 2]!;
    for (let k = 0; k < 3; k++) {
      const o = f * 12 + k * 4;
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
      out[o + 3] = 1;
    }
  }
  return out;
}

/** Axis-aligned bounds in game space. */
export interface GameBounds {
  min: [number, number, number];
  max: [number, number, number];
}

/** The bounds of the vertices the faces use, or null for meshes without faces. */
export function gameBounds(meshes: readonly Walkmesh[]): GameBounds | null {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  let any = false;
  for (const mesh of meshes) {
    const p = mesh.positions;
    const t = mesh.triangles;
    // Each used vertex once (a vertex is shared by about six faces), with scalar bounds:
    // a 460,800-face exterior's bounds took 30 to 80 ms corner by corner on the bench.
    const vertices = Math.floor(p.length / 3);
    const used = new Uint8Array(vertices);
    for (let i = 0; i < t.length; i++) {
      const v = t[i]!;
      if (v < vertices) used[v] = 1;
    }
    let x0 = min[0], y0 = min[1], z0 = min[2], x1 = max[0], y1 = max[1], z1 = max[2];
    for (let v = 0; v < vertices; v++) {
      if (used[v] === 0) continue;
      const x = p[v * 3]!, y = p[v * 3 + 1]!, z = p[v * 3 + 2]!;
      if (Number.isFinite(x)) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        any = true;
      }
      if (Number.isFinite(y)) {
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
        any = true;
      }
      if (Number.isFinite(z)) {
        if (z < z0) z0 = z;
        if (z > z1) z1 = z;
        any = true;
      }
    }
    min[0] = x0;
    min[1] = y0;
    min[2] = z0;
    max[0] = x1;
    max[1] = y1;
    max[2] = z1;
  }
  return any ? { min, max } : null;
}
