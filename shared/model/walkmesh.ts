import { ModelMappingError } from './model-mapping-error';

/**
 * The common walkmesh model every game maps to. Geometry and per-face attributes live in
 * typed arrays so that a 100,000-triangle mesh is a handful of allocations; the format's
 * own document travels beside it so an unedited file is written back byte for byte.
 */
export type GameId = 'nwn2' | 'kotor' | 'skyrim' | 'source';

/** `faceOwner` value of a face that belongs to no area, room or tile. */
export const NO_OWNER = 0xffffffff;

export interface Walkmesh {
  /** Display name (file name or navmesh name). */
  name: string;
  game: GameId;
  /** Format identifier of the source document, e.g. `source-nav`. */
  format: string;
  /** x, y, z per vertex; every supported game is Z-up. */
  positions: Float32Array;
  /** Three vertex indices per face, counter-clockwise seen from above for an upward face. */
  triangles: Uint32Array;
  /** 1 where creatures may walk on the face. */
  faceWalkable: Uint8Array;
  /** Surface material (KotOR), triangle flags (NWN2, Skyrim) or area attributes (Source). */
  faceMaterial: Uint32Array;
  /** Owning area ID (Source), room (KotOR), tile (NWN2) or navmesh; NO_OWNER for none. */
  faceOwner: Uint32Array;
  /**
   * NWN2: tiles per row of the area's grid, so that tile `faceOwner` k is named by its
   * column k % width and row k / width, as the validator and the bake report name it.
   */
  tileGridWidth?: number;
}

export function vertexCount(mesh: Walkmesh): number {
  return mesh.positions.length / 3;
}

export function faceCount(mesh: Walkmesh): number {
  return mesh.triangles.length / 3;
}

export interface WalkmeshInit {
  name: string;
  game: GameId;
  format: string;
  positions: Float32Array;
  triangles: Uint32Array;
  faceWalkable?: Uint8Array;
  faceMaterial?: Uint32Array;
  faceOwner?: Uint32Array;
  tileGridWidth?: number;
}

/** Builds a walkmesh, checking that every array has the size the face count implies. */
export function createWalkmesh(init: WalkmeshInit): Walkmesh {
  if (init.positions.length % 3 !== 0) throw new RangeError(`positions length ${init.positions.length} is not a multiple of 3`);
  if (init.triangles.length % 3 !== 0) throw new RangeError(`triangles length ${init.triangles.length} is not a multiple of 3`);
  const faces = init.triangles.length / 3;
  const vertices = init.positions.length / 3;
  for (let i = 0; i < init.triangles.length; i++) {
    if (init.triangles[i]! >= vertices) {
      // The file's faces name a vertex it does not have: the input is at fault, not Walkbench.
      throw new ModelMappingError(`face ${Math.floor(i / 3)} uses vertex ${init.triangles[i]!} but the mesh has ${vertices} vertices`);
    }
  }
  const faceWalkable = init.faceWalkable ?? new Uint8Array(faces).fill(1);
  const faceMaterial = init.faceMaterial ?? new Uint32Array(faces);
  const faceOwner = init.faceOwner ?? new Uint32Array(faces).fill(NO_OWNER);
  for (const [name, arr] of [['faceWalkable', faceWalkable], ['faceMaterial', faceMaterial], ['faceOwner', faceOwner]] as const) {
    if (arr.length !== faces) throw new RangeError(`${name} has ${arr.length} entries for ${faces} faces`);
  }
  return {
    name: init.name,
    game: init.game,
    format: init.format,
    positions: init.positions,
    triangles: init.triangles,
    faceWalkable,
    faceMaterial,
    faceOwner,
    ...(init.tileGridWidth !== undefined ? { tileGridWidth: init.tileGridWidth } : {}),
  };
}
