/**
 * Edits as data. Every edit is a JSON-safe description `{ kind, ... }` so that it can be
 * stored in the project's history, sent over IPC and replayed after a restart. Payloads
 * are plain number arrays: JSON has no typed arrays, float32 values survive a trip through
 * a double exactly, and a stroke of a few hundred faces is a few kilobytes.
 *
 * User-level commands (paint, move, delete, create, fill, split, weld, flip) are applied
 * through a handful of primitives whose inverses are exact, so an edit followed by its
 * inverse gives back the same typed arrays, bit for bit.
 */

/** One value for every listed face, or one value per listed face. */
export type FaceValues = number | number[];

/** Sets per-face attributes of the listed faces (the inverse of a paint). */
export interface SetFaceAttributesCommand {
  kind: 'set-face-attributes';
  faces: number[];
  walkable?: FaceValues;
  material?: FaceValues;
  owner?: FaceValues;
}

/**
 * Paints surface material or flags (`material` replaces the value, then `setBits` and
 * `clearBits` change single flags) and walkability. What walkability follows from the
 * material is the game's rule (see game-edit-rules.ts).
 */
export interface PaintFacesCommand {
  kind: 'paint-faces';
  faces: number[];
  material?: number;
  setBits?: number;
  clearBits?: number;
  walkable?: boolean;
}

/** Moves vertices to absolute positions (x, y, z per listed vertex); its own inverse. */
export interface MoveVerticesCommand {
  kind: 'move-vertices';
  vertices: number[];
  positions: number[];
}

/** Replaces the corners of the listed faces (three vertex indices per face). */
export interface SetTrianglesCommand {
  kind: 'set-triangles';
  faces: number[];
  triangles: number[];
}

/** Removes faces; later faces move down. Vertices stay (unused ones are harmless). */
export interface DeleteFacesCommand {
  kind: 'delete-faces';
  faces: number[];
}

/**
 * Inserts faces so that they end up at exactly the indices `at` (ascending): the inverse
 * of a delete, which puts every other face back at its old index too.
 */
export interface InsertFacesCommand {
  kind: 'insert-faces';
  at: number[];
  triangles: number[];
  walkable: number[];
  material: number[];
  owner: number[];
}

export interface AppendVerticesCommand {
  kind: 'append-vertices';
  positions: number[];
}

/** Drops trailing vertices down to `count`; refused when a face still uses one. */
export interface TruncateVerticesCommand {
  kind: 'truncate-vertices';
  count: number;
}

/** Attributes of new faces; anything left out is copied from a neighbouring face. */
export interface NewFaceAttributes {
  walkable?: boolean;
  material?: number;
  owner?: number;
}

/** Adds a face on three existing vertices (appended: no other face is renumbered). */
export interface CreateFaceCommand extends NewFaceAttributes {
  kind: 'create-face';
  vertices: [number, number, number];
}

/** Closes the hole whose border runs along `edge` (a border edge) with new faces. */
export interface FillHoleCommand extends NewFaceAttributes {
  kind: 'fill-hole';
  edge: [number, number];
}

/** Adds a vertex on an edge (at fraction `t` from the first vertex, default ½) and splits the faces on it. */
export interface SplitEdgeCommand {
  kind: 'split-edge';
  edge: [number, number];
  t?: number;
}

/**
 * Welds vertices into the first listed one, optionally moved to `position`. Faces that
 * collapse (two corners welded together) are deleted.
 */
export interface WeldVerticesCommand {
  kind: 'weld-vertices';
  vertices: number[];
  position?: [number, number, number];
}

/** Reverses the winding of the listed faces; its own inverse. */
export interface FlipFacesCommand {
  kind: 'flip-faces';
  faces: number[];
}

/** Source: splits an area in two at `at` along x or y (see source-areas.ts). */
export interface SplitAreaCommand {
  kind: 'split-area';
  area: number;
  axis: 'x' | 'y';
  at: number;
}

/** Source: merges area `remove` into area `keep`, which must make one rectangle together. */
export interface MergeAreasCommand {
  kind: 'merge-areas';
  keep: number;
  remove: number;
}

/**
 * Adds a face on the two vertices of `edge` and a new vertex at `point` (the Creation
 * Kit's create-triangle from two vertices and a new point); see create-face-at-point.ts.
 */
export interface CreateFaceAtPointCommand extends NewFaceAttributes {
  kind: 'create-face-at-point';
  edge: [number, number];
  point: [number, number, number];
}

/**
 * Source: a new area, the rectangle minX, minY, maxX, maxY with corner heights NW, NE, SE,
 * SW (north is −Y), under the next free area ID; see source-create-area.ts.
 */
export interface SourceCreateAreaCommand {
  kind: 'source-create-area';
  rect: number[];
  heights: number[];
  attributes?: number;
}

/** Several commands applied in order as one edit (undone in reverse order). */
export interface BatchCommand {
  kind: 'batch';
  commands: EditCommand[];
}

export type EditCommand =
  | SetFaceAttributesCommand
  | PaintFacesCommand
  | MoveVerticesCommand
  | SetTrianglesCommand
  | DeleteFacesCommand
  | InsertFacesCommand
  | AppendVerticesCommand
  | TruncateVerticesCommand
  | CreateFaceCommand
  | FillHoleCommand
  | SplitEdgeCommand
  | WeldVerticesCommand
  | FlipFacesCommand
  | SplitAreaCommand
  | MergeAreasCommand
  | CreateFaceAtPointCommand
  | SourceCreateAreaCommand
  | BatchCommand;

export type EditKind = EditCommand['kind'];

/** What an applied edit did, for undo and for re-validating only what changed. */
export interface EditResult {
  /** The command that takes the mesh back to where it was. */
  inverse: EditCommand;
  /** Faces (indices after the edit) whose corners or attributes changed or that are new. */
  affectedFaces: Uint32Array;
  /** Vertices whose position or set of faces changed: their faces need checking again. */
  affectedVertices: Uint32Array;
  /** Faces other than the affected ones changed index (a delete or insert before the end). */
  renumbered: boolean;
  /** Some face's corners changed, or faces were added or removed. */
  topology: boolean;
  /**
   * How face indices moved when `renumbered`: the old indices removed or the new indices
   * inserted (ascending), so kept data keyed by face can follow its face. Absent when the
   * edit renumbered in several steps (a batch).
   */
  faceMap?: { removed: Uint32Array } | { inserted: Uint32Array };
}
