import { byteStringToBytes, bytesEqual } from './byte-string';
import { RIM_HEADER_BYTES, RIM_KEY_ENTRY_BYTES, RIM_RESREF_BYTES, type RimDocument, type RimResource } from './rim-document';

/**
 * Writes a RIM V1.0. The canonical layout is PyKotor's (`test.rim`): header, keys at 120,
 * data in key order with no padding, ids = positions, reserved bytes 0. A document read
 * from a file in another layout (BioWare's, with padded data) is written back as read while
 * unedited, in the canonical layout once edited.
 */
export function writeRim(doc: RimDocument): Uint8Array {
  const kept = doc.preserved;
  if (kept !== undefined && isUnedited(doc.resources, kept.snapshot)) return kept.bytes.slice();
  return encodeRimCanonical(doc);
}

export function encodeRimCanonical(doc: RimDocument): Uint8Array {
  const resRefs = doc.resources.map((r, i) => {
    const b = byteStringToBytes(r.resRef, `RIM resource ${i} resref`);
    if (b.length > RIM_RESREF_BYTES) throw new RangeError(`RIM resref ${JSON.stringify(r.resRef)} is longer than ${RIM_RESREF_BYTES} characters`);
    if (!Number.isInteger(r.type) || r.type < 0 || r.type > 0xffffffff) throw new RangeError(`RIM resource ${JSON.stringify(r.resRef)}: type ${r.type} is not a u32`);
    return b;
  });
  const n = doc.resources.length;
  let dataOffset = RIM_HEADER_BYTES + n * RIM_KEY_ENTRY_BYTES;
  let total = dataOffset;
  for (const r of doc.resources) total += r.data.length;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out.set(byteStringToBytes('RIM V1.0', 'RIM signature'), 0);
  view.setUint32(12, n, true);
  view.setUint32(16, RIM_HEADER_BYTES, true);
  doc.resources.forEach((r, i) => {
    const k = RIM_HEADER_BYTES + i * RIM_KEY_ENTRY_BYTES;
    out.set(resRefs[i]!, k);
    view.setUint32(k + 16, r.type, true);
    view.setUint32(k + 20, i, true);
    view.setUint32(k + 24, dataOffset, true);
    view.setUint32(k + 28, r.data.length, true);
    out.set(r.data, dataOffset);
    dataOffset += r.data.length;
  });
  return out;
}

function isUnedited(now: readonly RimResource[], was: readonly RimResource[]): boolean {
  if (now.length !== was.length) return false;
  for (let i = 0; i < was.length; i++) {
    const a = now[i]!;
    const b = was[i]!;
    if (a.resRef !== b.resRef || a.type !== b.type) return false;
    if (a.data !== b.data && !bytesEqual(a.data, b.data)) return false;
  }
  return true;
}
