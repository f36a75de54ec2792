import { bitsOf, BWM_TYPE_AREA, floatsOf, type BwmDocument } from '../../formats/kotor/bwm-document';
import { isWalkableMaterial, type WalkabilityTable } from '../../formats/kotor/surface-materials';
import { ModelMappingError } from '../../model/model-mapping-error';
import { floatsOfBits, requireFinite, requireFiniteVertices } from '../non-finite-geometry';
import { computeWalkableAdjacency } from './bwm-adjacency';
import { buildAabbTree } from './bwm-aabb';
import { faceEdgeTransitions, walkableFirstOrder } from './bwm-face-order';
import { computeFacePlanes, inferNormalRule, type BwmNormalRule } from './bwm-normals';
import { walkPerimeters } from './bwm-perimeters';

const platformClock = (globalThis as { performance?: { now(): number } }).performance;
const defaultClock = platformClock ? () => platformClock.now() : () => Date.now();

export interface BwmBakeInput {
  type: number;
  /** Header use points and position (15 float bit patterns), kept as they are. */
  hooks: Uint32Array;
  /** Vertex bit patterns, kept as they are. */
  vertices: Uint32Array;
  faces: Uint32Array;
  materials: Uint32Array;
  /** Three per face (−1 for none), in the input's face order. */
  transitions: Int32Array;
  /**
   * Walkability per face when it is decided by the caller (the model's faceWalkable);
   * otherwise it comes from the materials through the walkability table.
   */
  walkable?: Uint8Array;
  /**
   * Whose arithmetic the normals follow: the game the room comes from (bwm-normals.ts).
   * KotOR 1 when not given.
   */
  normals?: BwmNormalRule;
}

export interface BwmBakeTimings {
  order: number;
  planes: number;
  aabb: number;
  adjacency: number;
  perimeters: number;
}

export interface BwmBakeResult {
  document: BwmDocument;
  /** Input face index by output position. */
  faceOrder: Uint32Array;
  walkableCount: number;
  timings: BwmBakeTimings;
}

/**
 * The bake input a document holds (its geometry, materials and per-edge transitions). The
 * normal rule is the given game's, else the one the document's own normals follow.
 */
export function bakeInputOf(doc: BwmDocument, normals?: BwmNormalRule): BwmBakeInput {
  return {
    type: doc.type,
    hooks: doc.hooks,
    vertices: doc.vertices,
    faces: doc.faces,
    materials: doc.materials,
    transitions: faceEdgeTransitions(doc),
    normals: normals ?? inferNormalRule(floatsOf(doc.vertices), doc.faces, doc.normals),
  };
}

/**
 * Rebuilds every derived section of a BWM from vertices, faces, materials and per-edge
 * transitions alone: face order (walkable first), normals, planar distances, and for a
 * room walkmesh (type 1) the AABB tree, walkable adjacency, perimeter edges in the game's
 * walk order and the perimeter loops. PWK/DWK get no tree and no walk tables, with
 * offsets 0 as MDLEdit writes them.
 *
 * Throws ModelMappingError for a face naming a vertex that does not exist, or a vertex or
 * use point that is not a finite point (non-finite-geometry.ts).
 */
export function bakeBwm(input: BwmBakeInput, table: WalkabilityTable, now: () => number = defaultClock): BwmBakeResult {
  const faces = input.faces.length / 3;
  const vertexCount = input.vertices.length / 3;
  requireFiniteVertices(floatsOfBits(input.vertices), 'the walkmesh');
  requireFinite(floatsOfBits(input.hooks), 3, "the walkmesh header's use points and position", 'point');
  for (let i = 0; i < input.faces.length; i++) {
    if (input.faces[i]! >= vertexCount) throw new ModelMappingError(`face ${Math.floor(i / 3)} uses vertex ${input.faces[i]!} but the walkmesh has ${vertexCount} vertices`);
  }
  let t = now();
  const walkable = new Uint8Array(faces);
  for (let f = 0; f < faces; f++) {
    walkable[f] = input.walkable ? (input.walkable[f] ? 1 : 0) : isWalkableMaterial(table, input.materials[f]!) ? 1 : 0;
  }
  const faceOrder = walkableFirstOrder(walkable);
  const triangles = new Uint32Array(faces * 3);
  const materials = new Uint32Array(faces);
  const transitions = new Int32Array(faces * 3);
  let walkableCount = 0;
  for (let k = 0; k < faces; k++) {
    const f = faceOrder[k]!;
    if (walkable[f]) walkableCount++;
    materials[k] = input.materials[f]!;
    for (let j = 0; j < 3; j++) {
      triangles[3 * k + j] = input.faces[3 * f + j]!;
      transitions[3 * k + j] = input.transitions[3 * f + j]!;
    }
  }
  const timings: BwmBakeTimings = { order: now() - t, planes: 0, aabb: 0, adjacency: 0, perimeters: 0 };
  t = now();
  const positions = floatsOf(input.vertices);
  const planes = computeFacePlanes(positions, triangles, input.normals ?? 'kotor1');
  timings.planes = now() - t;

  const document: BwmDocument = {
    type: input.type,
    hooks: input.hooks.slice(),
    aabbRoot: 0,
    vertices: input.vertices.slice(),
    faces: triangles,
    materials,
    normals: bitsOf(planes.normals),
    planes: bitsOf(planes.distances),
    aabb: new Uint32Array(0),
    adjacency: new Int32Array(0),
    edgeIndex: new Uint32Array(0),
    edgeTransition: new Int32Array(0),
    perimeters: new Uint32Array(0),
    emptyOffsets: { aabb: 'zero', adjacency: 'zero', edges: 'zero', perimeters: 'zero' },
    trailing: new Uint8Array(0),
  };
  if (input.type === BWM_TYPE_AREA) {
    t = now();
    document.aabb = buildAabbTree(positions, triangles);
    timings.aabb = now() - t;
    t = now();
    document.adjacency = computeWalkableAdjacency(triangles, walkableCount, vertexCount);
    timings.adjacency = now() - t;
    t = now();
    const walk = walkPerimeters(document.adjacency);
    document.edgeIndex = walk.edgeIndex;
    document.edgeTransition = new Int32Array(walk.edgeIndex.length);
    for (let i = 0; i < walk.edgeIndex.length; i++) document.edgeTransition[i] = transitions[walk.edgeIndex[i]!]!;
    document.perimeters = walk.perimeters;
    timings.perimeters = now() - t;
    // An area file with empty sections is written with running offsets, like a full one.
    document.emptyOffsets = {};
  }
  return { document, faceOrder, walkableCount, timings };
}
