import { describe, expect, it } from 'vitest';
import { applyEdit } from '../../../shared/edits/apply-edit';
import { applyEditsDelta } from '../../../shared/edits/apply-edits-delta';
import { EditError } from '../../../shared/edits/edit-error';
import { copyWalkmesh } from '../../../shared/edits/walkmesh-copy';
import { buildTriangleBvh, raycastBvh, refitTriangleBvh, refitTriangleBvhFaces } from '../../../shared/geometry/triangle-bvh';
import type { EditsDelta } from '../../../shared/ipc/edits-contract';
import { buildVertexFaces, facesOfVertices } from '../../../shared/model/vertex-faces';
import { faceCount, vertexCount, type Walkmesh } from '../../../shared/model/walkmesh';
import { gridWalkmesh, snapshot } from './grid-walkmesh';

/** The delta the edit service sends for an edit's touched faces and vertices (same shape as its deltaOf). */
function deltaFor(mesh: Walkmesh, faces: ArrayLike<number>, vertices: ArrayLike<number>): EditsDelta {
  const f = Uint32Array.from(faces);
  const v = Uint32Array.from(vertices);
  const positions = new Float32Array(v.length * 3);
  v.forEach((x, i) => positions.set(mesh.positions.subarray(x * 3, x * 3 + 3), i * 3));
  return {
    faces: f,
    faceWalkable: Uint8Array.from(f, (x) => mesh.faceWalkable[x]!),
    faceMaterial: Uint32Array.from(f, (x) => mesh.faceMaterial[x]!),
    faceOwner: Uint32Array.from(f, (x) => mesh.faceOwner[x]!),
    vertices: v,
    positions,
  };
}

describe('edit deltas', () => {
  it('a paint and a move applied as deltas give the mesh the edits give, and report only what changed', () => {
    const edited = gridWalkmesh(12);
    const shown = copyWalkmesh(edited);
    const paint = applyEdit(edited, { kind: 'paint-faces', faces: [3, 4, 5, 40], material: 3 });
    const change = applyEditsDelta(shown, deltaFor(edited, paint.affectedFaces, paint.affectedVertices));
    // Faces 3..5 were material 1 (the lower rows); face 40 too: all four changed.
    expect(Array.from(change.faces)).toEqual([3, 4, 5, 40]);
    expect(change.vertices.length).toBe(0);
    expect(snapshot(shown)).toEqual(snapshot(edited));
    const move = applyEdit(edited, { kind: 'move-vertices', vertices: [7, 8], positions: [7, 0, 1.5, 8, 0.25, -0] });
    const moved = applyEditsDelta(shown, deltaFor(edited, move.affectedFaces, move.affectedVertices));
    expect(Array.from(moved.vertices)).toEqual([7, 8]);
    expect(moved.faces.length).toBe(0);
    expect(snapshot(shown)).toEqual(snapshot(edited));
    // The same delta again changes nothing.
    const again = applyEditsDelta(shown, deltaFor(edited, move.affectedFaces, move.affectedVertices));
    expect(again.vertices.length + again.faces.length).toBe(0);
  });

  it('refuses a delta that does not fit the mesh, leaving it as it was', () => {
    const mesh = gridWalkmesh(4);
    const before = snapshot(mesh);
    const tooFar = deltaFor(mesh, [0], []);
    tooFar.faces[0] = faceCount(mesh);
    expect(() => applyEditsDelta(mesh, tooFar)).toThrow(EditError);
    expect(() => applyEditsDelta(mesh, tooFar)).toThrow(/names face 32 but the mesh has 32 faces/);
    const short = deltaFor(mesh, [1, 2], [0]);
    short.positions = short.positions.subarray(0, 2);
    expect(() => applyEditsDelta(mesh, short)).toThrow(/1 vertices but 2 coordinates \(expected 3\)/);
    const badVertex = deltaFor(mesh, [], [vertexCount(mesh) - 1]);
    badVertex.vertices[0] = vertexCount(mesh);
    expect(() => applyEditsDelta(mesh, badVertex)).toThrow(/names vertex 25 but the mesh has 25 vertices/);
    expect(snapshot(mesh)).toEqual(before);
  });

  it('lists the faces round vertices from the compressed vertex → faces index', () => {
    const mesh = gridWalkmesh(5);
    const index = buildVertexFaces(mesh.triangles, vertexCount(mesh));
    const v = 7; // an inner vertex of the 6 × 6 grid of vertices
    const expected: number[] = [];
    for (let f = 0; f < faceCount(mesh); f++) if ([0, 1, 2].some((k) => mesh.triangles[f * 3 + k] === v)) expected.push(f);
    expect(Array.from(facesOfVertices(index, [v]))).toEqual(expected);
    expect(expected.length).toBe(6);
    expect(facesOfVertices(index, [0, 0, 35]).length).toBe(facesOfVertices(index, [0]).length + facesOfVertices(index, [35]).length);
  });

  it('a refitted BVH picks what a BVH built anew on the moved mesh picks', () => {
    const mesh = gridWalkmesh(30);
    const bvh = buildTriangleBvh(mesh.positions, mesh.triangles);
    const boundsBefore = bvh.bounds.slice();
    refitTriangleBvh(bvh);
    // Nothing moved: the refit gives the build's boxes exactly.
    expect(Array.from(bvh.bounds.subarray(0, bvh.nodeCount * 6))).toEqual(Array.from(boundsBefore.subarray(0, bvh.nodeCount * 6)));
    // Lift a patch of vertices 5 units: rays from above now hit the lifted faces.
    const lifted: number[] = [];
    for (let y = 10; y <= 14; y++) for (let x = 10; x <= 14; x++) lifted.push(y * 31 + x);
    const positions = lifted.flatMap((v) => [mesh.positions[v * 3]!, mesh.positions[v * 3 + 1]!, mesh.positions[v * 3 + 2]! + 5]);
    applyEdit(mesh, { kind: 'move-vertices', vertices: lifted, positions });
    const rootTopBefore = bvh.bounds[5]!;
    refitTriangleBvh(bvh);
    // The root box grew to the lifted corners.
    expect(bvh.bounds[5]).toBe(Math.max(...Array.from(mesh.positions).filter((_, i) => i % 3 === 2)));
    expect(bvh.bounds[5]).toBeGreaterThan(rootTopBefore + 4);
    const fresh = buildTriangleBvh(mesh.positions, mesh.triangles);
    for (let i = 0; i < 400; i++) {
      const x = 8 + (i % 20) * 0.45 + 0.01, y = 8 + Math.floor(i / 20) * 0.45 + 0.02;
      const a = raycastBvh(bvh, x, y, 50, 0.01, 0.02, -1);
      const b = raycastBvh(fresh, x, y, 50, 0.01, 0.02, -1);
      expect(a?.face).toBe(b?.face);
      expect(a?.t).toBe(b?.t);
    }
    expect(raycastBvh(bvh, 12.3, 12.6, 50, 0, 0, -1)!.t).toBeLessThan(50 - 4.5);
  });

  it('refitting only the faces round moved vertices gives the boxes a whole refit gives', () => {
    const mesh = gridWalkmesh(60);
    const some = buildTriangleBvh(mesh.positions, mesh.triangles);
    const all = buildTriangleBvh(mesh.positions, mesh.triangles);
    const index = buildVertexFaces(mesh.triangles, vertexCount(mesh));
    for (const [vertices, dz] of [[[100, 101, 161], 3], [[1800, 1801], -2], [[100], -3]] as const) {
      applyEdit(mesh, { kind: 'move-vertices', vertices: [...vertices], positions: vertices.flatMap((v) => [mesh.positions[v * 3]!, mesh.positions[v * 3 + 1]!, mesh.positions[v * 3 + 2]! + dz]) });
      refitTriangleBvhFaces(some, facesOfVertices(index, vertices));
      refitTriangleBvh(all);
      expect(Array.from(some.bounds)).toEqual(Array.from(all.bounds));
    }
    // The root box reaches the highest and the lowest corner as they are now.
    const heights = Array.from(mesh.positions).filter((_, i) => i % 3 === 2);
    expect([some.bounds[2], some.bounds[5]]).toEqual([Math.min(...heights), Math.max(...heights)]);
    expect(some.bounds[5]).toBeGreaterThan(2.5);
  });
});
