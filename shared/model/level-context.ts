import type { GameId } from './walkmesh';

/**
 * The level around a walkmesh (terrain, room models, world brushes, placed models), read
 * from the game's own files and drawn under the walkmesh as read-only context. Every game's
 * context maps to these pieces, in the walkmesh's own frame (Z-up, game units), so the
 * viewport, the floating/sunk-face check and surface snapping need not know the source.
 */
export type LevelContextKind = 'terrain' | 'water' | 'room' | 'model' | 'world' | 'bounds';

export interface LevelContextPiece {
  /** What a designer calls it: "terrain megatile 3,1", "room m01aa_01a", "plc_chair01 #4". */
  label: string;
  kind: LevelContextKind;
  /** x, y, z per vertex, already placed in the walkmesh's world space. */
  positions: Float32Array;
  /** Three vertex indices per triangle. */
  triangles: Uint32Array;
  /** r, g, b, a per vertex (0–255), when the source has colours (terrain blend, vertex colours). */
  vertexColours?: Uint8Array;
  /** Index into `surfaces` per triangle (texture or material name), when the source names them. */
  faceSurface?: Uint16Array;
  surfaces?: string[];
  /** u, v per vertex into `texture` (0..1, v = 0 at the image's first row). */
  uvs?: Float32Array;
  /** The piece's own image (NWN2: a megatile's terrain textures blended), RGBA rows; drawn with `uvs`. */
  texture?: LevelContextTexture;
}

export interface LevelContextTexture {
  width: number;
  height: number;
  /** r, g, b, a per pixel (0–255), row by row. */
  rgba: Uint8Array;
  /** What it shows, for the designer: the texture names. */
  name: string;
}

/** The largest side of a piece's image (a megatile's is 128): bounds what a cached or sent context may make the page upload. */
export const MAX_CONTEXT_TEXTURE_SIDE = 2048;

/** Something the context wanted and could not read, named for the designer. */
export interface LevelContextGap {
  /** The resource or file: "m01aa_01a.mdl", "maps/de_dust2.bsp". */
  what: string;
  why: string;
}

export interface LevelContext {
  game: GameId;
  pieces: LevelContextPiece[];
  gaps: LevelContextGap[];
}

/** Triangles over every piece; the viewport and budgets count by this. */
export function levelContextTriangleCount(context: LevelContext): number {
  let n = 0;
  for (const p of context.pieces) n += p.triangles.length / 3;
  return n;
}

/**
 * Checks a piece's arrays agree with each other (a reader bug, not a file fault, if not):
 * whole triples, indices inside the vertex list, one surface per triangle.
 */
export function checkLevelContextPiece(piece: LevelContextPiece): void {
  const { positions, triangles, label } = piece;
  if (positions.length % 3 !== 0) throw new RangeError(`${label}: positions length ${positions.length} is not a multiple of 3`);
  if (triangles.length % 3 !== 0) throw new RangeError(`${label}: triangles length ${triangles.length} is not a multiple of 3`);
  const vertices = positions.length / 3;
  for (let i = 0; i < triangles.length; i++) {
    if (triangles[i]! >= vertices) throw new RangeError(`${label}: triangle ${Math.floor(i / 3)} uses vertex ${triangles[i]!} of ${vertices}`);
  }
  if (piece.vertexColours && piece.vertexColours.length !== vertices * 4) {
    throw new RangeError(`${label}: ${piece.vertexColours.length} colour bytes for ${vertices} vertices`);
  }
  if (piece.faceSurface) {
    if (piece.faceSurface.length !== triangles.length / 3) throw new RangeError(`${label}: ${piece.faceSurface.length} surfaces for ${triangles.length / 3} triangles`);
    const names = piece.surfaces?.length ?? 0;
    for (const s of piece.faceSurface) if (s >= names) throw new RangeError(`${label}: surface ${s} of ${names} names`);
  }
  if (piece.uvs && !(piece.uvs instanceof Float32Array)) throw new RangeError(`${label}: UVs are not a Float32Array`);
  if (piece.uvs && piece.uvs.length !== vertices * 2) throw new RangeError(`${label}: ${piece.uvs.length} UV floats for ${vertices} vertices`);
  if (piece.texture) {
    const { width, height, rgba, name } = piece.texture;
    if (!piece.uvs) throw new RangeError(`${label}: a texture without UVs`);
    if (typeof name !== 'string') throw new RangeError(`${label}: texture name is not a string`);
    const side = (n: unknown) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= MAX_CONTEXT_TEXTURE_SIDE;
    if (!side(width) || !side(height)) throw new RangeError(`${label}: texture of ${String(width)} × ${String(height)} pixels (1 to ${MAX_CONTEXT_TEXTURE_SIDE} a side)`);
    if (!(rgba instanceof Uint8Array) || rgba.length !== width * height * 4) throw new RangeError(`${label}: ${rgba instanceof Uint8Array ? rgba.length : 'no'} texture bytes for ${width} × ${height} pixels`);
  }
}
