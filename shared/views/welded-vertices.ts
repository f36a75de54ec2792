/**
 * One id per distinct vertex position, so faces that touch through duplicated vertices
 * (KotOR rooms, Skyrim navmesh seams, Source area corners) count as adjacent. Exact
 * float equality by bit pattern, hashed with open addressing: no strings, no all-pairs.
 */
export function weldVertices(positions: Float32Array): Uint32Array {
  const n = positions.length / 3;
  const bits = new Uint32Array(positions.buffer, positions.byteOffset, positions.length);
  let capacity = 16;
  while (capacity < n * 2) capacity *= 2;
  const mask = capacity - 1;
  const slots = new Int32Array(capacity).fill(-1);
  const ids = new Uint32Array(n);
  for (let v = 0; v < n; v++) {
    // -0 and +0 are the same place; their bit patterns differ.
    const x = positions[v * 3] === 0 ? 0 : bits[v * 3]!;
    const y = positions[v * 3 + 1] === 0 ? 0 : bits[v * 3 + 1]!;
    const z = positions[v * 3 + 2] === 0 ? 0 : bits[v * 3 + 2]!;
    let slot = (Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d)) & mask;
    for (;;) {
      const other = slots[slot]!;
      if (other < 0) {
        slots[slot] = v;
        ids[v] = v;
        break;
      }
      if (positions[other * 3] === positions[v * 3] && positions[other * 3 + 1] === positions[v * 3 + 1] && positions[other * 3 + 2] === positions[v * 3 + 2]) {
        ids[v] = ids[other]!;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return ids;
}

/** The triangles with every vertex replaced by its welded id. */
export function weldedTriangles(positions: Float32Array, triangles: Uint32Array): Uint32Array {
  const ids = weldVertices(positions);
  const out = new Uint32Array(triangles.length);
  for (let i = 0; i < triangles.length; i++) out[i] = ids[triangles[i]!]!;
  return out;
}
