/**
 * The NVNM subrecord of a Skyrim NAVM (version 12, identical for LE and SE) as typed-array
 * columns. Floats are kept as their u32 bit patterns so they are written back exactly.
 */
export const NVNM_VERSION = 12;
export const PATHING_CELL_HASH = 0xa5e9a03c;
export const PATHING_DOOR_HASH = 0xe48b73f3;

/** Triangle flags (spec §5). */
export const TRI_EDGE_LINK_BITS = [0x1, 0x2, 0x4] as const;
export const TRI_DELETED = 0x8;
export const TRI_PREFERRED = 0x40;
export const TRI_WATER = 0x200;
export const TRI_DOOR = 0x400;
export const TRI_FOUND = 0x800;
/** Cover bits that put a triangle on the cover-triangle list (0x4000 alone does not). */
export const COVER_MASK = 0x3fff;

export interface NvnmDocument {
  version: number;
  pathingCellHash: number;
  /** Parent worldspace FormID; 0 for an interior. */
  worldspace: number;
  /** Cell FormID for an interior, else i16 grid Y in the low half and i16 grid X in the high half. */
  parent: number;
  /** x, y, z bit patterns per vertex. */
  vertices: Uint32Array;
  /** Three vertex indices per triangle. */
  triVertices: Uint16Array;
  /** Per edge (0-1, 1-2, 2-0): neighbour triangle, -1, or an edge-link index when the flag bit is set. */
  triEdges: Int16Array;
  triFlags: Uint16Array;
  triCover: Uint16Array;
  edgeLinkType: Uint32Array;
  edgeLinkNavmesh: Uint32Array;
  edgeLinkTriangle: Int16Array;
  doorTriangle: Int16Array;
  doorHash: Uint32Array;
  doorRef: Uint32Array;
  coverTriangles: Int16Array;
  gridDivisor: number;
  /** max-distance x, y; min x, y, z; max x, y, z (bit patterns). */
  gridBounds: Uint32Array;
  /**
   * The grid is stored sparsely: the divisor² cells (row-major, Y-major order) are all
   * written, but only the non-empty ones are held, so a file declaring millions of empty
   * cells costs nothing beyond its bytes. `gridCells` lists the non-empty cells' indices in
   * ascending order; cell `gridCells[k]` holds
   * `gridTriangles[gridCellStart[k] .. gridCellStart[k + 1])` (gridCellStart has one more
   * entry than gridCells). See gridCellTriangles and sparseGrid.
   */
  gridCells: Uint32Array;
  gridCellStart: Uint32Array;
  /** The non-empty cells' triangle indices, concatenated in cell order. */
  gridTriangles: Int16Array;
  /** Bytes after the grid (none in CK output), kept so they survive a round trip. */
  trailing: Uint8Array;
}

export function vertexCountOf(n: NvnmDocument): number {
  return n.vertices.length / 3;
}

export function triangleCountOf(n: NvnmDocument): number {
  return n.triFlags.length;
}

export function isExterior(n: NvnmDocument): boolean {
  return n.worldspace !== 0;
}

/** Grid position of an exterior navmesh (stored Y first, then X). */
export function gridOf(n: NvnmDocument): { x: number; y: number } | undefined {
  if (n.worldspace === 0) return undefined;
  const y = (n.parent << 16) >> 16;
  const x = n.parent >> 16;
  return { x, y };
}

/** The grid's columns (divisor, bounds and the sparse cells). */
export type NvnmGrid = Pick<NvnmDocument, 'gridDivisor' | 'gridBounds' | 'gridCells' | 'gridCellStart' | 'gridTriangles'>;

/** The number of cells of the grid as stored (divisor², empty ones included). */
export function gridCellCountOf(n: Pick<NvnmDocument, 'gridDivisor'>): number {
  return n.gridDivisor * n.gridDivisor;
}

/** The triangles of grid cell `cell` (row-major), a view; empty for an empty cell. */
export function gridCellTriangles(n: Pick<NvnmDocument, 'gridCells' | 'gridCellStart' | 'gridTriangles'>, cell: number): Int16Array {
  let lo = 0;
  let hi = n.gridCells.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (n.gridCells[mid]! < cell) lo = mid + 1;
    else hi = mid;
  }
  if (lo >= n.gridCells.length || n.gridCells[lo] !== cell) return n.gridTriangles.subarray(0, 0);
  return n.gridTriangles.subarray(n.gridCellStart[lo]!, n.gridCellStart[lo + 1]!);
}

/** Sparse grid columns from one triangle list per cell (row-major; empty cells are left out). */
export function sparseGrid(cells: readonly (readonly number[])[]): Pick<NvnmDocument, 'gridCells' | 'gridCellStart' | 'gridTriangles'> {
  let used = 0;
  let total = 0;
  for (const c of cells) {
    if (c.length > 0) used++;
    total += c.length;
  }
  const gridCells = new Uint32Array(used);
  const gridCellStart = new Uint32Array(used + 1);
  const gridTriangles = new Int16Array(total);
  let k = 0;
  let o = 0;
  cells.forEach((c, i) => {
    if (c.length === 0) return;
    gridCells[k] = i;
    gridCellStart[k] = o;
    for (const t of c) gridTriangles[o++] = t;
    k++;
  });
  gridCellStart[used] = o;
  return { gridCells, gridCellStart, gridTriangles };
}
