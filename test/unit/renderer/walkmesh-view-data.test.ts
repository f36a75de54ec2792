import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { portableEnvironment } from '../../../shared/formats/format-environment';
import { navFormat } from '../../../shared/formats/source/nav-format';
import { createWalkmesh, type Walkmesh } from '../../../shared/model/walkmesh';
import { colourFaces, NON_WALKABLE_RGB, OTHER_RGB, WALKABLE_RGB } from '../../../renderer/src/viewport/face-colours';
import { buildFlatMesh, flatVertexColours, gameBounds, gameToBabylon } from '../../../renderer/src/viewport/game-to-babylon';
import { buildGrid, gridStep } from '../../../renderer/src/viewport/grid-lines';
import { fixturesRoot, readFixture } from '../../support/fixtures';

function itemtest(): Walkmesh {
  const bytes = readFixture(path.join(fixturesRoot, 'source/tf2/itemtest.nav'));
  return navFormat.toWalkmeshes(navFormat.read(bytes, portableEnvironment), 'itemtest.nav')[0]!;
}

/** One upward face and one facing down, at different heights. */
function twoFaces(): Walkmesh {
  return createWalkmesh({
    name: 't',
    game: 'kotor',
    format: 'test',
    // Face 0: (0,0,1) (4,0,1) (4,2,1) counter-clockwise from above. Face 1: same corners reversed, at z = 3.
    positions: new Float32Array([0, 0, 1, 4, 0, 1, 4, 2, 1, 0, 0, 3, 4, 0, 3, 4, 2, 3]),
    triangles: new Uint32Array([0, 1, 2, 5, 4, 3]),
    faceWalkable: new Uint8Array([1, 0]),
    faceMaterial: new Uint32Array([7, 9]),
    faceOwner: new Uint32Array([1, 2]),
  });
}

describe('game space to Babylon space', () => {
  it('maps Z-up game (x, y, z) to Y-up Babylon (x, z, y)', () => {
    expect(gameToBabylon(1, 2, 3)).toEqual([1, 3, 2]);
  });

  it('builds one flat-shaded buffer set per walkmesh: three own vertices per face', () => {
    const mesh = itemtest();
    const flat = buildFlatMesh(mesh);
    expect(flat.faceCount).toBe(66);
    expect(flat.positions.length).toBe(66 * 9);
    expect(flat.normals.length).toBe(66 * 9);
    expect([...flat.indices]).toEqual([...Array(66 * 3).keys()]);
    // Every corner is the model's vertex with y and z swapped, in the model's order.
    for (let f = 0; f < 66; f++) {
      for (let k = 0; k < 3; k++) {
        const v = mesh.triangles[f * 3 + k]!;
        const o = f * 9 + k * 3;
        expect([flat.positions[o], flat.positions[o + 1], flat.positions[o + 2]]).toEqual([
          mesh.positions[v * 3],
          mesh.positions[v * 3 + 2],
          mesh.positions[v * 3 + 1],
        ]);
      }
    }
  });

  it('gives upward game faces upward Babylon normals and counter-clockwise winding seen from +Y', () => {
    const flat = buildFlatMesh(twoFaces());
    // Face 0 points up (+Babylon Y), face 1 (reversed corners) points down.
    expect(flat.normals[1]).toBeCloseTo(1);
    expect(flat.normals[9 + 1]).toBeCloseTo(-1);
    const p = flat.positions;
    // Seen from above (+Y), Babylon's screen axes are +X right and +Z up (not mirrored), so
    // the 2-D cross product in (x, z) is positive for a counter-clockwise face: the front
    // face of a left-handed Babylon mesh.
    const ccwFromAbove = (o: number) => (p[o + 3]! - p[o]!) * (p[o + 8]! - p[o + 2]!) - (p[o + 5]! - p[o + 2]!) * (p[o + 6]! - p[o]!);
    expect(ccwFromAbove(0)).toBeGreaterThan(0);
    expect(ccwFromAbove(9)).toBeLessThan(0);
  });

  it('treats a degenerate face as facing up instead of producing NaN', () => {
    const mesh = createWalkmesh({ name: 'd', game: 'kotor', format: 'test', positions: new Float32Array([0, 0, 0, 1, 1, 1, 2, 2, 2]), triangles: new Uint32Array([0, 1, 2]) });
    expect([...buildFlatMesh(mesh).normals.subarray(0, 3)]).toEqual([0, 1, 0]);
  });

  it('expands per-face colours to the three vertices of each face', () => {
    const colours = flatVertexColours(new Float32Array([0.5, 0.25, 1, 0, 1, 0]));
    expect(colours.length).toBe(2 * 3 * 4);
    expect([...colours.subarray(4, 8)]).toEqual([0.5, 0.25, 1, 1]);
    expect([...colours.subarray(12, 16)]).toEqual([0, 1, 0, 1]);
  });

  it('measures game-space bounds over the vertices the faces use', () => {
    expect(gameBounds([twoFaces()])).toEqual({ min: [0, 0, 1], max: [4, 2, 3] });
    expect(gameBounds([])).toBeNull();
  });
});

describe('face colours and legend', () => {
  it('colours walkable and non-walkable faces from their families and counts them', () => {
    const { faceRgb, legend } = colourFaces([twoFaces()], 'walkable');
    expect(legend).toEqual([
      { label: 'walkable', colour: WALKABLE_RGB, faces: 1 },
      { label: 'not walkable', colour: NON_WALKABLE_RGB, faces: 1 },
    ]);
    const rgb = faceRgb[0]!;
    // Walkable faces are green-dominant, the others red-dominant, whatever the owner shade.
    expect(rgb[1]!).toBeGreaterThan(rgb[0]!);
    expect(rgb[3]!).toBeGreaterThan(rgb[4]!);
  });

  it('gives each material value its own colour, most used first, and pools the rest', () => {
    const faces = 40;
    const faceMaterial = new Uint32Array(faces).map((_, i) => (i < 20 ? 5 : i - 19)); // 5 ×21, then 1..20 once each
    const mesh = createWalkmesh({
      name: 'm',
      // Source attributes: every value 1..20 has its own name (Skyrim's edge-link bits would merge some).
      game: 'source',
      format: 'test',
      positions: new Float32Array(9),
      triangles: new Uint32Array(faces * 3),
      faceMaterial,
    });
    const { faceRgb, legend } = colourFaces([mesh], 'material');
    expect(legend[0]).toMatchObject({ label: 'crouch, precise', raw: '0x5', faces: 21 });
    expect(legend).toHaveLength(13);
    expect(legend[12]).toMatchObject({ label: '8 other values', colour: OTHER_RGB, faces: 8 });
    expect(legend.reduce((n, e) => n + e.faces, 0)).toBe(faces);
    // Faces of one value share a colour; the pooled values are grey.
    expect([...faceRgb[0]!.subarray(0, 3)]).toEqual([...faceRgb[0]!.subarray(3, 6)]);
    expect([...faceRgb[0]!.subarray(39 * 3, 40 * 3)].map((x) => Math.fround(x))).toEqual(OTHER_RGB.map((x) => Math.fround(x)));
  });
});

describe('ground grid', () => {
  it('picks 1-2-5 steps for about twenty squares', () => {
    expect(gridStep(2000)).toBe(100);
    expect(gridStep(30)).toBe(2);
    expect(gridStep(8000)).toBe(500);
    expect(gridStep(0)).toBe(1);
  });

  it('covers the bounds below the lowest face and marks the game axes', () => {
    const grid = buildGrid({ min: [-150, 20, 5], max: [930, 700, 60] });
    expect(grid.step).toBe(50);
    const zs = new Set(grid.lines.flatMap((l) => [l.from[2], l.to[2]]));
    expect(zs.size).toBe(1);
    expect([...zs][0]!).toBeLessThan(5);
    const alongY = grid.lines.filter((l) => l.from[0] === l.to[0]);
    const xs = alongY.map((l) => l.from[0]);
    expect(Math.min(...xs)).toBeLessThanOrEqual(-150);
    expect(Math.max(...xs)).toBeGreaterThanOrEqual(930);
    expect(alongY.filter((l) => l.kind === 'y-axis').map((l) => l.from[0])).toEqual([0]);
    expect(grid.lines.filter((l) => l.kind === 'x-axis').map((l) => l.from[1])).toEqual([0]);
    expect(alongY.find((l) => l.from[0] === 250)?.kind).toBe('major');
    expect(alongY.find((l) => l.from[0] === 100)?.kind).toBe('minor');
  });
});
