import type { MoveVerticesCommand } from '../../../shared/edits/edit-command';
import { snapToGrid } from '../../../shared/edits/vertex-placement';
import { pointInRing } from '../../../shared/geometry/polygon';
import type { Walkmesh } from '../../../shared/model/walkmesh';
import type { ScreenProjector } from './face-selection';

/**
 * The move gizmo's handles, all in game axes (Z up): three arrows, three plane squares
 * and the centre, which moves in the ground (XY) plane like the move tool's plain drag.
 */
export type GizmoHandle = 'x' | 'y' | 'z' | 'xy' | 'xz' | 'yz' | 'centre';

export const GIZMO_HANDLES: readonly GizmoHandle[] = ['x', 'y', 'z', 'xy', 'xz', 'yz', 'centre'];

export type Vec3 = [number, number, number];

/** The game axes a handle moves along (1) or keeps (0). */
export function handleAxes(handle: GizmoHandle): Vec3 {
  switch (handle) {
    case 'x': return [1, 0, 0];
    case 'y': return [0, 1, 0];
    case 'z': return [0, 0, 1];
    case 'xz': return [1, 0, 1];
    case 'yz': return [0, 1, 1];
    default: return [1, 1, 0];
  }
}

/** Where the handles sit along an arrow, as fractions of the gizmo's length. */
export const ARROW_FROM = 0.22;
export const ARROW_GRAB = 0.72;
/** The plane squares span this much of the length along both of their axes. */
export const PLANE_FROM = 0.25;
export const PLANE_TO = 0.45;

/** Pixels within which a press takes an arrow or the centre. */
const ARROW_REACH = 9;
const CENTRE_REACH = 10;
/** An arrow or square seen nearly end-on is left out: its drag would be ill-defined. */
const MIN_ARROW_PIXELS = 14;
const MIN_PLANE_PIXELS2 = 60;

/**
 * The game-space length that covers `pixels` on screen at `distance` along the view
 * direction, for a perspective camera with vertical field of view `fov` (radians) on a
 * canvas `heightPx` tall: what keeps the gizmo one size however far the camera is.
 */
export function lengthForPixels(distance: number, fov: number, heightPx: number, pixels: number): number {
  return (2 * Math.abs(distance) * Math.tan(fov / 2) * pixels) / Math.max(heightPx, 1);
}

function unit(axis: number): Vec3 {
  return [axis === 0 ? 1 : 0, axis === 1 ? 1 : 0, axis === 2 ? 1 : 0];
}

function along(c: readonly number[], axis: number, t: number): Vec3 {
  const p: Vec3 = [c[0]!, c[1]!, c[2]!];
  p[axis] += t;
  return p;
}

/** The corners of a plane square (game space), in ring order. */
function planeCorners(c: readonly number[], a: number, b: number, length: number): Vec3[] {
  const lo = PLANE_FROM * length, hi = PLANE_TO * length;
  const at = (s: number, t: number) => along(along(c, a, s), b, t);
  return [at(lo, lo), at(hi, lo), at(hi, hi), at(lo, hi)];
}

const PLANES: Record<'xy' | 'xz' | 'yz', [number, number]> = { xy: [0, 1], xz: [0, 2], yz: [1, 2] };

/** The game-space point of a handle a test or a press aims at. */
export function handleGrabPoint(handle: GizmoHandle, centre: readonly number[], length: number): Vec3 {
  if (handle === 'centre') return [centre[0]!, centre[1]!, centre[2]!];
  if (handle === 'x' || handle === 'y' || handle === 'z') return along(centre, 'xyz'.indexOf(handle), ARROW_GRAB * length);
  const [a, b] = PLANES[handle];
  const mid = ((PLANE_FROM + PLANE_TO) / 2) * length;
  return along(along(centre, a, mid), b, mid);
}

function distanceToSegment(px: number, py: number, a: readonly number[], b: readonly number[]): number {
  const dx = b[0]! - a[0]!, dy = b[1]! - a[1]!;
  const len2 = dx * dx + dy * dy;
  const t = len2 > 0 ? Math.max(0, Math.min(1, ((px - a[0]!) * dx + (py - a[1]!) * dy) / len2)) : 0;
  return Math.hypot(px - (a[0]! + dx * t), py - (a[1]! + dy * t));
}

/**
 * The screen positions of the handles that can be taken with the camera as it is: an
 * arrow pointing at the camera, a square seen edge-on, or one whose grab point another
 * handle covers on screen, is left out.
 */
export function handleScreenPoints(centre: readonly number[], length: number, project: ScreenProjector, only?: readonly GizmoHandle[]): Partial<Record<GizmoHandle, [number, number]>> {
  const shown = visibleHandles(centre, length, project, only);
  const out: Partial<Record<GizmoHandle, [number, number]>> = {};
  for (const id of GIZMO_HANDLES) {
    const p = shown[id];
    if (p && pick(p[0], p[1], centre, length, project, shown) === id) out[id] = p;
  }
  return out;
}

/** The handles shown and takeable; `only` keeps a gizmo that shows some handles (NWN2 placeables) to those. */
function visibleHandles(centre: readonly number[], length: number, project: ScreenProjector, only?: readonly GizmoHandle[]): Partial<Record<GizmoHandle, [number, number]>> {
  const out = visibleHandlesAll(centre, length, project);
  if (only) for (const id of GIZMO_HANDLES) if (!only.includes(id)) delete out[id];
  return out;
}

function visibleHandlesAll(centre: readonly number[], length: number, project: ScreenProjector): Partial<Record<GizmoHandle, [number, number]>> {
  const out: Partial<Record<GizmoHandle, [number, number]>> = {};
  const c = project(centre[0]!, centre[1]!, centre[2]!);
  if (!c) return out;
  out.centre = c;
  for (let axis = 0; axis < 3; axis++) {
    const a = project(...along(centre, axis, ARROW_FROM * length));
    const b = project(...along(centre, axis, length));
    if (a && b && Math.hypot(b[0] - a[0], b[1] - a[1]) >= MIN_ARROW_PIXELS) {
      const g = project(...handleGrabPoint((['x', 'y', 'z'] as const)[axis]!, centre, length));
      if (g) out[(['x', 'y', 'z'] as const)[axis]!] = g;
    }
  }
  for (const id of ['xy', 'xz', 'yz'] as const) {
    const ring = planeRing(centre, length, id, project);
    if (ring && Math.abs(ringArea(ring)) >= MIN_PLANE_PIXELS2) {
      const g = project(...handleGrabPoint(id, centre, length));
      if (g) out[id] = g;
    }
  }
  return out;
}

function planeRing(centre: readonly number[], length: number, id: 'xy' | 'xz' | 'yz', project: ScreenProjector): number[] | null {
  const [a, b] = PLANES[id];
  const ring: number[] = [];
  for (const p of planeCorners(centre, a, b, length)) {
    const s = project(...p);
    if (!s) return null;
    ring.push(s[0], s[1]);
  }
  return ring;
}

function ringArea(ring: readonly number[]): number {
  let s = 0;
  for (let i = 0, n = ring.length / 2, j = n - 1; i < n; j = i++) s += ring[j * 2]! * ring[i * 2 + 1]! - ring[i * 2]! * ring[j * 2 + 1]!;
  return s / 2;
}

/**
 * The handle under a canvas point, or null: the centre first, then the nearest arrow
 * within reach, then a plane square the point is inside.
 */
export function handleAt(px: number, py: number, centre: readonly number[], length: number, project: ScreenProjector, only?: readonly GizmoHandle[]): GizmoHandle | null {
  return pick(px, py, centre, length, project, visibleHandles(centre, length, project, only));
}

function pick(px: number, py: number, centre: readonly number[], length: number, project: ScreenProjector, shown: Partial<Record<GizmoHandle, [number, number]>>): GizmoHandle | null {
  const c = shown.centre;
  if (!c) return null;
  if (Math.hypot(px - c[0], py - c[1]) <= CENTRE_REACH) return 'centre';
  let best: GizmoHandle | null = null;
  let bestD = ARROW_REACH;
  for (let axis = 0; axis < 3; axis++) {
    const id = (['x', 'y', 'z'] as const)[axis]!;
    if (!shown[id]) continue;
    const a = project(...along(centre, axis, ARROW_FROM * length));
    const b = project(...along(centre, axis, length));
    if (!a || !b) continue;
    const d = distanceToSegment(px, py, a, b);
    if (d <= bestD) {
      bestD = d;
      best = id;
    }
  }
  if (best) return best;
  for (const id of ['xy', 'xz', 'yz'] as const) {
    if (!shown[id]) continue;
    const ring = planeRing(centre, length, id, project);
    if (ring && pointInRing(ring, px, py)) return id;
  }
  return null;
}

/** A pointer ray in game space. */
export interface GameRay {
  origin: readonly number[];
  dir: readonly number[];
}

/**
 * Where along the game axis through `centre` the ray passes closest (the parameter from
 * `centre`), or null when the ray runs nearly parallel to the axis.
 */
export function closestOnAxis(ray: GameRay, centre: readonly number[], axis: number): number | null {
  const e = unit(axis);
  const d = ray.dir;
  const w: Vec3 = [centre[0]! - ray.origin[0]!, centre[1]! - ray.origin[1]!, centre[2]! - ray.origin[2]!];
  const b = e[0] * d[0]! + e[1] * d[1]! + e[2] * d[2]!;
  const c = d[0]! * d[0]! + d[1]! * d[1]! + d[2]! * d[2]!;
  const de = e[0] * w[0] + e[1] * w[1] + e[2] * w[2];
  const ee = d[0]! * w[0] + d[1]! * w[1] + d[2]! * w[2];
  const denom = c - b * b;
  if (!(c > 0) || denom < 1e-6 * c) return null;
  return (b * ee - c * de) / denom;
}

/** Where the ray meets the plane through `centre` across `normalAxis`, or null (parallel or behind). */
export function onAxisPlane(ray: GameRay, centre: readonly number[], normalAxis: number): Vec3 | null {
  const dn = ray.dir[normalAxis]!;
  // A ray grazing the plane (under about a degree) meets it absurdly far away.
  if (Math.abs(dn) < 0.02 * Math.hypot(ray.dir[0]!, ray.dir[1]!, ray.dir[2]!) || dn === 0) return null;
  const t = (centre[normalAxis]! - ray.origin[normalAxis]!) / dn;
  if (!(t > 0)) return null;
  return [ray.origin[0]! + ray.dir[0]! * t, ray.origin[1]! + ray.dir[1]! * t, ray.origin[2]! + ray.dir[2]! * t];
}

/**
 * The point a handle's drag is at for a pointer ray (game space): on the axis for an
 * arrow, in the plane through the centre for a square or the centre. Null when the ray
 * gives no answer (parallel, behind the camera).
 */
export function dragPoint(handle: GizmoHandle, ray: GameRay, centre: readonly number[]): Vec3 | null {
  if (handle === 'x' || handle === 'y' || handle === 'z') {
    const axis = 'xyz'.indexOf(handle);
    const t = closestOnAxis(ray, centre, axis);
    return t === null ? null : along(centre, axis, t);
  }
  const normal = handle === 'xz' ? 1 : handle === 'yz' ? 0 : 2;
  return onAxisPlane(ray, centre, normal);
}

/** The displacement between two drag points, kept to the handle's axes and snapped to the step. */
export function dragDisplacement(handle: GizmoHandle, from: readonly number[], to: readonly number[], step: number | null): Vec3 {
  const mask = handleAxes(handle);
  const d: Vec3 = [0, 0, 0];
  for (let k = 0; k < 3; k++) d[k] = mask[k] ? to[k]! - from[k]! : 0;
  return step ? snapDisplacement(d, step) : d;
}

/** Each component rounded to a whole number of steps (never -0). */
export function snapDisplacement(d: readonly number[], step: number): Vec3 {
  if (!(step > 0) || !Number.isFinite(step)) throw new Error(`grid step is ${step}, not a positive size`);
  return [0, 1, 2].map((k) => Math.round(d[k]! / step) * step + 0) as Vec3;
}

/**
 * The move the gizmo makes: every vertex displaced by `d`. With a step, the moved
 * horizontal axes of the result are rounded to the grid as the Snap button does; the
 * axes the handle does not move are left exactly as they are, and height is never
 * rounded (only the displacement is), so a Z drag changes nothing but Z.
 */
export function gizmoMoveCommand(mesh: Walkmesh, vertices: readonly number[], d: readonly number[], handle: GizmoHandle, step: number | null): MoveVerticesCommand {
  const P = mesh.positions;
  const raw: number[] = [];
  for (const v of vertices) raw.push(P[v * 3]! + d[0]!, P[v * 3 + 1]! + d[1]!, P[v * 3 + 2]! + d[2]!);
  const mask = handleAxes(handle);
  let positions = raw.map(Math.fround);
  if (step && (mask[0] || mask[1])) {
    const snapped = snapToGrid(raw, step, 'xy');
    positions = positions.map((c, i) => (i % 3 < 2 && mask[i % 3] ? snapped[i]! : c));
  }
  // An unmoved axis keeps its stored float exactly (no round trip through a sum).
  for (let i = 0; i < vertices.length; i++) for (let k = 0; k < 3; k++) if (!mask[k]) positions[i * 3 + k] = P[vertices[i]! * 3 + k]!;
  return { kind: 'move-vertices', vertices: vertices.slice(), positions };
}

/** The centroid of the vertices (game space), or null for none. */
export function centroidOf(mesh: Walkmesh, vertices: readonly number[]): Vec3 | null {
  if (vertices.length === 0) return null;
  const c: Vec3 = [0, 0, 0];
  for (const v of vertices) for (let k = 0; k < 3; k++) c[k] += mesh.positions[v * 3 + k]!;
  return [c[0] / vertices.length, c[1] / vertices.length, c[2] / vertices.length];
}

/**
 * The edges (vertex pairs, each once) of every face that uses a moved vertex: what the
 * drag preview draws at the moved positions. One pass over the faces.
 */
export function affectedEdges(mesh: Walkmesh, vertices: readonly number[]): Uint32Array {
  const n = mesh.positions.length / 3;
  const moved = new Uint8Array(n);
  for (const v of vertices) if (v < n) moved[v] = 1;
  const T = mesh.triangles;
  const seen = new Set<number>();
  const out: number[] = [];
  for (let f = 0; f * 3 + 2 < T.length; f++) {
    const a = T[f * 3]!, b = T[f * 3 + 1]!, c = T[f * 3 + 2]!;
    if (!moved[a] && !moved[b] && !moved[c]) continue;
    for (const [p, q] of [[a, b], [b, c], [c, a]] as const) {
      const lo = Math.min(p, q), hi = Math.max(p, q);
      const key = lo * n + hi;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(lo, hi);
    }
  }
  return Uint32Array.from(out);
}
