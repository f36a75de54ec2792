import { ModelMappingError } from '../../model/model-mapping-error';
import type { Walkmesh } from '../../model/walkmesh';
import {
  ASWM_CURRENT_VERSION,
  cloneAswm,
  TILES_FLAGS_TRN,
  TILES_FLAGS_TRX,
  TriangleFlag,
  type AswmDocument,
  unbakedAswm,
} from './aswm-document';
import { triangleCentre } from './aswm-geometry';
import { clearBakedTables, rebuildTopology } from './aswm-topology';
import { convertAswmVersion } from './aswm-version';
import { aswmPacketOf, newTrxDocument, type AswmPacket, type TrxDocument } from './trx-document';

/**
 * A coordinate within this relative distance of the stored one counts as unmoved and keeps
 * the stored bits: Blender prints 6 decimals, which cannot always restore a float32.
 */
const KEEP_TOLERANCE = 1e-5;
/** Tile width of a file made without a base (interiors, the only verified case). */
const NEW_FILE_TILE_WIDTH = 9;

/** A face's corners in stored order and its u16 flags. */
interface StoredFaces {
  triVertices: Uint32Array;
  flags: Uint16Array;
}

/**
 * Applies a walkmesh to a TRN/TRX document (the inverse of trxToWalkmeshes).
 *
 * - Same triangles at the same places (in any face order, with any vertex numbering,
 *   within a coordinate tolerance) and the same flags: `base` itself is returned, so the
 *   file is written back byte for byte.
 * - Same geometry, other flags: the flags are applied to the stored triangles. Surface
 *   bits keep the baked tables; a changed walkable bit empties them (clearBakedTables).
 * - Other geometry: rebuildTopology derives edges, links, centres, normals, dots and
 *   tiles; the baked tables come out empty and must be baked again.
 *
 * Every edit writes ASWM version 0x6C. Faces keep their tile (faceOwner) where the tile
 * still holds their centre. Without a base, a new interior file (9 m tiles, grid from the
 * mesh's extent, TRWH and ASWM packets) is made: a TRX (tiles flags 31) when a face has
 * the clockwise flag, else a TRN (15).
 */
export function trxFromWalkmeshes(meshes: readonly Walkmesh[], base: TrxDocument | undefined): TrxDocument {
  if (meshes.length !== 1) throw new ModelMappingError(`a TRN/TRX file holds one walkmesh, not ${meshes.length}`);
  const mesh = meshes[0]!;
  const faces = storedFaces(mesh);
  if (!base) return newDocument(mesh, faces);
  const packet = aswmPacketOf(base);
  if (!packet) throw new ModelMappingError('the base file has no ASWM walkmesh packet to apply the walkmesh to');
  const a = packet.aswm;

  const snap = new LazySnap(a);
  const faceToBase = matchFaces(mesh, faces, a, snap);
  if (faceToBase) {
    let walkableChanged = false;
    let flagsChanged = false;
    for (let f = 0; f < faceToBase.length; f++) {
      const diff = faces.flags[f]! ^ a.triFlags[faceToBase[f]!]!;
      if (diff !== 0) flagsChanged = true;
      if (diff & TriangleFlag.walkable) walkableChanged = true;
    }
    if (!flagsChanged) return base;
    let next = convertAswmVersion(cloneAswm(a), ASWM_CURRENT_VERSION);
    for (let f = 0; f < faceToBase.length; f++) next.triFlags[faceToBase[f]!] = faces.flags[f]!;
    if (walkableChanged) next = clearBakedTables(next);
    return withAswm(base, packet, next);
  }

  const input: AswmDocument = { ...a, vertices: vertexBits(mesh, a, snap), triVertices: faces.triVertices, triFlags: faces.flags };
  const rebuilt = rebuildTopology(input, { preferredTile: mesh.faceOwner, describeTriangle: (i) => `face ${i}` });
  return withAswm(base, packet, rebuilt);
}

function withAswm(base: TrxDocument, packet: AswmPacket, aswm: AswmDocument): TrxDocument {
  return { ...base, packets: base.packets.map((p) => (p === packet ? { ...packet, aswm } : p)) };
}

/** Corners back in stored order (0x04 faces were given to the model reversed) and u16 flags. */
function storedFaces(mesh: Walkmesh): StoredFaces {
  const T = mesh.triangles.length / 3;
  const triVertices = mesh.triangles.slice();
  const flags = new Uint16Array(T);
  for (let f = 0; f < T; f++) {
    const m = mesh.faceMaterial[f]!;
    if (m > 0xffff) throw new ModelMappingError(`face ${f}: material 0x${m.toString(16)} is not a 16-bit NWN2 triangle flag set`);
    const v = (m & ~TriangleFlag.walkable) | (mesh.faceWalkable[f] ? TriangleFlag.walkable : 0);
    flags[f] = v;
    if (v & TriangleFlag.clockwise) {
      triVertices[f * 3 + 1] = mesh.triangles[f * 3 + 2]!;
      triVertices[f * 3 + 2] = mesh.triangles[f * 3 + 1]!;
    }
  }
  return { triVertices, flags };
}

function close(m: number, b: number): boolean {
  return Math.abs(m - b) <= KEEP_TOLERANCE * Math.max(1, Math.abs(b));
}

/**
 * For each face, the stored triangle with the same corners (within the tolerance) in the
 * same order, or undefined when some face has none. Tries face-for-face first (a model
 * from trxToWalkmeshes or an OBJ written by Walkbench), then any face order (Blender
 * groups faces by material) through a spatial hash of the stored vertices.
 */
function matchFaces(mesh: Walkmesh, faces: StoredFaces, a: AswmDocument, lazy: LazySnap): Uint32Array | undefined {
  const T = faces.flags.length;
  if (T !== a.triFlags.length) return undefined;
  const mp = mesh.positions;
  const mBits = new Uint32Array(mp.buffer, mp.byteOffset, mp.length);
  const bp = new Float32Array(a.vertices.buffer, a.vertices.byteOffset, a.vertices.length);
  const sameVertex = (mv: number, bv: number) => {
    for (let k = 0; k < 3; k++) {
      if (mBits[mv * 3 + k] !== a.vertices[bv * 3 + k] && !close(mp[mv * 3 + k]!, bp[bv * 3 + k]!)) return false;
    }
    return true;
  };
  let inOrder = true;
  for (let i = 0; i < T * 3 && inOrder; i++) inOrder = sameVertex(faces.triVertices[i]!, a.triVertices[i]!);
  if (inOrder) {
    const identity = new Uint32Array(T);
    for (let f = 0; f < T; f++) identity[f] = f;
    return identity;
  }

  const snap = lazy.get();
  const modelVertices = mp.length / 3;
  const canonicalOfModel = new Int32Array(modelVertices).fill(-2);
  const canonical = (mv: number) => {
    if (canonicalOfModel[mv] === -2) {
      const bv = snap.find(mp[mv * 3]!, mp[mv * 3 + 1]!, mp[mv * 3 + 2]!);
      canonicalOfModel[mv] = bv < 0 ? -1 : snap.canonical[bv]!;
    }
    return canonicalOfModel[mv]!;
  };
  // A face's key: its three canonical vertices, packed in one number while that is exact.
  const n = bp.length / 3;
  const key = n * n * n < Number.MAX_SAFE_INTEGER ? (c0: number, c1: number, c2: number): number | string => (c0 * n + c1) * n + c2 : (c0: number, c1: number, c2: number): number | string => `${c0},${c1},${c2}`;
  const byKey = new Map<number | string, number[]>();
  for (let t = 0; t < T; t++) {
    const k = key(snap.canonical[a.triVertices[t * 3]!]!, snap.canonical[a.triVertices[t * 3 + 1]!]!, snap.canonical[a.triVertices[t * 3 + 2]!]!);
    const list = byKey.get(k);
    if (list) list.push(t);
    else byKey.set(k, [t]);
  }
  const used = new Map<number | string, number>();
  const out = new Uint32Array(T);
  for (let f = 0; f < T; f++) {
    const c0 = canonical(faces.triVertices[f * 3]!);
    const c1 = canonical(faces.triVertices[f * 3 + 1]!);
    const c2 = canonical(faces.triVertices[f * 3 + 2]!);
    if (c0 < 0 || c1 < 0 || c2 < 0) return undefined;
    const fk = key(c0, c1, c2);
    const list = byKey.get(fk);
    const k = used.get(fk) ?? 0;
    if (!list || k >= list.length) return undefined;
    out[f] = list[k]!;
    used.set(fk, k + 1);
  }
  return out;
}

/** The model's vertices as float bits, keeping the stored bits of every vertex that did not move. */
function vertexBits(mesh: Walkmesh, a: AswmDocument, lazy: LazySnap): Uint32Array {
  const mp = mesh.positions;
  const out = new Uint32Array(mp.slice().buffer);
  const snap = lazy.get();
  for (let v = 0; v < mp.length / 3; v++) {
    const bv = snap.find(mp[v * 3]!, mp[v * 3 + 1]!, mp[v * 3 + 2]!);
    if (bv >= 0) out.set(a.vertices.subarray(bv * 3, bv * 3 + 3), v * 3);
  }
  return out;
}

/** The stored vertices' spatial hash, built on first use and then shared. */
class LazySnap {
  private snap: VertexSnap | undefined;
  constructor(private readonly a: AswmDocument) {}
  get(): VertexSnap {
    this.snap ??= new VertexSnap(new Float32Array(this.a.vertices.buffer, this.a.vertices.byteOffset, this.a.vertices.length));
    return this.snap;
  }
}

/** Cell edge of the spatial hash: at least twice the largest tolerance in an NWN2 area. */
const CELL = 0.02;

/**
 * Stored vertices bucketed by position, to find the one a model vertex stands for. Stored
 * vertices at the same place (within the tolerance) share one canonical index, so faces
 * match however the duplicates were numbered.
 */
class VertexSnap {
  private readonly cells = new Map<number, number[]>();
  readonly canonical: Int32Array;

  constructor(private readonly p: Float32Array) {
    const n = p.length / 3;
    this.canonical = new Int32Array(n);
    for (let v = 0; v < n; v++) {
      const earlier = this.find(p[v * 3]!, p[v * 3 + 1]!, p[v * 3 + 2]!);
      this.canonical[v] = earlier < 0 ? v : this.canonical[earlier]!;
      const key = cellKey(Math.floor(p[v * 3]! / CELL), Math.floor(p[v * 3 + 1]! / CELL), Math.floor(p[v * 3 + 2]! / CELL));
      const list = this.cells.get(key);
      if (list) list.push(v);
      else this.cells.set(key, [v]);
    }
  }

  /** The nearest stored vertex within the tolerance, or -1. */
  find(x: number, y: number, z: number): number {
    if (!Number.isFinite(x + y + z)) return -1;
    const ix = Math.floor(x / CELL);
    const iy = Math.floor(y / CELL);
    const iz = Math.floor(z / CELL);
    const p = this.p;
    let best = -1;
    let bestDistance = Infinity;
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (let dz = -1; dz <= 1; dz++) {
          const list = this.cells.get(cellKey(ix + dx, iy + dy, iz + dz));
          if (!list) continue;
          for (const v of list) {
            const bx = p[v * 3]!, by = p[v * 3 + 1]!, bz = p[v * 3 + 2]!;
            if (!close(x, bx) || !close(y, by) || !close(z, bz)) continue;
            const d = Math.abs(x - bx) + Math.abs(y - by) + Math.abs(z - bz);
            if (d < bestDistance || (d === bestDistance && v < best)) {
              best = v;
              bestDistance = d;
            }
          }
        }
      }
    }
    return best;
  }
}

function cellKey(ix: number, iy: number, iz: number): number {
  // Collisions only cost a few extra distance checks.
  return (Math.imul(ix, 73856093) ^ Math.imul(iy, 19349663) ^ Math.imul(iz, 83492791)) >>> 0;
}

/** A new interior file from the geometry alone. */
function newDocument(mesh: Walkmesh, faces: StoredFaces): TrxDocument {
  const p = mesh.positions;
  for (let v = 0; v < p.length / 3; v++) {
    const x = p[v * 3]!;
    const y = p[v * 3 + 1]!;
    if (!(x >= 0 && y >= 0)) throw new ModelMappingError(`vertex ${v} is at (${x}, ${y}); an NWN2 area starts at (0, 0), so every x and y must be 0 or more`);
  }
  // The grid must hold every centre (tiles are [x·w, (x+1)·w)), and no more.
  const centres = new Float32Array(faces.flags.length * 2);
  for (let f = 0; f < faces.flags.length; f++) triangleCentre(p, faces.triVertices, f, centres);
  let maxX = 0;
  let maxY = 0;
  for (let f = 0; f < faces.flags.length; f++) {
    maxX = Math.max(maxX, centres[f * 2]!);
    maxY = Math.max(maxY, centres[f * 2 + 1]!);
  }
  const gridWidth = Math.floor(maxX / NEW_FILE_TILE_WIDTH) + 1;
  const gridHeight = Math.floor(maxY / NEW_FILE_TILE_WIDTH) + 1;
  const clockwise = faces.flags.some((f) => (f & TriangleFlag.clockwise) !== 0);
  const tilesFlags = clockwise ? TILES_FLAGS_TRX : TILES_FLAGS_TRN;
  const input = unbakedAswm({
    vertices: new Uint32Array(p.slice().buffer),
    triVertices: faces.triVertices,
    triFlags: faces.flags,
    tilesFlags,
    tileWidth: NEW_FILE_TILE_WIDTH,
    gridWidth,
    gridHeight,
    borderSize: 0,
  });
  const aswm = rebuildTopology(input, {
    tileSizes: clockwise ? 'zero' : 'width',
    describeTriangle: (i) => `face ${i}`,
  });
  return newTrxDocument(aswm, { width: gridWidth, height: gridHeight });
}
