import { describe, expect, it } from 'vitest';
import { createWalkmesh, type Walkmesh } from '../../../shared/model/walkmesh';
import {
  affectedEdges, centroidOf, closestOnAxis, dragDisplacement, dragPoint, GIZMO_HANDLES, gizmoMoveCommand, handleAt,
  handleScreenPoints, lengthForPixels, onAxisPlane, snapDisplacement,
} from '../../../renderer/src/tools/move-gizmo-math';

/** Two faces over a unit square, corners off the 0.5 grid and at different heights. */
function quad(): Walkmesh {
  return createWalkmesh({
    name: 'quad',
    game: 'kotor',
    format: 'kotor-bwm',
    positions: Float32Array.from([0.1, 0.2, 1.3, 1.1, 0.2, 1.7, 1.1, 1.2, 2.1, 0.1, 1.2, 0.9, 5, 5, 5]),
    triangles: Uint32Array.from([0, 1, 2, 0, 2, 3]),
  });
}

/** A view from the south-west and above, orthographic: x right, z up, y up-right. */
const oblique = (x: number, y: number, z: number): [number, number] => [400 + 100 * x + 30 * y, 300 - 100 * z - 45 * y];
/** Straight down: the Z arrow points at the camera and the upright squares are edge-on. */
const top = (x: number, y: number): [number, number] => [400 + 100 * x, 300 - 100 * y];

describe('move gizmo maths', () => {
  it('keeps a constant screen size: the length grows with the distance', () => {
    expect(lengthForPixels(10, Math.PI / 2, 500, 100)).toBeCloseTo(4, 10);
    expect(lengthForPixels(20, Math.PI / 2, 500, 100)).toBeCloseTo(8, 10);
    expect(lengthForPixels(10, Math.PI / 2, 1000, 100)).toBeCloseTo(2, 10);
  });

  it('finds where a ray passes closest to an axis, and refuses a ray along it', () => {
    // Looking north from (5, -10, 3): the X axis through the origin is closest at x = 5.
    expect(closestOnAxis({ origin: [5, -10, 3], dir: [0, 1, 0] }, [0, 0, 0], 0)).toBeCloseTo(5, 10);
    // The Z axis through (2, 0, 1), seen level at height 4.5: 3.5 above the centre.
    expect(closestOnAxis({ origin: [2, -10, 4.5], dir: [0, 2, 0] }, [2, 0, 1], 2)).toBeCloseTo(3.5, 10);
    expect(closestOnAxis({ origin: [0, 0, 10], dir: [0, 0, -1] }, [0, 0, 0], 2)).toBeNull();
  });

  it('meets an axis plane in front of the camera only', () => {
    expect(onAxisPlane({ origin: [1, 2, 10], dir: [0, 0, -1] }, [0, 0, 3], 2)).toEqual([1, 2, 3]);
    expect(onAxisPlane({ origin: [1, 2, 10], dir: [0, 0, 1] }, [0, 0, 3], 2)).toBeNull();
    expect(onAxisPlane({ origin: [1, 2, 10], dir: [1, 0, 0] }, [0, 0, 3], 2)).toBeNull();
  });

  it('drags along an arrow on its axis only, and in a plane within it', () => {
    const ray = { origin: [2, -10, 4.5], dir: [0.1, 1, 0.02] };
    const z = dragPoint('z', ray, [2, 0, 1])!;
    expect(z[0]).toBe(2);
    expect(z[1]).toBe(0);
    const xz = dragPoint('xz', ray, [2, 0, 1])!;
    expect(xz[1]).toBeCloseTo(0, 12);
    expect(xz[0]).toBeCloseTo(3, 12);
  });

  it('keeps the displacement to the handle axes and snaps it to whole steps', () => {
    expect(dragDisplacement('z', [0, 0, 1], [0.3, 0.2, 2.26], 0.5)).toEqual([0, 0, 1.5]);
    const free = dragDisplacement('z', [0, 0, 1], [0.3, 0.2, 2.26], null);
    expect(free[0]).toBe(0);
    expect(free[2]).toBeCloseTo(1.26, 12);
    expect(dragDisplacement('xz', [0, 0, 0], [0.74, 9, -0.3], 0.25)).toEqual([0.75, 0, -0.25]);
    expect(dragDisplacement('centre', [0, 0, 0], [1.1, -0.6, 7], 0.5)).toEqual([1, -0.5, 0]);
    expect(Object.is(snapDisplacement([-0.2, 0, 0], 0.5)[0], 0)).toBe(true);
    expect(() => snapDisplacement([1, 0, 0], 0)).toThrow(/grid step/);
  });

  it('a Z move changes nothing but Z, by exactly the displacement, even with snap on', () => {
    const m = quad();
    const cmd = gizmoMoveCommand(m, [0, 1, 2], [0, 0, 1.5], 'z', 0.5);
    expect(cmd.kind).toBe('move-vertices');
    expect(cmd.vertices).toEqual([0, 1, 2]);
    for (let i = 0; i < 3; i++) {
      expect(cmd.positions[i * 3]).toBe(m.positions[i * 3]);
      expect(cmd.positions[i * 3 + 1]).toBe(m.positions[i * 3 + 1]);
      expect(cmd.positions[i * 3 + 2]).toBe(Math.fround(m.positions[i * 3 + 2]! + 1.5));
    }
  });

  it('an X move with snap rounds the moved X to the grid and leaves Y and Z', () => {
    const m = quad();
    const cmd = gizmoMoveCommand(m, [0, 3], [1, 0, 0], 'x', 0.5);
    expect(cmd.positions[0]).toBe(1);
    expect(cmd.positions[1]).toBe(m.positions[1]);
    expect(cmd.positions[2]).toBe(m.positions[2]);
    expect(cmd.positions[3]).toBe(1);
    expect(cmd.positions[5]).toBe(m.positions[11]);
    const free = gizmoMoveCommand(m, [0], [0.3, 0, 0], 'x', null);
    expect(free.positions[0]).toBe(Math.fround(m.positions[0]! + 0.3));
  });

  it('a move in the XY square rounds X and Y to the grid and keeps Z', () => {
    const m = quad();
    const cmd = gizmoMoveCommand(m, [2], [0.5, -1, 0], 'xy', 0.5);
    expect(cmd.positions).toEqual([1.5, 0, m.positions[8]]);
  });

  it('puts each handle where a press on it takes that handle', () => {
    const centre = [1, 2, 3];
    const shown = handleScreenPoints(centre, 1, oblique);
    expect(Object.keys(shown).sort()).toEqual([...GIZMO_HANDLES].sort());
    for (const id of GIZMO_HANDLES) {
      const [x, y] = shown[id]!;
      expect(handleAt(x, y, centre, 1, oblique), id).toBe(id);
    }
    // Looking along the XZ square's diagonal puts the Y arrow over it: it is not offered.
    const steep = (x: number, y: number, z: number): [number, number] => [400 + 100 * x + 40 * y, 300 - 100 * z - 40 * y];
    const covered = handleScreenPoints(centre, 1, steep);
    expect(covered.xz).toBeUndefined();
    expect(handleAt(...steep(1.35, 2, 3.35), centre, 1, steep)).toBe('y');
    // Far from every handle: nothing.
    expect(handleAt(50, 50, centre, 1, oblique)).toBeNull();
    // The X arrow's grab point is 72 % along it, to the right of the centre.
    expect(shown.x![0]).toBeCloseTo(oblique(1, 2, 3)[0] + 72, 6);
  });

  it('leaves out an arrow seen end-on and squares seen edge-on', () => {
    const shown = handleScreenPoints([0, 0, 0], 1, top);
    expect(Object.keys(shown).sort()).toEqual(['centre', 'x', 'xy', 'y']);
    expect(handleAt(400, 300, [0, 0, 0], 1, top)).toBe('centre');
    expect(handleAt(400, 300 - 60, [0, 0, 0], 1, top)).toBe('y');
  });

  it('lists the edges of the faces a move touches, each once', () => {
    const m = quad();
    // Vertex 1 is in face 0 only: its three edges.
    expect(Array.from(affectedEdges(m, [1]))).toEqual([0, 1, 1, 2, 0, 2]);
    // Vertex 0 is in both: five distinct edges (the diagonal once).
    expect(affectedEdges(m, [0]).length).toBe(10);
    expect(affectedEdges(m, [4]).length).toBe(0);
  });

  it('centres the gizmo on the moved corners', () => {
    const c = centroidOf(quad(), [0, 1])!;
    expect(c[0]).toBeCloseTo(0.6, 6);
    expect(c[1]).toBeCloseTo(0.2, 6);
    expect(c[2]).toBeCloseTo(1.5, 6);
    expect(centroidOf(quad(), [])).toBeNull();
  });
});
