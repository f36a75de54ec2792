import { describe, expect, it } from 'vitest';
import { applyEdit } from '../../../shared/edits/apply-edit';
import { facesUnderBrush, floodSelect, walkmeshGrid } from '../../../shared/edits/selection';
import { dropToSurface, snapToGrid, surfaceBelow } from '../../../shared/edits/vertex-placement';
import { createWalkmesh, faceCount } from '../../../shared/model/walkmesh';
import { gridWalkmesh } from './grid-walkmesh';

describe('selection queries', () => {
  it('flood fill by material stops at the material border; connected crosses it', () => {
    const mesh = gridWalkmesh(6); // rows 0-2 material 1, rows 3-5 material 3
    const byMaterial = floodSelect(mesh, [0], 'material');
    expect(byMaterial.length).toBe(36);
    expect(Array.from(byMaterial).every((f) => mesh.faceMaterial[f] === 1)).toBe(true);
    expect(floodSelect(mesh, [0], 'connected').length).toBe(faceCount(mesh));
  });

  it('flood fill by island follows walkability and not across a gap', () => {
    const mesh = gridWalkmesh(6, 'nwn2');
    // A wall of unwalkable faces across row 2 splits the walkable faces into two islands.
    const wall = Array.from({ length: 12 }, (_, i) => 24 + i);
    applyEdit(mesh, { kind: 'paint-faces', faces: wall, walkable: false });
    expect(Array.from(floodSelect(mesh, [0], 'island'))).toEqual(Array.from({ length: 24 }, (_, i) => i));
    expect(Array.from(floodSelect(mesh, [30], 'island'))).toEqual(wall);
    // Deleting a face leaves its neighbours connected only through the others.
    applyEdit(mesh, { kind: 'delete-faces', faces: wall });
    expect(floodSelect(mesh, [0], 'connected').length).toBe(24);
  });

  it('a brush picks the faces whose centres lie within its radius', () => {
    const mesh = gridWalkmesh(10);
    const grid = walkmeshGrid(mesh);
    const hit = facesUnderBrush(mesh, grid, 5, 5, 1);
    // The four squares around (5, 5) have 8 faces with centres within 1 m (at most 0.75 m away).
    expect(hit.length).toBe(8);
    for (const f of hit) {
      const [a, b, c] = [0, 1, 2].map((k) => mesh.triangles[f * 3 + k]!);
      const cx = (mesh.positions[a! * 3]! + mesh.positions[b! * 3]! + mesh.positions[c! * 3]!) / 3;
      expect(Math.abs(cx - 5)).toBeLessThanOrEqual(1);
    }
  });

  it('bad seeds are named', () => {
    expect(() => floodSelect(gridWalkmesh(2), [8], 'connected')).toThrow(/seed face 8/);
  });
});

describe('vertex placement helpers', () => {
  it('snaps x and y to the grid and leaves z', () => {
    expect(snapToGrid([0.26, 1.74, 0.33], 0.5)).toEqual([0.5, 1.5, 0.33]);
    expect(snapToGrid([0.26, 1.74, 0.33], 0.25, 'xyz')).toEqual([0.25, 1.75, 0.25]);
    expect(() => snapToGrid([0, 0, 0], 0)).toThrow(/grid step/);
  });

  it('drops a vertex onto the highest face below it, not onto its own faces', () => {
    // A floor at z = 0 and a loose triangle floating at z = 5 above it.
    const mesh = createWalkmesh({
      name: 'floors',
      game: 'kotor',
      format: 'test',
      positions: new Float32Array([0, 0, 0, 10, 0, 0, 10, 10, 0, 0, 10, 0, 4, 4, 5, 6, 4, 5, 5, 6, 5]),
      triangles: new Uint32Array([0, 1, 2, 0, 2, 3, 4, 5, 6]),
    });
    const grid = walkmeshGrid(mesh);
    expect(surfaceBelow(mesh, grid, 5, 5, 3)).toBe(0);
    expect(surfaceBelow(mesh, grid, 5, 5, 9)).toBe(5);
    expect(surfaceBelow(mesh, grid, 20, 20, 9)).toBeUndefined();
    const cmd = dropToSurface(mesh, grid, [6]);
    expect(cmd.positions).toEqual([5, 6, 0]);
    const r = applyEdit(mesh, cmd);
    expect(mesh.positions[20]).toBe(0);
    applyEdit(mesh, r.inverse);
    expect(mesh.positions[20]).toBe(5);
  });
});
