import { describe, expect, it } from 'vitest';
import { outlineFault, refuseClose, refuseCorner, segmentsTouch, snapCutterPoint } from '../../../renderer/src/tools/cutter-outline';
import { footprintOf, onRing, placeSegments, ringDragPoint, ringGrabPoint, turnBetween, wrapAngle } from '../../../renderer/src/tools/placeable-gizmo-math';

/** Straight down, 100 pixels per unit, y up on the ground and down on screen. */
const top = (x: number, y: number): [number, number] => [400 + 100 * x, 300 - 100 * y];

describe('placeable gizmo maths', () => {
  it('wraps angles into (−π, π]', () => {
    expect(wrapAngle(0)).toBe(0);
    expect(wrapAngle(Math.PI)).toBeCloseTo(Math.PI, 12);
    expect(wrapAngle(-Math.PI)).toBeCloseTo(Math.PI, 12);
    expect(wrapAngle(3 * Math.PI / 2)).toBeCloseTo(-Math.PI / 2, 12);
    expect(wrapAngle(-5 * Math.PI / 2)).toBeCloseTo(-Math.PI / 2, 12);
  });

  it('turns counter-clockwise by the angle swept about the centre, snapped to steps when asked', () => {
    const c = [10, 20, 3];
    // From east of the centre to north of it: a quarter turn counter-clockwise.
    expect(turnBetween(c, [12, 20, 3], [10, 25, 3], null)).toBeCloseTo(Math.PI / 2, 12);
    expect(turnBetween(c, [10, 25, 3], [12, 20, 3], null)).toBeCloseTo(-Math.PI / 2, 12);
    // Across the west (±π): the short way, not a near-full turn.
    expect(turnBetween(c, [9, 20.1, 3], [9, 19.9, 3], null)).toBeCloseTo(2 * Math.atan(0.1), 12);
    // 40° snaps to 45° in 15° steps; 37° to 30°.
    const at = (deg: number) => [c[0]! + Math.cos((deg * Math.PI) / 180), c[1]! + Math.sin((deg * Math.PI) / 180), 3];
    expect(turnBetween(c, at(0), at(40), 15)).toBeCloseTo(Math.PI / 4, 12);
    expect(turnBetween(c, at(0), at(37), 15)).toBeCloseTo(Math.PI / 6, 12);
    expect(turnBetween(c, at(0), at(0), 15)).toBe(0);
  });

  it('meets the ground plane through the centre for the ring drag', () => {
    expect(ringDragPoint({ origin: [1, 2, 10], dir: [0, 0, -1] }, [0, 0, 4])).toEqual([1, 2, 4]);
    expect(ringDragPoint({ origin: [1, 2, 10], dir: [1, 0, 0] }, [0, 0, 4])).toBeNull();
  });

  it('hits the ring only near its drawn circle', () => {
    const c = [0, 0, 0];
    const g = ringGrabPoint(c, 1);
    const s = top(g[0], g[1]);
    expect(onRing(s[0], s[1], c, 1, top)).toBe(true);
    expect(onRing(400, 200, c, 1, top)).toBe(true);
    expect(onRing(400, 300, c, 1, top)).toBe(false);
    expect(onRing(400 + 150, 300, c, 1, top)).toBe(false);
  });

  it('carries a footprint rigidly: turned about the old position, then moved', () => {
    // A segment from 1 east of the placeable to 2 east of it, at ground height 5.
    const seg = [11, 20, 5, 12, 20, 5];
    const out = placeSegments(seg, { x: 10, y: 20, z: 5, bearing: 0 }, { x: 0, y: 0, z: 6, bearing: Math.PI / 2 });
    // A quarter turn puts it north of the placeable, and the move carries it to the origin, 1 higher.
    expect(Array.from(out).map((v) => Math.round(v * 1e5) / 1e5)).toEqual([0, 1, 6, 0, 2, 6]);
    const same = placeSegments(seg, { x: 10, y: 20, z: 5, bearing: 1 }, { x: 10, y: 20, z: 5, bearing: 1 });
    expect(Array.from(same)).toEqual(seg);
  });

  it('gives a placeable the footprint segments nearest to it and within reach', () => {
    const positions = [[0, 0, 0], [10, 0, 0]];
    // One segment around each placeable, one midway but nearer the second, one far away.
    const segs = [-1, 1, 0, 1, 1, 0, 9, 1, 0, 11, 1, 0, 5.5, -1, 0, 5.5, 1, 0, 0, 50, 0, 1, 50, 0];
    expect(Array.from(footprintOf(segs, positions, 0, 20))).toEqual([-1, 1, 0, 1, 1, 0]);
    expect(Array.from(footprintOf(segs, positions, 1, 20))).toEqual([9, 1, 0, 11, 1, 0, 5.5, -1, 0, 5.5, 1, 0]);
    expect(footprintOf(segs, positions, 2, 20)).toHaveLength(0);
  });
});

describe('cutter drawing: snapping', () => {
  const candidates = { cutterCorners: [1, 1, 0.5], vertices: [1.05, 1.02, 0.7, 3, 3, 0.2] };

  it('takes a cutter corner in reach first, then a walkmesh vertex, then the grid', () => {
    // The pointer 3 px from the cutter corner and the vertex: the corner wins.
    const near = top(1.03, 1);
    expect(snapCutterPoint(near[0], near[1], [1.03, 1, 0.6], candidates, top, 0.5, false)).toEqual({ point: [1, 1, 0.5], kind: 'cutter-corner' });
    // Near the vertex at (3, 3) only.
    const v = top(3.04, 2.97);
    expect(snapCutterPoint(v[0], v[1], [3.04, 2.97, 0.25], candidates, top, 0.5, false)).toEqual({ point: [3, 3, 0.2], kind: 'vertex' });
    // Nothing within 10 px: x and y go to the 0.5 grid, the height stays.
    const g = top(2.2, 1.8);
    expect(snapCutterPoint(g[0], g[1], [2.2, 1.8, 0.4], candidates, top, 0.5, false)).toEqual({ point: [2, 2, 0.4], kind: 'grid' });
    // No grid: the point as it is.
    expect(snapCutterPoint(g[0], g[1], [2.2, 1.8, 0.4], candidates, top, null, false)).toEqual({ point: [2.2, 1.8, 0.4], kind: 'none' });
  });

  it('places exactly where the pointer is with the modifier held', () => {
    const near = top(1.03, 1);
    expect(snapCutterPoint(near[0], near[1], [1.03, 1, 0.6], candidates, top, 0.5, true)).toEqual({ point: [1.03, 1, 0.6], kind: 'none' });
  });

  it('never snaps to a corner out of reach on screen or behind the camera', () => {
    const far = top(1.2, 1);
    expect(snapCutterPoint(far[0], far[1], [1.2, 1, 0.6], candidates, top, null, false).kind).toBe('none');
    const behind = () => null;
    expect(snapCutterPoint(400, 300, [1, 1, 0.5], candidates, behind, null, false).kind).toBe('none');
  });
});

describe('cutter drawing: self-intersection', () => {
  const square = [0, 0, 4, 0, 4, 4, 0, 4];

  it('tells touching segments from apart ones', () => {
    expect(segmentsTouch(0, 0, 4, 4, 0, 4, 4, 0)).toBe(true);
    expect(segmentsTouch(0, 0, 1, 1, 2, 2, 3, 3)).toBe(false);
    expect(segmentsTouch(0, 0, 2, 2, 1, 1, 3, 3)).toBe(true);
    expect(segmentsTouch(0, 0, 2, 0, 1, 0, 1, 5)).toBe(true);
    expect(segmentsTouch(0, 0, 2, 0, 1, 0.1, 1, 5)).toBe(false);
  });

  it('accepts a simple outline, open or closed', () => {
    expect(outlineFault(square, true)).toBeNull();
    expect(outlineFault(square, false)).toBeNull();
    expect(refuseClose(square)).toBeNull();
  });

  it('refuses a bow tie with the edges that cross', () => {
    const bowTie = [0, 0, 4, 4, 4, 0, 0, 4];
    const f = outlineFault(bowTie, true)!;
    expect(f.edges).toEqual([0, 2]);
    expect(refuseClose(bowTie)).toBe('the outline crosses itself: edge 3 (corners 3–4) crosses edge 1 (corners 1–2)');
    // Open, the first three edges of the bow tie already cross.
    expect(refuseCorner([0, 0, 4, 4, 4, 0], 0, 4)).toMatch(/crosses edge 1/);
  });

  it('refuses a closing edge that crosses, a repeated corner, a fold back and a flat outline', () => {
    // Open it is simple; closing it back to (0, 0) crosses edge 2.
    const hook = [0, 0, 4, 0, 4, 4, 6, 2];
    expect(outlineFault(hook, false)).toBeNull();
    expect(refuseClose(hook)).toMatch(/edge 4 \(corners 4–1\) crosses edge 2/);
    expect(refuseCorner(square, 4, 4)).toBe('that corner would make the outline cross itself: corner 5 is on corner 3');
    expect(refuseCorner([0, 0, 4, 0], 2, 0)).toMatch(/folds back over edge 1/);
    expect(refuseClose([0, 0, 1, 1, 2, 2])).toMatch(/folds back|on one line/);
    expect(refuseClose([0, 0, 1, 0])).toBe('a cutter needs three or more corners; 2 drawn');
  });
});
