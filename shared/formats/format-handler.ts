import type { GameId, Walkmesh } from '../model/walkmesh';
import type { Finding } from '../validation/finding';
import type { FormatEnvironment } from './format-environment';

/** What `walkbench info` and the app's inspector show about a file. */
export interface FileSummary {
  /** Human-readable version, e.g. `16 (sub-version 2)`. */
  version: string;
  /** Named counts, e.g. `{ areas: 976, ladders: 0 }`. */
  counts: Record<string, number>;
  /** Further facts worth a line each (game guess, flags…). */
  details: Record<string, string | number | boolean>;
}

/**
 * Everything Walkbench can do with one file format. Each game's folder implements this
 * once; the CLI, the services and the app dispatch through the registry.
 */
export interface FormatHandler<Doc> {
  /** Stable identifier, e.g. `source-nav`. */
  id: string;
  game: GameId;
  label: string;
  /** Lower-case file extensions with the dot. */
  extensions: readonly string[];
  /** True when the bytes look like this format (magic numbers). */
  sniff(bytes: Uint8Array): boolean;
  read(bytes: Uint8Array, env: FormatEnvironment): Doc;
  write(doc: Doc, env: FormatEnvironment): Uint8Array;
  summarize(doc: Doc): FileSummary;
  validate(doc: Doc): Finding[];
  /** The common-model view of the document (one walkmesh per navmesh, area…). */
  toWalkmeshes(doc: Doc, name: string): Walkmesh[];
  /**
   * The document with the walkmeshes' geometry and face attributes applied. `base` is the
   * document the walkmeshes came from (kept data such as connections survives), or
   * undefined to build a new document from the geometry alone.
   */
  fromWalkmeshes?(meshes: readonly Walkmesh[], base: Doc | undefined): Doc;
  /**
   * Extra facts for `walkbench roundtrip` beyond "identical" (e.g. whether a compressed
   * packet's payload and its re-compressed bytes match), merged into its JSON object.
   */
  roundtripDetails?(original: Uint8Array, doc: Doc, env: FormatEnvironment): Record<string, unknown>;
}
