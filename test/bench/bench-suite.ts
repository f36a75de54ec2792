/**
 * A benchmark suite: a codec (read, optionally write) and its inputs in groups; each group
 * becomes a row of the `npm run bench` table. Later formats (walkmesh model, OBJ, other
 * games) add a suite to `benchSuites` in bench-suites.ts.
 */
export interface BenchInput {
  name: string;
  bytes: Uint8Array;
}

export interface BenchGroup {
  /** Row label, e.g. `css`. */
  label: string;
  inputs: BenchInput[];
}

export interface BenchSuite<Doc> {
  /** Suite label, e.g. `source .nav`. */
  name: string;
  /** Loads the inputs (done once, outside any timing). */
  groups(): BenchGroup[];
  read(bytes: Uint8Array): Doc;
  /** The serializer, when the format has one; its throughput is measured on read's output. */
  write?(doc: Doc): Uint8Array;
}
