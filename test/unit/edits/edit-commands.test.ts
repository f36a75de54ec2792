import { describe, expect, it } from 'vitest';
import { applyEdit } from '../../../shared/edits/apply-edit';
import type { EditCommand } from '../../../shared/edits/edit-command';
import { EditError } from '../../../shared/edits/edit-error';
import { parseEditCommand } from '../../../shared/edits/parse-edit-command';
import { faceCount, vertexCount, type Walkmesh } from '../../../shared/model/walkmesh';
import { buildFaceAdjacency } from '../../../shared/model/face-adjacency';
import { gridWalkmesh, snapshot } from './grid-walkmesh';

/** Applies, checks the change with `check`, then the inverse, and that the mesh is back bit for bit. */
function roundTrip(mesh: Walkmesh, cmd: EditCommand, check: (m: Walkmesh) => void): void {
  const before = snapshot(mesh);
  const result = applyEdit(mesh, cmd);
  check(mesh);
  // The inverse survives JSON, as it does in the project history.
  const inverse = parseEditCommand(JSON.parse(JSON.stringify(result.inverse)), 'inverse');
  applyEdit(mesh, inverse);
  expect(snapshot(mesh)).toEqual(before);
}

describe('edit commands', () => {
  it('paint-faces sets the material, derives KotOR walkability, and its inverse restores both', () => {
    const mesh = gridWalkmesh(4);
    roundTrip(mesh, { kind: 'paint-faces', faces: [0, 5, 7], material: 7 }, (m) => {
      expect([m.faceMaterial[0], m.faceMaterial[5], m.faceMaterial[7]]).toEqual([7, 7, 7]);
      expect(m.faceWalkable[5]).toBe(0); // material 7 is non-walkable in the default table
      expect(m.faceMaterial[1]).toBe(1);
    });
  });

  it('paint-faces refuses a KotOR walkability the material contradicts', () => {
    const mesh = gridWalkmesh(2);
    expect(() => applyEdit(mesh, { kind: 'paint-faces', faces: [0], walkable: false })).toThrow(/surface material/);
    roundTrip(mesh, { kind: 'paint-faces', faces: [0], material: 7, walkable: false }, (m) => expect([m.faceMaterial[0], m.faceWalkable[0]]).toEqual([7, 0]));
  });

  it('paint-faces keeps NWN2 walkable flag and faceWalkable in step', () => {
    const mesh = gridWalkmesh(3, 'nwn2');
    mesh.faceMaterial.fill(0x09);
    roundTrip(mesh, { kind: 'paint-faces', faces: [2, 3], walkable: false }, (m) => {
      expect(m.faceWalkable[2]).toBe(0);
      expect(m.faceMaterial[2]).toBe(0x08);
      expect(m.faceMaterial[4]).toBe(0x09);
    });
    roundTrip(mesh, { kind: 'paint-faces', faces: [1], setBits: 0x20, clearBits: 0x08 }, (m) => expect(m.faceMaterial[1]).toBe(0x21));
  });

  it('paint-faces on a Source mesh paints whole areas', () => {
    const mesh = gridWalkmesh(2, 'source');
    for (let f = 0; f < faceCount(mesh); f++) mesh.faceOwner[f] = 1 + (f >> 1);
    roundTrip(mesh, { kind: 'paint-faces', faces: [2], material: 4 }, (m) => expect(Array.from(m.faceMaterial)).toEqual([1, 1, 4, 4, 3, 3, 3, 3]));
  });

  it('move-vertices moves to absolute positions and back to the exact bits', () => {
    const mesh = gridWalkmesh(3);
    roundTrip(mesh, { kind: 'move-vertices', vertices: [5, 6], positions: [0.1, 0.2, 0.3, 1e-7, -2, 3.3333] }, (m) => {
      expect(m.positions[15]).toBeCloseTo(0.1, 6);
      expect(m.positions[20]).toBe(Math.fround(3.3333));
    });
  });

  it('delete-faces renumbers later faces and its inverse puts every face back at its index', () => {
    const mesh = gridWalkmesh(3);
    const F = faceCount(mesh);
    const owner = Array.from({ length: F }, (_, f) => 100 + f);
    mesh.faceOwner.set(owner);
    roundTrip(mesh, { kind: 'delete-faces', faces: [7, 1, 12] }, (m) => {
      expect(faceCount(m)).toBe(F - 3);
      // Owners (tiles, areas) travel with their faces.
      expect(Array.from(m.faceOwner.subarray(0, 5))).toEqual([100, 102, 103, 104, 105]);
      expect(m.faceWalkable.length).toBe(F - 3);
    });
    const r = applyEdit(mesh, { kind: 'delete-faces', faces: [F - 1] });
    expect(r.renumbered).toBe(false);
    applyEdit(mesh, r.inverse);
  });

  it('create-face appends a face wound to match its neighbour and takes its attributes', () => {
    const mesh = gridWalkmesh(2);
    applyEdit(mesh, { kind: 'delete-faces', faces: [0] }); // face 0 was (0, 1, 4)
    const F = faceCount(mesh);
    roundTrip(mesh, { kind: 'create-face', vertices: [0, 4, 1] }, (m) => {
      expect(faceCount(m)).toBe(F + 1);
      // Face (0, 4, 3) runs 0→4; the new face must run 4→0, so it is (0, 1, 4).
      expect(Array.from(m.triangles.subarray(F * 3))).toEqual([0, 1, 4]);
      expect(buildFaceAdjacency(m.triangles, vertexCount(m)).inconsistentWinding).toBe(0);
    });
  });

  it('create-face refuses a third face on an edge', () => {
    const mesh = gridWalkmesh(2);
    expect(() => applyEdit(mesh, { kind: 'create-face', vertices: [0, 4, 3] })).toThrow(/non-manifold/);
  });

  it('fill-hole closes a hole left by deleted faces with consistently wound faces', () => {
    const mesh = gridWalkmesh(4);
    // The six faces around the inner vertex 12 at (2, 2) leave a hexagonal hole: the 2 × 2
    // square around it without the two corners its diagonals cut off.
    const around: number[] = [];
    for (let f = 0; f < faceCount(mesh); f++) if (Array.from(mesh.triangles.subarray(f * 3, f * 3 + 3)).includes(12)) around.push(f);
    applyEdit(mesh, { kind: 'delete-faces', faces: around });
    const F = faceCount(mesh);
    expect(around).toHaveLength(6);
    const T = mesh.triangles;
    const edge: [number, number] = [13, 7];
    const uses = (a: number, b: number) => {
      let n = 0;
      for (let f = 0; f < faceCount(mesh); f++) for (let k = 0; k < 3; k++) if ((T[f * 3 + k] === a && T[f * 3 + (k + 1) % 3] === b) || (T[f * 3 + k] === b && T[f * 3 + (k + 1) % 3] === a)) n++;
      return n;
    };
    expect(uses(edge[0], edge[1])).toBe(1);
    roundTrip(mesh, { kind: 'fill-hole', edge }, (m) => {
      expect(faceCount(m)).toBe(F + 4); // a 6-vertex loop gives 4 triangles
      const adj = buildFaceAdjacency(m.triangles, vertexCount(m));
      expect(adj.inconsistentWinding).toBe(0);
      expect(adj.nonManifold).toEqual([]);
      let area = 0;
      for (let f = F; f < F + 4; f++) {
        const [a, b, c] = [m.triangles[f * 3]!, m.triangles[f * 3 + 1]!, m.triangles[f * 3 + 2]!].map((v) => [m.positions[v * 3]!, m.positions[v * 3 + 1]!]);
        area += ((b![0]! - a![0]!) * (c![1]! - a![1]!) - (b![1]! - a![1]!) * (c![0]! - a![0]!)) / 2;
      }
      expect(area).toBeCloseTo(3, 5); // the hexagon's area, every face counter-clockwise from above
    });
  });

  it('fill-hole refuses an edge that is not on a border', () => {
    const mesh = gridWalkmesh(3);
    expect(() => applyEdit(mesh, { kind: 'fill-hole', edge: [5, 10] })).toThrow(EditError);
  });

  it('split-edge adds a vertex and splits both faces on the edge without renumbering', () => {
    const mesh = gridWalkmesh(2);
    const F = faceCount(mesh), V = vertexCount(mesh);
    roundTrip(mesh, { kind: 'split-edge', edge: [0, 4] }, (m) => {
      expect(vertexCount(m)).toBe(V + 1);
      expect(faceCount(m)).toBe(F + 2);
      expect(Array.from(m.positions.subarray(V * 3, V * 3 + 2))).toEqual([0.5, 0.5]);
      expect(buildFaceAdjacency(m.triangles, vertexCount(m)).inconsistentWinding).toBe(0);
    });
  });

  it('weld-vertices merges corners and deletes faces that collapse', () => {
    const mesh = gridWalkmesh(2);
    const F = faceCount(mesh);
    roundTrip(mesh, { kind: 'weld-vertices', vertices: [4, 5], position: [1.5, 1, 0] }, (m) => {
      expect(Array.from(m.triangles).includes(5)).toBe(false);
      expect(faceCount(m)).toBe(F - 2); // the two faces on edge 4–5 collapse
      expect(m.positions[12]).toBe(1.5);
    });
  });

  it('flip-faces reverses winding and is undone exactly', () => {
    const mesh = gridWalkmesh(2);
    roundTrip(mesh, { kind: 'flip-faces', faces: [3] }, (m) => {
      expect(Array.from(m.triangles.subarray(9, 12))).toEqual([1, 4, 5]);
      expect(buildFaceAdjacency(m.triangles, vertexCount(m)).inconsistentWinding).toBeGreaterThan(0);
    });
  });

  it('a failing batch leaves the mesh as it was', () => {
    const mesh = gridWalkmesh(2);
    const before = snapshot(mesh);
    expect(() => applyEdit(mesh, { kind: 'batch', commands: [{ kind: 'paint-faces', faces: [0], material: 9 }, { kind: 'delete-faces', faces: [99] }] })).toThrow(/not a face/);
    expect(snapshot(mesh)).toEqual(before);
  });

  it('bad commands get errors naming the field', () => {
    const mesh = gridWalkmesh(2);
    expect(() => applyEdit(mesh, { kind: 'move-vertices', vertices: [1], positions: [0, Number.NaN, 0] })).toThrow(/positions\[1\]/);
    expect(() => applyEdit(mesh, { kind: 'paint-faces', faces: [1, 1], material: 2 })).toThrow(/listed twice/);
    expect(() => parseEditCommand({ kind: 'delete-faces', faces: 'all' }, 'history 4')).toThrow(/history 4: field faces/);
    expect(() => parseEditCommand({ kind: 'explode' }, 'history 5')).toThrow(/not one of/);
  });

  it('Skyrim meshes refuse a delete that would renumber triangles but take appended faces', () => {
    const mesh = gridWalkmesh(2, 'skyrim');
    expect(() => applyEdit(mesh, { kind: 'delete-faces', faces: [2] })).toThrow(/renumber/);
    const r = applyEdit(mesh, { kind: 'split-edge', edge: [0, 4] });
    applyEdit(mesh, r.inverse);
    expect(faceCount(mesh)).toBe(8);
  });

  it('Source meshes refuse geometry commands that break area quads', () => {
    const mesh = gridWalkmesh(2, 'source');
    expect(() => applyEdit(mesh, { kind: 'flip-faces', faces: [0] })).toThrow(/Source/);
    expect(() => applyEdit(mesh, { kind: 'split-edge', edge: [0, 4] })).toThrow(/area/);
  });
});
