import type { LevelContextPiece } from '../../model/level-context';
import { MDL_NODE_AABB, MDL_NODE_EMITTER, MDL_NODE_LIGHT, MDL_NODE_SABER, type KotorModel, type KotorModelNode } from './mdl-document';

/** A 3×4 affine transform, row-major: x' = m0 x + m1 y + m2 z + m3, … */
type Affine = Float64Array;

/**
 * A room model's render geometry as level context: every drawn trimesh node (render flag
 * on; not the walkmesh/AABB node, lights, emitters or lightsabers) flattened into one
 * 'room' piece through the node tree's transforms (each node: parent × translate(position)
 * × rotate(orientation)), then moved by `place` (the room's LYT position). The surface of
 * each triangle is its node's first texture (or the node name when it has none). Triangles
 * with a non-finite corner (a damaged model) are left out.
 */
export function kotorModelContextPieces(model: KotorModel, place: { x: number; y: number; z: number }, label: string): LevelContextPiece[] {
  const world: Affine[] = [];
  const drawn: KotorModelNode[] = [];
  let vertexCount = 0, triangleCount = 0;
  for (const node of model.nodes) {
    const parent = node.parent >= 0 ? world[node.parent]! : identity();
    world[node.index] = compose(parent, local(node));
    const mesh = node.mesh;
    if (!mesh || !mesh.render || mesh.vertexSource === 'none') continue;
    if (node.flags & (MDL_NODE_AABB | MDL_NODE_LIGHT | MDL_NODE_EMITTER | MDL_NODE_SABER)) continue;
    if (mesh.faces.length === 0) continue;
    drawn.push(node);
    vertexCount += mesh.vertices.length / 3;
    triangleCount += mesh.faces.length / 3;
  }
  if (triangleCount === 0) return [];
  const positions = new Float32Array(vertexCount * 3);
  const triangles = new Uint32Array(triangleCount * 3);
  const faceSurface = new Uint16Array(triangleCount);
  const surfaces: string[] = [];
  const surfaceIndex = new Map<string, number>();
  let v0 = 0, t0 = 0;
  for (const node of drawn) {
    const mesh = node.mesh!;
    const m = world[node.index]!;
    const nv = mesh.vertices.length / 3;
    for (let v = 0; v < nv; v++) {
      const x = mesh.vertices[3 * v]!, y = mesh.vertices[3 * v + 1]!, z = mesh.vertices[3 * v + 2]!;
      positions[3 * (v0 + v)] = m[0]! * x + m[1]! * y + m[2]! * z + m[3]! + place.x;
      positions[3 * (v0 + v) + 1] = m[4]! * x + m[5]! * y + m[6]! * z + m[7]! + place.y;
      positions[3 * (v0 + v) + 2] = m[8]! * x + m[9]! * y + m[10]! * z + m[11]! + place.z;
    }
    const texture = mesh.texture0 && mesh.texture0.toUpperCase() !== 'NULL' ? mesh.texture0.toLowerCase() : node.name;
    let s = surfaceIndex.get(texture);
    if (s === undefined) {
      s = surfaces.length;
      surfaces.push(texture);
      surfaceIndex.set(texture, s);
    }
    const nf = mesh.faces.length / 3;
    for (let f = 0; f < nf; f++) {
      // A triangle with a non-finite corner (a damaged model) is left out rather than drawn.
      let finite = true;
      for (let j = 0; j < 3; j++) {
        const o = 3 * (v0 + mesh.faces[3 * f + j]!);
        if (!Number.isFinite(positions[o]!) || !Number.isFinite(positions[o + 1]!) || !Number.isFinite(positions[o + 2]!)) finite = false;
      }
      if (!finite) continue;
      for (let j = 0; j < 3; j++) triangles[3 * t0 + j] = v0 + mesh.faces[3 * f + j]!;
      faceSurface[t0++] = s;
    }
    v0 += nv;
  }
  if (t0 === 0) return [];
  return [{ label, kind: 'room', positions, triangles: triangles.slice(0, 3 * t0), faceSurface: faceSurface.slice(0, t0), surfaces }];
}

function identity(): Affine {
  return Float64Array.from([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]);
}

/** translate(position) × rotate(orientation (w, x, y, z), normalised). */
function local(node: KotorModelNode): Affine {
  let [w, x, y, z] = node.orientation;
  const len = Math.hypot(w, x, y, z);
  if (!(len > 0) || !Number.isFinite(len)) [w, x, y, z] = [1, 0, 0, 0];
  else [w, x, y, z] = [w / len, x / len, y / len, z / len];
  const [px, py, pz] = node.position.map((v) => (Number.isFinite(v) ? v : 0)) as [number, number, number];
  return Float64Array.from([
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), px,
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), py,
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y), pz,
  ]);
}

function compose(a: Affine, b: Affine): Affine {
  const out = new Float64Array(12);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 4; c++) {
      out[4 * r + c] = a[4 * r]! * b[c]! + a[4 * r + 1]! * b[4 + c]! + a[4 * r + 2]! * b[8 + c]! + (c === 3 ? a[4 * r + 3]! : 0);
    }
  }
  return out;
}
