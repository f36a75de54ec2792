import type { FormatEnvironment } from '../format-environment';
import type { PluginRecord } from './plugin-document';

/**
 * The stored bytes (u32 size + zlib stream) each compressed record was read from.
 * Re-deflating at level 9 is most of the cost of writing a plugin, and it only reproduces
 * streams the CK wrote; a record whose body still inflates from its stored stream is
 * written with that stream instead. Keyed weakly by record object and checked against the
 * body (inflating is cheap next to deflating), so records built anew or edited in place
 * are compressed afresh.
 */
const storedRecords = new WeakMap<PluginRecord, Uint8Array>();

export function rememberStoredRecord(record: PluginRecord, stored: Uint8Array): void {
  storedRecords.set(record, stored);
}

/** The stored bytes of a compressed record whose body has not changed since it was read. */
export function unchangedStoredRecord(record: PluginRecord, body: Uint8Array, env: FormatEnvironment): Uint8Array | undefined {
  const stored = storedRecords.get(record);
  if (!stored || stored.length < 4) return undefined;
  if (new DataView(stored.buffer, stored.byteOffset, 4).getUint32(0, true) !== body.length) return undefined;
  const inflated = env.zlib.inflate(stored.subarray(4), body.length);
  if (inflated.length !== body.length) return undefined;
  for (let i = 0; i < body.length; i++) if (inflated[i] !== body[i]) return undefined;
  return stored;
}
