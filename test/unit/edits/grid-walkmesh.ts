import { createWalkmesh, NO_OWNER, type GameId, type Walkmesh } from '../../../shared/model/walkmesh';

/**
 * A flat n × n grid of unit squares, two counter-clockwise faces each, with a gentle
 * height wave so that faces are not all coplanar. Materials vary by row so that flood
 * fills by material have borders. 2n² faces: n = 224 gives 100,352.
 */
export function gridWalkmesh(n: number, game: GameId = 'kotor'): Walkmesh {
  const V = (n + 1) * (n + 1);
  const positions = new Float32Array(V * 3);
  for (let y = 0; y <= n; y++) {
    for (let x = 0; x <= n; x++) {
      const v = y * (n + 1) + x;
      positions[v * 3] = x;
      positions[v * 3 + 1] = y;
      positions[v * 3 + 2] = Math.fround(0.25 * Math.sin(x * 0.3) * Math.cos(y * 0.2));
    }
  }
  const F = 2 * n * n;
  const triangles = new Uint32Array(F * 3);
  const faceMaterial = new Uint32Array(F);
  const faceOwner = new Uint32Array(F).fill(NO_OWNER);
  let f = 0;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const a = y * (n + 1) + x, b = a + 1, c = a + n + 2, d = a + n + 1;
      triangles.set([a, b, c], f * 3);
      triangles.set([a, c, d], f * 3 + 3);
      faceMaterial[f] = faceMaterial[f + 1] = y < n / 2 ? 1 : 3;
      f += 2;
    }
  }
  return createWalkmesh({ name: `grid-${n}`, game, format: 'test-grid', positions, triangles, faceMaterial, faceOwner });
}

/** Every array of the mesh, copied, to compare a mesh with itself later. */
export function snapshot(mesh: Walkmesh): Record<string, number[]> {
  return {
    positions: Array.from(new Uint32Array(mesh.positions.buffer, mesh.positions.byteOffset, mesh.positions.length)),
    triangles: Array.from(mesh.triangles),
    faceWalkable: Array.from(mesh.faceWalkable),
    faceMaterial: Array.from(mesh.faceMaterial),
    faceOwner: Array.from(mesh.faceOwner),
  };
}
