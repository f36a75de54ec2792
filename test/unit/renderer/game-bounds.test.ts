import { describe, expect, it } from 'vitest';
import { gameBounds } from '../../../renderer/src/viewport/game-to-babylon';
import { createWalkmesh, type Walkmesh } from '../../../shared/model/walkmesh';

function mesh(positions: number[], triangles: number[]): Walkmesh {
  const faces = triangles.length / 3;
  return createWalkmesh({
    name: 'b',
    game: 'kotor',
    format: 'test',
    positions: new Float32Array(positions),
    triangles: new Uint32Array(triangles),
    faceWalkable: new Uint8Array(faces).fill(1),
    faceMaterial: new Uint32Array(faces),
    faceOwner: new Uint32Array(faces),
  });
}

/** The bounds corner by corner, as the viewport computed them before the vertex-once pass. */
function cornerBounds(meshes: readonly Walkmesh[]) {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  let any = false;
  for (const m of meshes) {
    for (const v of m.triangles) {
      for (let k = 0; k < 3; k++) {
        const value = m.positions[v * 3 + k];
        if (value === undefined || !Number.isFinite(value)) continue;
        min[k] = Math.min(min[k]!, value);
        max[k] = Math.max(max[k]!, value);
        any = true;
      }
    }
  }
  return any ? { min, max } : null;
}

describe('gameBounds', () => {
  it('bounds only the vertices faces use, skipping non-finite coordinates, over several meshes', () => {
    // Vertex 3 (at 100) is used by no face; vertex 4 has a NaN y and an infinite z.
    const a = mesh([0, 0, 1, 4, 0, 1, 4, 2, 1, 100, 100, 100, -5, NaN, Infinity], [0, 1, 2, 0, 2, 4]);
    const b = mesh([10, -3, 7, 11, -3, 7, 11, -2, 7], [2, 1, 0]);
    expect(gameBounds([a])).toEqual({ min: [-5, 0, 1], max: [4, 2, 1] });
    expect(gameBounds([a, b])).toEqual({ min: [-5, -3, 1], max: [11, 2, 7] });
    expect(gameBounds([a, b])).toEqual(cornerBounds([a, b]));
  });

  it('is null without a finite corner, and agrees with the corner-by-corner bounds on a random mesh', () => {
    expect(gameBounds([mesh([NaN, NaN, NaN], [0, 0, 0])])).toBeNull();
    expect(gameBounds([mesh([1, 2, 3], [])])).toBeNull();
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 200 - 100;
    const positions = Array.from({ length: 300 * 3 }, rand);
    const triangles = Array.from({ length: 150 * 3 }, () => Math.floor((rand() + 100) / 200 * 280));
    const m = mesh(positions, triangles);
    expect(gameBounds([m])).toEqual(cornerBounds([m]));
  });
});
