/**
 * BIF V1 (`data/*.bif`): the archives `chitin.key` indexes. Layout (xoreos
 * `src/aurora/biffile.cpp`, kotor-bwm.md §8.2, the BioWare Aurora "Key and BIF File
 * Formats" document):
 *
 *     0   "BIFF" "V1  "
 *     8   u32 variableCount, u32 fixedCount (0 in the games), u32 variableTableOffset
 *     variable table: variableCount × 16 B: u32 id, u32 offset, u32 size, u32 type
 *
 * Resources are addressed by their position in the variable table (the low 20 bits of a
 * KEY id). Fixed resources (20 B entries) were never used by the games and are not read.
 */

export const BIF_FORMAT = 'bif';
export const BIF_HEADER_BYTES = 20;
export const BIF_VARIABLE_ENTRY_BYTES = 16;

export interface BifResource {
  /** The id as stored (the KEY id in BioWare files; readers address by position). */
  id: number;
  type: number;
  /** A view into the BIF bytes (no copy). */
  data: Uint8Array;
}

export interface BifDocument {
  resources: BifResource[];
  /** Set by the reader: where the file held each part (see bif-writer). */
  layout?: BifLayout;
}

/**
 * The file as read and where its table and data lay. The writer lays a document whose
 * data are unchanged out as read, copying from `bytes` what the document does not hold:
 * the fixed count and any fixed table, gaps and padding, data no entry names, and the
 * order and sharing of the data.
 */
export interface BifLayout {
  /** The file read (not copied). */
  bytes: Uint8Array;
  variableTableOffset: number;
  /** Per resource: where its data lay. */
  offsets: Uint32Array;
}
