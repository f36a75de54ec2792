import { lzmaDecode, LzmaError } from '../../binary/lzma-decoder';
import { DecompressionBudget, type ReadLimits } from '../../binary/read-budget';
import {
  SOURCE_VBSP_FORMAT,
  type BspDisplacements,
  type BspFaces,
  type BspLump,
  type BspMap,
  type BspModels,
} from './bsp-document';
import {
  BspInput,
  checkFaces,
  checkLumpRanges,
  checkModels,
  checkTexinfo,
  latin1,
  lumpLabel,
  readEdges,
  readEntities,
  readPlanes,
  readTexinfo,
  readSurfedges,
  readVertices,
} from './bsp-lumps';

/** `VBSP` read as a little-endian u32. */
export const VBSP_MAGIC = 0x50534256;
export const VBSP_MIN_VERSION = 19;
export const VBSP_MAX_VERSION = 21;
const LUMP_COUNT = 64;
const HEADER_BYTES = 8 + LUMP_COUNT * 16 + 4;
/** `LZMA` read as a little-endian u32: a compressed lump's first word. */
const LZMA_MAGIC = 0x414d5a4c;
const LZMA_HEADER_BYTES = 17;

/** Valve's lump names (bspfile.h, Source SDK 2013), lower case without LUMP_. */
const LUMP_NAMES: readonly string[] = [
  'entities', 'planes', 'texdata', 'vertexes', 'visibility', 'nodes', 'texinfo', 'faces',
  'lighting', 'occlusion', 'leafs', 'faceids', 'edges', 'surfedges', 'models', 'worldlights',
  'leaffaces', 'leafbrushes', 'brushes', 'brushsides', 'areas', 'areaportals', 'unused0', 'unused1',
  'unused2', 'unused3', 'dispinfo', 'originalfaces', 'physdisp', 'physcollide', 'vertnormals', 'vertnormalindices',
  'disp_lightmap_alphas', 'disp_verts', 'disp_lightmap_sample_positions', 'game_lump', 'leafwaterdata', 'primitives', 'primverts', 'primindices',
  'pakfile', 'clipportalverts', 'cubemaps', 'texdata_string_data', 'texdata_string_table', 'overlays', 'leafmindisttowater', 'face_macro_texture_info',
  'disp_tris', 'physcollidesurface', 'wateroverlays', 'leaf_ambient_index_hdr', 'leaf_ambient_index', 'lighting_hdr', 'worldlights_hdr', 'leaf_ambient_lighting_hdr',
  'leaf_ambient_lighting', 'xzippakfile', 'faces_hdr', 'map_flags', 'overlay_fades', 'overlay_system_levels', 'physlevel', 'disp_multiblend',
];

export const VBSP_LUMP = {
  entities: 0, planes: 1, texdata: 2, vertexes: 3, texinfo: 6, faces: 7, edges: 12, surfedges: 13, models: 14,
  dispinfo: 26, dispVerts: 33, texdataStringData: 43, texdataStringTable: 44, dispTris: 48,
} as const;

const FACE_BYTES = 56;
const TEXINFO_BYTES = 72;
const TEXDATA_BYTES = 32;
const MODEL_BYTES = 48;
/** ddispinfo_t in Source SDK 2013 (TF2, HL2DM, CS:S). */
const DISPINFO_BYTES = 176;
/** Only the dispinfo fields up to MapFace are read. */
const DISPINFO_READ_BYTES = 38;
const DISPVERT_BYTES = 20;
/** Valve's material names are at most 128 bytes (TEXTURE_NAME_LENGTH). */
const MATERIAL_NAME_MAX = 128;
/** Hammer builds displacements of power 2, 3 or 4; the engine's limit is 4 (MAX_MAP_DISP_POWER). */
const MAX_DISP_POWER = 4;

/** Byte size of each lump entry this reader decodes, for counts (vbspinfo's "Objects"). */
export const VBSP_ENTRY_BYTES: Readonly<Record<string, number>> = {
  planes: 20, texdata: TEXDATA_BYTES, vertexes: 12, texinfo: TEXINFO_BYTES, faces: FACE_BYTES, edges: 4, surfedges: 4,
  models: MODEL_BYTES, dispinfo: DISPINFO_BYTES, disp_verts: DISPVERT_BYTES, disp_tris: 2,
};

/**
 * Reads a Source VBSP (versions 19–21: HL2, CS:S, TF2, HL2DM, Source SDK 2013, CS:GO,
 * L4D2): the `VBSP` magic, version, 64 lump entries (offset, length, version, four-CC) and
 * the map revision. Left 4 Dead 2 (version 21) stores each entry as (version, offset,
 * length, four-CC); that order is chosen only when the usual one puts a lump outside the
 * file and it does not. A lump compressed with LZMA (its data starts `LZMA`, as the lumps
 * of maps some games ship compressed) is decoded when this reader needs it, its size
 * charged to the file's decompression budget (read-budget.ts) first.
 *
 * Memory bound: see BSP_READ_MEMORY (bsp-reader.ts); a decompressed lump costs its bytes
 * and the columns read from them (at most 3 bytes per decompressed byte).
 */
export function readVbsp(bytes: Uint8Array, fileName: string, options?: { limits?: ReadLimits }): BspMap {
  const input = new BspInput(bytes, SOURCE_VBSP_FORMAT, fileName);
  if (bytes.length < HEADER_BYTES) throw input.error(0, 'header', `at least ${HEADER_BYTES} bytes (magic, version, 64-lump directory, map revision)`, `${bytes.length} bytes`);
  const magic = input.u32(0);
  if (magic !== VBSP_MAGIC) throw input.error(0, 'magic', '"VBSP"', `0x${magic.toString(16).padStart(8, '0')}`);
  const version = input.i32(4);
  if (version < VBSP_MIN_VERSION || version > VBSP_MAX_VERSION) {
    throw input.error(4, 'version', `${VBSP_MIN_VERSION} to ${VBSP_MAX_VERSION} (HL2/CS:S/TF2/CS:GO/L4D2 maps)`, String(version));
  }
  const lumps = readDirectory(input, version);
  const budget = new DecompressionBudget(bytes.length, options?.limits);
  /** A lump's bytes: the file itself, or the lump decompressed into its own input. */
  const lump = (index: number): Lump => {
    const l = lumps[index]!;
    return l.compressed ? decompressLump(input, l, budget) : [input, l];
  };

  const planes = readPlanes(...lump(VBSP_LUMP.planes));
  const vertices = readVertices(...lump(VBSP_LUMP.vertexes));
  const edges = readEdges(...lump(VBSP_LUMP.edges), vertices.length / 3);
  const surfedges = readSurfedges(...lump(VBSP_LUMP.surfedges), edges.length / 2);
  const textures = readTexdataNames(lump(VBSP_LUMP.texdata), lump(VBSP_LUMP.texdataStringTable), lump(VBSP_LUMP.texdataStringData));
  const texinfoLump = lump(VBSP_LUMP.texinfo);
  const texinfo = readTexinfo(...texinfoLump, TEXINFO_BYTES, 68, 64);
  checkTexinfo(...texinfoLump, texinfo, TEXINFO_BYTES, textures.length, 'texdata');
  const facesLump = lump(VBSP_LUMP.faces);
  const faces = readFaces(...facesLump);
  const displacements = readDisplacements(faces, lump(VBSP_LUMP.dispinfo), lump(VBSP_LUMP.dispVerts), lump(VBSP_LUMP.dispTris));
  checkFaces(...facesLump, faces, FACE_BYTES, {
    surfedges: surfedges.length,
    texinfo: texinfo.count,
    planes: planes.length / 4,
    displacements: displacements.count,
  });
  const modelsLump = lump(VBSP_LUMP.models);
  const models = readModels(...modelsLump);
  checkModels(...modelsLump, models, MODEL_BYTES, faces.count);
  const [entInput, ent] = lump(VBSP_LUMP.entities);
  return {
    fileName,
    format: SOURCE_VBSP_FORMAT,
    version,
    mapRevision: input.i32(8 + LUMP_COUNT * 16),
    fileSize: bytes.length,
    lumps,
    planes,
    vertices,
    edges,
    surfedges,
    faces,
    texinfo,
    textures,
    models,
    displacements,
    entities: readEntities(entInput.bytes, ent.offset, ent.length),
  };
}

type Lump = [BspInput, BspLump];

/**
 * An LZMA lump (Valve's lzma_header_t: `LZMA`, actual size, compressed size, 5 property
 * bytes, then a raw LZMA stream): decoded into its own input once its actual size is
 * charged to the file's decompression budget. No fixture map has compressed lumps; the
 * decoder is checked on streams made by xz's LZMA encoder (test/unit/bsp/bsp-lzma.test.ts).
 */
function decompressLump(input: BspInput, lump: BspLump, budget: DecompressionBudget): Lump {
  const o = lump.offset;
  const actual = input.u32(o + 4);
  const packed = input.u32(o + 8);
  if (packed > lump.length - LZMA_HEADER_BYTES) {
    throw input.error(o + 8, `${lumpLabel(lump)}.lzmaSize`, `at most the ${lump.length - LZMA_HEADER_BYTES} bytes after the 17-byte LZMA header`, String(packed));
  }
  budget.charge(actual, input.format, o + 4, `${lumpLabel(lump)}.actualSize`);
  let bytes: Uint8Array;
  try {
    bytes = lzmaDecode(input.bytes.subarray(o + LZMA_HEADER_BYTES, o + LZMA_HEADER_BYTES + packed), input.bytes.subarray(o + 12, o + 17), actual);
  } catch (e) {
    if (!(e instanceof LzmaError)) throw e;
    throw input.error(o + LZMA_HEADER_BYTES + e.at, `${lumpLabel(lump)} LZMA stream`, `an LZMA stream of ${actual} bytes`, e.message);
  }
  const decoded = new BspInput(bytes, input.format, input.fileName, o);
  return [decoded, { ...lump, offset: 0, length: bytes.length }];
}

function readDirectory(input: BspInput, version: number): BspLump[] {
  const read = (swapped: boolean): BspLump[] => {
    const out: BspLump[] = [];
    for (let i = 0; i < LUMP_COUNT; i++) {
      const h = 8 + i * 16;
      const a = input.i32(h), b = input.i32(h + 4), c = input.i32(h + 8);
      const [offset, length, lumpVersion] = swapped ? [b, c, a] : [a, b, c];
      const compressed = length >= LZMA_HEADER_BYTES && offset >= 0 && offset <= input.bytes.length - 4 && input.u32(offset) === LZMA_MAGIC;
      out.push({ index: i, name: LUMP_NAMES[i]!, headerOffset: h, offset, length, version: lumpVersion, fourCC: input.u32(h + 12), compressed });
    }
    return out;
  };
  const usual = read(false);
  const inside = (ls: readonly BspLump[]) => ls.every((l) => l.offset >= 0 && l.length >= 0 && l.offset <= input.bytes.length && l.length <= input.bytes.length - l.offset);
  if (version === 21 && !inside(usual)) {
    const l4d2 = read(true);
    if (inside(l4d2)) return l4d2;
  }
  checkLumpRanges(input, usual);
  return usual;
}

/** texdata → string table → string data: one material name per texdata. */
function readTexdataNames([input, texdata]: Lump, [tableInput, table]: Lump, [dataInput, data]: Lump): string[] {
  const n = input.entries(texdata, TEXDATA_BYTES);
  const tableCount = tableInput.entries(table, 4);
  const names: string[] = [];
  for (let i = 0, o = texdata.offset; i < n; i++, o += TEXDATA_BYTES) {
    const id = input.i32(o + 12);
    if (id < 0 || id >= tableCount) throw input.error(o + 12, `${lumpLabel(texdata)}[${i}].nameStringTableID`, `an index below ${tableCount}`, String(id));
    const at = table.offset + id * 4;
    const rel = tableInput.i32(at);
    if (rel < 0 || rel >= data.length) {
      throw tableInput.error(at, `${lumpLabel(table)}[${id}]`, `an offset inside the ${data.length}-byte ${data.name} lump`, String(rel));
    }
    const from = data.offset + rel;
    names.push(latin1(dataInput.bytes, from, Math.min(data.offset + data.length, from + MATERIAL_NAME_MAX)));
  }
  return names;
}


function readFaces(input: BspInput, lump: BspLump): BspFaces {
  const n = input.entries(lump, FACE_BYTES);
  const faces: BspFaces = {
    count: n,
    plane: new Uint16Array(n),
    side: new Uint8Array(n),
    firstEdge: new Int32Array(n),
    edgeCount: new Uint16Array(n),
    texinfo: new Int16Array(n),
    dispinfo: new Int16Array(n),
  };
  for (let f = 0, o = lump.offset; f < n; f++, o += FACE_BYTES) {
    faces.plane[f] = input.u16(o);
    faces.side[f] = input.bytes[o + 2]! !== 0 ? 1 : 0;
    faces.firstEdge[f] = input.i32(o + 4);
    const edges = input.i16(o + 8);
    if (edges < 0) throw input.error(o + 8, `${lumpLabel(lump)}[${f}].numedges`, 'a non-negative edge count', String(edges));
    faces.edgeCount[f] = edges;
    faces.texinfo[f] = input.i16(o + 10);
    faces.dispinfo[f] = input.i16(o + 12);
  }
  return faces;
}

function readModels(input: BspInput, lump: BspLump): BspModels {
  const n = input.entries(lump, MODEL_BYTES);
  const models: BspModels = {
    count: n,
    bounds: new Float32Array(n * 6),
    origin: new Float32Array(n * 3),
    firstFace: new Int32Array(n),
    faceCount: new Int32Array(n),
  };
  for (let m = 0, o = lump.offset; m < n; m++, o += MODEL_BYTES) {
    for (let k = 0; k < 6; k++) models.bounds[m * 6 + k] = input.f32(o + k * 4);
    for (let k = 0; k < 3; k++) models.origin[m * 3 + k] = input.f32(o + 24 + k * 4);
    models.firstFace[m] = input.i32(o + 40);
    models.faceCount[m] = input.i32(o + 44);
  }
  return models;
}

/**
 * dispinfo + disp_verts + disp_tris. The dispinfo entry is 176 bytes in Source SDK 2013;
 * other branches append fields, so when the lump is not a whole number of 176-byte
 * entries the entry size is the lump length over the number of displacements the faces
 * name (every displacement replaces exactly one face). Only the leading fields every
 * branch shares are read.
 */
function readDisplacements(faces: BspFaces, [input, info]: Lump, [vertsInput, vertsLump]: Lump, [trisInput, trisLump]: Lump): BspDisplacements {
  let named = 0;
  for (let f = 0; f < faces.count; f++) if (faces.dispinfo[f]! >= 0) named = Math.max(named, faces.dispinfo[f]! + 1);
  let entryBytes = DISPINFO_BYTES;
  if (info.length % DISPINFO_BYTES !== 0 && named > 0 && info.length % named === 0 && info.length / named >= DISPINFO_READ_BYTES) {
    entryBytes = info.length / named;
  }
  const n = input.entries(info, entryBytes);
  const vertCount = vertsInput.entries(vertsLump, DISPVERT_BYTES);
  const triCount = trisInput.entries(trisLump, 2);
  const d: BspDisplacements = {
    count: n,
    startPosition: new Float32Array(n * 3),
    vertStart: new Int32Array(n),
    power: new Uint8Array(n),
    face: new Uint16Array(n),
    verts: new Float32Array(vertCount * 5),
    triTags: new Uint16Array(triCount),
  };
  let usedVerts = 0;
  for (let i = 0, o = info.offset; i < n; i++, o += entryBytes) {
    for (let k = 0; k < 3; k++) d.startPosition[i * 3 + k] = input.f32(o + k * 4);
    const power = input.i32(o + 20);
    if (power < 1 || power > MAX_DISP_POWER) throw input.error(o + 20, `${lumpLabel(info)}[${i}].power`, `1 to ${MAX_DISP_POWER}`, String(power));
    const side = (1 << power) + 1;
    const start = input.i32(o + 12);
    if (start < 0 || start > vertCount || side * side > vertCount - start) {
      throw input.error(o + 12, `${lumpLabel(info)}[${i}].DispVertStart`, `a run of ${side * side} vertices inside the ${vertCount} disp_verts`, String(start));
    }
    const face = input.u16(o + 36);
    if (face >= faces.count) throw input.error(o + 36, `${lumpLabel(info)}[${i}].MapFace`, `a face index below ${faces.count}`, String(face));
    if (faces.edgeCount[face] !== 4) {
      throw input.error(o + 36, `${lumpLabel(info)}[${i}].MapFace`, 'a face with 4 edges (a displacement is built on a quad)', `face ${face} with ${faces.edgeCount[face]!} edges`);
    }
    // Each displacement has its own run (both fixture maps with displacements use every disp_vert once).
    usedVerts += side * side;
    if (usedVerts > vertCount) {
      throw input.error(o + 20, `${lumpLabel(info)}[${i}].power`, `displacement grids totalling at most the ${vertCount} disp_verts`, `${usedVerts} vertices by displacement ${i}`);
    }
    d.vertStart[i] = start;
    d.power[i] = power;
    d.face[i] = face;
  }
  for (let i = 0, o = vertsLump.offset; i < vertCount * 5; i++, o += 4) d.verts[i] = vertsInput.f32(o);
  for (let i = 0, o = trisLump.offset; i < triCount; i++, o += 2) d.triTags[i] = trisInput.u16(o);
  return d;
}
