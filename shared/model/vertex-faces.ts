/**
 * Which faces use each vertex, as one compressed list (counting sort over the corners):
 * two typed arrays for a whole mesh, built in O(faces + vertices).
 */
export interface VertexFaces {
  /** Faces of vertex v are `faces[start[v] .. start[v + 1])`, a face once per corner it has at v. */
  start: Uint32Array;
  faces: Uint32Array;
}

export function buildVertexFaces(triangles: Uint32Array, vertexCount: number): VertexFaces {
  const start = new Uint32Array(vertexCount + 1);
  for (let i = 0; i < triangles.length; i++) start[triangles[i]! + 1]!++;
  for (let v = 0; v < vertexCount; v++) start[v + 1]! += start[v]!;
  const fill = start.slice(0, vertexCount);
  const faces = new Uint32Array(triangles.length);
  for (let i = 0; i < triangles.length; i++) faces[fill[triangles[i]!]!++] = (i / 3) | 0;
  return { start, faces };
}

/** The faces using any of the vertices, each once, ascending. */
export function facesOfVertices(index: VertexFaces, vertices: ArrayLike<number>): Uint32Array {
  const seen = new Set<number>();
  for (let i = 0; i < vertices.length; i++) {
    const v = vertices[i]!;
    if (v + 1 >= index.start.length) continue;
    for (let k = index.start[v]!; k < index.start[v + 1]!; k++) seen.add(index.faces[k]!);
  }
  return Uint32Array.from(seen).sort();
}
