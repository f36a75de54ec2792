import { NO_OWNER } from '../../model/walkmesh';

/**
 * The face attributes OBJ has no place for travel in the material name, because the name
 * is the one thing Blender keeps through import, edit and export: it drops comments and,
 * by default, groups, but writes every face's material back as `usemtl`.
 *
 * Grammar (only `[A-Za-z0-9_.-]`, so no tool has to quote or escape it):
 *
 *     name     = [ label "__" ] "wb_w" walkable "_m" material "_o" owner [ dup ]
 *     walkable = decimal 0..255                       (faceWalkable)
 *     material = "0x" hex{1,8} | decimal 0..2^32-1    (faceMaterial; written as hex)
 *     owner    = "-" | decimal 0..2^32-1              (faceOwner; "-" is NO_OWNER)
 *     label    = [A-Za-z0-9_.-]+                      (free text for people, ignored)
 *     dup      = "." digits                           (Blender's `.001` for a duplicate)
 *
 * e.g. `wb_w1_m0x0_o-`, `Dirt__wb_w1_m0x3_o17`, `Dirt__wb_w1_m0x3_o17.001`.
 * The attributes are read from the end of the name, so a label may hold anything of the
 * allowed characters, even `__` or another `wb_` block.
 */

export interface FaceAttributes {
  walkable: number;
  material: number;
  owner: number;
}

export interface DecodedMaterialName extends FaceAttributes {
  /** The human label, or '' when the name has none. */
  label: string;
}

/**
 * Blender (before 5.0) cuts ID names at 63 bytes; the longest attribute block with a
 * `.001` suffix is 35 characters, so labels are kept to what still fits.
 */
export const MAX_LABEL_LENGTH = 26;

const NAME_PATTERN = /^(?:(.*)__)?wb_w(\d{1,3})_m(0[xX][0-9a-fA-F]{1,8}|\d{1,10})_o(-|\d{1,10})(?:\.\d+)?$/;

/** A label reduced to the allowed characters and length ('' when nothing is left). */
export function sanitizeLabel(label: string): string {
  return label
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .slice(0, MAX_LABEL_LENGTH)
    .replace(/^[_.]+|[_.]+$/g, '');
}

export function encodeMaterialName(attrs: FaceAttributes, label = ''): string {
  const { walkable, material, owner } = attrs;
  if (!Number.isInteger(walkable) || walkable < 0 || walkable > 255) throw new RangeError(`walkable ${walkable} is not a byte`);
  if (!isU32(material)) throw new RangeError(`material ${material} is not a 32-bit unsigned integer`);
  if (!isU32(owner)) throw new RangeError(`owner ${owner} is not a 32-bit unsigned integer`);
  const core = `wb_w${walkable}_m0x${material.toString(16)}_o${owner === NO_OWNER ? '-' : owner}`;
  const clean = label === '' ? '' : sanitizeLabel(label);
  return clean === '' ? core : `${clean}__${core}`;
}

/** The attributes a material name carries, or undefined for a name Walkbench did not write. */
export function decodeMaterialName(name: string): DecodedMaterialName | undefined {
  const m = NAME_PATTERN.exec(name);
  if (!m) return undefined;
  const walkable = Number(m[2]);
  const material = Number(m[3]);
  const owner = m[4] === '-' ? NO_OWNER : Number(m[4]);
  if (walkable > 255 || !isU32(material) || !isU32(owner)) return undefined;
  return { label: m[1] ?? '', walkable, material, owner };
}

function isU32(v: number): boolean {
  return Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
}
