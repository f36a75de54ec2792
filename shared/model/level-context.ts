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
}

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
}
