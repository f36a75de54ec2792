/**
 * A compiled map (GoldSrc BSP version 30, Source VBSP versions 19–21) as far as Walkbench
 * draws it: the world and brush-entity geometry (planes, vertices, edges, faces, texture
 * names and flags, models, displacements) and the entity list. Read-only: Walkbench never
 * writes a map, so lumps it does not draw (visibility, lighting, nodes, props) are listed
 * in the directory but not decoded. Columns are typed arrays, one entry per item.
 */

export const GOLDSRC_BSP_FORMAT = 'goldsrc-bsp';
export const SOURCE_VBSP_FORMAT = 'source-vbsp';
export type BspFormat = typeof GOLDSRC_BSP_FORMAT | typeof SOURCE_VBSP_FORMAT;

/** One entry of the file's lump directory. */
export interface BspLump {
  index: number;
  /** Valve's name without the LUMP_ prefix, lower case: `faces`, `dispinfo`. */
  name: string;
  offset: number;
  length: number;
  /** Where the directory stores this entry (for errors about the entry itself). */
  headerOffset: number;
  /** Source only (0 in GoldSrc): the lump's own format version. */
  version: number;
  /** Source only: the four-CC field (the uncompressed size for LZMA lumps of some games). */
  fourCC: number;
  /** Source only: the lump starts with the `LZMA` header. */
  compressed: boolean;
}

export interface BspFaces {
  count: number;
  plane: Uint16Array;
  /** 1 when the face looks down its plane's back. */
  side: Uint8Array;
  firstEdge: Int32Array;
  edgeCount: Uint16Array;
  /** Index into `texinfo`; -1 for none (Source allows it on faces nothing draws). */
  texinfo: Int16Array;
  /** Source: index into `displacements`, -1 for an ordinary face; always -1 in GoldSrc. */
  dispinfo: Int16Array;
}

export interface BspTexinfo {
  count: number;
  /** GoldSrc: TEX_SPECIAL (1) and friends; Source: the SURF_* flags. */
  flags: Uint32Array;
  /** Index into `textures` (GoldSrc miptex, Source texdata), -1 when it names none. */
  texture: Int32Array;
}

export interface BspModels {
  count: number;
  /** mins x, y, z, maxs x, y, z per model. */
  bounds: Float32Array;
  origin: Float32Array;
  firstFace: Int32Array;
  faceCount: Int32Array;
}

/** Source displacements (dispinfo + dispverts). */
export interface BspDisplacements {
  count: number;
  /** x, y, z of the corner the grid starts from. */
  startPosition: Float32Array;
  /** First entry in `verts` (grid row-major, (2^power + 1)² entries). */
  vertStart: Int32Array;
  power: Uint8Array;
  /** The face the displacement replaces. */
  face: Uint16Array;
  /** Per displaced vertex: direction x, y, z, distance, alpha. */
  verts: Float32Array;
  /** disp_tris: a tag word per displacement triangle (walkable, buildable… flags). */
  triTags: Uint16Array;
}

/**
 * The entity lump's key/value pairs in file order (keys may repeat), entity by entity:
 * entity e holds pairs `start[e] .. start[e + 1]`. One pair of lists for all entities, so a
 * lump of many tiny entities costs a few bytes each, not an object each.
 */
export interface BspEntities {
  count: number;
  start: Uint32Array;
  keys: string[];
  values: string[];
}

export interface BspMap {
  fileName: string;
  format: BspFormat;
  version: number;
  /** Source map revision (the `mapversion` Hammer saved); 0 in GoldSrc. */
  mapRevision: number;
  fileSize: number;
  lumps: BspLump[];
  /** normal x, y, z, distance per plane. */
  planes: Float32Array;
  vertices: Float32Array;
  /** Two vertex indices per edge. */
  edges: Uint16Array;
  /** Edge index per surfedge; negative means the edge is walked from its second vertex. */
  surfedges: Int32Array;
  faces: BspFaces;
  texinfo: BspTexinfo;
  /** Texture (GoldSrc miptex) or material (Source texdata) names; '' where the file names none. */
  textures: string[];
  models: BspModels;
  displacements: BspDisplacements;
  entities: BspEntities;
}

/** GoldSrc texinfo flag: sky, water and trigger textures (no lightmap). */
export const GOLDSRC_TEX_SPECIAL = 1;

/** Source texinfo flags (bspflags.h SURF_*), the ones that decide what is drawn. */
export const SURF = {
  SKY2D: 0x2,
  SKY: 0x4,
  TRIGGER: 0x40,
  NODRAW: 0x80,
  HINT: 0x100,
  SKIP: 0x200,
} as const;

/** The first value of `key` (lower case; keys compare case-insensitively) in entity e. */
export function entityValue(entities: BspEntities, e: number, key: string): string | undefined {
  for (let i = entities.start[e]!; i < entities.start[e + 1]!; i++) if (entities.keys[i]!.toLowerCase() === key) return entities.values[i];
  return undefined;
}

export function emptyDisplacements(): BspDisplacements {
  return {
    count: 0,
    startPosition: new Float32Array(0),
    vertStart: new Int32Array(0),
    power: new Uint8Array(0),
    face: new Uint16Array(0),
    verts: new Float32Array(0),
    triTags: new Uint16Array(0),
  };
}
