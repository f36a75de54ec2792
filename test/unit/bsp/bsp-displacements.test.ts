import { describe, expect, it } from 'vitest';
import { displacementSide, surfedgeVertex, writeDisplacementGrid } from '../../../shared/formats/source/bsp-displacements';
import { bspLevelContextPieces } from '../../../shared/formats/source/bsp-level-context';
import { readBsp } from '../../../shared/formats/source/bsp-reader';
import type { BspMap } from '../../../shared/formats/source/bsp-document';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';

/**
 * Displacements of the TF2 maps that have them (test_displacement_decompile is named by
 * the fixtures README; any other map with a dispinfo lump is checked the same way).
 */
const maps = listFixtures('source-maps', ['.bsp'])
  .map((f) => ({ file: f, map: readBsp(readFixture(f), fixtureName(f)) }))
  .filter(({ map }) => map.displacements.count > 0);

function grids(map: BspMap): Float32Array[] {
  const out: Float32Array[] = [];
  for (let d = 0; d < map.displacements.count; d++) {
    const side = displacementSide(map, d);
    const g = new Float32Array(side * side * 3);
    expect(writeDisplacementGrid(map, d, g, 0)).toBe(side * side);
    out.push(g);
  }
  return out;
}

describe('BSP displacements', () => {
  it('reads test_displacement_decompile (3 displacements of power 2)', () => {
    const m = maps.find((x) => x.file.endsWith('test_displacement_decompile.bsp'));
    expect(m).toBeDefined();
    const { map } = m!;
    expect(map.displacements.count).toBe(3);
    expect([...map.displacements.power]).toEqual([2, 2, 2]);
    // Every displacement's face is a quad that names it back.
    for (let d = 0; d < 3; d++) expect(map.faces.dispinfo[map.displacements.face[d]!]).toBe(d);
  });

  for (const { file, map } of maps) {
    describe(fixtureName(file), () => {
      it('starts each grid at its start position, spans the face corners, and offsets by the disp_verts', () => {
        const gs = grids(map);
        for (let d = 0; d < map.displacements.count; d++) {
          const g = gs[d]!;
          const side = displacementSide(map, d);
          const D = map.displacements;
          const w = D.vertStart[d]! * 5;
          // Grid point 0 is the start position plus its own offset.
          for (let k = 0; k < 3; k++) expect(g[k]!).toBeCloseTo(D.startPosition[d * 3 + k]! + D.verts[w + k]! * D.verts[w + 3]!, 3);
          // Undo the offsets: the four grid corners are the face's four corners.
          const corner = (i: number) => [0, 1, 2].map((k) => g[i * 3 + k]! - D.verts[w + i * 5 + k]! * D.verts[w + i * 5 + 3]!);
          const got = [0, side - 1, side * (side - 1), side * side - 1].map((i) => corner(i).map((x) => Math.round(x * 100) / 100).join(','));
          const face = D.face[d]!;
          const want = [0, 1, 2, 3].map((k) => {
            const v = surfedgeVertex(map, map.faces.firstEdge[face]! + k) * 3;
            return [0, 1, 2].map((a) => Math.round(map.vertices[v + a]! * 100) / 100).join(',');
          });
          expect(got.sort()).toEqual(want.sort());
        }
      });

      it('sews neighbouring displacements: a grid border point that lies on another grid border coincides with one of its points', () => {
        const gs = grids(map);
        // Border points of each grid, hashed at 1/8 unit: Hammer sews shared edges exactly.
        const key = (g: Float32Array, i: number) => `${Math.round(g[i * 3]! * 8)},${Math.round(g[i * 3 + 1]! * 8)},${Math.round(g[i * 3 + 2]! * 8)}`;
        const borders = gs.map((g, d) => {
          const side = displacementSide(map, d);
          const set = new Set<string>();
          for (let r = 0; r < side; r++) for (let c = 0; c < side; c++) if (r === 0 || c === 0 || r === side - 1 || c === side - 1) set.add(key(g, r * side + c));
          return set;
        });
        let shared = 0;
        for (let a = 0; a < gs.length; a++) for (let b = a + 1; b < gs.length; b++) for (const k of borders[a]!) if (borders[b]!.has(k)) shared++;
        expect(shared).toBeGreaterThan(0);
      });

      it('draws every displacement triangle the compiler counted (disp_tris), facing its face', () => {
        const world = bspLevelContextPieces(map)[0]!;
        let expected = 0;
        for (let d = 0; d < map.displacements.count; d++) expected += 2 * (displacementSide(map, d) - 1) ** 2;
        expect(expected).toBe(map.displacements.triTags.length);
        // The displacement faces of these maps are floors (plane normal +z): their triangles face up.
        const P = world.positions, T = world.triangles;
        let up = 0;
        let dispTris = 0;
        for (let t = 0; t < T.length; t += 3) {
          const a = T[t]! * 3, b = T[t + 1]! * 3, c = T[t + 2]! * 3;
          const nz = (P[b]! - P[a]!) * (P[c + 1]! - P[a + 1]!) - (P[b + 1]! - P[a + 1]!) * (P[c]! - P[a]!);
          const s = world.surfaces![world.faceSurface![t / 3]!]!;
          if (map.textures.some((name, i) => name === s && dispTextures(map).has(i))) {
            dispTris++;
            if (nz > 0) up++;
          }
        }
        expect(dispTris).toBeGreaterThanOrEqual(expected);
        const floors = [...map.displacements.face].filter((f) => map.planes[map.faces.plane[f]! * 4 + 2]! * (map.faces.side[f] ? -1 : 1) > 0.7).length;
        if (floors === map.displacements.count) expect(up / dispTris).toBeGreaterThan(0.9);
      });
    });
  }
});

/** Textures used by displacement faces only. */
function dispTextures(map: BspMap): Set<number> {
  const onDisp = new Set<number>();
  const onOther = new Set<number>();
  for (let f = 0; f < map.faces.count; f++) {
    const ti = map.faces.texinfo[f]!;
    if (ti < 0) continue;
    (map.faces.dispinfo[f]! >= 0 ? onDisp : onOther).add(map.texinfo.texture[ti]!);
  }
  for (const t of onOther) onDisp.delete(t);
  return onDisp;
}
