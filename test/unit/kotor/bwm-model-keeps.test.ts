import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { walkableFirstOrder, faceEdgeTransitions } from '../../../shared/bakers/kotor/bwm-face-order';
import { applyEdit } from '../../../shared/edits/apply-edit';
import type { EditCommand } from '../../../shared/edits/edit-command';
import { NO_TRANSITION, type BwmDocument } from '../../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { validateBwm } from '../../../shared/formats/kotor/bwm-validate';
import { bwmFromWalkmesh, bwmToWalkmesh } from '../../../shared/formats/kotor/bwm-walkmesh';
import { writeBwm } from '../../../shared/formats/kotor/bwm-writer';
import { bakeBwm } from '../../../shared/bakers/kotor/bwm-bake';
import { DEFAULT_WALKABILITY, isWalkableMaterial } from '../../../shared/formats/kotor/surface-materials';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';
import { gridBakeInput } from './grid-walkmesh';

/**
 * Every edit goes through the common model (bwmToWalkmesh, an edit command, bwmFromWalkmesh,
 * writeBwm). Every .wok/.pwk/.dwk under the fixtures' kotor/ and kotor2/ folders, found by
 * walking them:
 *
 * - with no edit, the file comes back byte for byte;
 * - after a random edit elsewhere (one face painted with another material, or one vertex
 *   moved), every face the edit did not touch keeps its corners (vertex numbers and their
 *   positions), material, stored normal and planar distance, and the transitions of its
 *   border edges; the header and bytes after the last section are kept; and validation
 *   finds no error code the file did not already have.
 *
 * A paint that keeps the face's walkability changes the material column and nothing else.
 * Derived and re-baked after other edits (the edit may change them, and the game derives
 * them from geometry and walkability, so keeping the old ones would be wrong): the face
 * order (walkable faces first: a face painted across walkability moves), the adjacency,
 * edge and perimeter tables, for faces whose corners changed the normal and distance, and
 * after a move the AABB tree and its 0x6C root index (0: the rebuilt tree starts at node
 * 0). BioWare's tree cannot be rebuilt bit for bit (its boxes came from the model's
 * coordinates and its order from the model's face list, neither stored in the WOK), so
 * after a paint, which leaves the geometry as it was, the file's own tree is kept with its
 * leaves renumbered.
 */
const files = [...listFixtures('kotor', ['.wok', '.pwk', '.dwk']), ...listFixtures('kotor2', ['.wok', '.pwk', '.dwk'])];

const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

type Edit = { kind: 'paint'; face: number; material: number } | { kind: 'move'; vertex: number; dx: number; dz: number };

function editArb(doc: BwmDocument): fc.Arbitrary<Edit> {
  const faces = doc.faces.length / 3;
  const vertices = doc.vertices.length / 3;
  return fc.oneof(
    fc.record({ kind: fc.constant('paint' as const), face: fc.integer({ min: 0, max: faces - 1 }), material: fc.integer({ min: 0, max: 30 }) }),
    fc.record({ kind: fc.constant('move' as const), vertex: fc.integer({ min: 0, max: vertices - 1 }), dx: fc.integer({ min: -8, max: 8 }), dz: fc.integer({ min: -8, max: 8 }) }),
  );
}

/** The edit as the app issues it (shared/edits), and the faces it touches. */
function commandOf(doc: BwmDocument, positions: Float32Array, edit: Edit): { command: EditCommand; touched: Set<number> } {
  if (edit.kind === 'paint') return { command: { kind: 'paint-faces', faces: [edit.face], material: edit.material }, touched: new Set([edit.face]) };
  const touched = new Set<number>();
  for (let i = 0; i < doc.faces.length; i++) if (doc.faces[i] === edit.vertex) touched.add(Math.floor(i / 3));
  const v = edit.vertex;
  return {
    command: { kind: 'move-vertices', vertices: [v], positions: [positions[3 * v]! + edit.dx / 8, positions[3 * v + 1]!, positions[3 * v + 2]! + edit.dz / 8] },
    touched,
  };
}

/** Face-edge slots listed in the edge table (walkable border edges). */
function borderSlots(doc: BwmDocument): Set<number> {
  return new Set(doc.edgeIndex);
}

function errorCodes(doc: BwmDocument): Set<string> {
  return new Set(validateBwm(doc).filter((f) => f.severity === 'error').map((f) => f.code));
}

function checkEditElsewhere(doc: BwmDocument, edit: Edit): void {
  const mesh = bwmToWalkmesh(doc, 'x');
  const { command, touched } = commandOf(doc, mesh.positions, edit);
  applyEdit(mesh, command);
  const rebuilt = bwmFromWalkmesh(mesh, doc);
  // What a save writes, read back: the model's result must survive the file too.
  const out = readBwm(writeBwm(rebuilt));
  expect(out.type).toBe(doc.type);
  expect(out.hooks).toEqual(doc.hooks);
  expect(out.trailing).toEqual(doc.trailing);
  // Face k of the file is the model's face order[k]; neither edit renumbers the model's faces.
  const order = walkableFirstOrder(mesh.faceWalkable);
  const baseTransitions = faceEdgeTransitions(doc);
  const outTransitions = faceEdgeTransitions(out);
  const baseBorder = borderSlots(doc);
  const outBorder = borderSlots(out);
  const moved = edit.kind === 'move' ? edit.vertex : -1;
  for (let k = 0; k < order.length; k++) {
    const f = order[k]!;
    if (touched.has(f)) continue;
    const at = `face ${f} (now ${k}) after ${JSON.stringify(edit)}`;
    for (let j = 0; j < 3; j++) {
      const v = doc.faces[3 * f + j]!;
      expect(out.faces[3 * k + j], at).toBe(v);
      expect(v, at).not.toBe(moved);
      expect([out.vertices[3 * v], out.vertices[3 * v + 1], out.vertices[3 * v + 2]], at).toEqual([doc.vertices[3 * v], doc.vertices[3 * v + 1], doc.vertices[3 * v + 2]]);
      // A border edge of both files keeps its transition (an edge that the edit made
      // interior or border has no transition to keep or had none).
      if (baseBorder.has(3 * f + j) && outBorder.has(3 * k + j)) expect(outTransitions[3 * k + j], `${at}, edge ${j}`).toBe(baseTransitions[3 * f + j]);
      else if (baseTransitions[3 * f + j] !== NO_TRANSITION) expect(out.adjacency[3 * k + j], `${at}: a doorway edge lost its transition`).toBeGreaterThanOrEqual(0);
    }
    expect(out.materials[k], at).toBe(doc.materials[f]);
    expect([out.normals[3 * k], out.normals[3 * k + 1], out.normals[3 * k + 2]], at).toEqual([doc.normals[3 * f], doc.normals[3 * f + 1], doc.normals[3 * f + 2]]);
    expect(out.planes[k], at).toBe(doc.planes[f]);
  }
  if (edit.kind === 'paint') {
    // The file's own tree: same boxes and shape, leaves following their faces.
    const newIndex = new Map(Array.from(order, (f, k) => [f, k]));
    expect(out.aabb.length).toBe(doc.aabb.length);
    for (let o = 0; o < doc.aabb.length; o += 11) {
      const face = doc.aabb[o + 6]!;
      expect(Array.from(out.aabb.subarray(o, o + 11)), `AABB node ${o / 11}`).toEqual([...doc.aabb.subarray(o, o + 6), face === 0xffffffff ? face : newIndex.get(face)!, ...doc.aabb.subarray(o + 7, o + 11)]);
    }
    expect(out.aabbRoot).toBe(doc.aabbRoot);
    const painted = order.indexOf(edit.face);
    if (isWalkableMaterial(DEFAULT_WALKABILITY, edit.material) === isWalkableMaterial(DEFAULT_WALKABILITY, doc.materials[edit.face]!)) {
      // Walkability kept: the file differs from the original in that face's material only.
      expect({ ...out, materials: null, original: null }).toEqual({ ...doc, materials: null, original: null });
      expect(out.materials[painted]).toBe(edit.material);
    }
  }
  const before = errorCodes(doc);
  const added = [...errorCodes(out)].filter((c) => !before.has(c));
  expect(added, `new errors after ${JSON.stringify(edit)}`).toEqual([]);
}

describe('a BWM through the common model keeps what it stores', () => {
  it('finds walkmeshes of both games to check', () => {
    expect(files.some((f) => f.includes('kotor2'))).toBe(true);
    expect(files.filter((f) => !f.includes('kotor2')).length).toBeGreaterThan(0);
  });

  for (const file of files) {
    const name = fixtureName(file);
    it(`${name}: unedited, byte for byte; after a random edit elsewhere, untouched faces unchanged`, () => {
      const bytes = readFixture(file);
      const doc = readBwm(bytes);
      expect(equalBytes(writeBwm(bwmFromWalkmesh(bwmToWalkmesh(doc, 'x'), doc)), bytes), name).toBe(true);
      fc.assert(
        fc.property(editArb(doc), (edit) => {
          checkEditElsewhere(doc, edit);
        }),
        { numRuns: 12, seed: 15 },
      );
    }, 60_000);
  }
});

/** The output face with the same three vertex numbers in the same order, or −1. */
function faceWithCorners(doc: BwmDocument, corners: readonly number[]): number {
  for (let k = 0; k < doc.faces.length / 3; k++) if (doc.faces[3 * k] === corners[0] && doc.faces[3 * k + 1] === corners[1] && doc.faces[3 * k + 2] === corners[2]) return k;
  return -1;
}

describe('what a BWM stores beyond its geometry survives an edit through the model', () => {
  it('the two sides of a duplicate-vertex seam keep their own transitions', () => {
    // Face 0 of a 4 × 1 grid gets its own copies of the two vertices it shares with face 1,
    // so both sides of that edge are border edges at the same positions, running opposite
    // ways; each side carries a different transition.
    const input = gridBakeInput(4, 1);
    const vertexCount = input.vertices.length / 3;
    const [a, , d] = [input.faces[0]!, input.faces[1]!, input.faces[2]!];
    const vertices = new Uint32Array(input.vertices.length + 6);
    vertices.set(input.vertices);
    vertices.set(input.vertices.subarray(3 * a, 3 * a + 3), 3 * vertexCount);
    vertices.set(input.vertices.subarray(3 * d, 3 * d + 3), 3 * vertexCount + 3);
    const faces = input.faces.slice();
    faces[0] = vertexCount;
    faces[2] = vertexCount + 1;
    const side0 = [vertexCount, input.faces[1]!, vertexCount + 1];
    const side1 = [input.faces[3]!, input.faces[4]!, input.faces[5]!];
    // Both sides with their own transition, then only one side with one.
    for (const [t0, t1] of [[5, 6], [5, NO_TRANSITION]] as const) {
      const transitions = input.transitions.slice();
      transitions[2] = t0; // face 0, edge d' → a'
      transitions[3] = t1; // face 1, edge a → d
      const base = bakeBwm({ ...input, vertices, faces, transitions }, DEFAULT_WALKABILITY).document;
      const before = faceEdgeTransitions(base);
      expect(before[3 * faceWithCorners(base, side0) + 2]).toBe(t0);
      expect(before[3 * faceWithCorners(base, side1)]).toBe(t1);

      // An edit elsewhere: the last walkable face painted non-walkable, which re-bakes the tables.
      const mesh = bwmToWalkmesh(base, 'seam');
      const last = base.adjacency.length / 3 - 1;
      applyEdit(mesh, { kind: 'paint-faces', faces: [last], material: 7 });
      const out = readBwm(writeBwm(bwmFromWalkmesh(mesh, base)));
      expect(out.adjacency.length).toBe(base.adjacency.length - 3);
      const after = faceEdgeTransitions(out);
      expect(after[3 * faceWithCorners(out, side0) + 2], `${t0}/${t1}`).toBe(t0);
      expect(after[3 * faceWithCorners(out, side1)], `${t0}/${t1}`).toBe(t1);
    }
  });

  it('a flipped face keeps the transition of its reversed doorway edge', () => {
    const base = bakeBwm(gridBakeInput(3, 2), DEFAULT_WALKABILITY).document;
    const transitions = faceEdgeTransitions(base);
    const slot = transitions.findIndex((t) => t === 3);
    const face = Math.floor(slot / 3);
    const [a, b] = [base.faces[slot]!, base.faces[3 * face + ((slot % 3) + 1) % 3]!];
    const mesh = bwmToWalkmesh(base, 'flip');
    applyEdit(mesh, { kind: 'flip-faces', faces: [face] });
    const out = bwmFromWalkmesh(mesh, base);
    const after = faceEdgeTransitions(out);
    // The flipped face runs the edge b → a now.
    let found = -1;
    for (let s = 0; s < out.faces.length; s++) {
      const f = Math.floor(s / 3);
      if (out.faces[s] === b && out.faces[3 * f + ((s % 3) + 1) % 3] === a) found = s;
    }
    expect(found).toBeGreaterThanOrEqual(0);
    expect(after[found]).toBe(3);
  });

  it('bytes after the last section and the offset style of empty sections are kept', () => {
    const input = gridBakeInput(3, 2);
    const pwk = bakeBwm({ ...input, type: 0 }, DEFAULT_WALKABILITY).document;
    const base: BwmDocument = { ...pwk, emptyOffsets: { aabb: 'running', adjacency: 'running', edges: 'running', perimeters: 'running' }, trailing: Uint8Array.of(0xde, 0xad, 0xbe, 0xef) };
    const bytes = writeBwm(base);
    const doc = readBwm(bytes);
    expect(doc.trailing).toEqual(base.trailing);
    const mesh = bwmToWalkmesh(doc, 'pwk');
    applyEdit(mesh, { kind: 'move-vertices', vertices: [0], positions: [mesh.positions[0]! - 0.5, mesh.positions[1]!, mesh.positions[2]!] });
    const edited = writeBwm(bwmFromWalkmesh(mesh, doc));
    expect(equalBytes(edited, bytes)).toBe(false);
    const back = readBwm(edited);
    expect(back.type).toBe(0);
    expect(back.trailing).toEqual(base.trailing);
    expect(back.emptyOffsets).toEqual(doc.emptyOffsets);
    // The running style writes the end of the data so far, not 0, as the AABB offset.
    const view = new DataView(edited.buffer, edited.byteOffset, edited.byteLength);
    expect(view.getUint32(0x68, true)).toBe(edited.length - 4);
    expect(validateBwm(back).filter((f) => f.severity === 'error')).toEqual([]);
  });
});
