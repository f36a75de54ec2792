import { describe, expect, it } from 'vitest';
import { createWalkmesh, faceCount, type Walkmesh } from '../../../shared/model/walkmesh';
import { followFaces } from '../../../renderer/src/tools/follow-faces';
import { gridWalkmesh } from '../edits/grid-walkmesh';

/** The mesh "baked again": faces in reverse order, and the faces listed dropped (cut away). */
function rebaked(m: Walkmesh, cut: ReadonlySet<number>): { mesh: Walkmesh; newIndexOf: Map<number, number> } {
  const keep: number[] = [];
  for (let f = faceCount(m) - 1; f >= 0; f--) if (!cut.has(f)) keep.push(f);
  const triangles = new Uint32Array(keep.length * 3);
  keep.forEach((f, i) => triangles.set(m.triangles.subarray(f * 3, f * 3 + 3), i * 3));
  const mesh = createWalkmesh({ name: 'baked', game: m.game, format: m.format, positions: m.positions.slice(), triangles });
  return { mesh, newIndexOf: new Map(keep.map((f, i) => [f, i])) };
}

describe('a selection through an NWN2 re-bake', () => {
  it('follows each face to the face under its centre in the new bake, whatever its new number', () => {
    const before = gridWalkmesh(6);
    const { mesh, newIndexOf } = rebaked(before, new Set());
    const faces = [0, 7, 30, 71];
    expect(Array.from(followFaces(before, mesh, faces))).toEqual(faces.map((f) => newIndexOf.get(f)));
  });

  it('gives -1 for a face cut away, so the page can say it is gone', () => {
    const before = gridWalkmesh(4);
    const { mesh, newIndexOf } = rebaked(before, new Set([5]));
    expect(Array.from(followFaces(before, mesh, [5, 6]))).toEqual([-1, newIndexOf.get(6)]);
    // Nothing to follow into: every face is gone.
    const empty = createWalkmesh({ name: 'none', game: 'nwn2', format: 'x', positions: new Float32Array(0), triangles: new Uint32Array(0) });
    expect(Array.from(followFaces(before, empty, [1]))).toEqual([-1]);
  });

  it('does not jump to another floor: a face far above or below is not the same face', () => {
    const before = gridWalkmesh(3);
    const lifted = gridWalkmesh(3);
    for (let v = 0; v < lifted.positions.length / 3; v++) lifted.positions[v * 3 + 2] += 10;
    expect(Array.from(followFaces(before, lifted, [0, 1]))).toEqual([-1, -1]);
  });
});
