import { describe, expect, it } from 'vitest';
import { entityValue, GOLDSRC_BSP_FORMAT, SOURCE_VBSP_FORMAT } from '../../../shared/formats/source/bsp-document';
import { bspLevelContextPieces, isHiddenTexture, isInvisibleEntity } from '../../../shared/formats/source/bsp-level-context';
import { readBsp } from '../../../shared/formats/source/bsp-reader';
import { checkLevelContextPiece } from '../../../shared/model/level-context';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';

/**
 * Every compiled map among the fixtures: read, turned into level-context pieces whose
 * arrays agree, and the world piece holds upward floors and the map's own bounds.
 */
const maps = listFixtures('source-maps', ['.bsp']);

describe('BSP fixtures', () => {
  it('finds GoldSrc and Source maps', () => {
    const formats = new Set(maps.map((f) => readBsp(readFixture(f), fixtureName(f)).format));
    expect(formats).toEqual(new Set([GOLDSRC_BSP_FORMAT, SOURCE_VBSP_FORMAT]));
  });

  for (const file of maps) {
    it(fixtureName(file), () => {
      const bytes = readFixture(file);
      const map = readBsp(bytes, fixtureName(file));
      expect(map.fileSize).toBe(bytes.length);
      expect(map.format === GOLDSRC_BSP_FORMAT ? map.version === 30 : map.version >= 19 && map.version <= 21).toBe(true);
      expect(map.models.count).toBeGreaterThan(0);
      expect(entityValue(map.entities, 0, 'classname')).toBe('worldspawn');

      const pieces = bspLevelContextPieces(map);
      for (const p of pieces) checkLevelContextPiece(p);
      const world = pieces[0]!;
      expect(world.kind).toBe('world');
      // Brush entities are models, func_water a liquid (labels start with the class name).
      expect(pieces.slice(1).every((p) => p.kind === (p.label.startsWith('func_water ') ? 'water' : 'model'))).toBe(true);
      // No hidden texture reaches a piece.
      const shown = pieces.flatMap((p) => p.surfaces!.filter((s) => isHiddenTexture(map.format, s)).map((s) => `${p.label}: ${s}`));
      expect(shown).toEqual([]);

      // The world's drawn vertices lie inside model 0's bounds (the compiler's own box).
      const b = map.models.bounds;
      let outside = 0;
      for (let i = 0; i < world.positions.length; i += 3) {
        for (let k = 0; k < 3; k++) if (world.positions[i + k]! < b[k]! - 1 || world.positions[i + k]! > b[3 + k]! + 1) outside++;
      }
      expect(outside).toBe(0);
      // Triangles face their plane's front: a map has more floors seen from above than ceilings seen from below.
      let up = 0, down = 0;
      const P = world.positions, T = world.triangles;
      for (let t = 0; t < T.length; t += 3) {
        const a = T[t]! * 3, c = T[t + 1]! * 3, d = T[t + 2]! * 3;
        const nz = (P[c]! - P[a]!) * (P[d + 1]! - P[a + 1]!) - (P[c + 1]! - P[a + 1]!) * (P[d]! - P[a]!);
        if (nz > 1e-3) up++;
        else if (nz < -1e-3) down++;
      }
      expect(up).toBeGreaterThan(down);
    });
  }
});

describe('hidden brush entities', () => {
  it('leaves out triggers, zones and GoldSrc brushes rendered with amount 0', () => {
    expect(isInvisibleEntity('trigger_multiple', undefined, undefined)).toBe(true);
    expect(isInvisibleEntity('FUNC_BUYZONE', undefined, undefined)).toBe(true);
    expect(isInvisibleEntity('func_wall', '2', '0')).toBe(true);
    expect(isInvisibleEntity('func_wall', '2', '255')).toBe(false);
    expect(isInvisibleEntity('func_wall', '0', '0')).toBe(false);
    expect(isInvisibleEntity('func_door', undefined, undefined)).toBe(false);
  });

  it('draws no piece for a map\'s zones and triggers', () => {
    for (const file of maps) {
      const pieces = bspLevelContextPieces(readBsp(readFixture(file), fixtureName(file)));
      expect(pieces.filter((p) => /^(trigger_|func_buyzone|func_bomb_target|func_hostage_rescue)/.test(p.label)).map((p) => p.label)).toEqual([]);
    }
  });
});

describe('Blue Shift lump order', () => {
  it('reads a GoldSrc map whose planes lump comes first the same as the usual order', () => {
    const file = maps.find((f) => f.endsWith('aim_map.bsp'))!;
    const usual = readFixture(file);
    const swapped = usual.slice();
    swapped.set(usual.subarray(4, 12), 12);
    swapped.set(usual.subarray(12, 20), 4);
    const a = readBsp(usual, 'aim_map.bsp');
    const b = readBsp(swapped, 'aim_map.bsp');
    expect(b.planes).toEqual(a.planes);
    expect(b.entities).toEqual(a.entities);
    expect(b.lumps[0]!.offset).toBe(a.lumps[0]!.offset);
  });
});

describe('hidden textures', () => {
  it('hides GoldSrc tool textures and sky, keeps water and ordinary textures', () => {
    for (const n of ['SKY', 'aaatrigger', 'CLIP', 'null', 'origin', 'HINT', 'skip']) expect(isHiddenTexture(GOLDSRC_BSP_FORMAT, n), n).toBe(true);
    for (const n of ['!waterblue', '{fence', 'dust_floor', 'clipboard']) expect(isHiddenTexture(GOLDSRC_BSP_FORMAT, n), n).toBe(false);
  });
  it('hides Source tool materials, also when cubemap-patched, and keeps tools/toolsblack', () => {
    for (const n of ['TOOLS/TOOLSNODRAW', 'tools/toolsplayerclip', 'TOOLS/TOOLSSKYBOX', 'maps/de_x/tools/toolstrigger_0_16_-32']) expect(isHiddenTexture(SOURCE_VBSP_FORMAT, n), n).toBe(true);
    for (const n of ['TOOLS/TOOLSBLACK', 'DEV/DEV_MEASUREWALL01A', 'maps/de_x/concrete/floor_1_2_3']) expect(isHiddenTexture(SOURCE_VBSP_FORMAT, n), n).toBe(false);
  });
});
