import type { FormatEnvironment } from '../format-environment';
import type { PluginRecord } from './plugin-document';

/**
 * The stored bytes (u32 size + zlib stream) each compressed record was read from, for the
 * one case the level-9 re-encoding cannot reproduce: a record another tool compressed
 * differently and nobody edited. Keyed weakly by record object and checked against the
 * body, so records built anew or edited in place always get the re-encoded stream.
 */
const storedRecords = new WeakMap<PluginRecord, Uint8Array>();

export function rememberStoredRecord(record: PluginRecord, stored: Uint8Array): void {
  storedRecords.set(record, stored);
}

/**
 * The stored bytes of a compressed record when they differ from `reencoded` (size + level-9
 * stream) while still inflating to `body`; undefined when the re-encoding is what to write.
 */
export function unchangedStoredRecord(record: PluginRecord, reencoded: Uint8Array, body: Uint8Array, env: FormatEnvironment): Uint8Array | undefined {
  const stored = storedRecords.get(record);
  if (!stored || stored.length < 4) return undefined;
  if (sameBytes(stored, reencoded)) return undefined;
  if (new DataView(stored.buffer, stored.byteOffset, 4).getUint32(0, true) !== body.length) return undefined;
  let inflated: Uint8Array;
  try {
    inflated = env.zlib.inflate(stored.subarray(4), body.length);
  } catch {
    return undefined;
  }
  return sameBytes(inflated, body) ? stored : undefined;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
