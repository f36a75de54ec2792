/**
 * A KotOR binary model (MDL + MDX) as far as Walkbench needs it: the node tree with its
 * transforms, the trimesh geometry for drawing the room around its walkmesh, and the
 * walkmesh (AABB) node the room's WOK was compiled from. Read-only: Walkbench never writes
 * models. Offsets are file offsets (the MDL's own offsets are relative to its 12-byte file
 * header and are converted when read).
 */
export const MDL_FORMAT = 'kotor-mdl';
export const MDL_FILE_HEADER_SIZE = 12;

/** Node type flags (the node header's first u16). */
export const MDL_NODE_HEADER = 0x0001;
export const MDL_NODE_LIGHT = 0x0002;
export const MDL_NODE_EMITTER = 0x0004;
export const MDL_NODE_CAMERA = 0x0008;
export const MDL_NODE_REFERENCE = 0x0010;
export const MDL_NODE_MESH = 0x0020;
export const MDL_NODE_SKIN = 0x0040;
export const MDL_NODE_ANIM = 0x0080;
export const MDL_NODE_DANGLY = 0x0100;
export const MDL_NODE_AABB = 0x0200;
export const MDL_NODE_SABER = 0x0800;

/** Controller types used for the node transforms. */
export const MDL_CONTROLLER_POSITION = 8;
export const MDL_CONTROLLER_ORIENTATION = 20;

export type KotorModelGame = 'kotor1' | 'kotor2';

/**
 * A keyed controller: `rows` keys whose times start at `timeIndex` and whose values start
 * at `dataIndex` in the node's controller data (floats; a 2-column orientation controller
 * stores one packed u32 per key instead).
 */
export interface KotorController {
  type: number;
  rows: number;
  /** Column count byte as stored (low nibble = columns, 0x10 = bezier). */
  columns: number;
  timeIndex: number;
  dataIndex: number;
}

export interface KotorMesh {
  /** First and second texture names ("" or "NULL" when none). */
  texture0: string;
  texture1: string;
  /** The render flag: 0 means the mesh is not drawn (walk/collision helpers). */
  render: boolean;
  shadow: boolean;
  /** x, y, z per vertex, node-local. */
  vertices: Float32Array;
  /** Where the vertices were read from. */
  vertexSource: 'mdx' | 'mdl' | 'none';
  /** Three vertex indices per face. */
  faces: Uint32Array;
  /** Surface material per face (walkmesh: a surfacemat.2da row). */
  materials: Uint32Array;
  /** Stored face normals (3 per face) and plane distances, as float bit patterns. */
  normals: Uint32Array;
  planes: Uint32Array;
  /** Stored adjacent faces, 3 per face (0xffff for none). */
  adjacency: Uint16Array;
  /** The mesh header's bounding box (node-local). */
  boundsMin: [number, number, number];
  boundsMax: [number, number, number];
  /** Where the MDX keeps this mesh's interleaved vertex data (stride 0: none). */
  mdx: { offset: number; stride: number; positionOffset: number; flags: number };
  /** Offset of the face array and of the vertex data used. */
  faceOffset: number;
  vertexOffset: number;
}

/**
 * A walkmesh node's AABB tree, nodes in the order they were read (pre-order from the root:
 * child 1 then child 2). Child links are node indices (−1 for none); faces index the node's
 * own face list.
 */
export interface KotorAabbTree {
  /** min xyz, max xyz per node, as float bit patterns. */
  boxes: Uint32Array;
  /** Face index per node (−1 for an internal node). */
  face: Int32Array;
  /** The "most significant plane" flags as stored. */
  plane: Uint32Array;
  child1: Int32Array;
  child2: Int32Array;
  /** File offset of each node. */
  offsets: Uint32Array;
}

export interface KotorModelNode {
  /** Index in KotorModel.nodes (pre-order of the tree). */
  index: number;
  name: string;
  flags: number;
  /** The node number field (its index in the name table). */
  nodeNumber: number;
  nameIndex: number;
  parent: number;
  children: number[];
  /** File offset of the node header. */
  offset: number;
  /** The node header's position and orientation (w, x, y, z). */
  headerPosition: [number, number, number];
  headerOrientation: [number, number, number, number];
  /**
   * The node's transform relative to its parent: from its position/orientation controllers'
   * first row where present, else the header's. Orientation as (w, x, y, z).
   */
  position: [number, number, number];
  orientation: [number, number, number, number];
  controllers: KotorController[];
  /** The node's controller data (key times and values), as float bit patterns. */
  controllerData: Uint32Array;
  mesh?: KotorMesh;
  aabb?: KotorAabbTree;
  /** The reference node's model name. */
  referenceModel?: string;
}

/** One structure the reader consumed, for checks that a file was read exactly. */
export interface KotorModelStructure {
  kind: string;
  /** File offset (MDL), or MDX offset when `file` is 'mdx'. */
  offset: number;
  size: number;
  file: 'mdl' | 'mdx';
}

export interface KotorModel {
  fileName: string;
  game: KotorModelGame;
  xbox: boolean;
  name: string;
  /** The file header's MDL data size and MDX size. */
  mdlDataSize: number;
  mdxSize: number;
  /** The geometry header's node count, and the model's names (one per node number). */
  nodeCount: number;
  names: string[];
  classification: number;
  supermodel: string;
  boundsMin: [number, number, number];
  boundsMax: [number, number, number];
  radius: number;
  animationCount: number;
  /** Every node reached from the root, in pre-order; nodes[0] is the root. */
  nodes: KotorModelNode[];
  structures: KotorModelStructure[];
}

/** The model's walkmesh (AABB) node, if any. */
export function walkmeshNodeOf(model: KotorModel): KotorModelNode | undefined {
  return model.nodes.find((n) => (n.flags & MDL_NODE_AABB) !== 0 && n.mesh !== undefined);
}
