import { describe, expect, it } from 'vitest';
import { decodeLevelContext, encodeLevelContext } from '../../../electron/services/bake-pool/level-context-job';
import { readDds } from '../../../shared/formats/images/dds-reader';
import type { RgbaImage } from '../../../shared/formats/images/rgba-image';
import { nwn2TerrainContext } from '../../../shared/formats/nwn2/nwn2-level-context';
import { composeMegatileTexture, DEFAULT_TEXTURE_REPEATS, MEGATILE_TEXTURE_SIDE, shrinkTexture, textureRepeats } from '../../../shared/formats/nwn2/terrain-texture-compose';
import { trrnTextureNames } from '../../../shared/formats/nwn2/terrain-texture-names';
import { readTrrn } from '../../../shared/formats/nwn2/trrn-packet';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { checkLevelContextPiece, type LevelContextPiece } from '../../../shared/model/level-context';
import { solidDxt1 } from '../../support/dds-writer';
import { buildTrrnPayload, GENERATED_TEXTURE_COLOURS, GENERATED_TEXTURES, generateExteriorTrxBytes } from '../../support/nwn2-exterior-generator';
import { nodeFormatEnvironment as env } from '../../../electron/services/node-format-environment';

// Solid DXT1 textures: R5G6B5 0xF800 → (255, 0, 0), 0x07E0 → (0, 255, 0). The generated
// megatile's blend maps give texture 0 (tt_grass01) the west half and texture 4 (tt_snow01) the east.
const GRASS = readDds(solidDxt1(16, 0xf800), 'tt_grass01.dds');
const SNOW = readDds(solidDxt1(32, 0x07e0), 'tt_snow01.dds');

function px(img: { width: number; rgba: Uint8Array }, x: number, y: number): number[] {
  return Array.from(img.rgba.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4));
}

function terrainOf(textures: Map<string, RgbaImage>): LevelContextPiece {
  const doc = readTrx(generateExteriorTrxBytes({ megatiles: 1 }, env), env);
  const c = nwn2TerrainContext(doc, { textures });
  return c.pieces.find((p) => p.kind === 'terrain')!;
}

describe('NWN2 terrain textures composed per megatile', () => {
  it('lists the texture names of the TRRN packets once, lower-case, without reading the walkmesh', () => {
    const bytes = generateExteriorTrxBytes({ megatiles: 2 }, env);
    expect(trrnTextureNames(bytes)).toEqual([...GENERATED_TEXTURES]);
  });

  it('where the blend map is pure one texture the image is that texture, mixed where the maps blend', () => {
    const piece = terrainOf(new Map([['tt_grass01', GRASS], ['tt_snow01', SNOW]]));
    const t = piece.texture!;
    expect([t.width, t.height]).toEqual([MEGATILE_TEXTURE_SIDE, MEGATILE_TEXTURE_SIDE]);
    expect(t.name).toContain('tt_grass01');
    checkLevelContextPiece(piece);
    // West half: DDS A red only (texture 0); east half: DDS B red only (texture 4).
    for (const y of [0, 40, 127]) {
      expect(px(t, 5, y)).toEqual([255, 0, 0, 255]);
      expect(px(t, 60, y)).toEqual([255, 0, 0, 255]);
      expect(px(t, 67, y)).toEqual([0, 255, 0, 255]);
      expect(px(t, 127, y)).toEqual([0, 255, 0, 255]);
    }
    // Blend-map columns 15 (texture 0) and 16 (texture 4) of 32 meet at u = 15.5/31: pixel 63's
    // centre is at u = 63.5/128, 15.379 columns in, so weights 0.621 and 0.379 (bilinear).
    const f = (63.5 / 128) * 31 - 15;
    expect(px(t, 63, 64)[0]).toBeCloseTo(255 * (1 - f), -0.5);
    expect(px(t, 63, 64)[1]).toBeCloseTo(255 * f, -0.5);
    // UVs are the vertices' place in the megatile's box: first vertex (0, 0), last (1, 1).
    expect(Array.from(piece.uvs!.subarray(0, 2))).toEqual([0, 0]);
    expect(Array.from(piece.uvs!.subarray(piece.uvs!.length - 2))).toEqual([1, 1]);
    // The colours stay, for the findings and the pieces that are not textured.
    expect(piece.vertexColours).toBeDefined();
  });

  it('a missing texture is drawn as a flat tile of its TRRN colour; none found keeps the colours only', () => {
    const piece = terrainOf(new Map([['tt_grass01', GRASS]]));
    const snow = GENERATED_TEXTURE_COLOURS[4]!.map((c) => Math.round(255 * c));
    expect(px(piece.texture!, 100, 64)).toEqual([...snow, 255]);
    expect(px(piece.texture!, 10, 64)).toEqual([255, 0, 0, 255]);
    const bare = terrainOf(new Map([['tt_other', GRASS]]));
    expect(bare.texture).toBeUndefined();
    expect(bare.uvs).toBeUndefined();
  });

  it('repeats each texture by the span of the stored vertex u (0–10 in the generated megatile), else 4', () => {
    const t = readTrrn(buildTrrnPayload(0, 0));
    expect(textureRepeats(t)).toBeCloseTo(10, 5);
    t.uvs[0] = Number.NaN;
    expect(textureRepeats(t)).toBe(DEFAULT_TEXTURE_REPEATS);
    // A two-colour texture (left half red, right half blue) repeated twice across 8 pixels:
    // pixels 0–1 red, 2–3 blue, 4–5 red, 6–7 blue.
    const halves: RgbaImage = { width: 2, height: 1, rgba: new Uint8Array([255, 0, 0, 255, 0, 0, 255, 255]) };
    const tile = shrinkTexture(halves, 4);
    const img = composeMegatileTexture({ tiles: [tile, undefined, undefined, undefined, undefined, undefined], blendA: undefined, blendB: undefined, repeats: 2, side: 8 });
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((x) => px(img, x, 0)[0])).toEqual([255, 255, 0, 0, 255, 255, 0, 0]);
  });

  it('travels in the context frame (worker → cache → page), and a damaged texture in a frame is refused', () => {
    const piece = terrainOf(new Map([['tt_grass01', GRASS], ['tt_snow01', SNOW]]));
    const back = decodeLevelContext(encodeLevelContext({ game: 'nwn2', pieces: [piece], gaps: [] }));
    const p = back.pieces[0]!;
    expect(p.uvs).toBeInstanceOf(Float32Array);
    expect(Array.from(p.uvs!)).toEqual(Array.from(piece.uvs!));
    expect(p.texture!.rgba).toBeInstanceOf(Uint8Array);
    expect(px(p.texture!, 5, 5)).toEqual([255, 0, 0, 255]);
    const short = { ...piece, texture: { ...piece.texture!, rgba: piece.texture!.rgba.subarray(4) } };
    expect(() => decodeLevelContext(encodeLevelContext({ game: 'nwn2', pieces: [short], gaps: [] }))).toThrow(/texture bytes/);
    const huge = { ...piece, texture: { ...piece.texture!, width: 1 << 20, height: 1 } };
    expect(() => decodeLevelContext(encodeLevelContext({ game: 'nwn2', pieces: [huge], gaps: [] }))).toThrow(/1 to 2048 a side/);
    const noUv: LevelContextPiece = { ...piece };
    delete noUv.uvs;
    expect(() => checkLevelContextPiece(noUv)).toThrow(/without UVs/);
  });
});
