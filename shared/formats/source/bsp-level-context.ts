import type { LevelContextPiece } from '../../model/level-context';
import { entityValue, GOLDSRC_BSP_FORMAT, SURF, type BspMap } from './bsp-document';
import { displacementSide, surfedgeVertex, writeDisplacementGrid, writeDisplacementTriangles } from './bsp-displacements';

/**
 * The level context of a compiled map: the world (model 0) as one `world` piece and each
 * brush entity's model as a `model` piece (`water` for func_water), placed by its entity's
 * origin (and, in Source, its angles). Faces are fan-triangulated, displacements drawn as their grids instead of
 * the face they replace; triangles face the way their plane does (counter-clockwise seen
 * from the front), so a floor's normal points up. `faceSurface` names each triangle's
 * texture. Faces nobody sees are left out: sky, nodraw, tool textures (trigger, clip,
 * hint, skip, origin…), faces whose texinfo flags them SKY, NODRAW, TRIGGER, HINT or SKIP,
 * and brush entities that are never drawn (isInvisibleEntity).
 * Memory: at most 3 floats per surfedge plus 3 per displacement vertex, 3 indices per
 * surfedge and per displacement triangle: bounded by the lumps read.
 */
export function bspLevelContextPieces(map: BspMap): LevelContextPiece[] {
  const hidden = hiddenTexinfo(map);
  const pieces: LevelContextPiece[] = [];
  if (map.models.count === 0) return pieces;
  const world = modelPiece(map, 0, hidden, `world (${baseName(map.fileName)})`, 'world', undefined);
  if (world) pieces.push(world);
  const used = new Uint8Array(map.models.count);
  const E = map.entities;
  for (let e = 0; e < E.count; e++) {
    const model = entityValue(E, e, 'model');
    if (!model || !/^\*\d+$/.test(model)) continue;
    const m = Number(model.slice(1));
    if (m <= 0 || m >= map.models.count || used[m]) continue;
    used[m] = 1;
    const classname = entityValue(E, e, 'classname') ?? 'entity';
    if (isInvisibleEntity(classname, entityValue(E, e, 'rendermode'), entityValue(E, e, 'renderamt'))) continue;
    const name = entityValue(E, e, 'targetname');
    const label = `${classname}${name ? ` "${name}"` : ''} ${model}`;
    // func_water (GoldSrc and Source) is a liquid volume: drawn as water, never stood on.
    const kind = classname.toLowerCase() === 'func_water' ? 'water' : 'model';
    const piece = modelPiece(map, m, hidden, label, kind, placement(map, entityValue(E, e, 'origin'), entityValue(E, e, 'angles')));
    if (piece) pieces.push(piece);
  }
  return pieces;
}

/** Brush entities the games never draw, whatever their texture: volumes and zones. */
const INVISIBLE_CLASSES = new Set(['func_buyzone', 'func_bomb_target', 'func_hostage_rescue', 'func_escapezone', 'func_vip_safetyzone', 'func_ladder', 'func_areaportal', 'func_clip_vphysics', 'func_nav_blocker', 'func_nav_avoid', 'func_nav_prefer', 'func_occluder', 'func_precipitation', 'func_viscluster', 'env_bubbles']);

/**
 * Whether a brush entity is never drawn: triggers and zones by class, and GoldSrc's
 * invisible brushes (a render mode other than normal with render amount 0, how mappers
 * hide func_walls and zones drawn with ordinary textures).
 */
export function isInvisibleEntity(classname: string, rendermode: string | undefined, renderamt: string | undefined): boolean {
  const c = classname.toLowerCase();
  if (c.startsWith('trigger_') || INVISIBLE_CLASSES.has(c)) return true;
  return rendermode !== undefined && Number(rendermode) !== 0 && renderamt !== undefined && Number(renderamt) === 0;
}

/** The texture names a player never sees (checked lower-case). */
const GOLDSRC_HIDDEN = new Set(['sky', 'aaatrigger', 'clip', 'clipbevel', 'clipbevelbrush', 'cliphull1', 'cliphull2', 'cliphull3', 'null', 'nodraw', 'origin', 'hint', 'skip', 'bevel', 'solidhint', 'noclip']);
/** Source tool materials that are drawn (everything else under tools/ is a compile or trigger tool). */
const SOURCE_DRAWN_TOOLS = new Set(['tools/toolsblack', 'tools/toolswhite']);
const SOURCE_HIDDEN_FLAGS = SURF.SKY2D | SURF.SKY | SURF.TRIGGER | SURF.NODRAW | SURF.HINT | SURF.SKIP;

/** Whether a texture name is one the game never draws. */
export function isHiddenTexture(format: BspMap['format'], name: string): boolean {
  const n = name.toLowerCase().replace(/\\/g, '/');
  if (format === GOLDSRC_BSP_FORMAT) return GOLDSRC_HIDDEN.has(n);
  // Cubemap-patched materials are renamed maps/<map>/<material>_<x>_<y>_<z>.
  const plain = n.startsWith('maps/') ? n.replace(/^maps\/[^/]*\//, '').replace(/_-?\d+_-?\d+_-?\d+$/, '') : n;
  return plain.startsWith('tools/') && !SOURCE_DRAWN_TOOLS.has(plain);
}

/** 1 per texinfo whose faces are left out. */
function hiddenTexinfo(map: BspMap): Uint8Array {
  const T = map.texinfo;
  const hiddenTexture = map.textures.map((t) => isHiddenTexture(map.format, t));
  const out = new Uint8Array(T.count);
  for (let i = 0; i < T.count; i++) {
    const t = T.texture[i]!;
    const byName = t >= 0 && hiddenTexture[t]!;
    const byFlag = map.format !== GOLDSRC_BSP_FORMAT && (T.flags[i]! & SOURCE_HIDDEN_FLAGS) !== 0;
    out[i] = byName || byFlag ? 1 : 0;
  }
  return out;
}

/** A rotation (row-major 3×3) and translation, or none for the identity. */
interface Placement {
  rotation: Float64Array | undefined;
  origin: [number, number, number];
}

function placement(map: BspMap, originText: string | undefined, anglesText: string | undefined): Placement | undefined {
  const origin = parseVector(originText);
  // GoldSrc brush entities use "angles" as a move direction (func_door), not a rotation.
  const angles = map.format === GOLDSRC_BSP_FORMAT ? undefined : parseVector(anglesText);
  const rotation = angles && (angles[0] !== 0 || angles[1] !== 0 || angles[2] !== 0) ? angleMatrix(angles) : undefined;
  if (!origin && !rotation) return undefined;
  return { rotation, origin: origin ?? [0, 0, 0] };
}

function parseVector(text: string | undefined): [number, number, number] | undefined {
  if (!text) return undefined;
  const parts = text.trim().split(/\s+/).map(Number);
  if (parts.length !== 3 || !parts.every(Number.isFinite)) return undefined;
  return [parts[0]!, parts[1]!, parts[2]!];
}

/** Source's AngleMatrix: pitch (about y), yaw (about z), roll (about x), in degrees. */
function angleMatrix([pitch, yaw, roll]: [number, number, number]): Float64Array {
  const r = Math.PI / 180;
  const sp = Math.sin(pitch * r), cp = Math.cos(pitch * r);
  const sy = Math.sin(yaw * r), cy = Math.cos(yaw * r);
  const sr = Math.sin(roll * r), cr = Math.cos(roll * r);
  return Float64Array.of(
    cp * cy, sr * sp * cy - cr * sy, cr * sp * cy + sr * sy,
    cp * sy, sr * sp * sy + cr * cy, cr * sp * sy - sr * cy,
    -sp, sr * cp, cr * cp,
  );
}

function modelPiece(map: BspMap, model: number, hidden: Uint8Array, label: string, kind: 'world' | 'model' | 'water', place: Placement | undefined): LevelContextPiece | undefined {
  const F = map.faces;
  const first = map.models.firstFace[model]!;
  const end = first + map.models.faceCount[model]!;
  // Pass 1: sizes, so each array is allocated once at its final length.
  let vertexCount = 0;
  let indexCount = 0;
  for (let f = first; f < end; f++) {
    if (!drawn(map, f, hidden)) continue;
    const d = F.dispinfo[f]!;
    if (d >= 0) {
      const side = displacementSide(map, d);
      vertexCount += side * side;
      indexCount += 6 * (side - 1) * (side - 1);
    } else {
      vertexCount += F.edgeCount[f]!;
      indexCount += 3 * (F.edgeCount[f]! - 2);
    }
  }
  if (indexCount === 0) return undefined;
  const positions = new Float32Array(vertexCount * 3);
  const triangles = new Uint32Array(indexCount);
  const faceSurface = new Uint16Array(indexCount / 3);
  const surfaces: string[] = [];
  const surfaceOf = new Map<number, number>();
  let v = 0;
  let t = 0;
  for (let f = first; f < end; f++) {
    if (!drawn(map, f, hidden)) continue;
    const [nx, ny, nz] = frontNormal(map, f);
    const cycle = cycleNormal(map, f);
    const cycleFacesFront = cycle[0] * nx + cycle[1] * ny + cycle[2] * nz >= 0;
    const before = t;
    const d = F.dispinfo[f]!;
    if (d >= 0) {
      const side = displacementSide(map, d);
      writeDisplacementGrid(map, d, positions, v * 3);
      // The grid's triangles wind against the face's edge cycle (see writeDisplacementTriangles).
      t += writeDisplacementTriangles(side, v, cycleFacesFront, triangles, t);
      v += side * side;
    } else {
      const n = F.edgeCount[f]!;
      const fe = F.firstEdge[f]!;
      for (let k = 0; k < n; k++) {
        const p = surfedgeVertex(map, fe + k) * 3;
        positions[(v + k) * 3] = map.vertices[p]!;
        positions[(v + k) * 3 + 1] = map.vertices[p + 1]!;
        positions[(v + k) * 3 + 2] = map.vertices[p + 2]!;
      }
      for (let k = 1; k + 1 < n; k++) {
        triangles[t++] = v;
        triangles[t++] = v + (cycleFacesFront ? k : k + 1);
        triangles[t++] = v + (cycleFacesFront ? k + 1 : k);
      }
      v += n;
    }
    const surface = surfaceIndex(map, f, surfaces, surfaceOf);
    faceSurface.fill(surface, before / 3, t / 3);
  }
  if (place) transform(positions, place);
  return { label, kind, positions, triangles, faceSurface, surfaces };
}

function drawn(map: BspMap, f: number, hidden: Uint8Array): boolean {
  const ti = map.faces.texinfo[f]!;
  if (ti >= 0 && hidden[ti]) return false;
  if (map.faces.dispinfo[f]! >= 0) return true;
  return map.faces.edgeCount[f]! >= 3;
}

/** The face's plane normal, turned to the side the face is seen from. */
function frontNormal(map: BspMap, f: number): [number, number, number] {
  const p = map.faces.plane[f]! * 4;
  const s = map.faces.side[f] ? -1 : 1;
  if (p + 2 >= map.planes.length) return cycleNormal(map, f);
  return [map.planes[p]! * s, map.planes[p + 1]! * s, map.planes[p + 2]! * s];
}

/** Newell's normal of the face's vertex cycle in surfedge order (right-handed). */
function cycleNormal(map: BspMap, f: number): [number, number, number] {
  const n = map.faces.edgeCount[f]!;
  const fe = map.faces.firstEdge[f]!;
  const V = map.vertices;
  let x = 0, y = 0, z = 0;
  for (let k = 0; k < n; k++) {
    const a = surfedgeVertex(map, fe + k) * 3;
    const b = surfedgeVertex(map, fe + ((k + 1) % n)) * 3;
    x += (V[a + 1]! - V[b + 1]!) * (V[a + 2]! + V[b + 2]!);
    y += (V[a + 2]! - V[b + 2]!) * (V[a]! + V[b]!);
    z += (V[a]! - V[b]!) * (V[a + 1]! + V[b + 1]!);
  }
  return [x, y, z];
}

const MAX_SURFACES = 0xffff;

function surfaceIndex(map: BspMap, f: number, surfaces: string[], surfaceOf: Map<number, number>): number {
  const ti = map.faces.texinfo[f]!;
  const texture = ti >= 0 ? map.texinfo.texture[ti]! : -1;
  let s = surfaceOf.get(texture);
  if (s === undefined) {
    // A hostile file may name more textures than a Uint16 counts; the rest share one name.
    if (surfaces.length >= MAX_SURFACES) return MAX_SURFACES - 1;
    s = surfaces.length;
    surfaces.push(texture >= 0 ? map.textures[texture] || '(unnamed)' : '(no texture)');
    if (surfaces.length === MAX_SURFACES) surfaces[s] = '(other textures)';
    surfaceOf.set(texture, s);
  }
  return s;
}

function transform(positions: Float32Array, place: Placement): void {
  const R = place.rotation;
  const [ox, oy, oz] = place.origin;
  for (let i = 0; i < positions.length; i += 3) {
    const x = positions[i]!, y = positions[i + 1]!, z = positions[i + 2]!;
    if (R) {
      positions[i] = R[0]! * x + R[1]! * y + R[2]! * z + ox;
      positions[i + 1] = R[3]! * x + R[4]! * y + R[5]! * z + oy;
      positions[i + 2] = R[6]! * x + R[7]! * y + R[8]! * z + oz;
    } else {
      positions[i] = x + ox;
      positions[i + 1] = y + oy;
      positions[i + 2] = z + oz;
    }
  }
}

function baseName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return path.slice(i + 1);
}
