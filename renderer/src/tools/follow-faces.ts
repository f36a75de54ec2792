import { buildTriangleBvh, raycastBvh } from '../../../shared/geometry/triangle-bvh';
import { faceCount, type Walkmesh } from '../../../shared/model/walkmesh';

/** How far above and below a face's centre its successor is looked for (game units). */
const REACH = 2;

/**
 * Where the selected faces of `before` are in `after`, a walkmesh of the same place made
 * again (an NWN2 area re-baked after a cutter or placeable edit renumbers and re-cuts its
 * triangles): for each face, the face of `after` straight under (or over) its centre, when
 * that face is close in height. -1 where there is none (the face was cut away). The BVH is
 * built once per call: a re-bake happens once per edit, not per frame.
 */
export function followFaces(before: Walkmesh, after: Walkmesh, faces: ArrayLike<number>): Int32Array {
  const out = new Int32Array(faces.length).fill(-1);
  if (faces.length === 0 || faceCount(after) === 0) return out;
  const bvh = buildTriangleBvh(after.positions, after.triangles);
  const P = before.positions;
  const T = before.triangles;
  for (let i = 0; i < faces.length; i++) {
    const f = faces[i]!;
    if (f < 0 || f >= T.length / 3) continue;
    let x = 0, y = 0, z = 0;
    for (let k = 0; k < 3; k++) {
      const v = T[f * 3 + k]!;
      x += P[v * 3]!;
      y += P[v * 3 + 1]!;
      z += P[v * 3 + 2]!;
    }
    x /= 3;
    y /= 3;
    z /= 3;
    // Down from just above the centre first, then up from just below it.
    const down = raycastBvh(bvh, x, y, z + REACH, 0, 0, -1, 2 * REACH);
    const hit = down ?? raycastBvh(bvh, x, y, z - REACH, 0, 0, 1, 2 * REACH);
    if (hit) out[i] = hit.face;
  }
  return out;
}
