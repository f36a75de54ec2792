import { describe, expect, it } from 'vitest';
import type { LevelContext, LevelContextPiece } from '../../../shared/model/level-context';
import { createWalkmesh, type Walkmesh } from '../../../shared/model/walkmesh';
import {
  buildLevelContextIndex,
  dropToSurface,
  findOffLevelFaces,
  findUncoveredGround,
  LEVEL_CHECK_DEFAULTS,
  surfaceHeightAt,
} from '../../../shared/views/level-context-check';
import { levelFindings } from '../../../renderer/src/workers/level-check';

/**
 * Hand-made levels (KotOR units: metres; tolerance 0.25, cover range 0.6, regions of at
 * least 4 m²) with walkmeshes placed on, above and below them.
 */

/** A horizontal rectangle as two triangles facing `up` (or down). */
function rect(x0: number, y0: number, x1: number, y1: number, z: number, up = true): { positions: number[]; triangles: number[] } {
  const positions = [x0, y0, z, x1, y0, z, x1, y1, z, x0, y1, z];
  return { positions, triangles: up ? [0, 1, 2, 0, 2, 3] : [0, 2, 1, 0, 3, 2] };
}

function piece(label: string, parts: { positions: number[]; triangles: number[] }[]): LevelContextPiece {
  const positions: number[] = [];
  const triangles: number[] = [];
  for (const p of parts) {
    const base = positions.length / 3;
    positions.push(...p.positions);
    triangles.push(...p.triangles.map((i) => i + base));
  }
  return { label, kind: 'room', positions: Float32Array.from(positions), triangles: Uint32Array.from(triangles) };
}

/** A walkmesh of quads (two faces each); `lift` raises each corner (NW.. order: x0y0, x1y0, x1y1, x0y1). */
function walkmesh(quads: { x0: number; y0: number; x1: number; y1: number; z: [number, number, number, number] }[], name = 'test'): Walkmesh {
  const positions: number[] = [];
  const triangles: number[] = [];
  for (const q of quads) {
    const b = positions.length / 3;
    positions.push(q.x0, q.y0, q.z[0], q.x1, q.y0, q.z[1], q.x1, q.y1, q.z[2], q.x0, q.y1, q.z[3]);
    triangles.push(b, b + 1, b + 2, b, b + 2, b + 3);
  }
  return createWalkmesh({ name, game: 'kotor', format: 'test', positions: Float32Array.from(positions), triangles: Uint32Array.from(triangles) });
}

const flat = (z: number): [number, number, number, number] => [z, z, z, z];

describe('level context checks', () => {
  // Room 1: floor 10×10 at z 0, covered by four 5×5 walkmesh quads: A on it, B lifted 0.5,
  // C sunk 0.5, D tilted (one corner 0.5 up: neither floating nor sunk as a whole).
  // Room 2: floor 10×10 at x 20..30, no walkmesh. A 1×1 floor tile at x 50 (under 4 m²) and
  // a steep ramp (not walkable), both uncovered. Halls under the walkmesh join room 1 to room 2
  // and room 2 to the tile, so both can be walked to (uncovered ground counts only then).
  const ramp = { positions: [40, 0, 0, 44, 0, 6, 44, 4, 6, 40, 4, 0], triangles: [0, 1, 2, 0, 2, 3] };
  const context: LevelContext = {
    game: 'kotor',
    pieces: [
      piece('room 1', [rect(0, 0, 10, 10, 0)]),
      piece('room 2', [rect(20, 0, 30, 10, 0)]),
      piece('bits', [rect(50, 0, 51, 1, 0), ramp]),
      piece('halls', [rect(10, 4, 20, 6, 0), rect(30, 6, 52, 8, 0), rect(51, 0, 52, 6, 0)]),
    ],
    gaps: [],
  };
  const roomQuads = [
    { x0: 0, y0: 0, x1: 5, y1: 5, z: flat(0) },
    { x0: 5, y0: 0, x1: 10, y1: 5, z: flat(0.5) },
    { x0: 0, y0: 5, x1: 5, y1: 10, z: flat(-0.5) },
    { x0: 5, y0: 5, x1: 10, y1: 10, z: [0, 0, 0.5, 0] as [number, number, number, number] },
  ];
  const hallQuads = [
    { x0: 10, y0: 4, x1: 20, y1: 6, z: flat(0) },
    { x0: 30, y0: 6, x1: 52, y1: 8, z: flat(0) },
    { x0: 51, y0: 0, x1: 52, y1: 6, z: flat(0) },
  ];
  const mesh = walkmesh([...roomQuads, ...hallQuads]);
  const index = buildLevelContextIndex(context);

  it('finds exactly the lifted and the sunk faces, with their offsets', () => {
    const off = findOffLevelFaces(mesh, index);
    expect(off.map((o) => [o.face, o.kind])).toEqual([
      [2, 'floating'],
      [3, 'floating'],
      [4, 'sunk'],
      [5, 'sunk'],
    ]);
    for (const o of off) expect(o.offset).toBeCloseTo(o.kind === 'floating' ? 0.5 : -0.5, 5);
  });

  it('does not judge faces with no level within the search range, and honours the tolerance', () => {
    const far = walkmesh([{ x0: 0, y0: 0, x1: 5, y1: 5, z: flat(10) }, { x0: 100, y0: 100, x1: 105, y1: 105, z: flat(0) }]);
    expect(findOffLevelFaces(far, index)).toEqual([]);
    const loose = { ...LEVEL_CHECK_DEFAULTS.kotor, tolerance: 0.6 };
    expect(findOffLevelFaces(mesh, index, loose)).toEqual([]);
  });

  it('finds the uncovered room as one region with its area; drops the small tile and the steep ramp', () => {
    const regions = findUncoveredGround(mesh, index);
    expect(regions).toHaveLength(1);
    const [room] = regions;
    expect(room!.area).toBeCloseTo(100, 6);
    expect(room!.pieces).toEqual(['room 2']);
    expect(room!.triangles).toEqual([2, 3]);
    expect(room!.centre[0]).toBeCloseTo(25, 6);
    expect(room!.centre[1]).toBeCloseTo(5, 6);
    // With the size floor lowered the 1 m² tile appears too; the ramp (normal z 0.55) never does.
    const all = findUncoveredGround(mesh, index, { ...LEVEL_CHECK_DEFAULTS.kotor, minRegionArea: 0.5 });
    expect(all.map((r) => [r.pieces[0], Math.round(r.area * 1000) / 1000])).toEqual([
      ['room 2', 100],
      ['bits', 1],
    ]);
  });

  it('counts a half-covered floor as the uncovered half', () => {
    const half = walkmesh([...roomQuads, ...hallQuads, { x0: 20, y0: 0, x1: 25, y1: 10, z: flat(0) }]);
    const regions = findUncoveredGround(half, index);
    const room2 = regions.find((r) => r.pieces[0] === 'room 2')!;
    // Samples are sub-triangle centroids at 0.5 m spacing: the uncovered share is 50 m² to within a row of samples.
    expect(room2.area).toBeGreaterThan(47);
    expect(room2.area).toBeLessThan(53);
    expect(room2.centre[0]).toBeGreaterThan(25);
  });

  // Stand-and-reach: a floor 20×10 at z 0 under the walkmesh, and around it, uncovered:
  // a block's top (3 m up: a wall top), a ledge beside the floor 1.5 m up (no steps), a
  // terrace one 0.4 m step up, stairs of 0.4 m steps up to an upper floor at 1.5 m, and an
  // alcove floor at z 0 under a ceiling 1.2 m up (no headroom for 1.8 m).
  const box = (x0: number, y0: number, x1: number, y1: number, top: number) => {
    const positions = [x0, y0, 0, x1, y0, 0, x1, y1, 0, x0, y1, 0, x0, y0, top, x1, y0, top, x1, y1, top, x0, y1, top];
    // Top (up) and four outward walls: vertical faces are never walkable ground.
    const triangles = [4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7];
    return { positions, triangles };
  };
  const reachLevel = buildLevelContextIndex({
    game: 'kotor',
    pieces: [
      piece('floor', [rect(0, 0, 20, 10, 0)]),
      piece('block', [box(4, 2, 7, 5, 3)]),
      piece('ledge', [rect(20, 0, 26, 10, 1.5)]),
      piece('terrace', [rect(8, 10, 20, 14, 0.4)]),
      piece('stairs', [rect(-1, 0, 0, 10, 0.4), rect(-2, 0, -1, 10, 0.8), rect(-3, 0, -2, 10, 1.2), rect(-9, 0, -3, 10, 1.5)]),
      piece('alcove', [rect(8, -4, 14, 0, 0), rect(8, -4, 14, 0, 1.2, false)]),
    ],
    gaps: [],
  });
  const floorMesh = [{ x0: 0, y0: 0, x1: 20, y1: 10, z: flat(0) }];
  const summary = (regions: ReturnType<typeof findUncoveredGround>) => regions.map((r) => [r.pieces, Math.round(r.area * 1000) / 1000]);

  it('reports only ground a creature can stand on and walk to from the walkmesh: not wall tops, high ledges or under low ceilings', () => {
    expect(summary(findUncoveredGround(walkmesh(floorMesh), reachLevel))).toEqual([
      [['stairs'], 90],
      [['terrace'], 48],
    ]);
  });

  it('reports the ledge once the walkmesh reaches it, and the alcove for a creature short enough', () => {
    const onLedge = walkmesh([...floorMesh, { x0: 20, y0: 0, x1: 23, y1: 10, z: flat(1.5) }]);
    expect(summary(findUncoveredGround(onLedge, reachLevel))).toEqual([
      [['stairs'], 90],
      [['terrace'], 48],
      [['ledge'], 30],
    ]);
    const short = { ...LEVEL_CHECK_DEFAULTS.kotor, creatureHeight: 1 };
    expect(summary(findUncoveredGround(walkmesh(floorMesh), reachLevel, short))).toEqual([
      [['stairs'], 90],
      [['terrace'], 48],
      [['alcove'], 24],
    ]);
    // Steps allowed up to 0.39 m cut off the 0.4 m risers: the stairs and the terrace are out of reach.
    expect(summary(findUncoveredGround(walkmesh(floorMesh), reachLevel, { ...LEVEL_CHECK_DEFAULTS.kotor, stepHeight: 0.39 }))).toEqual([]);
  });

  it('counts ground within the cover radius of the walkmesh as covered (a walkmesh of creature centres)', () => {
    // The walkmesh stops 0.5 m short of every side of a 10×10 floor: a 19 m² margin.
    const floor = buildLevelContextIndex({ game: 'kotor', pieces: [piece('floor', [rect(0, 0, 10, 10, 0)])], gaps: [] });
    const inset = walkmesh([{ x0: 0.5, y0: 0.5, x1: 9.5, y1: 9.5, z: flat(0) }]);
    const margin = findUncoveredGround(inset, floor, { ...LEVEL_CHECK_DEFAULTS.kotor, coverRadius: 0 });
    expect(margin).toHaveLength(1);
    // Sub-triangle centroids at 0.5 m spacing: 19 m² to within a row of samples.
    expect(margin[0]!.area).toBeGreaterThan(15);
    expect(margin[0]!.area).toBeLessThan(23);
    expect(findUncoveredGround(inset, floor, { ...LEVEL_CHECK_DEFAULTS.kotor, coverRadius: 0.5 })).toEqual([]);
  });

  it('reports nothing where no walkmesh face meets the level (nothing to walk from)', () => {
    expect(findUncoveredGround(walkmesh([{ x0: 100, y0: 100, x1: 105, y1: 105, z: flat(0) }]), reachLevel)).toEqual([]);
  });

  it('snaps points to the surface under them, ignoring downward faces', () => {
    // A platform at z 3 over room 1's corner, with its underside (facing down) at 2.9.
    const twoStorey = buildLevelContextIndex({
      game: 'kotor',
      pieces: [piece('ground', [rect(0, 0, 10, 10, 0)]), piece('platform', [rect(0, 0, 4, 4, 3), rect(0, 0, 4, 4, 2.9, false)])],
      gaps: [],
    });
    expect(surfaceHeightAt(twoStorey, 2, 2, 2)).toMatchObject({ z: 0, label: 'ground' });
    expect(surfaceHeightAt(twoStorey, 2, 2, 3.1)).toMatchObject({ z: 3, label: 'platform' });
    expect(surfaceHeightAt(twoStorey, 2, 2, 2.95, 0.1)).toMatchObject({ z: 3 });
    expect(surfaceHeightAt(twoStorey, 2, 2, -1)!.z).toBe(0);
    expect(surfaceHeightAt(twoStorey, 8, 8, 5)!.z).toBe(0);
    expect(surfaceHeightAt(twoStorey, 20, 20, 0)).toBeUndefined();
    expect(dropToSurface(twoStorey, [2, 2, 5])).toEqual([2, 2, 3]);
    expect(dropToSurface(twoStorey, [2, 2, 2])).toEqual([2, 2, 0]);
    expect(dropToSurface(twoStorey, [2, 2, -1])).toBeUndefined();
    expect(dropToSurface(twoStorey, [2, 2, 5], 1)).toBeUndefined();
  });
});

describe('uncovered ground over the walkmeshes of one file (a layout\'s rooms, a plugin\'s navmeshes)', () => {
  // Two rooms side by side, each floor 10×10 at z 0 under its own walkmesh, and a 5×10
  // alcove beyond room B at the same height that neither walkmesh reaches: a real gap.
  const rooms = buildLevelContextIndex({
    game: 'kotor',
    pieces: [piece('room A', [rect(0, 0, 10, 10, 0)]), piece('room B', [rect(10, 0, 20, 10, 0)]), piece('alcove', [rect(20, 0, 25, 10, 0)])],
    gaps: [],
  });
  const a = walkmesh([{ x0: 0, y0: 0, x1: 10, y1: 10, z: flat(0) }], 'A');
  const b = walkmesh([{ x0: 10, y0: 0, x1: 20, y1: 10, z: flat(0) }], 'B');
  const summary = (regions: ReturnType<typeof findUncoveredGround>) => regions.map((r) => [r.pieces, Math.round(r.area * 1000) / 1000]);

  it('each walkmesh alone reports its neighbour\'s floor (what checking mesh by mesh listed)', () => {
    expect(summary(findUncoveredGround(a, rooms))).toEqual([[['room B', 'alcove'], 150]]);
    expect(summary(findUncoveredGround(b, rooms))).toEqual([[['room A'], 100], [['alcove'], 50]]);
  });

  it('checked together, neither room\'s floor is uncovered; the alcove no walkmesh reaches still is, once', () => {
    const regions = findUncoveredGround([a, b], rooms);
    expect(summary(regions)).toEqual([[['alcove'], 50]]);
    expect(regions[0]!.centre[0]).toBeCloseTo(22.5, 6);
    // Order does not matter, and with the alcove covered by a third walkmesh nothing is left.
    expect(summary(findUncoveredGround([b, a], rooms))).toEqual([[['alcove'], 50]]);
    const c = walkmesh([{ x0: 20, y0: 0, x1: 25, y1: 10, z: flat(0) }], 'C');
    expect(findUncoveredGround([a, b, c], rooms)).toEqual([]);
  });

  it('only walkable faces cover: a neighbour whose floor is all non-walkable leaves that floor uncovered', () => {
    const blocked = { ...b, faceWalkable: new Uint8Array(b.faceWalkable.length) };
    expect(summary(findUncoveredGround([a, blocked], rooms))).toEqual([[['room B', 'alcove'], 150]]);
    expect(findUncoveredGround([], rooms)).toEqual([]);
  });

  it('the file\'s level check lists the gap once and no room floor; floating faces stay per walkmesh face', () => {
    const lifted = walkmesh([{ x0: 10, y0: 0, x1: 20, y1: 10, z: flat(1) }], 'B lifted');
    const context = { game: 'kotor' as const, pieces: [piece('room A', [rect(0, 0, 10, 10, 0)]), piece('room B', [rect(10, 0, 20, 10, 0)]), piece('alcove', [rect(20, 0, 25, 10, 0)])], gaps: [] };
    const uncovered = (findings: ReturnType<typeof levelFindings>) => findings.filter((f) => f.code === 'level.ground.uncovered').map((f) => f.message);
    const both = levelFindings([a, b], context);
    expect(uncovered(both)).toEqual(['Walkable ground with no walkmesh over it: 50 square units around (22.5, 5.0, 0.0), on alcove']);
    expect(both.filter((f) => f.face)).toEqual([]);
    // Room B's walkmesh 1 m up: its two faces float (named by walkmesh), and room B's floor is uncovered (the lifted faces are past the cover range).
    const withLifted = levelFindings([a, lifted], context);
    expect(withLifted.filter((f) => f.face).map((f) => [f.code, f.face, f.message])).toEqual([
      ['level.face.floating', { mesh: 1, face: 0 }, 'B lifted: face 0 floats 1.00 above the level'],
      ['level.face.floating', { mesh: 1, face: 1 }, 'B lifted: face 1 floats 1.00 above the level'],
    ]);
    expect(uncovered(withLifted)).toEqual(['Walkable ground with no walkmesh over it: 150 square units around (17.5, 5.0, 0.0), on room B, alcove']);
  });
});
