import type { ScreenProjector } from './face-selection';
import type { GameRay, Vec3 } from './move-gizmo-math';
import { onAxisPlane } from './move-gizmo-math';

/**
 * The placeable gizmo's maths (issue 16 §4): the rotation ring about Z, the turn a drag
 * on it makes, and the rigid move of a placeable's footprint for the live preview. A GIT
 * Bearing is in radians, counter-clockwise about Z seen from above (shared/views/placement-overlays.ts
 * turns a marker's local x onto (cos b, sin b)).
 */

export interface Pose {
  x: number;
  y: number;
  z: number;
  /** Radians, counter-clockwise about Z. */
  bearing: number;
}

/** The ring's radius as a fraction of the gizmo's arrow length: outside the plane square, inside the arrow tips. */
export const RING_RADIUS = 0.8;
/** Segments the ring is drawn and hit-tested with. */
export const RING_SEGMENTS = 48;
const RING_REACH_PX = 7;

/** An angle brought into (−π, π]. */
export function wrapAngle(a: number): number {
  const t = a - 2 * Math.PI * Math.floor((a + Math.PI) / (2 * Math.PI));
  return t === -Math.PI ? Math.PI : t;
}

/**
 * The turn (radians, counter-clockwise) of a drag on the ring from `from` to `to` (points in
 * the ground plane through the centre), snapped to whole `stepDegrees` when given.
 */
export function turnBetween(centre: readonly number[], from: readonly number[], to: readonly number[], stepDegrees: number | null): number {
  const a0 = Math.atan2(from[1]! - centre[1]!, from[0]! - centre[0]!);
  const a1 = Math.atan2(to[1]! - centre[1]!, to[0]! - centre[0]!);
  const d = wrapAngle(a1 - a0);
  if (stepDegrees === null || !(stepDegrees > 0)) return d;
  const step = (stepDegrees * Math.PI) / 180;
  return Math.round(d / step) * step + 0;
}

/** Where a pointer ray meets the ground plane through the centre (for the ring's drag). */
export function ringDragPoint(ray: GameRay, centre: readonly number[]): Vec3 | null {
  return onAxisPlane(ray, centre, 2);
}

/** Points around the ring (game space, closed: the first repeated last). */
export function ringPoints(centre: readonly number[], radius: number, segments = RING_SEGMENTS): Vec3[] {
  const out: Vec3[] = [];
  for (let i = 0; i <= segments; i++) {
    const a = (i / segments) * 2 * Math.PI;
    out.push([centre[0]! + radius * Math.cos(a), centre[1]! + radius * Math.sin(a), centre[2]!]);
  }
  return out;
}

/** Whether canvas point (px, py) is on the ring as drawn (within a few pixels of it). */
export function onRing(px: number, py: number, centre: readonly number[], radius: number, project: ScreenProjector, reach = RING_REACH_PX): boolean {
  let prev: [number, number] | null = null;
  for (const p of ringPoints(centre, radius)) {
    const s = project(p[0], p[1], p[2]);
    if (s && prev) {
      const dx = s[0] - prev[0], dy = s[1] - prev[1];
      const len2 = dx * dx + dy * dy;
      const t = len2 > 0 ? Math.max(0, Math.min(1, ((px - prev[0]) * dx + (py - prev[1]) * dy) / len2)) : 0;
      if (Math.hypot(px - (prev[0] + dx * t), py - (prev[1] + dy * t)) <= reach) return true;
    }
    prev = s;
  }
  return false;
}

/** A point of the ring for a test to press on (the side facing +X). */
export function ringGrabPoint(centre: readonly number[], radius: number): Vec3 {
  return [centre[0]! + radius, centre[1]!, centre[2]!];
}

/**
 * Line segments (x, y, z of both ends each) carried rigidly from pose `from` to pose `to`:
 * turned about the old position by the change of bearing, then moved by the change of
 * position. What the drag preview draws of the placeable's footprint.
 */
export function placeSegments(segments: ArrayLike<number>, from: Pose, to: Pose): Float32Array {
  const turn = to.bearing - from.bearing;
  const c = Math.cos(turn), s = Math.sin(turn);
  const out = new Float32Array(segments.length);
  for (let i = 0; i + 2 < segments.length; i += 3) {
    const lx = segments[i]! - from.x, ly = segments[i + 1]! - from.y;
    out[i] = to.x + c * lx - s * ly;
    out[i + 1] = to.y + s * lx + c * ly;
    out[i + 2] = segments[i + 2]! + (to.z - from.z);
  }
  return out;
}

/**
 * The segments of a footprints view that belong to one placeable: each segment goes to the
 * placeable whose position is nearest its midpoint (in XY), and is kept when that is
 * `index` and it lies within `maxDistance`. The view does not say which object drew which
 * line; a footprint surrounds its own placeable's origin, so this holds unless two
 * placeables' footprints interleave, and it is only the drag preview (the re-bake that
 * follows draws the real outlines). One pass over the segments, times the placeables
 * within reach of the picked one.
 */
export function footprintOf(segments: ArrayLike<number>, positions: readonly (readonly number[])[], index: number, maxDistance: number): Float32Array {
  const me = positions[index];
  if (!me) return new Float32Array(0);
  // Only placeables near enough to compete for a segment within reach matter.
  const rivals = positions.filter((p, i) => i !== index && Math.hypot(p[0]! - me[0]!, p[1]! - me[1]!) <= 2 * maxDistance);
  const out: number[] = [];
  for (let i = 0; i + 5 < segments.length; i += 6) {
    const mx = (segments[i]! + segments[i + 3]!) / 2, my = (segments[i + 1]! + segments[i + 4]!) / 2;
    const d = Math.hypot(mx - me[0]!, my - me[1]!);
    if (d > maxDistance) continue;
    if (rivals.some((p) => Math.hypot(mx - p[0]!, my - p[1]!) < d)) continue;
    for (let k = 0; k < 6; k++) out.push(segments[i + k]!);
  }
  return Float32Array.from(out);
}

/** A circle on the ground (closed polyline), for the brush's radius. */
export function groundCircle(x: number, y: number, z: number, radius: number, segments = 64): Vec3[] {
  return ringPoints([x, y, z], radius, segments);
}
