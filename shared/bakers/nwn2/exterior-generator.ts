import {
  TILES_FLAGS_TRX,
  TriangleFlag,
  type AswmDocument,
  unbakedAswm,
} from '../../formats/nwn2/aswm-document';
import { rebuildTopology } from '../../formats/nwn2/aswm-topology';
import { newTrxDocument, type TrxDocument } from '../../formats/nwn2/trx-document';

export interface ExteriorOptions {
  /** Tiles per side (default 48: the largest exterior, a 32 × 32 area plus its 8-tile border). */
  tiles?: number;
  /** Terrain cells per tile side (default 6: the TRN terrain grid, spec §4.6). */
  cellsPerTile?: number;
  /** Tile width in metres (default 10, spec §4.6). */
  tileWidth?: number;
  /** Unwalkable border tiles per side (default 8, as in an exterior TRN: spec §4.1, §4.6). */
  border?: number;
  /** Unwalkable patches (rocks, water, cliffs) scattered over the playable part (default 160). */
  patches?: number;
  /** Seed of the patch layout (default 1); equal options give equal meshes. */
  seed?: number;
}

/**
 * A synthetic exterior walkmesh shaped like the toolset's exterior terrain (spec §4.6): a
 * regular grid of `tiles · cellsPerTile` cells per side, two triangles per cell (the
 * diagonal alternating like a checkerboard), rolling heights, stored as a TRX stores them
 * (clockwise, flag 0x04, grass surface), grouped per 10 m tile in row-major order (72
 * triangles per tile with the defaults: 48 × 48 tiles → 165,888 triangles and 83,521
 * vertices). The border tiles are unwalkable, as in an exterior TRN; the playable part
 * carries unwalkable patches — discs and straight strips, some crossing tiles so that
 * tiles split into several islands. Used by the bake bench and tests; the baked tables
 * are empty (`bakeStale` set) until rebakeAswm fills them.
 */
export function generateExteriorAswm(options: ExteriorOptions = {}): AswmDocument {
  const tiles = options.tiles ?? 48;
  const cellsPerTile = options.cellsPerTile ?? 6;
  const tileWidth = options.tileWidth ?? 10;
  const border = options.border ?? 8;
  const cells = tiles * cellsPerTile;
  const cell = tileWidth / cellsPerTile;
  const side = cells + 1;

  const positions = new Float32Array(side * side * 3);
  for (let j = 0; j < side; j++) {
    for (let i = 0; i < side; i++) {
      const x = i * cell;
      const y = j * cell;
      const v = (j * side + i) * 3;
      positions[v] = x;
      positions[v + 1] = y;
      positions[v + 2] = exteriorHeight(x, y);
    }
  }

  const blocked = patchMask(cells, cell, tiles, cellsPerTile, border, options.patches ?? 160, options.seed ?? 1);
  const T = cells * cells * 2;
  const triVertices = new Uint32Array(T * 3);
  const triFlags = new Uint16Array(T);
  let t = 0;
  for (let j = 0; j < cells; j++) {
    for (let i = 0; i < cells; i++) {
      const v00 = j * side + i;
      const v10 = v00 + 1;
      const v01 = v00 + side;
      const v11 = v01 + 1;
      const flags = TriangleFlag.clockwise | TriangleFlag.grass | (blocked[j * cells + i] ? 0 : TriangleFlag.walkable);
      // Clockwise seen from +Z: the reverse of (v00, v10, v11) and (v00, v11, v01), or of
      // (v00, v10, v01) and (v10, v11, v01) on the other diagonal.
      const corners = (i + j) % 2 === 0 ? [v00, v11, v10, v00, v01, v11] : [v00, v01, v10, v10, v01, v11];
      for (let k = 0; k < 6; k++) triVertices[t * 3 + k] = corners[k]!;
      triFlags[t] = flags;
      triFlags[t + 1] = flags;
      t += 2;
    }
  }

  const input = unbakedAswm({
    vertices: new Uint32Array(positions.buffer),
    triVertices,
    triFlags,
    tilesFlags: TILES_FLAGS_TRX,
    tileWidth,
    gridWidth: tiles,
    gridHeight: tiles,
    borderSize: border,
  });
  return rebuildTopology(input, { tileSizes: 'zero' });
}

/** The rolling height of the generated exterior at (x, y) (exported so generated terrain can match it). */
export function exteriorHeight(x: number, y: number): number {
  return 2 * Math.sin(x / 37) * Math.cos(y / 53) + 0.5 * Math.sin((x + y) / 11);
}

/** The generated exterior as a TRX document (TRWH in 40 m megatiles, spec §2.2, and the ASWM packet). */
export function generateExteriorTrx(options: ExteriorOptions = {}): TrxDocument {
  const aswm = generateExteriorAswm(options);
  const megatiles = Math.max(1, Math.round((aswm.gridWidth * (options.tileWidth ?? 10)) / 40));
  return newTrxDocument(aswm, { width: megatiles, height: megatiles });
}

/** 1 for every cell that is unwalkable: the border, discs and straight strips. */
function patchMask(cells: number, cell: number, tiles: number, cellsPerTile: number, border: number, patches: number, seed: number): Uint8Array {
  const blocked = new Uint8Array(cells * cells);
  const lo = border * cellsPerTile;
  const hi = (tiles - border) * cellsPerTile;
  for (let j = 0; j < cells; j++) {
    for (let i = 0; i < cells; i++) if (i < lo || i >= hi || j < lo || j >= hi) blocked[j * cells + i] = 1;
  }
  let state = seed >>> 0 || 1;
  const random = () => {
    // xorshift32: a fixed, portable sequence.
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x100000000;
  };
  const span = (hi - lo) * cell;
  const origin = lo * cell;
  for (let p = 0; p < patches; p++) {
    const cx = origin + random() * span;
    const cy = origin + random() * span;
    if (p % 3 === 2) {
      // A strip (a fence or a stream): a thin rotated rectangle across a tile or two.
      const angle = random() * Math.PI;
      const length = 6 + random() * 14;
      const half = cell * 0.6;
      const dx = Math.cos(angle);
      const dy = Math.sin(angle);
      markCells(blocked, cells, cell, lo, hi, cx, cy, length / 2 + half, (x, y) => {
        const along = (x - cx) * dx + (y - cy) * dy;
        const across = -(x - cx) * dy + (y - cy) * dx;
        return Math.abs(along) <= length / 2 && Math.abs(across) <= half;
      });
    } else {
      const radius = 1.5 + random() * 5;
      markCells(blocked, cells, cell, lo, hi, cx, cy, radius, (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= radius * radius);
    }
  }
  return blocked;
}

/** Marks the playable cells near (cx, cy) whose centre satisfies `inside`. */
function markCells(
  blocked: Uint8Array,
  cells: number,
  cell: number,
  lo: number,
  hi: number,
  cx: number,
  cy: number,
  reach: number,
  inside: (x: number, y: number) => boolean,
): void {
  const i0 = Math.max(lo, Math.floor((cx - reach) / cell));
  const i1 = Math.min(hi - 1, Math.floor((cx + reach) / cell));
  const j0 = Math.max(lo, Math.floor((cy - reach) / cell));
  const j1 = Math.min(hi - 1, Math.floor((cy + reach) / cell));
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) if (inside((i + 0.5) * cell, (j + 0.5) * cell)) blocked[j * cells + i] = 1;
  }
}
