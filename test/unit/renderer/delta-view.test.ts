import { describe, expect, it } from 'vitest';
import { applyEdit } from '../../../shared/edits/apply-edit';
import { applyEditsDelta } from '../../../shared/edits/apply-edits-delta';
import type { EditCommand } from '../../../shared/edits/edit-command';
import { copyWalkmesh } from '../../../shared/edits/walkmesh-copy';
import { DEFAULT_WALKABILITY, isWalkableMaterial } from '../../../shared/formats/kotor/surface-materials';
import type { OpenedFile } from '../../../shared/ipc/contract';
import type { EditsDelta } from '../../../shared/ipc/edits-contract';
import type { Walkmesh } from '../../../shared/model/walkmesh';
import { deltaRedraw } from '../../../renderer/src/viewport/delta-view';
import { colourFaces, type ColourMode } from '../../../renderer/src/viewport/face-colours';
import { carryViewData, viewDataOf } from '../../../renderer/src/viewport/file-view-data';
import { buildFlatMesh, writeFlatFace } from '../../../renderer/src/viewport/game-to-babylon';
import { gridWalkmesh } from '../edits/grid-walkmesh';

/** Applies the command to `edited` and its delta (as the service builds it) to `shown`. */
function editBoth(edited: Walkmesh, shown: Walkmesh, cmd: EditCommand) {
  const r = applyEdit(edited, cmd);
  const faces = r.affectedFaces, vertices = r.affectedVertices;
  const positions = new Float32Array(vertices.length * 3);
  vertices.forEach((v, i) => positions.set(edited.positions.subarray(v * 3, v * 3 + 3), i * 3));
  const delta: EditsDelta = {
    faces,
    faceWalkable: Uint8Array.from(faces, (f) => edited.faceWalkable[f]!),
    faceMaterial: Uint32Array.from(faces, (f) => edited.faceMaterial[f]!),
    faceOwner: Uint32Array.from(faces, (f) => edited.faceOwner[f]!),
    vertices,
    positions,
  };
  return applyEditsDelta(shown, delta);
}

/** The faces whose colour differs between two colourings. */
function recolouredFaces(a: Float32Array, b: Float32Array): number[] {
  const out: number[] = [];
  for (let f = 0; f < a.length / 3; f++) if (a[f * 3] !== b[f * 3] || a[f * 3 + 1] !== b[f * 3 + 1] || a[f * 3 + 2] !== b[f * 3 + 2]) out.push(f);
  return out;
}

/** A small deterministic generator. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('what the viewport redraws for a delta', () => {
  for (const mode of ['walkable', 'owner', 'material', 'island'] as ColourMode[]) {
    it(`${mode} colours: the faces and legend it gives are what colouring the whole mesh gives`, () => {
      const edited = gridWalkmesh(16);
      // Owners by row (tiles), so the owner colours and shades differ from face to face.
      edited.faceOwner.forEach((_, f) => (edited.faceOwner[f] = Math.floor(f / 64)));
      const shown = copyWalkmesh(edited);
      const random = lcg(mode.length);
      let legend = colourFaces([shown], mode).legend;
      let partial = 0;
      for (let stroke = 0; stroke < 60; stroke++) {
        const before = colourFaces([shown], mode).faceRgb[0]!;
        const faces = Array.from({ length: 1 + Math.floor(random() * 12) }, () => Math.floor(random() * 512));
        // Mostly the two common materials (colours keep their ranks), sometimes a rare one.
        const material = random() < 0.8 ? (random() < 0.5 ? 1 : 3) : Math.floor(random() * 20);
        const change = editBoth(edited, shown, { kind: 'paint-faces', faces: [...new Set(faces)], material });
        const full = colourFaces([shown], mode);
        const redraw = deltaRedraw(shown, change, mode, legend);
        legend = full.legend;
        if (redraw.recolourAll) continue;
        partial++;
        expect(redraw.legend).toEqual(full.legend);
        const after = full.faceRgb[0]!;
        const listed = new Map(Array.from(redraw.recoloured, (f, i) => [f, i]));
        for (const f of recolouredFaces(before, after)) expect(listed.has(f), `face ${f} changed colour`).toBe(true);
        for (const [f, i] of listed) expect(Array.from(redraw.rgb.subarray(i * 3, i * 3 + 3))).toEqual(Array.from(after.subarray(f * 3, f * 3 + 3)));
      }
      // Walkability and materials never touch owners: those two modes never recolour it all.
      if (mode === 'walkable' || mode === 'owner') expect(partial).toBe(60);
      else expect(partial).toBeGreaterThan(10);
    });
  }

  it('material colours re-ranked by a paint, or islands changed by walkability, recolour everything', () => {
    const edited = gridWalkmesh(10);
    const shown = copyWalkmesh(edited);
    const before = colourFaces([shown], 'material');
    // 100 faces of material 1 and 100 of 3: painting 60 of 1 to 3 swaps the ranks (and the legend's order).
    const faces = Array.from({ length: 60 }, (_, i) => i);
    const change = editBoth(edited, shown, { kind: 'paint-faces', faces, material: 3 });
    expect(deltaRedraw(shown, change, 'material', before.legend).recolourAll).toBe(true);
    // Each value keeps the colour the game's name table gives it: only the painted faces change colour.
    expect(recolouredFaces(before.faceRgb[0]!, colourFaces([shown], 'material').faceRgb[0]!).length).toBe(60);
    // KotOR takes walkability from the material: a non-walkable one makes walls.
    const blocked = [...Array(20).keys()].find((m) => !isWalkableMaterial(DEFAULT_WALKABILITY, m))!;
    const legend = colourFaces([shown], 'walkable').legend;
    const walls = editBoth(edited, shown, { kind: 'paint-faces', faces: [70, 71], material: blocked });
    expect(walls.walkableChanged).toBe(true);
    expect(deltaRedraw(shown, walls, 'island', []).recolourAll).toBe(true);
    const walkable = deltaRedraw(shown, walls, 'walkable', legend);
    expect(walkable.recolourAll).toBe(false);
    expect(walkable.legend!.find((e) => e.label === 'not walkable')!.faces).toBe(2);
  });

  it('a move redraws the faces round the moved vertices; patching them gives the flat mesh built anew', () => {
    const edited = gridWalkmesh(10);
    const shown = copyWalkmesh(edited);
    const flat = buildFlatMesh(shown);
    const change = editBoth(edited, shown, { kind: 'move-vertices', vertices: [12, 13], positions: [1, 1, 2, 2, 1, -1] });
    const redraw = deltaRedraw(shown, change, 'walkable', colourFaces([shown], 'walkable').legend);
    expect(redraw.recoloured.length).toBe(0);
    // Inner vertices of the grid have six faces each; vertices 12 and 13 share two.
    expect(redraw.moved.length).toBe(10);
    for (const f of redraw.moved) writeFlatFace(shown, f, flat.positions, flat.normals);
    const fresh = buildFlatMesh(shown);
    expect(Array.from(flat.positions)).toEqual(Array.from(fresh.positions));
    expect(Array.from(flat.normals)).toEqual(Array.from(fresh.normals));
  });

  it('the view data goes to the edited file: the BVH refitted, not built again', () => {
    const edited = gridWalkmesh(20);
    const shown = copyWalkmesh(edited);
    const file = { name: 'grid', walkmeshes: [shown] } as unknown as OpenedFile;
    const data = viewDataOf(file);
    expect(data.pick([5.3, 5.6, 50], [0, 0, -1])?.t).toBeCloseTo(50 - shown.positions[(5 * 21 + 5) * 3 + 2]!, 0);
    const builtMs = data.bvhBuildMs;
    const vertices = [5 * 21 + 5, 5 * 21 + 6, 6 * 21 + 5, 6 * 21 + 6];
    const change = editBoth(edited, shown, { kind: 'move-vertices', vertices, positions: vertices.flatMap((v) => [shown.positions[v * 3]!, shown.positions[v * 3 + 1]!, 10]) });
    const next = { ...file } as OpenedFile;
    carryViewData(file, next, { mesh: 0, movedVertices: change.vertices, islands: false });
    const carried = viewDataOf(next);
    expect(carried).not.toBe(data);
    const hit = carried.pick([5.3, 5.6, 50], [0, 0, -1]);
    expect(hit?.t).toBeCloseTo(40, 5);
    // No BVH was built for the edited file: the old one, refitted, answered.
    expect(carried.bvhBuildMs).toBe(0);
    expect(builtMs).toBeGreaterThan(0);
  });
});
