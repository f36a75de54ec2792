import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_OWNER } from '../../../shared/model/walkmesh';
import { decodeMaterialName, encodeMaterialName, MAX_LABEL_LENGTH, sanitizeLabel } from '../../../shared/formats/obj/obj-material-name';

const u32 = fc.integer({ min: 0, max: 0xffffffff });
const owner = fc.oneof(u32, fc.constant(NO_OWNER));
const attributes = fc.record({ walkable: fc.integer({ min: 0, max: 1 }), material: u32, owner });
/** Blender's suffix for a second material of the same name, and its longer forms. */
const duplicateSuffix = fc.oneof(fc.constant(''), fc.integer({ min: 1, max: 99999 }).map((n) => `.${String(n).padStart(3, '0')}`));

describe('material name encoding', () => {
  it('writes the documented grammar', () => {
    expect(encodeMaterialName({ walkable: 1, material: 3, owner: 17 })).toBe('wb_w1_m0x3_o17');
    expect(encodeMaterialName({ walkable: 0, material: 0xdeadbeef, owner: NO_OWNER }, 'Dirt')).toBe('Dirt__wb_w0_m0xdeadbeef_o-');
    expect(encodeMaterialName({ walkable: 1, material: 0, owner: 0 }, 'deep water!')).toBe('deep_water__wb_w1_m0x0_o0');
  });

  it('decode(encode(x)) gives x back for any walkable, material, owner and label', () => {
    fc.assert(
      fc.property(attributes, fc.string({ unit: 'binary', maxLength: 80 }), duplicateSuffix, (attrs, label, suffix) => {
        const name = encodeMaterialName(attrs, label);
        expect(name).toMatch(/^[A-Za-z0-9_.-]+$/);
        // Fits Blender's 63-byte ID names even after a duplicate suffix.
        expect(name.length + 4).toBeLessThanOrEqual(63);
        const decoded = decodeMaterialName(name + suffix);
        expect(decoded).toEqual({ ...attrs, label: sanitizeLabel(label) });
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps labels made of the allowed characters exactly, even ones that look like attributes', () => {
    const label = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,24}[A-Za-z0-9]$/);
    fc.assert(
      fc.property(attributes, label, (attrs, l) => {
        expect(decodeMaterialName(encodeMaterialName(attrs, l))?.label).toBe(l);
      }),
    );
    const tricky = 'wb_w0_m0x9_o5__x';
    expect(decodeMaterialName(encodeMaterialName({ walkable: 1, material: 2, owner: 3 }, tricky))).toEqual({ walkable: 1, material: 2, owner: 3, label: tricky });
  });

  it('sanitizes labels to the allowed characters and length, idempotently', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (label) => {
        const clean = sanitizeLabel(label);
        expect(clean).toMatch(/^(?:[A-Za-z0-9-](?:[A-Za-z0-9_.-]*[A-Za-z0-9-])?)?$/);
        expect(clean.length).toBeLessThanOrEqual(MAX_LABEL_LENGTH);
        expect(sanitizeLabel(clean)).toBe(clean);
      }),
    );
  });

  it('reads decimal and upper-case hex material values too (hand-edited names)', () => {
    expect(decodeMaterialName('wb_w1_m12_o4')).toEqual({ walkable: 1, material: 12, owner: 4, label: '' });
    expect(decodeMaterialName('Rock__wb_w0_m0XFF_o4294967295.002')).toEqual({ walkable: 0, material: 255, owner: NO_OWNER, label: 'Rock' });
  });

  it.each([
    'Material',
    'Material.001',
    '',
    'wb_w1_m0x3',
    'wb_w1_m0x3_o',
    'wb_w256_m0x0_o1',
    'wb_w1_m0x100000000_o1',
    'wb_w1_m4294967296_o-',
    'wb_w1_m0x3_o4294967296',
    'wb_w1_m0x3_o17.abc',
    'wb_w1_m0x3_o17 extra',
    'Dirt_wb_w1_m0x3_o17',
  ])('does not take %j for a Walkbench name', (name) => {
    expect(decodeMaterialName(name)).toBeUndefined();
  });

  it('refuses attribute values it cannot encode', () => {
    expect(() => encodeMaterialName({ walkable: 256, material: 0, owner: 0 })).toThrow(RangeError);
    expect(() => encodeMaterialName({ walkable: 1, material: -1, owner: 0 })).toThrow(RangeError);
    expect(() => encodeMaterialName({ walkable: 1, material: 0, owner: 2 ** 32 })).toThrow(RangeError);
    expect(() => encodeMaterialName({ walkable: 1, material: 0.5, owner: 0 })).toThrow(RangeError);
  });
});
