import { createHash } from 'node:crypto';

/** Lower-case hex SHA-256 of a file's bytes: what the project compares to spot a change. */
export function contentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface BakeInput {
  /** The input's name as the baker sees it (case is ignored). */
  name: string;
  sha256: string;
}

export interface BakeSpec {
  bakerId: string;
  bakerVersion: string;
  inputs: readonly BakeInput[];
}

/**
 * The hash of exactly what a bake was made from: every input's name and content hash
 * (in name order, so the order the caller lists them in does not matter) with the
 * baker's id and version. Same hash, same output: the bake can be reused.
 */
export function bakeInputHash(spec: BakeSpec): string {
  const inputs = spec.inputs
    .map((i) => [i.name.toLowerCase(), i.sha256] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const canonical = JSON.stringify({ baker: spec.bakerId, version: spec.bakerVersion, inputs });
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}
