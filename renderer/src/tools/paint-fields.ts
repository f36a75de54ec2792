import { choiceBits, rawValue, valueName, type GameValueNames } from '../../../shared/views/game-attribute-names';

/**
 * The paint pickers write the same three fields a expert can type (material, flags to set,
 * flags to clear), so a named pick and a typed mask are one command and always agree: the
 * pickers read their state back from the fields.
 */
export interface PaintFields {
  material: string;
  setBits: string;
  clearBits: string;
}

export type BitState = 'keep' | 'set' | 'clear';

function num(text: string): number {
  const t = text.trim();
  if (t === '') return 0;
  const v = /^0x[0-9a-f]+$/i.test(t) ? parseInt(t, 16) : Number(t);
  return Number.isInteger(v) && v >= 0 ? v >>> 0 : 0;
}

const hexOrEmpty = (v: number) => (v === 0 ? '' : `0x${(v >>> 0).toString(16)}`);

export function bitState(fields: PaintFields, bit: number): BitState {
  if ((num(fields.setBits) & bit) !== 0) return 'set';
  if ((num(fields.clearBits) & bit) !== 0) return 'clear';
  return 'keep';
}

/** keep → set → clear → keep, for one flag chip. */
export function cycleBit(fields: PaintFields, bit: number): PaintFields {
  const next: BitState = { keep: 'set', set: 'clear', clear: 'keep' }[bitState(fields, bit)] as BitState;
  return withBit(fields, bit, next);
}

export function withBit(fields: PaintFields, bit: number, state: BitState): PaintFields {
  let set = num(fields.setBits) & ~bit;
  let clear = num(fields.clearBits) & ~bit;
  if (state === 'set') set |= bit;
  if (state === 'clear') clear |= bit;
  return { ...fields, setBits: hexOrEmpty(set >>> 0), clearBits: hexOrEmpty(clear >>> 0) };
}

/**
 * The material the fields paint: for a table of values (KotOR) the material field, for a
 * table of bits with exclusive choices (NWN2 surfaces) the one choice set with the others
 * cleared; null = keep.
 */
export function chosenValue(names: GameValueNames, fields: PaintFields): number | null {
  if (names.kind === 'enum') {
    const t = fields.material.trim();
    if (t === '') return null;
    const v = num(t);
    return String(v) === t || /^0x/i.test(t) ? v : null;
  }
  for (const c of names.choices) {
    const { setBits, clearBits } = choiceBits(names, c.value);
    if ((num(fields.setBits) & (setBits | clearBits)) === setBits && (num(fields.clearBits) & clearBits) === clearBits) return c.value;
  }
  return null;
}

export function pickValue(names: GameValueNames, fields: PaintFields, value: number | null): PaintFields {
  if (names.kind === 'enum') return { ...fields, material: value === null ? '' : String(value) };
  const all = names.choices.reduce((m, c) => m | c.value, 0);
  let set = num(fields.setBits) & ~all;
  let clear = num(fields.clearBits) & ~all;
  if (value !== null) {
    const bits = choiceBits(names, value);
    set |= bits.setBits;
    clear |= bits.clearBits;
  }
  return { ...fields, setBits: hexOrEmpty(set >>> 0), clearBits: hexOrEmpty(clear >>> 0) };
}

/** "Stone (4)" / "keep": what the material picker shows closed. */
export function chosenLabel(names: GameValueNames, fields: PaintFields): string {
  const v = chosenValue(names, fields);
  if (v === null) return 'keep';
  return names.kind === 'enum' ? `${valueName(names, v)} (${rawValue(names, v)})` : (names.choices.find((c) => c.value === v)?.name ?? valueName(names, v));
}

/** "+crouch −jump" for the closed flags picker; "keep" when nothing changes. */
export function bitsSummary(names: GameValueNames, fields: PaintFields): string {
  const parts: string[] = [];
  for (const b of names.bits) {
    if (b.internal || names.choices.some((c) => c.value === b.value)) continue;
    const s = bitState(fields, b.value);
    if (s !== 'keep') parts.push(`${s === 'set' ? '+' : '−'}${b.name}`);
  }
  return parts.length ? parts.join(' ') : 'keep';
}
