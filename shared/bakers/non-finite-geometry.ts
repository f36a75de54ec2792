import { ModelMappingError } from '../model/model-mapping-error';

/**
 * The bakers' refusal of geometry that is not made of finite numbers (issue 14): a NaN or
 * infinite vertex, normal or plane distance would pass silently through every comparison
 * of a bake and come out as a file the game cannot use. Each baker checks its inputs first
 * and throws a ModelMappingError naming the input, the item and its values, which the CLI
 * and the app report in one line (with the file name) like a malformed input.
 */

/** The f32 values of u32 bit patterns (a view, no copy). */
export function floatsOfBits(bits: Uint32Array): Float32Array {
  return new Float32Array(bits.buffer, bits.byteOffset, bits.length);
}

function shown(values: ArrayLike<number>, at: number, n: number): string {
  const parts: string[] = [];
  for (let k = 0; k < n; k++) parts.push(String(values[at + k]));
  return n === 1 ? parts[0]! : `(${parts.join(', ')})`;
}

/**
 * Throws unless every value is finite. `values` holds `stride` numbers per item; the
 * message names `what` (the input: "the TRN walkmesh", "navmesh 0x000FCC53"), the first
 * bad item as `${item} ${index}` with its values, and how many more there are.
 */
export function requireFinite(values: ArrayLike<number>, stride: number, what: string, item: string, field = stride === 3 ? 'is at' : 'is'): void {
  let first = -1;
  let bad = 0;
  for (let i = 0; i < values.length; i += stride) {
    for (let k = 0; k < stride; k++) {
      if (!Number.isFinite(values[i + k]!)) {
        if (first < 0) first = i / stride;
        bad++;
        break;
      }
    }
  }
  if (first < 0) return;
  const more = bad > 1 ? ` (and ${bad - 1} more ${item === 'vertex' ? 'vertices' : `${item}s`} like it)` : '';
  throw new ModelMappingError(
    `${what}: ${item} ${first} ${field} ${shown(values, first * stride, stride)}${more}; a bake needs finite numbers (NaN and infinities are refused): fix or remove it`,
  );
}

/** requireFinite over vertex positions (x, y, z per vertex). */
export function requireFiniteVertices(positions: ArrayLike<number>, what: string): void {
  requireFinite(positions, 3, what, 'vertex');
}
