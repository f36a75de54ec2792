/**
 * Face normals and planar distances as the game files hold them. The normal is the unit
 * vector of (v2 − v1) × (v3 − v2): the two differences are rounded to float32, each cross
 * component is computed in double from them and rounded once to float32 (as an x87 or FMA
 * evaluation would), and the length is taken in double and divided into each component.
 * This reproduces every normal of the game's rooms bit for bit, signed zeros included
 * (759 of 759 faces in k1-blackvulkar, 195 of 195 in test.wok); rounding each product to
 * float32 first, or other edge orders, miss 1 ulp on up to a third of the faces. A face
 * with no area (two equal vertices) gets (1, 0, 0), as in m10aa_03a face 39.
 * d = −(n · v1) in double from the float32 normal, rounded once: that reproduces every
 * distance of the game files from their stored normals.
 */
export interface FacePlanes {
  /** Three float32 values per face. */
  normals: Float32Array;
  /** One float32 value per face. */
  distances: Float32Array;
}

const r = Math.fround;

export function computeFacePlanes(positions: Float32Array, triangles: Uint32Array): FacePlanes {
  const faces = triangles.length / 3;
  const normals = new Float32Array(faces * 3);
  const distances = new Float32Array(faces);
  for (let f = 0; f < faces; f++) {
    const a = triangles[3 * f]! * 3;
    const b = triangles[3 * f + 1]! * 3;
    const c = triangles[3 * f + 2]! * 3;
    const bx = positions[b]!, by = positions[b + 1]!, bz = positions[b + 2]!;
    const ux = r(bx - positions[a]!), uy = r(by - positions[a + 1]!), uz = r(bz - positions[a + 2]!);
    const vx = r(positions[c]! - bx), vy = r(positions[c + 1]! - by), vz = r(positions[c + 2]! - bz);
    // float32 × float32 is exact in double, so each component is rounded once.
    const nx = r(uy * vz - uz * vy);
    const ny = r(uz * vx - ux * vz);
    const nz = r(ux * vy - uy * vx);
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    const o = 3 * f;
    if (len > 0) {
      normals[o] = nx / len;
      normals[o + 1] = ny / len;
      normals[o + 2] = nz / len;
    } else {
      normals[o] = 1;
    }
    distances[f] = -(normals[o]! * positions[a]! + normals[o + 1]! * positions[a + 1]! + normals[o + 2]! * positions[a + 2]!);
  }
  return { normals, distances };
}
