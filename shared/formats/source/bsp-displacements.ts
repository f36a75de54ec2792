import type { BspMap } from './bsp-document';

/**
 * Displacement geometry (Source): a (2^power + 1)² grid spanned over the 4 corners of the
 * face it replaces, starting at the corner nearest the stored start position, each grid
 * point pushed along its disp_vert direction by its distance (Valve's CCoreDispInfo
 * builds it the same way). Checked on the displacements of the TF2 fixtures
 * (test_displacement_decompile, test2): see test/unit/bsp/bsp-displacements.test.ts.
 */

/** Grid points per side. */
export function displacementSide(map: BspMap, disp: number): number {
  return (1 << map.displacements.power[disp]!) + 1;
}

/** Vertex index of surfedge `s` of the map (the start of the edge walked in its direction). */
export function surfedgeVertex(map: BspMap, s: number): number {
  const e = map.surfedges[s]!;
  return e >= 0 ? map.edges[e * 2]! : map.edges[-e * 2 + 1]!;
}

/**
 * Writes displacement `disp`'s grid (row-major, side² points, x y z each) to `out` from
 * `at` (a float index) and returns the number of points written.
 */
export function writeDisplacementGrid(map: BspMap, disp: number, out: Float32Array, at: number): number {
  const D = map.displacements;
  const face = D.face[disp]!;
  const first = map.faces.firstEdge[face]!;
  const v = map.vertices;
  const corner = new Float64Array(12);
  let nearest = 0;
  let best = Infinity;
  const sx = D.startPosition[disp * 3]!, sy = D.startPosition[disp * 3 + 1]!, sz = D.startPosition[disp * 3 + 2]!;
  for (let k = 0; k < 4; k++) {
    const p = surfedgeVertex(map, first + k) * 3;
    corner[k * 3] = v[p]!;
    corner[k * 3 + 1] = v[p + 1]!;
    corner[k * 3 + 2] = v[p + 2]!;
    const d = (v[p]! - sx) ** 2 + (v[p + 1]! - sy) ** 2 + (v[p + 2]! - sz) ** 2;
    if (d < best) {
      best = d;
      nearest = k;
    }
  }
  const c = (k: number, axis: number) => corner[((nearest + k) % 4) * 3 + axis]!;
  const side = displacementSide(map, disp);
  const last = side - 1;
  let w = D.vertStart[disp]! * 5;
  let o = at;
  for (let row = 0; row < side; row++) {
    const t = row / last;
    for (let col = 0; col < side; col++) {
      const s = col / last;
      const dist = D.verts[w + 3]!;
      for (let axis = 0; axis < 3; axis++) {
        // Row ends run from corner 0 to 1 and from corner 3 to 2; a row spans them.
        const left = c(0, axis) + (c(1, axis) - c(0, axis)) * t;
        const right = c(3, axis) + (c(2, axis) - c(3, axis)) * t;
        out[o + axis] = left + (right - left) * s + D.verts[w + axis]! * dist;
      }
      o += 3;
      w += 5;
    }
  }
  return side * side;
}

/**
 * Writes the grid's triangles (2·(side−1)² of them, the diagonal alternating like the
 * engine's so the grid is symmetric), vertex indices from `base`; `flip` reverses each
 * triangle's winding. Unflipped, a triangle winds counter-clockwise about
 * (corner 3 − corner 0) × (corner 1 − corner 0): against the right-handed normal of the
 * face's own corner cycle. Returns the number of index entries written.
 */
export function writeDisplacementTriangles(side: number, base: number, flip: boolean, out: Uint32Array, at: number): number {
  let o = at;
  const put = (a: number, b: number, c: number) => {
    out[o++] = base + a;
    out[o++] = base + (flip ? c : b);
    out[o++] = base + (flip ? b : c);
  };
  for (let row = 0; row < side - 1; row++) {
    for (let col = 0; col < side - 1; col++) {
      const i = row * side + col;
      if ((row * (side - 1) + col) % 2 === 0) {
        put(i, i + side + 1, i + side);
        put(i, i + 1, i + side + 1);
      } else {
        put(i, i + 1, i + side);
        put(i + 1, i + side + 1, i + side);
      }
    }
  }
  return o - at;
}
