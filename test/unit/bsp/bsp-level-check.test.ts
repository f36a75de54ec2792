import { describe, expect, it } from 'vitest';
import { bspLevelContextPieces } from '../../../shared/formats/source/bsp-level-context';
import { readBsp } from '../../../shared/formats/source/bsp-reader';
import { readNav } from '../../../shared/formats/source/nav-reader';
import { navToWalkmesh } from '../../../shared/formats/source/nav-walkmesh';
import { createWalkmesh, type Walkmesh } from '../../../shared/model/walkmesh';
import { buildLevelContextIndex, findOffLevelFaces, findUncoveredGround, LEVEL_CHECK_DEFAULTS, surfaceHeightAt } from '../../../shared/views/level-context-check';
import { fixturesRoot, readFixture } from '../../support/fixtures';

/**
 * The level checks on a real pair: CS 1.6 aim_map's bot nav on its own map. The nav is the
 * map's ground as the bots see it, so moving it up or down must turn its faces floating or
 * sunk, and the ground under it must count as covered.
 */
const nav = readNav(readFixture(`${fixturesRoot}/source-maps/cs16-cslinux/aim_map.nav`));
const map = readBsp(readFixture(`${fixturesRoot}/source-maps/cs16-cslinux/aim_map.bsp`), 'maps/aim_map.bsp');
const mesh = navToWalkmesh(nav, 'aim_map.nav');
const index = buildLevelContextIndex({ game: 'source', pieces: bspLevelContextPieces(map), gaps: [] });
const options = LEVEL_CHECK_DEFAULTS.source;

function shifted(m: Walkmesh, dz: number): Walkmesh {
  const positions = m.positions.slice();
  for (let i = 2; i < positions.length; i += 3) positions[i]! += dz;
  return createWalkmesh({ ...m, positions });
}

describe('level checks on aim_map (nav + bsp)', () => {
  it('finds the nav on the ground, and floating or sunk once it is moved by 10 units', () => {
    const off = findOffLevelFaces(mesh, index);
    const up = findOffLevelFaces(shifted(mesh, 10), index);
    const down = findOffLevelFaces(shifted(mesh, -10), index);
    process.stderr.write(
      `aim_map: ${mesh.triangles.length / 3} nav faces on ${index.triangles.length / 3} map triangles: ` +
        `${off.filter((o) => o.kind === 'floating').length} floating, ${off.filter((o) => o.kind === 'sunk').length} sunk; ` +
        `raised 10: ${up.filter((o) => o.kind === 'floating').length} floating; lowered 10: ${down.filter((o) => o.kind === 'sunk').length} sunk\n`,
    );
    const faces = mesh.triangles.length / 3;
    expect(off.length).toBeLessThan(faces * 0.05);
    expect(up.filter((o) => o.kind === 'floating').length).toBeGreaterThan(faces * 0.5);
    expect(down.filter((o) => o.kind === 'sunk').length).toBeGreaterThan(faces * 0.5);
    for (const o of up) if (o.kind === 'floating') expect(o.offset).toBeGreaterThan(options.tolerance);
  });

  it('reports uncovered ground away from the nav, only where it can be walked to from the nav', () => {
    const regions = findUncoveredGround(mesh, index);
    const bare = findUncoveredGround(createWalkmesh({ ...mesh, faceWalkable: new Uint8Array(mesh.faceWalkable.length) }), index);
    const area = (rs: typeof regions) => rs.reduce((s, r) => s + r.area, 0);
    process.stderr.write(
      `aim_map: ${regions.length} uncovered regions, ${Math.round(area(regions))} square units (largest ${Math.round(regions[0]?.area ?? 0)} at ` +
        `${regions[0]?.centre.map(Math.round).join(', ')})\n`,
    );
    expect(regions.length).toBeGreaterThan(0);
    // With no walkable nav face nothing meets the map, so no ground is reachable from it.
    expect(bare).toEqual([]);
    // The map's walls stand on the floor and end 259 units up (z −208) with the sky above:
    // their tops are walkable by slope but no step reaches them. Every region is at most a
    // step above the nav's highest point here (the map has no stairs above its nav).
    let navTop = -Infinity;
    for (let i = 2; i < mesh.positions.length; i += 3) navTop = Math.max(navTop, mesh.positions[i]!);
    for (const r of regions) expect(r.centre[2]).toBeLessThanOrEqual(navTop + options.stepHeight);
    const navIndex = buildLevelContextIndex({ game: 'source', pieces: [{ label: 'nav', kind: 'world', positions: mesh.positions, triangles: mesh.triangles }], gaps: [] });
    for (const r of regions) {
      expect(r.area).toBeGreaterThanOrEqual(options.minRegionArea);
      for (const t of r.triangles) expect(index.normalZ[t]!).toBeGreaterThanOrEqual(options.walkableCos);
      // A region's centre is not on the nav: no nav face within the cover range above or below it.
      const under = surfaceHeightAt(navIndex, r.centre[0], r.centre[1], r.centre[2], options.coverRange, options.coverRange);
      expect(under === undefined || Math.abs(under.z - r.centre[2]) > options.coverRange, `region at ${r.centre.join(', ')}`).toBe(true);
    }
  });
});
