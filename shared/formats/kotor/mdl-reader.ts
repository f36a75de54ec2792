import type { ReadMemoryBound } from '../../binary/read-budget';
import { BinaryReader } from '../../binary/binary-reader';
import { isMalformedInputError, MalformedInputError } from '../../binary/malformed-input-error';
import {
  MDL_CONTROLLER_ORIENTATION,
  MDL_CONTROLLER_POSITION,
  MDL_FILE_HEADER_SIZE,
  MDL_FORMAT,
  MDL_NODE_AABB,
  MDL_NODE_DANGLY,
  MDL_NODE_EMITTER,
  MDL_NODE_LIGHT,
  MDL_NODE_MESH,
  MDL_NODE_REFERENCE,
  MDL_NODE_SABER,
  MDL_NODE_SKIN,
  type KotorAabbTree,
  type KotorController,
  type KotorMesh,
  type KotorModel,
  type KotorModelGame,
  type KotorModelNode,
  type KotorModelStructure,
} from './mdl-document';

/**
 * readKotorModel's memory bound: every typed array is charged against a budget of
 * 8 bytes per input byte (MDL + MDX) before it is allocated, so structures that several
 * nodes point at cannot multiply the memory; nothing is decompressed.
 */
export const MDL_READ_MEMORY: ReadMemoryBound = { perInputByte: 8, perDecompressedByte: 0 };

/** The geometry header's first function pointer tells the game and platform (kotorblender, xoreos). */
const FUNCTION_POINTERS: Record<number, { game: KotorModelGame; xbox: boolean }> = {
  4273776: { game: 'kotor1', xbox: false },
  4285200: { game: 'kotor2', xbox: false },
  4254992: { game: 'kotor1', xbox: true },
  4285872: { game: 'kotor2', xbox: true },
};

const GEOMETRY_HEADER_SIZE = 80;
const MODEL_HEADER_SIZE = 116;
const NODE_HEADER_SIZE = 80;
const LIGHT_HEADER_SIZE = 92;
const EMITTER_HEADER_SIZE = 224;
const REFERENCE_HEADER_SIZE = 36;
const SKIN_HEADER_SIZE = 100;
const DANGLY_HEADER_SIZE = 28;
const AABB_HEADER_SIZE = 4;
const SABER_HEADER_SIZE = 20;
const ANIMATION_HEADER_SIZE = 136;
const FACE_SIZE = 32;
const AABB_NODE_SIZE = 40;
const CONTROLLER_SIZE = 16;
/** MDX data flag of the vertex position. */
const MDX_VERTICES = 0x1;
const NO_OFFSET = 0xffffffff;
const EMPTY_WORDS = new Uint32Array(0);

interface ArrayDef {
  /** File offset (the stored offset + 12). */
  offset: number;
  count: number;
  /** File offset of the definition, for errors. */
  at: number;
}

/**
 * Reads a KotOR 1/2 binary model and its MDX (null: vertices from the MDL's own copy where
 * the mesh has one). Every offset and count is checked against the data before use, every
 * array is charged against a memory budget before it is allocated, and the node tree,
 * AABB trees and animation trees are walked with explicit stacks and visited sets, so a
 * cycle or a deep chain cannot hang or overflow. Errors are MalformedInputErrors naming
 * the file, the offset and the field.
 */
export function readKotorModel(mdl: Uint8Array, mdx: Uint8Array | null, fileName: string): KotorModel {
  try {
    return new ModelReader(mdl, mdx).read(fileName);
  } catch (e) {
    if (isMalformedInputError(e)) throw e.withFile(fileName);
    throw e;
  }
}

class ModelReader {
  private readonly r: BinaryReader;
  /** The MDL's bytes, for reads of arrays already checked to lie in the file. */
  private readonly view: DataView;
  private readonly x: BinaryReader | null;
  private budget: number;
  private readonly structures: KotorModelStructure[] = [];
  private game: KotorModelGame = 'kotor1';
  private xbox = false;
  private names: string[] = [];

  constructor(
    private readonly mdl: Uint8Array,
    private readonly mdx: Uint8Array | null,
  ) {
    this.r = new BinaryReader(mdl, MDL_FORMAT);
    this.view = new DataView(mdl.buffer, mdl.byteOffset, mdl.byteLength);
    this.x = mdx ? new BinaryReader(mdx, `${MDL_FORMAT} mdx`) : null;
    this.budget = 8 * (mdl.length + (mdx?.length ?? 0)) + 4096;
  }

  read(fileName: string): KotorModel {
    const r = this.r;
    const zero = r.u32('file header binary marker');
    if (zero !== 0) throw r.error('file header binary marker', '0 (a binary model; ASCII models are not read)', String(zero), 0);
    const mdlDataSize = r.u32('file header MDL data size');
    const mdxSize = r.u32('file header MDX size');
    this.claim('file header', 0, MDL_FILE_HEADER_SIZE);
    this.claim('geometry header', MDL_FILE_HEADER_SIZE, GEOMETRY_HEADER_SIZE + MODEL_HEADER_SIZE);
    const fp1 = r.u32('geometry header function pointer');
    const kind = FUNCTION_POINTERS[fp1];
    if (!kind) throw r.error('geometry header function pointer', 'a KotOR 1 or 2 model (PC or Xbox) function pointer', String(fp1), 12);
    this.game = kind.game;
    this.xbox = kind.xbox;
    r.u32('geometry header function pointer 2');
    const name = this.fixedString(r, 32, 'model name');
    const rootOffset = this.pointer(r.u32('root node offset'), r.offset - 4, 'root node offset', NODE_HEADER_SIZE);
    const nodeCount = r.u32('node count');
    r.skip(24 + 4, 'runtime arrays and reference count');
    const modelType = r.u8('geometry type');
    if (modelType !== 2) throw r.error('geometry type', '2 (a model)', String(modelType), r.offset - 1);
    r.skip(3, 'geometry header padding');
    const classification = r.u8('classification');
    r.skip(3, 'subclassification, unknown and fog');
    r.u32('child model count');
    const animations = this.arrayDef('animations', 4);
    r.u32('supermodel reference');
    const boundsMin = this.vec3('model bounding box min');
    const boundsMax = this.vec3('model bounding box max');
    const radius = r.f32('model radius');
    r.f32('animation scale');
    const supermodel = this.fixedString(r, 32, 'supermodel name');
    r.u32('animation root node offset');
    r.u32('model header unknown');
    r.u32('model header MDX size');
    r.u32('model header MDX offset');
    const nameArray = this.arrayDef('names', 4);
    this.readNames(nameArray);

    const nodes = this.readNodeTree(rootOffset, false);
    for (const a of this.offsets(animations, 'animation offsets')) this.readAnimation(a.value, a.at);
    return {
      fileName,
      game: this.game,
      xbox: this.xbox,
      name,
      mdlDataSize,
      mdxSize,
      nodeCount,
      names: this.names,
      classification,
      supermodel,
      boundsMin,
      boundsMax,
      radius,
      animationCount: animations.count,
      nodes,
      structures: this.structures,
    };
  }

  /** Charges `bytes` of typed arrays against the budget before they are allocated. */
  private charge(bytes: number, offset: number, field: string): void {
    if (bytes > this.budget) {
      throw new MalformedInputError({
        format: MDL_FORMAT,
        offset,
        field,
        expected: `structures within the reader's memory budget of 8 bytes per input byte (${this.budget} byte(s) left)`,
        found: `${bytes} byte(s) more (structures read over and over)`,
      });
    }
    this.budget -= bytes;
  }

  private claim(kind: string, offset: number, size: number, file: 'mdl' | 'mdx' = 'mdl'): void {
    if (size <= 0) return;
    this.charge(64, offset, kind);
    this.structures.push({ kind, offset, size, file });
  }

  /** A stored MDL offset as a file offset, checked so that `size` bytes fit there. */
  private pointer(stored: number, at: number, field: string, size: number): number {
    const offset = stored + MDL_FILE_HEADER_SIZE;
    if (size > this.mdl.length || offset > this.mdl.length - size) {
      throw new MalformedInputError({ format: MDL_FORMAT, offset: at, field, expected: `an offset with ${size} byte(s) of data behind it in the ${this.mdl.length}-byte file`, found: String(stored) });
    }
    return offset;
  }

  /** An array definition (offset, count, count again); the items must fit in the file. */
  private arrayDef(field: string, itemSize: number): ArrayDef {
    const r = this.r;
    const at = r.offset;
    r.need(12, field);
    const stored = this.view.getUint32(at, true);
    const count = this.view.getUint32(at + 4, true);
    r.offset = at + 12;
    if (count === 0) return { offset: 0, count: 0, at };
    if (count > Math.floor(this.mdl.length / itemSize)) {
      throw r.error(`${field} count`, `a count whose ${itemSize}-byte items fit in the ${this.mdl.length}-byte file`, String(count), at + 4);
    }
    const offset = stored + MDL_FILE_HEADER_SIZE;
    if (offset > this.mdl.length - count * itemSize) this.pointer(stored, at, `${field} offset`, count * itemSize);
    return { offset, count, at };
  }

  private vec3(field: string): [number, number, number] {
    const r = this.r;
    r.need(12, field);
    const o = r.offset;
    r.offset += 12;
    return [this.view.getFloat32(o, true), this.view.getFloat32(o + 4, true), this.view.getFloat32(o + 8, true)];
  }

  private fixedString(r: BinaryReader, size: number, field: string): string {
    const bytes = r.bytesView(size, field);
    let end = bytes.indexOf(0);
    if (end < 0) end = size;
    return String.fromCharCode(...bytes.subarray(0, end));
  }

  /** The u32 values of an offset array, each with its file offset. */
  private offsets(def: ArrayDef, kind: string): { value: number; at: number }[] {
    if (def.count === 0) return [];
    this.claim(kind, def.offset, def.count * 4);
    this.charge(def.count * 64, def.at, kind);
    const out: { value: number; at: number }[] = [];
    for (let i = 0; i < def.count; i++) out.push({ value: this.view.getUint32(def.offset + 4 * i, true), at: def.offset + 4 * i });
    return out;
  }

  /**
   * The node names. Each is a string of its own after the previous one (every model
   * checked stores them so, one after another), so a names table cannot make one byte
   * into thousands of names.
   */
  private readNames(def: ArrayDef): void {
    if (def.count === 0) return;
    this.claim('name offsets', def.offset, def.count * 4);
    let previousEnd = 0;
    for (let i = 0; i < def.count; i++) {
      const at = def.offset + 4 * i;
      const stored = this.view.getUint32(at, true);
      const start = stored + MDL_FILE_HEADER_SIZE;
      if (start >= this.mdl.length) this.pointer(stored, at, `name[${i}] offset`, 1);
      if (start < previousEnd) {
        throw new MalformedInputError({ format: MDL_FORMAT, offset: at, field: `name[${i}] offset`, expected: `a name after the previous one (at or after ${previousEnd - MDL_FILE_HEADER_SIZE})`, found: String(stored) });
      }
      const end = this.mdl.indexOf(0, start);
      if (end < 0) throw new MalformedInputError({ format: MDL_FORMAT, offset: start, field: `name[${i}]`, expected: 'a string ending in a zero byte', found: 'the end of the file' });
      if (end - start > 256) throw new MalformedInputError({ format: MDL_FORMAT, offset: start, field: `name[${i}]`, expected: 'a node name of at most 256 characters', found: `${end - start} characters` });
      this.claim('name', start, end - start + 1);
      this.charge(2 * (end - start) + 192, start, 'name');
      let name = '';
      for (let k = start; k < end; k++) name += String.fromCharCode(this.mdl[k]!);
      this.names.push(name);
      previousEnd = end + 1;
    }
  }

  /**
   * The node tree from `rootOffset`, pre-order (children in stored order). Animation trees
   * (`animation` true) are walked for their structures only: headers, children and
   * controllers.
   */
  private readNodeTree(rootOffset: number, animation: boolean): KotorModelNode[] {
    const nodes: KotorModelNode[] = [];
    const visited = new Set<number>();
    const stack: { offset: number; parent: number; at: number }[] = [{ offset: rootOffset, parent: -1, at: rootOffset }];
    while (stack.length > 0) {
      const { offset, parent, at } = stack.pop()!;
      if (visited.has(offset)) {
        throw new MalformedInputError({ format: MDL_FORMAT, offset: at, field: 'child node offset', expected: 'a node not already in the tree (each node has one parent)', found: `the node at ${offset} again` });
      }
      visited.add(offset);
      this.charge(1024, offset, 'node');
      const node = this.readNode(offset, nodes.length, parent, animation);
      if (parent >= 0) nodes[parent]!.children.push(node.node.index);
      nodes.push(node.node);
      for (let i = node.children.length - 1; i >= 0; i--) stack.push({ offset: node.children[i]!.value, parent: node.node.index, at: node.children[i]!.at });
    }
    return nodes;
  }

  private readNode(offset: number, index: number, parent: number, animation: boolean): { node: KotorModelNode; children: { value: number; at: number }[] } {
    const r = this.r;
    r.offset = offset;
    const flags = r.u16('node type flags');
    const nodeNumber = r.u16('node number');
    const nameIndex = r.u16('node name index');
    r.skip(2 + 8, 'node padding, root and parent offsets');
    const headerPosition = this.vec3('node position');
    const headerOrientation: [number, number, number, number] = [r.f32('node orientation w'), r.f32('node orientation x'), r.f32('node orientation y'), r.f32('node orientation z')];
    const childArray = this.arrayDef('node children', 4);
    const controllerArray = this.arrayDef('node controllers', CONTROLLER_SIZE);
    const dataArray = this.arrayDef('node controller data', 4);
    const name = this.names[nameIndex] ?? `node ${nodeNumber}`;
    let headerSize = NODE_HEADER_SIZE;
    const node: KotorModelNode = {
      index,
      name,
      flags,
      nodeNumber,
      nameIndex,
      parent,
      children: [],
      offset,
      headerPosition,
      headerOrientation,
      position: [...headerPosition],
      orientation: [...headerOrientation],
      controllers: [],
      controllerData: EMPTY_WORDS,
    };
    if (!animation) {
      if (flags & MDL_NODE_LIGHT) headerSize += this.readLight(offset + headerSize);
      if (flags & MDL_NODE_EMITTER) headerSize += EMITTER_HEADER_SIZE;
      if (flags & MDL_NODE_REFERENCE) {
        r.offset = offset + headerSize;
        node.referenceModel = this.fixedString(r, 32, 'reference model');
        headerSize += REFERENCE_HEADER_SIZE;
      }
      let mesh: MeshHeader | undefined;
      if (flags & MDL_NODE_MESH) {
        mesh = this.readMeshHeader(offset + headerSize);
        headerSize += mesh.size;
      }
      if (flags & MDL_NODE_SKIN) headerSize += SKIN_HEADER_SIZE;
      if (flags & MDL_NODE_DANGLY) {
        headerSize += this.readDangly(offset + headerSize, mesh?.vertexCount ?? 0);
      }
      let aabbRoot = -1;
      let aabbAt = 0;
      if (flags & MDL_NODE_AABB) {
        r.offset = offset + headerSize;
        aabbAt = r.offset;
        const stored = r.u32('AABB tree root offset');
        if (stored !== 0) aabbRoot = this.pointer(stored, aabbAt, 'AABB tree root offset', AABB_NODE_SIZE);
        headerSize += AABB_HEADER_SIZE;
      }
      if (flags & MDL_NODE_SABER) headerSize += SABER_HEADER_SIZE;
      if (headerSize > this.mdl.length - offset) throw r.error('node headers', `${headerSize} bytes of node headers`, `${this.mdl.length - offset} byte(s) before the end of the file`, offset);
      if (mesh && !(flags & MDL_NODE_SABER)) node.mesh = this.readMesh(mesh);
      if (aabbRoot >= 0) node.aabb = this.readAabbTree(aabbRoot, aabbAt, node.mesh?.faces.length ?? 0);
    }
    this.claim(animation ? 'animation node header' : 'node header', offset, headerSize);
    const controllers = this.readControllers(controllerArray, dataArray, !animation);
    node.controllers = controllers.list;
    node.controllerData = controllers.data;
    applyControllerTransform(node);
    return { node, children: this.offsets(childArray, 'node children').map((c) => ({ value: this.pointer(c.value, c.at, 'child node offset', NODE_HEADER_SIZE), at: c.at })) };
  }

  private readLight(at: number): number {
    const r = this.r;
    r.offset = at + 4;
    const unknown = this.arrayDef('light unknown array', 4);
    const sizes = this.arrayDef('light flare sizes', 4);
    const positions = this.arrayDef('light flare positions', 4);
    const shifts = this.arrayDef('light flare colour shifts', 12);
    const textures = this.arrayDef('light flare textures', 4);
    this.claim('light unknown array', unknown.offset, unknown.count * 4);
    this.claim('light flare sizes', sizes.offset, sizes.count * 4);
    this.claim('light flare positions', positions.offset, positions.count * 4);
    this.claim('light flare colour shifts', shifts.offset, shifts.count * 12);
    for (const t of this.offsets(textures, 'light flare texture offsets')) {
      const start = this.pointer(t.value, t.at, 'light flare texture name', 1);
      const end = this.mdl.indexOf(0, start);
      if (end < 0) throw new MalformedInputError({ format: MDL_FORMAT, offset: start, field: 'light flare texture name', expected: 'a string ending in a zero byte', found: 'the end of the file' });
      this.claim('light flare texture name', start, end - start + 1);
    }
    return LIGHT_HEADER_SIZE;
  }

  private readDangly(at: number, vertexCount: number): number {
    const r = this.r;
    r.offset = at;
    const constraints = this.arrayDef('dangly constraints', 4);
    this.claim('dangly constraints', constraints.offset, constraints.count * 4);
    r.skip(12, 'dangly displacement, tightness and period');
    const dataAt = r.offset;
    const stored = r.u32('dangly vertex data offset');
    if (vertexCount > 0) this.claim('dangly vertex data', this.pointer(stored, dataAt, 'dangly vertex data offset', vertexCount * 12), vertexCount * 12);
    return DANGLY_HEADER_SIZE;
  }

  private readMeshHeader(at: number): MeshHeader {
    const r = this.r;
    r.offset = at;
    r.skip(8, 'mesh function pointers');
    const faces = this.arrayDef('mesh faces', FACE_SIZE);
    const boundsMin = this.vec3('mesh bounding box min');
    const boundsMax = this.vec3('mesh bounding box max');
    r.skip(4 + 12 + 12 + 12 + 4, 'mesh radius, average point, colours and transparency');
    const texture0 = this.fixedString(r, 32, 'mesh texture 0');
    const texture1 = this.fixedString(r, 32, 'mesh texture 1');
    r.skip(24, 'mesh textures 2 and 3');
    const indexCounts = this.arrayDef('mesh index counts', 4);
    const indexOffsets = this.arrayDef('mesh index offsets', 4);
    const inverted = this.arrayDef('mesh inverted counters', 4);
    r.skip(12 + 8 + 4 + 16, 'mesh unknowns and UV animation');
    const mdxStride = r.u32('mesh MDX vertex size');
    const mdxFlags = r.u32('mesh MDX data flags');
    const mdxVertexOffset = r.u32('mesh MDX vertex offset');
    r.skip(40, 'mesh MDX offsets of the other vertex data');
    const vertexCount = r.u16('mesh vertex count');
    r.u16('mesh texture count');
    r.skip(3, 'mesh lightmap, texture rotation and background flags');
    const shadow = r.u8('mesh shadow flag');
    r.u8('mesh beaming flag');
    const render = r.u8('mesh render flag');
    if (this.game === 'kotor2') r.skip(8, 'mesh TSL dirt and hologram fields');
    r.skip(2 + 4 + 4, 'mesh padding and total area');
    const mdxDataOffset = r.u32('mesh MDX data offset');
    let mdlVertices = NO_OFFSET;
    let mdlVerticesAt = 0;
    if (!this.xbox) {
      mdlVerticesAt = r.offset;
      mdlVertices = r.u32('mesh MDL vertex offset');
    }
    return {
      size: r.offset - at,
      faces,
      boundsMin,
      boundsMax,
      texture0,
      texture1,
      indexCounts,
      indexOffsets,
      inverted,
      mdxStride,
      mdxFlags,
      mdxVertexOffset,
      vertexCount,
      shadow: shadow !== 0,
      render: render !== 0,
      mdxDataOffset,
      mdxDataAt: mdlVerticesAt - 4,
      mdlVertices,
      mdlVerticesAt,
    };
  }

  private readMesh(h: MeshHeader): KotorMesh {
    const faceCount = h.faces.count;
    this.charge(faceCount * 46 + 1024, h.faces.at, 'mesh faces');
    const faces = new Uint32Array(faceCount * 3);
    const materials = new Uint32Array(faceCount);
    const normals = new Uint32Array(faceCount * 3);
    const planes = new Uint32Array(faceCount);
    const adjacency = new Uint16Array(faceCount * 3);
    const nv = h.vertexCount;
    if (faceCount > 0) {
      this.claim('mesh faces', h.faces.offset, faceCount * FACE_SIZE);
      // The whole array was checked to lie in the file (arrayDef), so the reads need no checks.
      const dv = this.view;
      for (let f = 0, o = h.faces.offset; f < faceCount; f++, o += FACE_SIZE) {
        normals[3 * f] = dv.getUint32(o, true);
        normals[3 * f + 1] = dv.getUint32(o + 4, true);
        normals[3 * f + 2] = dv.getUint32(o + 8, true);
        planes[f] = dv.getUint32(o + 12, true);
        materials[f] = dv.getUint32(o + 16, true);
        for (let j = 0; j < 3; j++) {
          adjacency[3 * f + j] = dv.getUint16(o + 20 + 2 * j, true);
          const v = dv.getUint16(o + 26 + 2 * j, true);
          if (v >= nv) throw new MalformedInputError({ format: MDL_FORMAT, offset: o + 26 + 2 * j, field: `face[${f}] vertex ${j}`, expected: `a vertex index below the mesh's ${nv} vertices`, found: String(v) });
          faces[3 * f + j] = v;
        }
      }
    }
    // The vertex index lists (the same triangles for the renderer) and their bookkeeping.
    const counts = this.offsets(h.indexCounts, 'mesh index counts');
    const lists = this.offsets(h.indexOffsets, 'mesh index offsets');
    for (let i = 0; i < lists.length; i++) {
      const n = counts[i]?.value ?? 0;
      if (n > 0) this.claim('mesh vertex indices', this.pointer(lists[i]!.value, lists[i]!.at, 'mesh index list offset', n * 2), n * 2);
    }
    this.claim('mesh inverted counters', h.inverted.offset, h.inverted.count * 4);

    this.charge(nv * 12, h.mdxDataAt, 'mesh vertices');
    const positions = new Float32Array(nv * 3);
    let vertexSource: KotorMesh['vertexSource'] = 'none';
    let vertexOffset = 0;
    const mdlHas = h.mdlVertices !== NO_OFFSET && h.mdlVertices !== 0 && nv > 0;
    let mdlAt = 0;
    if (mdlHas) {
      mdlAt = this.pointer(h.mdlVertices, h.mdlVerticesAt, 'mesh MDL vertex offset', nv * 12);
      this.claim('mesh MDL vertices', mdlAt, nv * 12);
    }
    // PC models keep a copy of every mesh's positions in the MDL, equal to the MDX's in
    // every intact model checked (377 meshes of the 5 models whose MDX is intact), so it is read first: it needs no
    // MDX and survives a damaged one (8 of the fixtures' MDX files lost or gained bytes to
    // a line-ending conversion; their MDL copies match the WOKs). Xbox models have only the MDX.
    const mdxUsable = !mdlHas && this.x !== null && nv > 0 && (h.mdxFlags & MDX_VERTICES) !== 0 && h.mdxStride >= 12 && h.mdxVertexOffset !== NO_OFFSET;
    if (mdlHas) {
      for (let i = 0; i < nv * 3; i++) positions[i] = this.view.getFloat32(mdlAt + 4 * i, true);
      vertexSource = 'mdl';
      vertexOffset = mdlAt;
    } else if (mdxUsable) {
      const x = this.x!;
      const last = h.mdxDataOffset + (nv - 1) * h.mdxStride + h.mdxVertexOffset;
      if (h.mdxVertexOffset > h.mdxStride - 12 || last + 12 > x.end) {
        throw new MalformedInputError({
          format: MDL_FORMAT,
          offset: h.mdxDataAt,
          field: 'mesh MDX data offset',
          expected: `${nv} vertices of ${h.mdxStride} bytes (position at +${h.mdxVertexOffset}) inside the ${x.end}-byte MDX`,
          found: String(h.mdxDataOffset),
        });
      }
      this.claim('mesh MDX vertex data', h.mdxDataOffset, nv * h.mdxStride, 'mdx');
      const dv = new DataView(x.bytes.buffer, x.bytes.byteOffset, x.bytes.byteLength);
      for (let v = 0; v < nv; v++) {
        const o = h.mdxDataOffset + v * h.mdxStride + h.mdxVertexOffset;
        positions[3 * v] = dv.getFloat32(o, true);
        positions[3 * v + 1] = dv.getFloat32(o + 4, true);
        positions[3 * v + 2] = dv.getFloat32(o + 8, true);
      }
      vertexSource = 'mdx';
      vertexOffset = h.mdxDataOffset;
    }
    return {
      texture0: h.texture0,
      texture1: h.texture1,
      render: h.render,
      shadow: h.shadow,
      vertices: positions,
      vertexSource,
      faces,
      materials,
      normals,
      planes,
      adjacency,
      boundsMin: h.boundsMin,
      boundsMax: h.boundsMax,
      mdx: { offset: h.mdxDataOffset, stride: h.mdxStride, positionOffset: h.mdxVertexOffset, flags: h.mdxFlags },
      faceOffset: h.faces.offset,
      vertexOffset,
    };
  }

  /**
   * The walkmesh node's AABB tree, pre-order (child 1 before child 2). A stored child
   * offset of 0 means none; every node may be reached once only.
   */
  private readAabbTree(root: number, rootAt: number, faceSlots: number): KotorAabbTree {
    const faceCount = faceSlots / 3;
    const limit = Math.floor(this.mdl.length / AABB_NODE_SIZE);
    const visited = new Set<number>();
    const order: number[] = [];
    const parentOf: number[] = [];
    const slotOf: number[] = [];
    const stack: { offset: number; parent: number; slot: number; at: number }[] = [{ offset: root, parent: -1, slot: 0, at: rootAt }];
    const r = this.r;
    const words: number[] = [];
    while (stack.length > 0) {
      const { offset, parent, slot, at } = stack.pop()!;
      if (visited.has(offset) || order.length >= limit) {
        throw new MalformedInputError({ format: MDL_FORMAT, offset: at, field: 'AABB child offset', expected: 'a tree node not already in the tree', found: `the node at ${offset} again` });
      }
      visited.add(offset);
      this.charge(256, at, 'AABB node');
      order.push(offset);
      parentOf.push(parent);
      slotOf.push(slot);
      r.offset = offset;
      for (let i = 0; i < 6; i++) words.push(r.u32('AABB node box'));
      const c1 = r.u32('AABB node child 1');
      const c2 = r.u32('AABB node child 2');
      const face = r.i32('AABB node face');
      const plane = r.u32('AABB node plane');
      words.push(face, plane);
      if (face >= faceCount || face < -1) throw r.error('AABB node face', `−1 or a face index below the walkmesh's ${faceCount} faces`, String(face), offset + 32);
      this.claim('AABB node', offset, AABB_NODE_SIZE);
      const me = order.length - 1;
      if (c2 !== 0) stack.push({ offset: this.pointer(c2, offset + 28, 'AABB node child 2', AABB_NODE_SIZE), parent: me, slot: 2, at: offset + 28 });
      if (c1 !== 0) stack.push({ offset: this.pointer(c1, offset + 24, 'AABB node child 1', AABB_NODE_SIZE), parent: me, slot: 1, at: offset + 24 });
    }
    const n = order.length;
    const tree: KotorAabbTree = {
      boxes: new Uint32Array(n * 6),
      face: new Int32Array(n),
      plane: new Uint32Array(n),
      child1: new Int32Array(n).fill(-1),
      child2: new Int32Array(n).fill(-1),
      offsets: Uint32Array.from(order),
    };
    for (let k = 0; k < n; k++) {
      for (let i = 0; i < 6; i++) tree.boxes[6 * k + i] = words[8 * k + i]!;
      tree.face[k] = words[8 * k + 6]!;
      tree.plane[k] = words[8 * k + 7]!;
      const p = parentOf[k]!;
      if (p >= 0) (slotOf[k] === 1 ? tree.child1 : tree.child2)[p] = k;
    }
    return tree;
  }

  /**
   * The node's controllers and its controller data (one typed array per node, so a file
   * of many small controllers cannot multiply the memory); animation nodes' are checked
   * and claimed only.
   */
  private readControllers(controllers: ArrayDef, data: ArrayDef, keep: boolean): { list: KotorController[]; data: Uint32Array } {
    this.claim('controllers', controllers.offset, controllers.count * CONTROLLER_SIZE);
    this.claim('controller data', data.offset, data.count * 4);
    const list: KotorController[] = [];
    const dv = this.view;
    for (let i = 0, at = controllers.offset; i < controllers.count; i++, at += CONTROLLER_SIZE) {
      const type = dv.getUint32(at, true);
      const rows = dv.getUint16(at + 6, true);
      const timeIndex = dv.getUint16(at + 8, true);
      const dataIndex = dv.getUint16(at + 10, true);
      const columns = dv.getUint8(at + 12);
      const perRow = type === MDL_CONTROLLER_ORIENTATION && columns === 2 ? 1 : (columns & 0xf) * (columns & 0x10 ? 3 : 1);
      if (timeIndex + rows > data.count) throw this.r.error(`controller[${i}] time index`, `${rows} key time(s) inside the ${data.count} controller data value(s)`, String(timeIndex), at + 8);
      if (dataIndex + rows * perRow > data.count) throw this.r.error(`controller[${i}] data index`, `${rows * perRow} value(s) inside the ${data.count} controller data value(s)`, String(dataIndex), at + 10);
      if (keep) {
        this.charge(96, at, 'controller');
        list.push({ type, rows, columns, timeIndex, dataIndex });
      }
    }
    if (!keep || data.count === 0) return { list, data: EMPTY_WORDS };
    this.charge(data.count * 4 + 128, data.at, 'node controller data');
    const words = new Uint32Array(data.count);
    for (let i = 0; i < data.count; i++) words[i] = this.view.getUint32(data.offset + 4 * i, true);
    return { list, data: words };
  }

  private readAnimation(stored: number, at: number): void {
    const offset = this.pointer(stored, at, 'animation offset', ANIMATION_HEADER_SIZE);
    this.claim('animation header', offset, ANIMATION_HEADER_SIZE);
    const r = this.r;
    r.offset = offset + 40;
    const rootAt = r.offset;
    const root = this.pointer(r.u32('animation root node offset'), rootAt, 'animation root node offset', NODE_HEADER_SIZE);
    r.offset = offset + 80 + 4 + 4 + 32;
    const events = this.arrayDef('animation events', 36);
    this.claim('animation events', events.offset, events.count * 36);
    this.readNodeTree(root, true);
  }
}

interface MeshHeader {
  size: number;
  faces: ArrayDef;
  boundsMin: [number, number, number];
  boundsMax: [number, number, number];
  texture0: string;
  texture1: string;
  indexCounts: ArrayDef;
  indexOffsets: ArrayDef;
  inverted: ArrayDef;
  mdxStride: number;
  mdxFlags: number;
  mdxVertexOffset: number;
  vertexCount: number;
  shadow: boolean;
  render: boolean;
  mdxDataOffset: number;
  mdxDataAt: number;
  mdlVertices: number;
  mdlVerticesAt: number;
}

/** A packed orientation (2-column orientation controller): x, y in 11 bits, z in 10 (kotorblender, xoreos). */
function unpackOrientation(p: number): [number, number, number, number] {
  const x = (p & 0x7ff) / 1023 - 1;
  const y = ((p >>> 11) & 0x7ff) / 1023 - 1;
  const z = (p >>> 22) / 511 - 1;
  const m = x * x + y * y + z * z;
  return [m < 1 ? Math.sqrt(1 - m) : 0, x, y, z];
}

/** Position and orientation from the first key of the node's own controllers, where it has them. */
function applyControllerTransform(node: KotorModelNode): void {
  const d = node.controllerData;
  const f = new Float32Array(d.buffer, d.byteOffset, d.length);
  for (const c of node.controllers) {
    if (c.rows === 0) continue;
    const v = c.dataIndex;
    if (c.type === MDL_CONTROLLER_POSITION && (c.columns & 0xf) >= 3 && !(c.columns & 0x10)) {
      node.position = [f[v]!, f[v + 1]!, f[v + 2]!];
    } else if (c.type === MDL_CONTROLLER_ORIENTATION) {
      if (c.columns === 2) node.orientation = unpackOrientation(d[v]!);
      else if ((c.columns & 0xf) === 4 && !(c.columns & 0x10)) node.orientation = [f[v + 3]!, f[v]!, f[v + 1]!, f[v + 2]!];
    }
  }
}
