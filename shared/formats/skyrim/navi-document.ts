/**
 * One NVMI entry of the NAVI navmesh info map (spec §9.1). Floats are bit patterns.
 */
export interface NvmiIsland {
  /** min x, y, z; max x, y, z. */
  bounds: Uint32Array;
  triangles: Uint16Array;
  vertices: Uint32Array;
}

export interface NvmiEntry {
  navmesh: number;
  /** 0x00 edited here, 0x20 island, 0x40 not edited (vanilla carry-over). */
  category: number;
  /** Vertex mean x, y, z and the preferred-triangle fraction. */
  floats: Uint32Array;
  edgeLinks: Uint32Array;
  preferredEdgeLinks: Uint32Array;
  /** (PathingDoor hash, door REFR) pairs. */
  doors: Uint32Array;
  /** The stored "has island data" byte. */
  islandFlag: number;
  island: NvmiIsland | undefined;
  pathingCellHash: number;
  worldspace: number;
  parent: number;
  trailing: Uint8Array;
}

/** The NAVI override FormID every plugin uses (Skyrim.esm's). */
export const NAVI_FORM_ID = 0x00012fb4;
