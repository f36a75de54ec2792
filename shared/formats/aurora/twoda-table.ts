/**
 * What every 2DA gives its users, whatever its encoding: the text V2.0 files of NWN1/NWN2
 * (twoda-text.ts) and, later, KotOR's binary V2.b. Rows are addressed by position (what the
 * games use: a placeable's `Appearance` is a row number), not by the row label, which real
 * files get wrong now and then.
 */
export interface TwoDaTable {
  /** Column names as stored (without the row-label column). */
  readonly columns: readonly string[];
  readonly rowCount: number;
  /** The column's position (case-insensitive), or -1. */
  columnIndex(name: string): number;
  /** The row's label as stored (usually its index), or undefined past the end. */
  rowLabel(row: number): string | undefined;
  /**
   * The cell's value; undefined for `****`, for a cell missing from a short row, for an
   * unknown column and for a row past the end.
   */
  cell(row: number, column: string | number): string | undefined;
}

/** The empty-cell marker of 2DA files. */
export const TWODA_EMPTY = '****';

/** A cell as an integer (decimal, or 0x-prefixed hex as some files use), or undefined. */
export function cellInteger(table: TwoDaTable, row: number, column: string | number): number | undefined {
  const v = table.cell(row, column);
  if (v === undefined) return undefined;
  const t = v.trim();
  const n = /^[-+]?0x[0-9a-f]+$/i.test(t) ? Number.parseInt(t, 16) : /^[-+]?\d+$/.test(t) ? Number.parseInt(t, 10) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** A cell as a float, or undefined when empty or not a number. */
export function cellFloat(table: TwoDaTable, row: number, column: string | number): number | undefined {
  const v = table.cell(row, column);
  if (v === undefined) return undefined;
  const n = Number.parseFloat(v);
  return Number.isFinite(n) ? n : undefined;
}
