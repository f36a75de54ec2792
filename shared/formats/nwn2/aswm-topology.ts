import { ModelMappingError } from '../../model/model-mapping-error';
import {
  ASWM_CURRENT_VERSION,
  bitsOfFloat,
  emptyIslandPaths,
  emptyIslands,
  emptyTiles,
  floatOfBits,
  floatView,
  NONE16,
  NONE32,
  triangleCountOf,
  type AswmDocument,
} from './aswm-document';
import { deriveTriangle, triangleCentre } from './aswm-geometry';

export interface RebuildOptions {
  /**
   * Tile size_x/size_y of non-empty tiles: the tile width (what the toolset writes in a
   * TRN) or 0 (TRX). Defaults to the convention the document already follows; with the
   * width convention, a tile keeps the size it had (the toolset sizes a few empty tiles).
   */
  tileSizes?: 'width' | 'zero';
  /**
   * A tile per input triangle to keep where it still fits (NO_OWNER or anything else to
   * choose by centre): the toolset puts some triangles whose centre lies on, or within a
   * few centimetres of, a tile border into the neighbouring tile, and an edit should not
   * move triangles it did not touch.
   */
  preferredTile?: Uint32Array;
  /** Names the input triangles in error messages (defaults to "triangle N"). */
  describeTriangle?: (index: number) => string;
}

/**
 * Rebuilds everything the toolset derives from the geometry: from the vertices, each
 * triangle's vertices and flags, and the tile grid (width, grid size, flags), it assigns
 * triangles to the tiles containing their centres, stores them grouped per tile in
 * row-major tile order (keeping their relative order), numbers the edges (v0 < v1, sorted
 * by (v0, v1)), links the triangles through them (slots sorted by edge index), and
 * recomputes centres, normals and dot values (aswm-geometry.ts) and the tile headers.
 *
 * The baked tables cannot be derived this way: the tile path tables, the islands and
 * the island paths come out empty, every triangle's island is 0xFFFF, and `bakeStale`
 * is set. Baking them is a separate step. The result is version 0x6C.
 *
 * Throws ModelMappingError for what NWN2 cannot store: a centre outside the tile grid, a
 * triangle using one vertex twice, an edge shared by more than two triangles.
 */
export function rebuildTopology(a: AswmDocument, options: RebuildOptions = {}): AswmDocument {
  const describe = options.describeTriangle ?? ((i: number) => `triangle ${i}`);
  const T = triangleCountOf(a);
  const V = a.vertices.length / 3;
  const positions = floatView(a.vertices);
  const width = floatOfBits(a.tileWidth);
  const gw = a.gridWidth;
  const gh = a.gridHeight;
  const tileCount = gw * gh;
  if (T > 0 && !(width > 0 && Number.isFinite(width))) throw new ModelMappingError(`the tile width is ${width}; it must be a positive number to place triangles in tiles`);

  for (let i = 0; i < a.triVertices.length; i++) {
    if (a.triVertices[i]! >= V) throw new ModelMappingError(`${describe((i / 3) | 0)} uses vertex ${a.triVertices[i]} but there are ${V} vertices`);
  }

  // Centres of the input triangles decide their tiles.
  const centreIn = new Float32Array(T * 2);
  const tileOf = new Uint32Array(T);
  const tileTriangles = new Uint32Array(tileCount + 1);
  for (let t = 0; t < T; t++) {
    triangleCentre(positions, a.triVertices, t, centreIn);
    const cx = centreIn[t * 2]!;
    const cy = centreIn[t * 2 + 1]!;
    const tx = Math.floor(cx / width);
    const ty = Math.floor(cy / width);
    if (!(tx >= 0 && tx < gw && ty >= 0 && ty < gh)) {
      throw new ModelMappingError(
        `${describe(t)} has its centre at (${cx}, ${cy}), outside the ${gw} × ${gh} tile grid (0 to ${gw * width} m by 0 to ${gh * width} m); move it inside the area`,
      );
    }
    const preferred = options.preferredTile?.[t];
    const tile = preferred !== undefined && preferred < tileCount && nearTile(cx, cy, preferred % gw, (preferred / gw) | 0, width) ? preferred : ty * gw + tx;
    tileOf[t] = tile;
    tileTriangles[tile + 1]!++;
  }
  for (let k = 0; k < tileCount; k++) tileTriangles[k + 1]! += tileTriangles[k]!;
  // Stable counting sort: newIndex → input index.
  const inputOf = new Uint32Array(T);
  const fill = tileTriangles.slice(0, tileCount);
  for (let t = 0; t < T; t++) inputOf[fill[tileOf[t]!]!++] = t;

  const triVertices = new Uint32Array(T * 3);
  const triFlags = new Uint16Array(T);
  for (let n = 0; n < T; n++) {
    const t = inputOf[n]!;
    triVertices[n * 3] = a.triVertices[t * 3]!;
    triVertices[n * 3 + 1] = a.triVertices[t * 3 + 1]!;
    triVertices[n * 3 + 2] = a.triVertices[t * 3 + 2]!;
    triFlags[n] = a.triFlags[t]!;
  }

  const { edges, halfEdgeEdge } = buildEdges(triVertices, V, (n) => describe(inputOf[n]!));
  const E = edges.length / 4;

  const { triEdges, triLinks } = triangleSlots(edges, halfEdgeEdge, T);

  const triCentre = new Uint32Array(T * 2);
  const triNormal = new Uint32Array(T * 3);
  const triDot = new Uint32Array(T);
  const centreF = floatView(triCentre);
  const normalF = floatView(triNormal);
  const dotF = floatView(triDot);
  for (let t = 0; t < T; t++) deriveTriangle(positions, triVertices, triFlags[t]!, t, centreF, normalF, dotF);

  const tiles = emptyTiles(tileCount);
  const sameGrid = a.tiles.count === tileCount;
  if (sameGrid) tiles.name.set(a.tiles.name);
  const sizes = options.tileSizes ?? (hasTileSizes(a) ? 'width' : 'zero');
  const sizeBits = sizes === 'width' ? a.tileWidth : bitsOfFloat(0);
  const vertexStamp = new Int32Array(V).fill(-1);
  const edgeStamp = new Int32Array(E).fill(-1);
  for (let k = 0; k < tileCount; k++) {
    const start = tileTriangles[k]!;
    const end = tileTriangles[k + 1]!;
    tiles.triangleCount[k] = end - start;
    tiles.triangleOffset[k] = start;
    tiles.flags[k] = a.tilesFlags;
    let vertices = 0;
    let tileEdges = 0;
    for (let t = start; t < end; t++) {
      for (let c = 0; c < 3; c++) {
        const v = triVertices[t * 3 + c]!;
        if (vertexStamp[v] !== k) {
          vertexStamp[v] = k;
          vertices++;
        }
        const e = triEdges[t * 3 + c]!;
        if (edgeStamp[e] !== k) {
          edgeStamp[e] = k;
          tileEdges++;
        }
      }
    }
    tiles.vertexCount[k] = vertices;
    tiles.edgeCount[k] = tileEdges;
    if (sameGrid) {
      tiles.sizeX[k] = a.tiles.sizeX[k]!;
      tiles.sizeY[k] = a.tiles.sizeY[k]!;
    }
    if (end > start && (!sameGrid || sizes === 'zero' || a.tiles.sizeX[k] === 0)) {
      tiles.sizeX[k] = sizeBits;
      tiles.sizeY[k] = sizeBits;
    }
  }

  return {
    version: ASWM_CURRENT_VERSION,
    name: a.name.slice(),
    ownsData: 1,
    faceOffset: a.faceOffset,
    vertices: a.vertices.slice(),
    edges,
    edgeReserved: new Uint32Array(0),
    triVertices,
    triEdges,
    triLinks,
    triCentre,
    triNormal,
    triDot,
    triIsland: new Uint16Array(T).fill(NONE16),
    triFlags,
    triReserved: new Uint32Array(0),
    tilesFlags: a.tilesFlags,
    tileWidth: a.tileWidth,
    gridWidth: gw,
    gridHeight: gh,
    tiles,
    borderSize: a.borderSize,
    islands: emptyIslands(),
    islandPaths: emptyIslandPaths(),
    trailing: new Uint8Array(0),
    bakeStale: true,
  };
}

/** How far outside its tile (in metres) a kept triangle's centre may lie. */
const TILE_SLACK = 0.05;

function nearTile(cx: number, cy: number, tx: number, ty: number, width: number): boolean {
  return cx >= tx * width - TILE_SLACK && cx <= (tx + 1) * width + TILE_SLACK && cy >= ty * width - TILE_SLACK && cy <= (ty + 1) * width + TILE_SLACK;
}

/** True when the document's non-empty tiles carry their size (the TRN convention). */
function hasTileSizes(a: AswmDocument): boolean {
  for (let k = 0; k < a.tiles.count; k++) if (a.tiles.sizeX[k] !== 0 && a.tiles.triangleCount[k] !== 0) return true;
  return false;
}

/**
 * Edges as the toolset numbers them: one per vertex pair, v0 < v1, sorted by (v0, v1),
 * t0 the lower-numbered triangle. Two stable counting sorts of the half-edges (by the
 * larger vertex, then by the smaller) give that order in O(vertices + triangles).
 *
 * Where three or more triangles meet at one vertex pair (the toolset leaves such spots
 * around placeable walkmeshes) the toolset stores several edges with the same vertices,
 * each joining two of them. Here triangles running the pair in opposite directions are
 * joined first, the rest two by two in index order, and an odd one out gets an edge with
 * no second triangle, last.
 */
export function buildEdges(
  triVertices: Uint32Array,
  vertexCount: number,
  describe: (triangle: number) => string,
): { edges: Uint32Array; halfEdgeEdge: Uint32Array } {
  const H = triVertices.length;
  const lo = new Uint32Array(H);
  const hi = new Uint32Array(H);
  for (let he = 0; he < H; he++) {
    const t = (he / 3) | 0;
    const corner = he - t * 3;
    const a = triVertices[he]!;
    const b = triVertices[t * 3 + (corner === 2 ? 0 : corner + 1)]!;
    if (a === b) throw new ModelMappingError(`${describe(t)} uses vertex ${a} twice; NWN2 triangles need three different vertices`);
    lo[he] = a < b ? a : b;
    hi[he] = a < b ? b : a;
  }
  const byHi = countingSort(identity(H), hi, vertexCount);
  const order = countingSort(byHi, lo, vertexCount);

  const halfEdgeEdge = new Uint32Array(H);
  const edgeWords = new Uint32Array(H * 4);
  let E = 0;
  const add = (v0: number, v1: number, h0: number, h1: number) => {
    edgeWords[E * 4] = v0;
    edgeWords[E * 4 + 1] = v1;
    edgeWords[E * 4 + 2] = (h0 / 3) | 0;
    edgeWords[E * 4 + 3] = h1 < 0 ? NONE32 : (h1 / 3) | 0;
    halfEdgeEdge[h0] = E;
    if (h1 >= 0) halfEdgeEdge[h1] = E;
    E++;
  };
  for (let i = 0; i < H; ) {
    const he = order[i]!;
    let j = i + 1;
    while (j < H && lo[order[j]!] === lo[he] && hi[order[j]!] === hi[he]) j++;
    if (j - i <= 2) add(lo[he]!, hi[he]!, he, j - i === 2 ? order[i + 1]! : -1);
    else splitCrowdedPair(order.subarray(i, j), triVertices, lo[he]!, hi[he]!, add);
    i = j;
  }
  return { edges: edgeWords.slice(0, E * 4), halfEdgeEdge };
}

/** Pairs the half-edges of one vertex pair used by three or more triangles (see buildEdges). */
function splitCrowdedPair(
  halfEdges: Uint32Array,
  triVertices: Uint32Array,
  v0: number,
  v1: number,
  add: (v0: number, v1: number, h0: number, h1: number) => void,
): void {
  const forward = (he: number) => triVertices[he] === v0;
  const open: number[] = [];
  const pairs: [number, number][] = [];
  for (const he of halfEdges) {
    const k = open.findIndex((o) => forward(o) !== forward(he));
    if (k >= 0) pairs.push([open.splice(k, 1)[0]!, he]);
    else open.push(he);
  }
  for (let k = 0; k + 1 < open.length; k += 2) pairs.push([open[k]!, open[k + 1]!]);
  for (const [a, b] of pairs) add(v0, v1, a, b);
  if (open.length % 2 === 1) add(v0, v1, open[open.length - 1]!, -1);
}

function identity(n: number): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/** `items` stably sorted by `key[item]` (keys below `range`). */
function countingSort(items: Uint32Array, key: Uint32Array, range: number): Uint32Array {
  const start = new Uint32Array(range + 1);
  for (let i = 0; i < items.length; i++) start[key[items[i]!]! + 1]!++;
  for (let k = 0; k < range; k++) start[k + 1]! += start[k]!;
  const out = new Uint32Array(items.length);
  for (let i = 0; i < items.length; i++) out[start[key[items[i]!]!]!++] = items[i]!;
  return out;
}

/**
 * The document with its baked tables emptied (tile path tables, islands, island paths,
 * triangle islands) and `bakeStale` set: what an edit that changes which triangles are
 * walkable leaves behind. Everything else is kept.
 */
export function clearBakedTables(a: AswmDocument): AswmDocument {
  const tiles = emptyTiles(a.tiles.count);
  const src = a.tiles;
  tiles.name.set(src.name);
  tiles.ownsData.set(src.ownsData);
  tiles.vertexCount.set(src.vertexCount);
  tiles.edgeCount.set(src.edgeCount);
  tiles.triangleCount.set(src.triangleCount);
  tiles.sizeX.set(src.sizeX);
  tiles.sizeY.set(src.sizeY);
  tiles.triangleOffset.set(src.triangleOffset);
  tiles.ownedDataStart.set(src.ownedDataStart);
  tiles.ownedData = src.ownedData.slice();
  tiles.flags.set(src.flags);
  return {
    ...a,
    tiles,
    triIsland: new Uint16Array(a.triFlags.length).fill(NONE16),
    islands: emptyIslands(),
    islandPaths: emptyIslandPaths(),
    bakeStale: true,
  };
}

/**
 * Each triangle's linked_edges sorted ascending, with linked_triangles aligned to them
 * (spec §4.2: the slot order follows the edge index, not the vertex order).
 */
export function triangleSlots(edges: Uint32Array, halfEdgeEdge: Uint32Array, T: number): { triEdges: Uint32Array; triLinks: Uint32Array } {
  const triEdges = new Uint32Array(T * 3);
  const triLinks = new Uint32Array(T * 3);
  for (let t = 0; t < T; t++) {
    let e0 = halfEdgeEdge[t * 3]!;
    let e1 = halfEdgeEdge[t * 3 + 1]!;
    let e2 = halfEdgeEdge[t * 3 + 2]!;
    if (e0 > e1) [e0, e1] = [e1, e0];
    if (e1 > e2) [e1, e2] = [e2, e1];
    if (e0 > e1) [e0, e1] = [e1, e0];
    triEdges[t * 3] = e0;
    triEdges[t * 3 + 1] = e1;
    triEdges[t * 3 + 2] = e2;
    triLinks[t * 3] = across(edges, e0, t);
    triLinks[t * 3 + 1] = across(edges, e1, t);
    triLinks[t * 3 + 2] = across(edges, e2, t);
  }
  return { triEdges, triLinks };
}

/** The triangle on the other side of edge `e` from `t` (NONE32 on a border). */
function across(edges: Uint32Array, e: number, t: number): number {
  const t0 = edges[e * 4 + 2]!;
  return t0 === t ? edges[e * 4 + 3]! : t0;
}
