import { triangulateConstrained } from '../geometry/constrained-triangulation';
import { pointInRing, triangleArea2 } from '../geometry/polygon';
import { buildFaceAdjacency, NO_NEIGHBOR } from '../model/face-adjacency';
import { faceCount, vertexCount, type Walkmesh } from '../model/walkmesh';
import type { FillHoleCommand, InsertFacesCommand } from './edit-command';
import { EditError } from './edit-error';
import { checkVertex } from './edit-checks';
import { checkGeometryEdit } from './game-edit-rules';
import { facesOnEdge, newFaceAttributes } from './edit-topology';

/**
 * Faces closing the hole whose border runs along `edge`. The border loop is followed
 * through the border half-edges (edges with one face), the loop is projected on its own
 * plane (Newell normal) and triangulated there, and the new faces are wound opposite to
 * the border so they join their neighbours consistently. They are appended.
 */
export function compileFillHole(mesh: Walkmesh, cmd: FillHoleCommand): InsertFacesCommand {
  const kind = cmd.kind;
  checkGeometryEdit(mesh, kind);
  if (!Array.isArray(cmd.edge) || cmd.edge.length !== 2) throw new EditError(kind, 'edge must be two vertex indices');
  const [a, b] = cmd.edge;
  checkVertex(mesh, a, kind, 'edge[0]');
  checkVertex(mesh, b, kind, 'edge[1]');
  const uses = facesOnEdge(mesh, a, b);
  if (uses.length !== 1) throw new EditError(kind, `the edge ${a}–${b} has ${uses.length} faces; a hole's border edge has exactly one`);
  const loop = borderLoop(mesh, uses[0]!.face, uses[0]!.corner, kind);
  // The border runs the way its faces wind; the fill runs the other way.
  loop.reverse();
  const local = triangulateLoop(mesh, loop, kind);
  const attrs = newFaceAttributes(mesh, uses[0]!.face, cmd, kind);
  const k = local.length / 3;
  const F = faceCount(mesh);
  return {
    kind: 'insert-faces',
    at: Array.from({ length: k }, (_, i) => F + i),
    triangles: Array.from(local, (i) => loop[i]!),
    walkable: new Array<number>(k).fill(attrs.walkable),
    material: new Array<number>(k).fill(attrs.material),
    owner: new Array<number>(k).fill(attrs.owner),
  };
}

/** The vertices of the border loop through face f's edge at `corner`, in the faces' winding. */
function borderLoop(mesh: Walkmesh, f: number, corner: number, kind: string): number[] {
  const T = mesh.triangles;
  const adjacency = buildFaceAdjacency(T, vertexCount(mesh));
  const next = (he: number): number => {
    const face = (he / 3) | 0;
    return face * 3 + (he - face * 3 === 2 ? 0 : he - face * 3 + 1);
  };
  // Border half-edges by start vertex; a vertex where two holes touch has several.
  const byStart = new Map<number, number[]>();
  let borderCount = 0;
  const V = vertexCount(mesh);
  const nonManifold = new Set(adjacency.nonManifold.map((e) => e.a * V + e.b));
  for (let he = 0; he < T.length; he++) {
    const u = T[he]!, v = T[next(he)]!;
    if (adjacency.neighbors[he] !== NO_NEIGHBOR || u === v || nonManifold.has(Math.min(u, v) * V + Math.max(u, v))) continue;
    borderCount++;
    const list = byStart.get(T[he]!);
    if (list) list.push(he);
    else byStart.set(T[he]!, [he]);
  }
  const start = f * 3 + corner;
  const loop: number[] = [];
  const used = new Set<number>([start]);
  let he = start;
  for (let steps = 0; steps <= borderCount; steps++) {
    loop.push(T[he]!);
    const end = T[next(he)]!;
    if (end === T[start]) return loop;
    const candidates = (byStart.get(end) ?? []).filter((h) => !used.has(h));
    if (candidates.length === 0) break;
    he = candidates[0]!;
    used.add(he);
  }
  throw new EditError(kind, `the border through vertex ${T[start]} does not close into a loop (it is open or runs through a non-manifold edge)`);
}

/** Triangles (indices into `loop`) covering the loop, counter-clockwise about its Newell normal. */
function triangulateLoop(mesh: Walkmesh, loop: number[], kind: string): Uint32Array {
  const n = loop.length;
  if (n < 3) throw new EditError(kind, `the hole's border has ${n} vertices; at least 3 are needed`);
  const P = mesh.positions;
  let nx = 0, ny = 0, nz = 0;
  for (let i = 0; i < n; i++) {
    const p = loop[i]! * 3, q = loop[(i + 1) % n]! * 3;
    nx += (P[p + 1]! - P[q + 1]!) * (P[p + 2]! + P[q + 2]!);
    ny += (P[p + 2]! - P[q + 2]!) * (P[p]! + P[q]!);
    nz += (P[p]! - P[q]!) * (P[p + 1]! + P[q + 1]!);
  }
  const len = Math.hypot(nx, ny, nz);
  if (!(len > 1e-12)) throw new EditError(kind, 'the hole has no area (its border is a line or a point)');
  nx /= len; ny /= len; nz /= len;
  // A basis (e1, e2) of the plane with e1 × e2 = n, so the loop is counter-clockwise in it.
  const [hx, hy, hz] = Math.abs(nz) < 0.9 ? [0, 0, 1] : [1, 0, 0];
  let e1x = hy * nz - hz * ny, e1y = hz * nx - hx * nz, e1z = hx * ny - hy * nx;
  const l1 = Math.hypot(e1x, e1y, e1z);
  e1x /= l1; e1y /= l1; e1z /= l1;
  const e2x = ny * e1z - nz * e1y, e2y = nz * e1x - nx * e1z, e2z = nx * e1y - ny * e1x;
  const coords = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    const p = loop[i]! * 3;
    coords[i * 2] = P[p]! * e1x + P[p + 1]! * e1y + P[p + 2]! * e1z;
    coords[i * 2 + 1] = P[p]! * e2x + P[p + 1]! * e2y + P[p + 2]! * e2z;
  }
  if (n === 3) return Uint32Array.of(0, 1, 2);
  const segments = new Uint32Array(n * 2);
  for (let i = 0; i < n; i++) {
    segments[i * 2] = i;
    segments[i * 2 + 1] = (i + 1) % n;
  }
  let tris: Uint32Array | undefined;
  try {
    tris = insideTriangles(triangulateConstrained(coords, segments), coords);
  } catch {
    tris = undefined;
  }
  // The constrained triangulation needs a simple polygon with distinct points; a border
  // that touches itself is clipped ear by ear instead.
  if (!tris || tris.length !== (n - 2) * 3) tris = earClip(coords);
  if (tris.length !== (n - 2) * 3) throw new EditError(kind, `the hole's border (${n} vertices) crosses itself in its plane and cannot be filled`);
  return tris;
}

function insideTriangles(tris: Uint32Array, coords: Float64Array): Uint32Array {
  const out: number[] = [];
  for (let i = 0; i < tris.length; i += 3) {
    const a = tris[i]!, b = tris[i + 1]!, c = tris[i + 2]!;
    const x = (coords[a * 2]! + coords[b * 2]! + coords[c * 2]!) / 3;
    const y = (coords[a * 2 + 1]! + coords[b * 2 + 1]! + coords[c * 2 + 1]!) / 3;
    if (pointInRing(coords, x, y)) out.push(a, b, c);
  }
  return Uint32Array.from(out);
}

/** Ear clipping of a counter-clockwise ring, O(n²) (holes are small). */
function earClip(coords: Float64Array): Uint32Array {
  const idx = Array.from({ length: coords.length >> 1 }, (_, i) => i);
  const out: number[] = [];
  const x = (i: number) => coords[i * 2]!, y = (i: number) => coords[i * 2 + 1]!;
  let guard = idx.length * idx.length;
  while (idx.length > 3 && guard-- > 0) {
    let clipped = false;
    for (let i = 0; i < idx.length; i++) {
      const p = idx[(i + idx.length - 1) % idx.length]!, q = idx[i]!, r = idx[(i + 1) % idx.length]!;
      if (triangleArea2(x(p), y(p), x(q), y(q), x(r), y(r)) <= 0) continue;
      let blocked = false;
      for (const s of idx) {
        if (s === p || s === q || s === r) continue;
        if (triangleArea2(x(p), y(p), x(q), y(q), x(s), y(s)) >= 0 && triangleArea2(x(q), y(q), x(r), y(r), x(s), y(s)) >= 0 && triangleArea2(x(r), y(r), x(p), y(p), x(s), y(s)) >= 0) {
          blocked = true;
          break;
        }
      }
      if (blocked) continue;
      out.push(p, q, r);
      idx.splice(i, 1);
      clipped = true;
      break;
    }
    if (!clipped) break;
  }
  if (idx.length === 3) out.push(idx[0]!, idx[1]!, idx[2]!);
  return Uint32Array.from(out);
}
