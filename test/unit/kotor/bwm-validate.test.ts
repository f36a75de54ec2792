import { describe, expect, it } from 'vitest';
import { bakeBwm } from '../../../shared/bakers/kotor/bwm-bake';
import { bitsOf, floatsOf, NO_TRANSITION, type BwmDocument } from '../../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { validateBwm } from '../../../shared/formats/kotor/bwm-validate';
import { DEFAULT_WALKABILITY } from '../../../shared/formats/kotor/surface-materials';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';
import { gridBakeInput } from './grid-walkmesh';

const bake = (cols: number, rows: number): BwmDocument => bakeBwm(gridBakeInput(cols, rows), DEFAULT_WALKABILITY).document;

/** Re-derives the walk tables after an edit that changes geometry, like a writer would. */
function rebake(doc: BwmDocument): BwmDocument {
  return bakeBwm({ type: doc.type, hooks: doc.hooks, vertices: doc.vertices, faces: doc.faces, materials: doc.materials, transitions: new Int32Array(doc.faces.length).fill(NO_TRANSITION) }, DEFAULT_WALKABILITY).document;
}

describe('BWM validation', () => {
  it('game and community files have no findings except the zero-area face of m10aa_03a', () => {
    for (const file of listFixtures('kotor', ['.wok', '.pwk'])) {
      const findings = validateBwm(readBwm(readFixture(file)));
      if (fixtureName(file).endsWith('m10aa_03a.wok')) {
        expect(findings.map((f) => f.code)).toEqual(['bwm.face.degenerate']);
        expect(findings[0]!.subject).toEqual({ kind: 'face', id: 39 });
        // The game ships and loads this room: a warning, not an error.
        expect(findings[0]!.severity).toBe('warning');
      } else expect(findings, fixtureName(file)).toEqual([]);
    }
  });

  it('reports a degenerate face by index', () => {
    const doc = bake(4, 4);
    doc.faces[3 * 5 + 1] = doc.faces[3 * 5]!;
    const f = validateBwm(doc).find((x) => x.code === 'bwm.face.degenerate');
    expect(f?.subject).toEqual({ kind: 'face', id: 5 });
  });

  it('reports a walkable face that faces down', () => {
    const doc = bake(4, 4);
    const a = doc.faces[0]!;
    doc.faces[0] = doc.faces[1]!;
    doc.faces[1] = a;
    const fixed = rebake(doc);
    const codes = validateBwm(fixed).map((x) => `${x.code}@${x.subject?.id}`);
    expect(codes).toContain('bwm.face.walkable-down@0');
  });

  it('reports an edge shared by more than two faces, naming the faces', () => {
    const doc = bake(3, 3);
    // A third face on an interior edge, hanging below the floor.
    const P = floatsOf(doc.vertices);
    const extra = new Float32Array(P.length + 3);
    extra.set(P);
    extra.set([0.5, 0.5, -3], P.length);
    const v = P.length / 3;
    const faces = new Uint32Array(doc.faces.length + 3);
    faces.set(doc.faces);
    const slot = doc.adjacency.findIndex((n) => n >= 0);
    const f0 = Math.floor(slot / 3);
    faces.set([doc.faces[3 * f0 + ((slot + 1) % 3)]!, doc.faces[slot]!, v], doc.faces.length);
    const materials = new Uint32Array(doc.materials.length + 1);
    materials.set(doc.materials);
    materials[materials.length - 1] = 7;
    const broken = rebake({ ...doc, vertices: bitsOf(extra), faces, materials });
    const f = validateBwm(broken).find((x) => x.code === 'bwm.edge.non-manifold');
    expect(f?.message).toMatch(/shared by 3 faces/);
  });

  it('reports stored adjacency that disagrees with the geometry, naming face and edge', () => {
    const doc = bake(4, 4);
    const slot = doc.adjacency.findIndex((a) => a >= 0);
    doc.adjacency[slot] = -1;
    const f = validateBwm(doc).find((x) => x.code === 'bwm.adjacency.mismatch');
    expect(f?.subject).toEqual({ kind: 'edge', id: slot });
    expect(f?.message).toContain(`face ${Math.floor(slot / 3)} edge ${slot % 3}`);
  });

  it('reports duplicate vertices that break adjacency', () => {
    const doc = bake(4, 1);
    // Give face 0's interior edge its own copies of the two vertices (same positions).
    const P = floatsOf(doc.vertices);
    const walkableFace = 0;
    const slot = [0, 1, 2].find((e) => doc.adjacency[3 * walkableFace + e]! >= 0)!;
    const a = doc.faces[3 * walkableFace + slot]!, b = doc.faces[3 * walkableFace + ((slot + 1) % 3)]!;
    const extra = new Float32Array(P.length + 6);
    extra.set(P);
    extra.set([P[3 * a]!, P[3 * a + 1]!, P[3 * a + 2]!, P[3 * b]!, P[3 * b + 1]!, P[3 * b + 2]!], P.length);
    const faces = doc.faces.slice();
    faces[3 * walkableFace + slot] = P.length / 3;
    faces[3 * walkableFace + ((slot + 1) % 3)] = P.length / 3 + 1;
    const split = rebake({ ...doc, vertices: bitsOf(extra), faces });
    const f = validateBwm(split).find((x) => x.code === 'bwm.vertex.duplicate-seam');
    expect(f?.subject?.kind).toBe('edge');
    expect(f?.message).toMatch(/face \d+ edge \d and face \d+ edge \d/);
  });
});
