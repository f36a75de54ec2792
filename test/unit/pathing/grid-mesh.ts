import { createWalkmesh, type Walkmesh } from '../../../shared/model/walkmesh';

/**
 * A flat grid of nx × ny square cells of `size` metres starting at (x0, y0), two
 * counter-clockwise triangles per cell (faces 2c and 2c + 1 for cell c = j·nx + i), with
 * the cells `blocked(i, j)` unwalkable. Vertices are shared inside the grid only, so two
 * grids placed side by side meet without being joined.
 */
export function gridMesh(nx: number, ny: number, options: { size?: number; x0?: number; y0?: number; z?: (x: number, y: number) => number; blocked?: (i: number, j: number) => boolean } = {}): Walkmesh {
  const size = options.size ?? 1, x0 = options.x0 ?? 0, y0 = options.y0 ?? 0;
  const positions = new Float32Array((nx + 1) * (ny + 1) * 3);
  for (let j = 0; j <= ny; j++) {
    for (let i = 0; i <= nx; i++) {
      const v = (j * (nx + 1) + i) * 3;
      const x = x0 + i * size, y = y0 + j * size;
      positions[v] = x;
      positions[v + 1] = y;
      positions[v + 2] = options.z ? options.z(x, y) : 0;
    }
  }
  const triangles = new Uint32Array(nx * ny * 6);
  const faceWalkable = new Uint8Array(nx * ny * 2);
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const c = j * nx + i;
      const a = j * (nx + 1) + i, b = a + 1, d = a + nx + 1, e = d + 1;
      triangles.set([a, b, e, a, e, d], c * 6);
      const w = options.blocked?.(i, j) ? 0 : 1;
      faceWalkable[c * 2] = faceWalkable[c * 2 + 1] = w;
    }
  }
  return createWalkmesh({ name: 'grid', game: 'nwn2', format: 'test', positions, triangles, faceWalkable });
}

/** Several meshes as one (vertices not shared between them). */
export function joinMeshes(meshes: Walkmesh[]): Walkmesh {
  const positions: number[] = [];
  const triangles: number[] = [];
  const walkable: number[] = [];
  for (const m of meshes) {
    const base = positions.length / 3;
    positions.push(...m.positions);
    for (const v of m.triangles) triangles.push(v + base);
    walkable.push(...m.faceWalkable);
  }
  return createWalkmesh({ name: 'joined', game: 'nwn2', format: 'test', positions: Float32Array.from(positions), triangles: Uint32Array.from(triangles), faceWalkable: Uint8Array.from(walkable) });
}
