import { describe, expect, it } from 'vitest';
import { NO_TRANSITION } from '../../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { validateBwm } from '../../../shared/formats/kotor/bwm-validate';
import { bwmFromWalkmesh, bwmToWalkmesh } from '../../../shared/formats/kotor/bwm-walkmesh';
import { createWalkmesh, NO_OWNER } from '../../../shared/model/walkmesh';
import { readObj } from '../../../shared/formats/obj/obj-reader';
import { writeObj } from '../../../shared/formats/obj/obj-writer';
import { writeBwm } from '../../../shared/formats/kotor/bwm-writer';
import { fixturesRoot, readFixture } from '../../support/fixtures';

const file = `${fixturesRoot}/kotor/pykotor/zio006j.wok`;

/** (sorted endpoint positions) → transition, over a document's transition edges. */
function transitionEdges(doc: ReturnType<typeof readBwm>): Map<string, number> {
  const P = new Float32Array(doc.vertices.slice().buffer);
  const out = new Map<string, number>();
  for (let i = 0; i < doc.edgeIndex.length; i++) {
    if (doc.edgeTransition[i] === NO_TRANSITION) continue;
    const s = doc.edgeIndex[i]!, f = Math.floor(s / 3), e = s % 3;
    const [a, b] = [doc.faces[s]!, doc.faces[3 * f + ((e + 1) % 3)]!].map((v) => `${P[3 * v]},${P[3 * v + 1]},${P[3 * v + 2]}`).sort();
    out.set(`${a}|${b}`, doc.edgeTransition[i]!);
  }
  return out;
}

describe('BWM ↔ common walkmesh model', () => {
  it('maps materials, walkability and owner', () => {
    const doc = readBwm(readFixture(file));
    const mesh = bwmToWalkmesh(doc, 'zio006j');
    expect(mesh.game).toBe('kotor');
    expect(mesh.format).toBe('kotor-bwm');
    expect(mesh.faceOwner.every((o) => o === NO_OWNER)).toBe(true);
    expect(mesh.faceWalkable.reduce((s, w) => s + w, 0)).toBe(doc.adjacency.length / 3);
  });

  it('keeps per-edge transitions through an edit that reorders faces (via the base document)', () => {
    const doc = readBwm(readFixture(file));
    const mesh = bwmToWalkmesh(doc, 'zio006j');
    const faces = mesh.triangles.length / 3;
    // Reverse the face order and rotate each face's corners, as an OBJ editor might.
    const triangles = new Uint32Array(mesh.triangles.length);
    const faceMaterial = new Uint32Array(faces);
    const faceWalkable = new Uint8Array(faces);
    for (let k = 0; k < faces; k++) {
      const f = faces - 1 - k;
      triangles.set([mesh.triangles[3 * f + 1]!, mesh.triangles[3 * f + 2]!, mesh.triangles[3 * f]!], 3 * k);
      faceMaterial[k] = mesh.faceMaterial[f]!;
      faceWalkable[k] = mesh.faceWalkable[f]!;
    }
    const edited = createWalkmesh({ ...mesh, triangles, faceMaterial, faceWalkable });
    const rebuilt = bwmFromWalkmesh(edited, doc);
    expect(rebuilt).not.toBe(doc);
    const before = transitionEdges(doc);
    expect(before.size).toBeGreaterThan(0);
    expect(transitionEdges(rebuilt)).toEqual(before);
    expect(rebuilt.adjacency.length).toBe(doc.adjacency.length);
    expect(rebuilt.edgeIndex.length).toBe(doc.edgeIndex.length);
    expect(validateBwm(rebuilt)).toEqual([]);
  });

  it('WOK → OBJ → WOK with the original as base is byte-identical; after a moved vertex, transitions survive', () => {
    const bytes = readFixture(file);
    const doc = readBwm(bytes);
    const { obj } = writeObj([bwmToWalkmesh(doc, 'zio006j')]);
    const [mesh] = readObj(obj, { name: 'zio006j', game: 'kotor', format: 'kotor-bwm' });
    expect(Buffer.from(writeBwm(bwmFromWalkmesh(mesh!, doc))).equals(Buffer.from(bytes))).toBe(true);
    // Move one vertex that no transition edge uses: the mesh is rebuilt, transitions kept.
    const onTransition = new Set<number>();
    for (let i = 0; i < doc.edgeIndex.length; i++) {
      if (doc.edgeTransition[i] === NO_TRANSITION) continue;
      const s = doc.edgeIndex[i]!, f = Math.floor(s / 3);
      onTransition.add(doc.faces[s]!).add(doc.faces[3 * f + ((s % 3) + 1) % 3]!);
    }
    const edited = readObj(obj, { name: 'zio006j', game: 'kotor', format: 'kotor-bwm' })[0]!;
    const P = bwmToWalkmesh(doc, 'x').positions;
    const key = (p: Float32Array, v: number): string => `${p[3 * v]},${p[3 * v + 1]},${p[3 * v + 2]}`;
    const keep = new Set([...onTransition].map((v) => key(P, v)));
    const moved = Array.from({ length: edited.positions.length / 3 }, (_, v) => v).find((v) => !keep.has(key(edited.positions, v)))!;
    edited.positions[3 * moved + 2]! += 0.25;
    const rebuilt = bwmFromWalkmesh(edited, doc);
    expect(rebuilt).not.toBe(doc);
    expect(transitionEdges(rebuilt)).toEqual(transitionEdges(doc));
  });

  it('without a base builds a room walkmesh with no transitions', () => {
    const doc = readBwm(readFixture(file));
    const rebuilt = bwmFromWalkmesh(bwmToWalkmesh(doc, 'x'), undefined);
    expect(rebuilt.type).toBe(1);
    expect(rebuilt.edgeTransition.every((t) => t === NO_TRANSITION)).toBe(true);
    expect(rebuilt.perimeters.length).toBe(doc.perimeters.length);
  });

  it('painting a face non-walkable moves it out of the walkable block', () => {
    const doc = readBwm(readFixture(file));
    const mesh = bwmToWalkmesh(doc, 'x');
    const walkableBefore = doc.adjacency.length / 3;
    mesh.faceWalkable[0] = 0;
    mesh.faceMaterial[0] = 7;
    const rebuilt = bwmFromWalkmesh(mesh, doc);
    expect(rebuilt.adjacency.length / 3).toBe(walkableBefore - 1);
    expect(rebuilt.materials[rebuilt.materials.length - 1]).toBe(7);
    expect(validateBwm(rebuilt).filter((f) => f.severity === 'error')).toEqual([]);
  });
});
