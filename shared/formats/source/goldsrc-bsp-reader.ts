import {
  emptyDisplacements,
  GOLDSRC_BSP_FORMAT,
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

/** GoldSrc (Half-Life, Counter-Strike 1.6) map version. */
export const GOLDSRC_BSP_VERSION = 30;

const LUMP_NAMES = [
  'entities', 'planes', 'textures', 'vertices', 'visibility', 'nodes', 'texinfo', 'faces',
  'lighting', 'clipnodes', 'leaves', 'marksurfaces', 'edges', 'surfedges', 'models',
] as const;
type LumpName = (typeof LUMP_NAMES)[number];

const FACE_BYTES = 20;
const TEXINFO_BYTES = 40;
const MODEL_BYTES = 64;
const MIPTEX_NAME_BYTES = 16;

/**
 * Reads a GoldSrc BSP (version 30; Valve's hlsdk `bspfile.h`): a 4-byte version and a
 * directory of 15 lumps (offset, length). Blue Shift's maps store the planes lump first
 * and the entities second; that order is recognised by the entity text's opening brace.
 *
 * Memory bound: every column is allocated from a lump's length at most 2× (vertex floats
 * are 4 bytes per 4 read; faces take 15 bytes per 20), entity strings at most 4 bytes of
 * heap per text byte: under 4 bytes per input byte in all.
 */
export function readGoldsrcBsp(bytes: Uint8Array, fileName: string): BspMap {
  const input = new BspInput(bytes, GOLDSRC_BSP_FORMAT, fileName);
  if (bytes.length < 4 + LUMP_NAMES.length * 8) {
    throw input.error(0, 'header', `at least ${4 + LUMP_NAMES.length * 8} bytes (version and 15-lump directory)`, `${bytes.length} bytes`);
  }
  const version = input.i32(0);
  if (version !== GOLDSRC_BSP_VERSION) throw input.error(0, 'version', String(GOLDSRC_BSP_VERSION), String(version));
  const lumps: BspLump[] = LUMP_NAMES.map((name, index) => ({
    index,
    name,
    headerOffset: 4 + index * 8,
    offset: input.i32(4 + index * 8),
    length: input.i32(8 + index * 8),
    version: 0,
    fourCC: 0,
    compressed: false,
  }));
  checkLumpRanges(input, lumps);
  if (isBlueShiftOrder(bytes, lumps)) {
    const [first, second] = [lumps[0]!, lumps[1]!];
    lumps[0] = { ...second, index: 0, name: 'entities' };
    lumps[1] = { ...first, index: 1, name: 'planes' };
  }
  const lump = (name: LumpName): BspLump => lumps[LUMP_NAMES.indexOf(name)]!;

  const planes = readPlanes(input, lump('planes'));
  const vertices = readVertices(input, lump('vertices'));
  const edges = readEdges(input, lump('edges'), vertices.length / 3);
  const surfedges = readSurfedges(input, lump('surfedges'), edges.length / 2);
  const textures = readMiptexNames(input, lump('textures'));
  const texinfo = readTexinfo(input, lump('texinfo'), TEXINFO_BYTES, 32, 36);
  checkTexinfo(input, lump('texinfo'), texinfo, TEXINFO_BYTES, textures.length, 'miptex');
  const faces = readFaces(input, lump('faces'));
  checkFaces(input, lump('faces'), faces, FACE_BYTES, {
    surfedges: surfedges.length,
    texinfo: texinfo.count,
    planes: planes.length / 4,
    displacements: 0,
  });
  const models = readModels(input, lump('models'));
  checkModels(input, lump('models'), models, MODEL_BYTES, faces.count);
  const ent = lump('entities');
  return {
    fileName,
    format: GOLDSRC_BSP_FORMAT,
    version,
    mapRevision: 0,
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
    displacements: emptyDisplacements(),
    entities: readEntities(bytes, ent.offset, ent.length),
  };
}

/** Blue Shift swaps the first two lumps: the second then holds the `{`-opened entity text. */
function isBlueShiftOrder(bytes: Uint8Array, lumps: readonly BspLump[]): boolean {
  const first = lumps[0]!;
  const second = lumps[1]!;
  const opensText = (l: BspLump) => l.length > 0 && bytes[l.offset] === 0x7b;
  return !opensText(first) && opensText(second) && first.length % 20 === 0;
}

/** The texture lump: a miptex count, that many offsets (-1: none), each a 16-byte name first. */
function readMiptexNames(input: BspInput, lump: BspLump): string[] {
  if (lump.length === 0) return [];
  if (lump.length < 4) throw input.error(lump.offset, `${lumpLabel(lump)}.nummiptex`, '4 bytes', `${lump.length} byte(s)`);
  const count = input.i32(lump.offset);
  if (count < 0 || count > (lump.length - 4) / 4) {
    throw input.error(lump.offset, `${lumpLabel(lump)}.nummiptex`, `a count whose 4-byte offsets fit in the ${lump.length - 4} byte(s) left`, String(count));
  }
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const at = lump.offset + 4 + i * 4;
    const rel = input.i32(at);
    if (rel === -1) {
      names.push('');
      continue;
    }
    if (rel < 0 || rel > lump.length - MIPTEX_NAME_BYTES) {
      throw input.error(at, `${lumpLabel(lump)}.offsets[${i}]`, `-1 or an offset of a 16-byte name inside the ${lump.length}-byte lump`, String(rel));
    }
    const from = lump.offset + rel;
    names.push(latin1(input.bytes, from, from + MIPTEX_NAME_BYTES));
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
    dispinfo: new Int16Array(n).fill(-1),
  };
  for (let f = 0, o = lump.offset; f < n; f++, o += FACE_BYTES) {
    faces.plane[f] = input.u16(o);
    faces.side[f] = input.i16(o + 2) !== 0 ? 1 : 0;
    faces.firstEdge[f] = input.i32(o + 4);
    const edges = input.i16(o + 8);
    if (edges < 0) throw input.error(o + 8, `${lumpLabel(lump)}[${f}].numedges`, 'a non-negative edge count', String(edges));
    faces.edgeCount[f] = edges;
    faces.texinfo[f] = input.i16(o + 10);
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
    models.firstFace[m] = input.i32(o + 56);
    models.faceCount[m] = input.i32(o + 60);
  }
  return models;
}
