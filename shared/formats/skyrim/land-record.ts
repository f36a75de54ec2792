import { MalformedInputError } from '../../binary/malformed-input-error';
import type { ReadMemoryBound } from '../../binary/read-budget';
import { formIdHex, PLUGIN_FORMAT, type PluginRecord } from './plugin-document';

/**
 * A TES4/TES5 `LAND` record: the landscape of one exterior cell (UESP "Mod File
 * Format/LAND" for Oblivion and Skyrim, xEdit's definitions). Read for display only: the
 * record's subrecords stay in the plugin document as bytes and are never written from
 * here, so nothing is lost by decoding.
 *
 * The cell is 4096 units square, sampled by 33 × 33 vertices 128 units apart; row 0 is the
 * cell's south edge (y = cell Y · 4096), column 0 its west edge (x = cell X · 4096), so
 * vertex (column c, row r) sits at (X·4096 + 128·c, Y·4096 + 128·r). The first row and
 * column repeat the neighbouring cells' last ones.
 */
export const LAND_SIDE = 33;
export const LAND_VERTICES = LAND_SIDE * LAND_SIDE;
export const LAND_CELL_UNITS = 4096;
export const LAND_VERTEX_SPACING = 128;
/** VHGT heights are stored in steps of 8 units (offset and deltas alike). */
export const LAND_HEIGHT_SCALE = 8;

const VNML_BYTES = LAND_VERTICES * 3;
const VCLR_BYTES = LAND_VERTICES * 3;
/** f32 offset, 33 × 33 i8 deltas, 3 unused bytes. */
const VHGT_BYTES = 4 + LAND_VERTICES + 3;
const TXT_HEADER_BYTES = 8;
const VTXT_ENTRY_BYTES = 8;
/**
 * readLandRecord's memory bound (see ReadMemoryBound), per byte of the record's subrecords
 * (uncompressed, 6-byte headers included; the record itself is the plugin reader's, within
 * PLUGIN_READ_MEMORY). What it allocates per subrecord: VNML and VCLR a copy of their bytes
 * (1×); VHGT the deltas copied and a 4-byte height per vertex (~5.3 bytes per byte of its
 * 1,102); BTXT/ATXT a layer object (~100 bytes for 14); VTXT the three columns in one
 * buffer (8 bytes a point, as stored) and their objects (~470 bytes); other subrecords
 * nothing. Any subrecord may repeat, each time allocating anew (the last VNML/VCLR/VHGT is
 * kept), so the worst is an ATXT followed by a one-point VTXT, again and again: ~570 bytes for 28, measured 20–21 ×
 * the input (test/unit/hostile/reader-memory-bounds.test.ts); a real record takes ~3 × (one
 * fixture LAND, 15 KB). Nothing is decompressed here.
 */
export const LAND_READ_MEMORY: ReadMemoryBound = { perInputByte: 24, perDecompressedByte: 0 };

/** A quadrant is 17 × 17 points (the alpha layers' positions run 0..288). */
export const LAND_QUADRANT_POINTS = 17 * 17;

/** One texture layer: BTXT (base, one per quadrant) or ATXT with its VTXT opacities. */
export interface LandTextureLayer {
  kind: 'base' | 'alpha';
  /** FormID of the LTEX record (0: the engine's default dirt). */
  texture: number;
  /** 0 south-west, 1 south-east, 2 north-west, 3 north-east. */
  quadrant: number;
  /** The byte after the quadrant (unknown; kept). */
  unknown: number;
  /** The layer number (ATXT); BTXT stores 0xFFFF here in CK output, kept as its i16. */
  layer: number;
  /** VTXT points of an alpha layer: position in the 17 × 17 quadrant grid and opacity 0..1. */
  points?: { position: Uint16Array; unused: Uint16Array; opacity: Float32Array };
}

export interface LandRecord {
  formId: number;
  /** DATA (flags: 1 VNML/VHGT, 2 VCLR, 4 textures… as far as known); undefined when absent. */
  dataFlags: number | undefined;
  /** VNML: x, y, z per vertex, signed bytes (−127..127), row-major from the south-west corner. */
  normals: Int8Array | undefined;
  /** VHGT, decoded: the height of each vertex in game units (see landHeights). */
  heights: Float32Array | undefined;
  /** VHGT as stored: the f32 offset (in steps of 8), the deltas and the 3 unused bytes. */
  heightOffset: number | undefined;
  heightDeltas: Int8Array | undefined;
  heightUnused: Uint8Array | undefined;
  /** VCLR: r, g, b per vertex. */
  colours: Uint8Array | undefined;
  layers: LandTextureLayer[];
}

/**
 * A view made only for the subrecords with floats (VHGT, VTXT): the others are read byte by
 * byte, so that a flood of small subrecords allocates nothing but what they decode to.
 */
function viewOf(d: Uint8Array): DataView {
  return new DataView(d.buffer, d.byteOffset, d.byteLength);
}

function u32At(d: Uint8Array, at: number): number {
  return (d[at]! | (d[at + 1]! << 8) | (d[at + 2]! << 16) | (d[at + 3]! << 24)) >>> 0;
}

function fail(record: PluginRecord, field: string, expected: string, found: string): never {
  throw new MalformedInputError({ format: PLUGIN_FORMAT, offset: Math.max(0, record.sourceOffset), field: `LAND ${formIdHex(record.formId)} ${field}`, expected, found });
}

/**
 * Decodes the heights of VHGT: each row's first delta adds to the running height of the
 * column-0 vertices (starting from the offset), and each further delta adds to the running
 * height along its row; every step is 8 units.
 */
export function landHeights(offset: number, deltas: Int8Array): Float32Array {
  const out = new Float32Array(LAND_VERTICES);
  let rowStart = offset;
  for (let r = 0; r < LAND_SIDE; r++) {
    rowStart += deltas[r * LAND_SIDE]!;
    let h = rowStart;
    out[r * LAND_SIDE] = h * LAND_HEIGHT_SCALE;
    for (let c = 1; c < LAND_SIDE; c++) {
      h += deltas[r * LAND_SIDE + c]!;
      out[r * LAND_SIDE + c] = h * LAND_HEIGHT_SCALE;
    }
  }
  return out;
}

/**
 * Reads a LAND record's subrecords. Each of VNML, VHGT and VCLR must have its exact size,
 * BTXT and ATXT 8 bytes, a VTXT a multiple of 8 and follow an ATXT; anything else is a
 * MalformedInputError naming the record, the subrecord and the size found. Unknown
 * subrecords (VTEX in Oblivion, MPCD in later games) are ignored. Memory: LAND_READ_MEMORY.
 */
export function readLandRecord(record: PluginRecord): LandRecord {
  if (record.signature !== 'LAND') fail(record, 'signature', 'a LAND record', record.signature);
  const out: LandRecord = {
    formId: record.formId, dataFlags: undefined, normals: undefined, heights: undefined, heightOffset: undefined,
    heightDeltas: undefined, heightUnused: undefined, colours: undefined, layers: [],
  };
  let lastAlpha: LandTextureLayer | undefined;
  // Indexed, not for…of: before the loop is optimised, each iterator step allocates, ~40
  // bytes per subrecord (more than a 6-byte empty subrecord is worth in the bound).
  const subrecords = record.subrecords;
  for (let i = 0; i < subrecords.length; i++) {
    const s = subrecords[i]!;
    if (s.kind !== 'raw') continue;
    const d = s.data;
    switch (s.signature) {
      case 'DATA':
        // Oblivion and Skyrim store 4 bytes; a shorter field keeps what it has.
        out.dataFlags = d.length >= 4 ? u32At(d, 0) : d.length > 0 ? d[0]! : 0;
        break;
      case 'VNML':
        if (d.length !== VNML_BYTES) fail(record, 'VNML.size', `${VNML_BYTES} (33 × 33 normals of 3 bytes)`, String(d.length));
        out.normals = new Int8Array(d.slice().buffer);
        break;
      case 'VCLR':
        if (d.length !== VCLR_BYTES) fail(record, 'VCLR.size', `${VCLR_BYTES} (33 × 33 colours of 3 bytes)`, String(d.length));
        out.colours = d.slice();
        break;
      case 'VHGT': {
        if (d.length !== VHGT_BYTES) fail(record, 'VHGT.size', `${VHGT_BYTES} (f32 offset, 33 × 33 deltas, 3 unused bytes)`, String(d.length));
        const offset = viewOf(d).getFloat32(0, true);
        if (!Number.isFinite(offset)) fail(record, 'VHGT.offset', 'a finite number', String(offset));
        out.heightOffset = offset;
        out.heightDeltas = new Int8Array(d.slice(4, 4 + LAND_VERTICES).buffer);
        out.heightUnused = d.slice(4 + LAND_VERTICES);
        out.heights = landHeights(offset, out.heightDeltas);
        break;
      }
      case 'BTXT':
      case 'ATXT': {
        if (d.length !== TXT_HEADER_BYTES) fail(record, `${s.signature}.size`, String(TXT_HEADER_BYTES), String(d.length));
        const layer: LandTextureLayer = {
          kind: s.signature === 'BTXT' ? 'base' : 'alpha',
          texture: u32At(d, 0),
          quadrant: d[4]!,
          unknown: d[5]!,
          layer: ((d[6]! | (d[7]! << 8)) << 16) >> 16,
        };
        if (layer.quadrant > 3) fail(record, `${s.signature}.quadrant`, '0..3', String(layer.quadrant));
        out.layers.push(layer);
        lastAlpha = layer.kind === 'alpha' ? layer : undefined;
        break;
      }
      case 'VTXT': {
        if (d.length % VTXT_ENTRY_BYTES !== 0) fail(record, 'VTXT.size', 'a multiple of 8', String(d.length));
        if (!lastAlpha || lastAlpha.points) fail(record, 'VTXT', 'an ATXT right before it', lastAlpha ? 'a second VTXT' : 'none');
        const n = d.length / VTXT_ENTRY_BYTES;
        const dv = viewOf(d);
        // One buffer for the three columns (8 bytes a point, as stored): a typed array with a
        // buffer of its own costs ~150 bytes more, which a flood of one-point VTXTs multiplies.
        const columns = new ArrayBuffer(n * 8);
        const position = new Uint16Array(columns, 0, n);
        const unused = new Uint16Array(columns, n * 2, n);
        const opacity = new Float32Array(columns, n * 4, n);
        for (let k = 0; k < n; k++) {
          position[k] = dv.getUint16(k * 8, true);
          unused[k] = dv.getUint16(k * 8 + 2, true);
          opacity[k] = dv.getFloat32(k * 8 + 4, true);
        }
        lastAlpha.points = { position, unused, opacity };
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/** World x, y of a vertex of the cell at grid (cellX, cellY). */
export function landVertexXY(cellX: number, cellY: number, column: number, row: number): [number, number] {
  return [cellX * LAND_CELL_UNITS + column * LAND_VERTEX_SPACING, cellY * LAND_CELL_UNITS + row * LAND_VERTEX_SPACING];
}

/**
 * The terrain height at world (x, y) on a cell's heights, interpolated on the same two
 * triangles per square the mesh uses (landTriangles); undefined outside the cell.
 */
export function landHeightAt(heights: Float32Array, cellX: number, cellY: number, x: number, y: number): number | undefined {
  const u = (x - cellX * LAND_CELL_UNITS) / LAND_VERTEX_SPACING;
  const v = (y - cellY * LAND_CELL_UNITS) / LAND_VERTEX_SPACING;
  if (!(u >= 0 && v >= 0 && u <= LAND_SIDE - 1 && v <= LAND_SIDE - 1)) return undefined;
  const c = Math.min(LAND_SIDE - 2, Math.floor(u));
  const r = Math.min(LAND_SIDE - 2, Math.floor(v));
  const fu = u - c;
  const fv = v - r;
  const h00 = heights[r * LAND_SIDE + c]!;
  const h10 = heights[r * LAND_SIDE + c + 1]!;
  const h01 = heights[(r + 1) * LAND_SIDE + c]!;
  const h11 = heights[(r + 1) * LAND_SIDE + c + 1]!;
  // The squares are split along (c, r)–(c+1, r+1).
  return fu >= fv ? h00 + fu * (h10 - h00) + fv * (h11 - h10) : h00 + fv * (h01 - h00) + fu * (h11 - h01);
}

/** Two counter-clockwise triangles (seen from +Z) per square, split along the south-west–north-east diagonal. */
export function landTriangles(): Uint32Array {
  const n = LAND_SIDE - 1;
  const out = new Uint32Array(n * n * 6);
  let t = 0;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const v00 = r * LAND_SIDE + c;
      const v10 = v00 + 1;
      const v01 = v00 + LAND_SIDE;
      const v11 = v01 + 1;
      out[t++] = v00; out[t++] = v10; out[t++] = v11;
      out[t++] = v00; out[t++] = v11; out[t++] = v01;
    }
  }
  return out;
}
