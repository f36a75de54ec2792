import { describe, expect, it } from 'vitest';
import { overlayIds } from '../../../shared/views/view-overlay';
import { casedContrast, contrastRatio, deltaE2000, relativeLuminance, simulate, VISIONS, worstCasedContrast } from '../../../renderer/src/viewport/colour-contrast';
import { colouringColours, keyColour, MATERIAL_COLOURS, NON_WALKABLE_RGB, WALKABLE_RGB, type ColourMode, type Rgb } from '../../../renderer/src/viewport/face-colours';
import { NO_PLACE_RGB, PLACE_COLOURS } from '../../../renderer/src/viewport/place-colours';
import { SWATCHES } from '../../../shared/views/game-attribute-names';
import { CASING_RGB, overlayColours, TOOL_COLOURS } from '../../../renderer/src/viewport/overlay-colours';

const MODES: ColourMode[] = ['walkable', 'material', 'island', 'owner'];
/** WCAG 2.1 SC 1.4.11: graphical objects need 3:1 against what is next to them. */
const MIN_CONTRAST = 3;

describe('colour measures', () => {
  it('matches the WCAG luminance and contrast of known pairs', () => {
    expect(relativeLuminance([1, 1, 1])).toBeCloseTo(1, 6);
    expect(relativeLuminance([0, 0, 0])).toBe(0);
    expect(contrastRatio([0, 0, 0], [1, 1, 1])).toBeCloseTo(21, 6);
    // #777 on white is the well-known 4.48:1.
    expect(contrastRatio([0x77 / 255, 0x77 / 255, 0x77 / 255], [1, 1, 1])).toBeCloseTo(4.48, 2);
  });

  it('matches the CIEDE2000 test data of Sharma, Wu and Dalal through Lab', () => {
    // Identical colours differ by 0; black and white by 100 (L* 0 and 100, no chroma).
    expect(deltaE2000([0.3, 0.5, 0.7], [0.3, 0.5, 0.7])).toBe(0);
    expect(deltaE2000([0, 0, 0], [1, 1, 1])).toBeCloseTo(100, 1);
    // sRGB red vs green is a well-known ΔE00 of about 86.6.
    expect(deltaE2000([1, 0, 0], [0, 1, 0])).toBeCloseTo(86.6, 0);
  });

  it('simulates dichromats: red and green collapse for them, not for trichromats', () => {
    const red: Rgb = [0.8, 0.2, 0.1];
    const green: Rgb = [0.4, 0.5, 0.1];
    expect(deltaE2000(red, green)).toBeGreaterThan(20);
    expect(deltaE2000(red, green, 'deuteranopia')).toBeLessThan(deltaE2000(red, green) / 2);
    expect(deltaE2000(red, green, 'protanopia')).toBeLessThan(deltaE2000(red, green) / 2);
    // Greys stay grey.
    for (const v of VISIONS) simulate([0.5, 0.5, 0.5], v).forEach((c) => expect(c).toBeCloseTo(0.5, 2));
  });

  it('credits a casing only when it stands out from both the face and the line', () => {
    const yellow: Rgb = [0.94, 0.89, 0.26];
    expect(contrastRatio(yellow, yellow)).toBe(1);
    expect(casedContrast(yellow, CASING_RGB, yellow)).toBeGreaterThan(MIN_CONTRAST);
    // A casing the colour of the line adds nothing.
    expect(casedContrast(yellow, yellow, yellow)).toBe(1);
  });
});

describe('overlay colours against every face colouring', () => {
  // Source places take their own palette (beyond it, the key ramp), areas without a place grey.
  const faces = [...MODES.flatMap((m) => colouringColours(m)), ...PLACE_COLOURS, NO_PLACE_RGB];

  it('enumerates what each colouring can draw', () => {
    expect(colouringColours('material')).toEqual(MATERIAL_COLOURS);
    // The games' named materials and flags take their colours from the same palette.
    for (const swatch of Object.values(SWATCHES)) expect(MATERIAL_COLOURS).toContainEqual(swatch);
    expect(colouringColours('walkable').length).toBe(6);
    // Any key lands on the sampled ramp (within a sampling step).
    const ramp = colouringColours('island');
    for (let k = 0; k < 500; k++) {
      const c = keyColour(k);
      const nearest = Math.min(...ramp.map((r) => Math.hypot(r[0] - c[0], r[1] - c[1], r[2] - c[2])));
      expect(nearest).toBeLessThan(0.02);
    }
  });

  for (const id of overlayIds) {
    it(`${id}: every class reads at ${MIN_CONTRAST}:1 over every face colour, shade and vision`, () => {
      for (const line of overlayColours(id)) {
        const worst = worstCasedContrast(line, CASING_RGB, faces);
        expect(worst.ratio, `${id} ${line.join(',')} over ${worst.face.map((x) => x.toFixed(2)).join(',')} (${worst.vision})`).toBeGreaterThanOrEqual(MIN_CONTRAST);
      }
    });
  }

  for (const [name, line] of Object.entries(TOOL_COLOURS)) {
    it(`${name} tool line reads at ${MIN_CONTRAST}:1 over every face colour, shade and vision`, () => {
      const worst = worstCasedContrast(line, CASING_RGB, faces);
      expect(worst.ratio, `${name} over ${worst.face.join(',')} (${worst.vision})`).toBeGreaterThanOrEqual(MIN_CONTRAST);
    });
  }

  it('classes of one view differ from each other for every vision (ΔE00 ≥ 8)', () => {
    for (const id of overlayIds) {
      const cs = id === 'aabb' ? [] : overlayColours(id);
      for (let i = 0; i < cs.length; i++) {
        for (let j = i + 1; j < cs.length; j++) {
          for (const v of VISIONS) expect(deltaE2000(cs[i]!, cs[j]!, v), `${id} ${i}/${j} ${v}`).toBeGreaterThanOrEqual(8);
        }
      }
    }
  });

  it('path and break edges differ for every vision (ΔE00 ≥ 15)', () => {
    for (const v of VISIONS) expect(deltaE2000(TOOL_COLOURS.path, TOOL_COLOURS.breaks, v)).toBeGreaterThanOrEqual(15);
  });
});

describe('face palettes for colour-blind designers', () => {
  it('walkable and not walkable differ for every vision (ΔE00 ≥ 15, a difference seen at a glance)', () => {
    for (const v of VISIONS) expect(deltaE2000(WALKABLE_RGB, NON_WALKABLE_RGB, v), v).toBeGreaterThanOrEqual(15);
  });

  it('the first seven material colours differ pairwise for every vision (ΔE00 ≥ 8), all twelve for normal vision (≥ 10)', () => {
    for (let i = 0; i < MATERIAL_COLOURS.length - 1; i++) {
      for (let j = i + 1; j < MATERIAL_COLOURS.length - 1; j++) {
        const a = MATERIAL_COLOURS[i]!;
        const b = MATERIAL_COLOURS[j]!;
        expect(deltaE2000(a, b), `${i}/${j}`).toBeGreaterThanOrEqual(10);
        if (i < 7 && j < 7) for (const v of VISIONS) expect(deltaE2000(a, b, v), `${i}/${j} ${v}`).toBeGreaterThanOrEqual(8);
      }
    }
  });

  it('Source places: all 29 palette colours differ pairwise and from the no-place grey (ΔE00 ≥ 10), the first seven for every vision (≥ 8)', () => {
    const all = [...PLACE_COLOURS, NO_PLACE_RGB];
    expect(PLACE_COLOURS.length).toBe(29);
    for (let i = 0; i < all.length; i++) {
      for (let j = i + 1; j < all.length; j++) {
        expect(deltaE2000(all[i]!, all[j]!), `${i}/${j}`).toBeGreaterThanOrEqual(10);
        if (i < 7 && j < 7) for (const v of VISIONS) expect(deltaE2000(all[i]!, all[j]!, v), `${i}/${j} ${v}`).toBeGreaterThanOrEqual(8);
      }
    }
  });

  it('consecutive keys (islands, tiles, rooms, areas) differ for every vision (ΔE00 ≥ 10)', () => {
    for (let k = 0; k < 300; k++) {
      for (const v of VISIONS) expect(deltaE2000(keyColour(k), keyColour(k + 1), v), `${k} ${v}`).toBeGreaterThanOrEqual(10);
    }
  });
});
