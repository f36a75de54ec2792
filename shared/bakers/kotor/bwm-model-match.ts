import { floatsOf, type BwmDocument } from '../../formats/kotor/bwm-document';
import type { KotorModelNode } from '../../formats/kotor/mdl-document';
import { ModelMappingError } from '../../model/model-mapping-error';

/** How the faces of a room's WOK correspond to the faces of its model's walkmesh node. */
export interface ModelFaceMatch {
  /** The WOK face (in the WOK's order) of each model face. */
  wokFaceOfModel: Uint32Array;
  /** The walkmesh node's position in the model (its parents' positions added; double). */
  nodePosition: [number, number, number];
  /**
   * The room's LYT position (float32), found from the vertices: a WOK vertex is
   * fround(local + nodePosition + lyt), the sum taken in double and rounded once, for every
   * model vertex the compiler did not weld onto another (72–78 % of the vertex uses in
   * the 8 game rooms; the value that reproduces the most of them is taken).
   */
  lyt: [number, number, number];
  /** Largest coordinate distance between a WOK vertex and its model vertex moved by `offset`. */
  maxVertexDistance: number;
  /** Model faces whose WOK face has another material. */
  materialChanges: number;
}

/**
 * Coordinates farther apart than this are different vertices. BioWare's compiler welded the
 * model's split vertices into the WOK's, moving them by up to 1.5e-3 (8 game rooms).
 */
const MATCH_TOLERANCE = 0.01;
const CELL = 0.1;

/**
 * Finds each model walkmesh face's WOK face: the WOK face whose vertices (in some rotation
 * of the same winding) lie within MATCH_TOLERANCE of the model face's moved by the
 * translation the two face sets' mean centroids give, a face of the same material first.
 * Face centroids are hashed on a grid, so this is linear in the face count.
 *
 * Throws ModelMappingError when the counts differ or a face has no counterpart: the
 * model is then not the one this WOK was compiled from (or one of them was edited).
 */
export function matchModelWalkmesh(doc: BwmDocument, node: KotorModelNode, nodes: readonly KotorModelNode[]): ModelFaceMatch {
  const mesh = node.mesh;
  if (!mesh) throw new ModelMappingError(`the model's walkmesh node ${node.name} has no mesh`);
  const faces = doc.faces.length / 3;
  const modelFaces = mesh.faces.length / 3;
  if (faces !== modelFaces) {
    throw new ModelMappingError(`the WOK has ${faces} faces but the model's walkmesh node ${node.name} has ${modelFaces}: the model is not the one this walkmesh was compiled from`);
  }
  const wv = floatsOf(doc.vertices);
  const mv = mesh.vertices;
  const wc = centroids(wv, doc.faces);
  const mc = centroids(mv, mesh.faces);
  const t: [number, number, number] = [0, 0, 0];
  for (let f = 0; f < faces; f++) for (let a = 0; a < 3; a++) t[a] += (wc[3 * f + a]! - mc[3 * f + a]!) / faces;

  const grid = new Map<string, number[]>();
  const cellOf = (x: number, y: number, z: number): string => `${Math.floor(x / CELL)},${Math.floor(y / CELL)},${Math.floor(z / CELL)}`;
  for (let f = 0; f < faces; f++) {
    const k = cellOf(wc[3 * f]!, wc[3 * f + 1]!, wc[3 * f + 2]!);
    const list = grid.get(k);
    if (list) list.push(f);
    else grid.set(k, [f]);
  }
  const used = new Uint8Array(faces);
  const wokFaceOfModel = new Uint32Array(faces);
  const rotation = new Uint8Array(faces);
  let materialChanges = 0;
  for (let f = 0; f < faces; f++) {
    const cx = mc[3 * f]! + t[0], cy = mc[3 * f + 1]! + t[1], cz = mc[3 * f + 2]! + t[2];
    const ix = Math.floor(cx / CELL), iy = Math.floor(cy / CELL), iz = Math.floor(cz / CELL);
    let best = -1, bestScore = Infinity, bestRot = 0;
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (let dz = -1; dz <= 1; dz++) {
          const list = grid.get(`${ix + dx},${iy + dy},${iz + dz}`);
          if (!list) continue;
          for (const g of list) {
            if (used[g]) continue;
            for (let r = 0; r < 3; r++) {
              let d = 0;
              for (let j = 0; j < 3; j++) {
                const a = doc.faces[3 * g + ((j + r) % 3)]! * 3, b = mesh.faces[3 * f + j]! * 3;
                for (let ax = 0; ax < 3; ax++) d = Math.max(d, Math.abs(wv[a + ax]! - (mv[b + ax]! + t[ax]!)));
              }
              // A face of another material only when no face of the same one fits.
              const score = d + (doc.materials[g] === mesh.materials[f] ? 0 : 1);
              if (d < MATCH_TOLERANCE && (score < bestScore || (score === bestScore && g < best))) {
                best = g;
                bestScore = score;
                bestRot = r;
              }
            }
          }
        }
      }
    }
    if (best < 0) {
      throw new ModelMappingError(`model walkmesh face ${f} (node ${node.name}) has no WOK face within ${MATCH_TOLERANCE} of it: the model is not the one this walkmesh was compiled from`);
    }
    used[best] = 1;
    wokFaceOfModel[f] = best;
    rotation[f] = bestRot;
    if (bestScore >= 1) materialChanges++;
  }

  const nodePosition: [number, number, number] = [0, 0, 0];
  for (let n: KotorModelNode | undefined = node; n; n = n.parent >= 0 ? nodes[n.parent] : undefined) {
    for (let ax = 0; ax < 3; ax++) nodePosition[ax] += n.position[ax]!;
  }
  // The LYT position: among the floats each vertex pair suggests (and their neighbours
  // one and two ulps away), the one whose sum reproduces the most WOK vertices exactly.
  const lyt: [number, number, number] = [0, 0, 0];
  let maxVertexDistance = 0;
  const pairs = faces * 3;
  const wokValue = new Float64Array(pairs), modelValue = new Float64Array(pairs);
  for (let ax = 0; ax < 3; ax++) {
    const candidates = new Set<number>();
    for (let f = 0; f < faces; f++) {
      const g = wokFaceOfModel[f]!;
      for (let j = 0; j < 3; j++) {
        const w = wv[doc.faces[3 * g + ((j + rotation[f]!) % 3)]! * 3 + ax]!;
        const m = mv[mesh.faces[3 * f + j]! * 3 + ax]! + nodePosition[ax]!;
        wokValue[3 * f + j] = w;
        modelValue[3 * f + j] = m;
        const c = Math.fround(w - m);
        for (let u = -2; u <= 2; u++) candidates.add(ulpStep(c, u));
      }
    }
    let best = 0, bestHits = -1;
    for (const c of [...candidates].sort((a, b) => a - b)) {
      let hits = 0;
      for (let i = 0; i < pairs; i++) if (Math.fround(modelValue[i]! + c) === wokValue[i]) hits++;
      if (hits > bestHits) [best, bestHits] = [c, hits];
    }
    lyt[ax] = best;
    for (let i = 0; i < pairs; i++) maxVertexDistance = Math.max(maxVertexDistance, Math.abs(wokValue[i]! - (modelValue[i]! + best)));
  }
  return { wokFaceOfModel, nodePosition, lyt, maxVertexDistance, materialChanges };
}

function centroids(v: Float32Array, faces: Uint32Array): Float64Array {
  const n = faces.length / 3;
  const out = new Float64Array(n * 3);
  for (let f = 0; f < n; f++) {
    for (let ax = 0; ax < 3; ax++) out[3 * f + ax] = (v[faces[3 * f]! * 3 + ax]! + v[faces[3 * f + 1]! * 3 + ax]! + v[faces[3 * f + 2]! * 3 + ax]!) / 3;
  }
  return out;
}

const ulpView = new Float32Array(1);
const ulpBits = new Uint32Array(ulpView.buffer);

/** The float32 `steps` representable values above (or below) x. */
function ulpStep(x: number, steps: number): number {
  ulpView[0] = x;
  if (steps === 0) return ulpView[0]!;
  // Bit patterns are ordered like the values for positive floats, reversed for negative ones.
  ulpBits[0] = ulpBits[0]! + (ulpView[0]! < 0 || Object.is(ulpView[0], -0) ? -steps : steps);
  return ulpView[0]!;
}
