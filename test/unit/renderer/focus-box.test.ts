import { describe, expect, it } from 'vitest';
import { createWalkmesh, type Walkmesh } from '../../../shared/model/walkmesh';
import { focusBox, MIN_FOCUS_SHARE } from '../../../renderer/src/viewport/finding-target';

/** An n × n grid of unit squares (two faces each), corners shared by index, or repeated per face. */
function grid(n: number, shared: boolean): Walkmesh {
  const positions: number[] = [];
  const triangles: number[] = [];
  const corner = (x: number, y: number) => {
    if (shared) return y * (n + 1) + x;
    positions.push(x, y, 0);
    return positions.length / 3 - 1;
  };
  if (shared) for (let y = 0; y <= n; y++) for (let x = 0; x <= n; x++) positions.push(x, y, 0);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      triangles.push(corner(x, y), corner(x + 1, y), corner(x + 1, y + 1));
      triangles.push(corner(x, y), corner(x + 1, y + 1), corner(x, y + 1));
    }
  }
  return createWalkmesh({ name: 'g', game: 'kotor', format: 'test', positions: new Float32Array(positions), triangles: new Uint32Array(triangles) });
}

describe('the frame of a face a finding names', () => {
  for (const shared of [true, false]) {
    it(`holds the face and every face touching its corners (${shared ? 'shared' : 'repeated'} corners)`, () => {
      const m = grid(10, shared);
      // Face 0 of square (5, 5): corners (5,5), (6,5), (6,6); its neighbours reach (4..7, 4..7).
      const face = (5 * 10 + 5) * 2;
      const box = focusBox(m, face)!;
      expect(box.min).toEqual([4, 4, expect.any(Number)]);
      expect(box.max).toEqual([7, 7, expect.any(Number)]);
      expect(box.centre[0]).toBeCloseTo(17 / 3, 5);
      expect(box.centre[1]).toBeCloseTo(16 / 3, 5);
    });
  }

  it('is at least a share of the mesh wide, around the face, on a mesh far larger than the face', () => {
    const m = grid(200, true);
    const box = focusBox(m, 0)!;
    const half = Math.hypot(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]) / 2;
    expect(half).toBeGreaterThanOrEqual(Math.hypot(200, 200) / 2 * MIN_FOCUS_SHARE - 1e-6);
    expect(box.min[0]).toBeLessThan(box.centre[0]);
    expect(box.max[0]).toBeGreaterThan(box.centre[0]);
  });

  it('names no frame for a face the mesh does not have', () => {
    expect(focusBox(grid(2, true), 8)).toBeNull();
    expect(focusBox(grid(2, true), -1)).toBeNull();
  });
});
