import type { FormatEnvironment } from './format-environment';

/** One resource held in an archive, named as the game would name its file (`area01.git`). */
export interface ContainedResource {
  name: string;
  data: Uint8Array;
}

/**
 * A format Walkbench reads and writes as a document: every walkmesh FormatHandler is one,
 * and so are the resource formats around the walkmeshes (GFF, 2DA, ERF, RIM, KEY, BIF) that have no
 * walkmesh of their own. `walkbench roundtrip` and the fixture corpus test use this shape.
 */
export interface DocumentCodec<Doc> {
  id: string;
  label: string;
  /** Lower-case file extensions with the dot. */
  extensions: readonly string[];
  /** True when the bytes look like this format (signature). */
  sniff(bytes: Uint8Array): boolean;
  read(bytes: Uint8Array, env: FormatEnvironment): Doc;
  write(doc: Doc, env: FormatEnvironment): Uint8Array;
  /** Extra facts for `walkbench roundtrip`, merged into its JSON object. */
  roundtripDetails?(original: Uint8Array, doc: Doc, env: FormatEnvironment): Record<string, unknown>;
  /** For archives: the resources they hold, each round-tripped in turn. */
  resources?(doc: Doc): ContainedResource[];
}
