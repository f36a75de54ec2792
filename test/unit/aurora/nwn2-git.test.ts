import { describe, expect, it } from 'vitest';
import { getFloat, getList } from '../../../shared/formats/aurora/gff-fields';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { readAreDimensions } from '../../../shared/formats/aurora/nwn2-are';
import { readGitDoors, readGitPlaceables, readGitWalkmeshCutters } from '../../../shared/formats/aurora/nwn2-git';
import { fixturesRoot, readFixture } from '../../support/fixtures';

const gff = (name: string) => readGff(readFixture(`${fixturesRoot}/nwn2/${name}`));

describe('NWN2 GIT and ARE readers', () => {
  const mord = gff('mordmansion/CSLMordMansion.GIT');
  const objects = gff('nwn-lib-d/WalkmeshObjects.git');

  it('counts the objects of CSLMordMansion.GIT (13 cutters, 19 placeables, 12 doors)', () => {
    expect(readGitWalkmeshCutters(mord)).toHaveLength(13);
    expect(readGitPlaceables(mord)).toHaveLength(19);
    expect(readGitDoors(mord)).toHaveLength(12);
  });

  it('counts the objects of WalkmeshObjects.git (6 cutters, 2 placeables, no doors)', () => {
    expect(readGitWalkmeshCutters(objects)).toHaveLength(6);
    expect(readGitPlaceables(objects)).toHaveLength(2);
    expect(readGitDoors(objects)).toHaveLength(0);
  });

  it('builds each cutter polygon as position + Geometry points, starting at the position', () => {
    const triggers = getList(mord.root, 'TriggerList');
    for (const c of readGitWalkmeshCutters(mord)) {
      const t = triggers[c.index]!;
      expect(c.position.x).toBe(getFloat(t, 'XPosition'));
      const points = getList(t, 'Geometry');
      expect(c.polygon.length).toBe(points.length * 2);
      expect(c.points.length).toBe(points.length * 3);
      points.forEach((p, i) => {
        expect(c.polygon[i * 2]).toBe(c.position.x + getFloat(p, 'PointX'));
        expect(c.polygon[i * 2 + 1]).toBe(c.position.y + getFloat(p, 'PointY'));
      });
      // The toolset puts the first point at the trigger position (spec §5.4).
      expect([c.polygon[0], c.polygon[1]]).toEqual([c.position.x, c.position.y]);
    }
    expect(readGitWalkmeshCutters(mord).map((c) => c.points.length / 3)).toEqual([26, 20, 24, 15, 16, 9, 25, 12, 13, 9, 8, 4, 6]);
  });

  it('reads placeable appearance, position, bearing, scale and flags', () => {
    const [stage] = readGitPlaceables(mord);
    expect(stage).toMatchObject({ index: 0, templateResRef: 'plc_mc_stage01', tag: 'PLC_MC_STAGE01', appearance: 687, isWalkable: false, isStatic: true });
    expect(stage!.x).toBe(Math.fround(40.431148529052734));
    expect(stage!.bearing).toBe(Math.fround(-3.14159));
    expect(stage!.scale).toEqual({ x: Math.fround(1.4), y: Math.fround(1.4), z: 1 });
    expect(readGitPlaceables(mord).filter((p) => p.isWalkable)).toHaveLength(7);

    const [balcony] = readGitPlaceables(objects);
    expect(balcony).toMatchObject({ templateResRef: 'plc_mc_balcony1', appearance: 1597, scale: { x: 1, y: 1, z: 1 } });
  });

  it('reads doors with their INT Static flag and DWORD appearance', () => {
    const [door] = readGitDoors(mord);
    expect(door).toMatchObject({ tag: 'PLC_DT_STDINT03', appearance: 382, genericType: 0, x: Math.fround(32.399688720703125), y: 36, z: 0, isStatic: false });
  });

  it('reads area dimensions of an interior and an exterior', () => {
    expect(readAreDimensions(gff('mordmansion/CSLMordMansion.ARE'))).toEqual({
      width: 6, height: 6, hasTerrain: false, isInterior: true, flags: 1, tileMetres: 9, tileCount: 36,
    });
    expect(readAreDimensions(gff('nwn-lib-d/WalkmeshObjects.are'))).toMatchObject({ width: 4, height: 4, hasTerrain: true, isInterior: false, tileMetres: 10, tileCount: 0 });
  });
});
