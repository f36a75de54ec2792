import { AABB_NODE_WORDS, AABB_NO_CHILD, AABB_UNKNOWN_VALUE, type BwmDocument } from '../../formats/kotor/bwm-document';
import { walkmeshNodeOf, type KotorAabbTree, type KotorModel } from '../../formats/kotor/mdl-document';
import type { WalkabilityTable } from '../../formats/kotor/surface-materials';
import { ModelMappingError } from '../../model/model-mapping-error';
import { bakeBwm, bakeInputOf, type BwmBakeInput, type BwmBakeResult } from './bwm-bake';
import { matchModelWalkmesh, type ModelFaceMatch } from './bwm-model-match';
import type { BwmNormalRule } from './bwm-normals';

/** What the model contributed to a bake. */
export interface BwmModelUse {
  /** The walkmesh (AABB) node's name. */
  node: string;
  match: ModelFaceMatch;
  /** 'model': the tree is the model's; 'rebuilt': the model's tree was unusable (`why`). */
  aabb: 'model' | 'rebuilt';
  why?: string;
}

export interface BwmModelBakeResult extends BwmBakeResult {
  model: BwmModelUse;
}

/** Padding BioWare's compiler put around the model's AABB boxes when it wrote the WOK. */
const WOK_BOX_PADDING = 0.01;

/**
 * Rebuilds a room WOK with its model's walkmesh node. The rules, each checked on the 8
 * game-shipped Black Vulkar rooms of KotOR 1 (test/unit/kotor-mdl/bwm-model-bake.test.ts):
 *
 * - Face order: the model's face order, walkable faces first (a stable partition): 8 of 8.
 *   The WOK keeps each face's vertex rotation and its own welded vertex list, which the
 *   bake keeps.
 * - AABB tree: the model node's tree copied node for node — the same pre-order (child 1
 *   first), the same children, the same plane flags — with each leaf's model face replaced
 *   by that face's position in the WOK (751 of 751 internal nodes, 759 of 759 leaves).
 *   Boxes: fround(fround(modelBox ∓ 0.01) + nodePosition + lyt), the last two additions in
 *   double and rounded once (9,060 of 9,060 box words), with the node's position in the
 *   model and the room's LYT position found from the vertices (ModelFaceMatch). Plane
 *   flags: the model's agree with the WOK's at 747 of 751 internal nodes; the 4 others
 *   (m10aa_03a node 185, m10aa_08a node 231, m10aa_09a nodes 60 and 74) are nodes whose two
 *   children have exactly the same box in the model and in the WOK, so neither file
 *   decides the flag there (the 41 other such nodes agree).
 *   No rule computable from either file gives the WOK's flag at those 45 equal-box nodes
 *   (checked on the 8 rooms; the WOK-only ones also on K2's 203tell.wok, 54 such nodes).
 *   Where the children's boxes differ, the flag is the axis of the largest gap between
 *   the children's box centres, − when child 2's centre is lower (706 of 706 here, 1,154
 *   of 1,154 in 203tell; MDLEdit's k1cp WOKs instead use the node box's longest axis,
 *   always +: 980 of 980 in 4 files). At equal boxes the game's flag is always +Y, −Y or
 *   −Z (rooms 16/14/15, 203tell 10/8/36), and it hangs on details the boxes do not keep:
 *   m10aa_08b and 09b hold the same walkmesh (same faces, same tree) moved by (0.10, 0.58,
 *   0), each vertex within 0.03 of that move, and their equal-box node 129 has +Y in one
 *   and −Y in the other, in the model and in the WOK alike. Tried
 *   against the WOK's 45 (and the model's 45): the children's face-centroid means (double
 *   and float), box of centroids, float vertex bounds, first vertices, summed normals,
 *   each by largest |gap| in all 6 axis orders, > or ≥, either sign: at best 16/45; the
 *   float rounding error of the box centre (x87 extended vs float32: sum, half, extent;
 *   the model's 4-decimal box text vs float; the WOK boxes padded or not, before and after
 *   the move to world space; a cascade X, Y, else Z): at best 22/45 model, 22/45 WOK; a
 *   stale flag from the node computed before it (pre/post-order, either child first,
 *   breadth-first, reversed; the parent, the sibling): at best 11/45; always −Z: 15/45
 *   (36/54 in 203tell). Copying the model's flag (41/45) stays the best.
 * - Everything else (normals, planes, adjacency, edges, perimeters) as bakeBwm derives it.
 *
 * Throws ModelMappingError when the model has no walkmesh node or its faces do not match
 * the WOK's.
 */
export function bakeBwmWithModel(doc: BwmDocument, model: KotorModel, table: WalkabilityTable, normals?: BwmNormalRule, now?: () => number): BwmModelBakeResult {
  const node = walkmeshNodeOf(model);
  if (!node) throw new ModelMappingError(`${model.fileName} has no walkmesh (AABB) node`);
  const match = matchModelWalkmesh(doc, node, model.nodes);
  const input = bakeInputOf(doc, normals);
  const permuted = permuteInput(input, match.wokFaceOfModel);
  const baked = now ? bakeBwm(permuted, table, now) : bakeBwm(permuted, table);
  // Output position of each model face (the bake's faceOrder is over the permuted input,
  // whose face i is model face i).
  const outputOfModel = new Uint32Array(baked.faceOrder.length);
  for (let k = 0; k < baked.faceOrder.length; k++) outputOfModel[baked.faceOrder[k]!] = k;
  const faceOrder = new Uint32Array(baked.faceOrder.length);
  for (let k = 0; k < faceOrder.length; k++) faceOrder[k] = match.wokFaceOfModel[baked.faceOrder[k]!]!;
  const use: BwmModelUse = { node: node.name, match, aabb: 'model' };
  if (baked.document.aabb.length > 0) {
    const why = node.aabb ? treeProblem(node.aabb, outputOfModel.length) : 'the walkmesh node has no AABB tree';
    if (why === undefined) baked.document.aabb = aabbFromModel(node.aabb!, outputOfModel, match.nodePosition, match.lyt);
    else {
      use.aabb = 'rebuilt';
      use.why = why;
    }
  }
  return { ...baked, faceOrder, model: use };
}

function permuteInput(input: BwmBakeInput, wokFaceOfModel: Uint32Array): BwmBakeInput {
  const n = wokFaceOfModel.length;
  const faces = new Uint32Array(n * 3);
  const materials = new Uint32Array(n);
  const transitions = new Int32Array(n * 3);
  for (let f = 0; f < n; f++) {
    const g = wokFaceOfModel[f]!;
    materials[f] = input.materials[g]!;
    for (let j = 0; j < 3; j++) {
      faces[3 * f + j] = input.faces[3 * g + j]!;
      transitions[3 * f + j] = input.transitions[3 * g + j]!;
    }
  }
  return { ...input, faces, materials, transitions };
}

/** Why a model tree cannot be the WOK's (undefined when it can): 2F−1 nodes, every face once, pre-order children. */
function treeProblem(tree: KotorAabbTree, faces: number): string | undefined {
  const n = tree.face.length;
  if (n !== 2 * faces - 1) return `the model's AABB tree has ${n} nodes, not 2 × ${faces} − 1`;
  const seen = new Uint8Array(faces);
  for (let k = 0; k < n; k++) {
    const f = tree.face[k]!;
    const leaf = f >= 0;
    if (leaf !== (tree.child1[k]! < 0 && tree.child2[k]! < 0)) return `AABB node ${k} is ${leaf ? 'a leaf with children' : 'an internal node without two children'}`;
    if (!leaf && (tree.child1[k]! < 0 || tree.child2[k]! < 0)) return `AABB node ${k} has one child`;
    if (leaf) {
      if (seen[f]) return `face ${f} is in two AABB leaves`;
      seen[f] = 1;
    }
  }
  return undefined;
}

/** The model's tree as WOK AABB words (see bakeBwmWithModel). */
export function aabbFromModel(tree: KotorAabbTree, outputOfModel: Uint32Array, nodePosition: readonly number[], lyt: readonly number[]): Uint32Array {
  const n = tree.face.length;
  const words = new Uint32Array(n * AABB_NODE_WORDS);
  const boxes = new Float32Array(words.buffer);
  const model = new Float32Array(tree.boxes.slice().buffer);
  const fr = Math.fround;
  for (let k = 0; k < n; k++) {
    const o = k * AABB_NODE_WORDS;
    for (let ax = 0; ax < 3; ax++) {
      boxes[o + ax] = fr(fr(model[6 * k + ax]! - WOK_BOX_PADDING) + nodePosition[ax]! + lyt[ax]!);
      boxes[o + 3 + ax] = fr(fr(model[6 * k + 3 + ax]! + WOK_BOX_PADDING) + nodePosition[ax]! + lyt[ax]!);
    }
    const f = tree.face[k]!;
    words[o + 6] = f >= 0 ? outputOfModel[f]! : 0xffffffff;
    words[o + 7] = AABB_UNKNOWN_VALUE;
    words[o + 8] = tree.plane[k]!;
    words[o + 9] = tree.child1[k]! >= 0 ? tree.child1[k]! : AABB_NO_CHILD;
    words[o + 10] = tree.child2[k]! >= 0 ? tree.child2[k]! : AABB_NO_CHILD;
  }
  return words;
}
