import { ModelMappingError } from '../../model/model-mapping-error';
import { floatView, TriangleFlag, type AswmDocument } from '../../formats/nwn2/aswm-document';
import { nwn2TileName } from '../../formats/nwn2/tile-name';

/** `tileOf` value of a triangle no tile claims. */
export const NO_TILE = 0xffffffff;

/**
 * What every baking step reads, derived once: the tiles' triangle ranges (as stored: the
 * bake keeps the grouping), the tile of each triangle, the walkable flags, the links and
 * the 2-D centres (as float64 copies of the stored float32 values).
 */
export interface BakeMesh {
  triangleCount: number;
  tileCount: number;
  gridWidth: number;
  /** Tile k holds triangles tileStart[k] .. tileEnd[k]. */
  tileStart: Uint32Array;
  tileEnd: Uint32Array;
  tileOf: Uint32Array;
  walkable: Uint8Array;
  /** linked_triangles (3 per triangle, NONE32 = none), slot k across triEdges[k]. */
  links: Uint32Array;
  centreX: Float64Array;
  centreY: Float64Array;
}

/**
 * Collects the bake inputs. Throws ModelMappingError when the tiles cannot be baked: a
 * tile whose range runs past the triangles, or two tiles claiming the same triangle
 * (local_to_node indices would then mean two things; the game crashes on it, spec §4.3).
 */
export function bakeMeshOf(a: AswmDocument, links: Uint32Array, centres: Uint32Array): BakeMesh {
  const T = a.triFlags.length;
  const tiles = a.tiles;
  const K = tiles.count;
  const tileStart = new Uint32Array(K);
  const tileEnd = new Uint32Array(K);
  const tileOf = new Uint32Array(T).fill(NO_TILE);
  for (let k = 0; k < K; k++) {
    const s = tiles.triangleOffset[k]!;
    const n = tiles.triangleCount[k]!;
    if (n === 0) {
      tileStart[k] = tileEnd[k] = Math.min(s, T);
      continue;
    }
    if (s > T || n > T - s) {
      throw new ModelMappingError(`${tileName(a, k)} claims triangles ${s} to ${s + n - 1} but there are ${T}; the tile grouping must be rebuilt before baking`);
    }
    tileStart[k] = s;
    tileEnd[k] = s + n;
    for (let t = s; t < s + n; t++) {
      if (tileOf[t] !== NO_TILE) {
        throw new ModelMappingError(`triangle ${t} is claimed by ${tileName(a, tileOf[t]!)} and ${tileName(a, k)}; a triangle must belong to one tile`);
      }
      tileOf[t] = k;
    }
  }
  const walkable = new Uint8Array(T);
  for (let t = 0; t < T; t++) walkable[t] = a.triFlags[t]! & TriangleFlag.walkable && tileOf[t] !== NO_TILE ? 1 : 0;
  const c = floatView(centres);
  const centreX = new Float64Array(T);
  const centreY = new Float64Array(T);
  for (let t = 0; t < T; t++) {
    centreX[t] = c[t * 2]!;
    centreY[t] = c[t * 2 + 1]!;
  }
  return { triangleCount: T, tileCount: K, gridWidth: a.gridWidth, tileStart, tileEnd, tileOf, walkable, links, centreX, centreY };
}

/** "tile x,y" (column, row) for messages, as the validator and the viewport name tiles. */
export function tileName(a: { gridWidth: number }, k: number): string {
  return nwn2TileName(k, Math.max(1, a.gridWidth));
}

