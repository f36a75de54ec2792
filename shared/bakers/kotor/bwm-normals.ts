/**
 * Face normals and planar distances as the game files hold them. The normal is the unit
 * vector of (v3 − v1) × (v3 − v2) (the same direction as (v2 − v1) × (v3 − v1)), with the
 * differences and the cross product rounded to float32 at each step and the length taken
 * in double. Of the 27 edge orders × 2 precisions tried, this one reproduces the most
 * normals of the game's rooms bit for bit, signed zeros included (549 of 759 in
 * k1-blackvulkar; the rest are 1 ulp or a zero's sign apart, most likely because BioWare
 * computed them before the room offset was added to the vertices).
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
    const cx = positions[c]!, cy = positions[c + 1]!, cz = positions[c + 2]!;
    const ux = r(cx - positions[a]!), uy = r(cy - positions[a + 1]!), uz = r(cz - positions[a + 2]!);
    const vx = r(cx - positions[b]!), vy = r(cy - positions[b + 1]!), vz = r(cz - positions[b + 2]!);
    const nx = r(r(uy * vz) - r(uz * vy));
    const ny = r(r(uz * vx) - r(ux * vz));
    const nz = r(r(ux * vy) - r(uy * vx));
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    const o = 3 * f;
    if (len > 0) {
      normals[o] = nx / len;
      normals[o + 1] = ny / len;
      normals[o + 2] = nz / len;
    }
    distances[f] = -(normals[o]! * positions[a]! + normals[o + 1]! * positions[a + 1]! + normals[o + 2]! * positions[a + 2]!);
  }
  return { normals, distances };
}
