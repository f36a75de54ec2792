import { byteStringToBytes, bytesEqual } from './byte-string';
import {
  ERF_HEADER_BYTES,
  ERF_RESERVED_BYTES,
  ERF_RESOURCE_ENTRY_BYTES,
  erfKeyEntryBytes,
  erfResRefBytes,
  type ErfDocument,
  type ErfSnapshot,
} from './erf-document';

/**
 * Writes an ERF archive. The canonical layout is the one of BioWare's tools, nwn-lib-d and
 * PyKotor (all four fixture archives): header, localized strings at 160, key list, resource
 * list, then the resource data in key order with no gaps; key resource ids = positions,
 * unused fields 0, resrefs NUL-padded. A document read from a file in another layout is
 * written back as read while it is unedited (`preserved`), in the canonical layout once
 * edited.
 */
export function writeErf(doc: ErfDocument): Uint8Array {
  const kept = doc.preserved;
  if (kept !== undefined && isUnedited(doc, kept.snapshot)) return kept.bytes.slice();
  return encodeErfCanonical(doc);
}

export function encodeErfCanonical(doc: ErfDocument): Uint8Array {
  const fileType = byteStringToBytes(doc.fileType, 'ERF fileType');
  if (fileType.length !== 4) throw new RangeError(`ERF fileType must be 4 characters, got ${JSON.stringify(doc.fileType)}`);
  if (doc.version !== 'V1.0' && doc.version !== 'V1.1') throw new RangeError(`ERF version must be V1.0 or V1.1, got ${JSON.stringify(doc.version)}`);
  if (doc.reserved.length !== ERF_RESERVED_BYTES) throw new RangeError(`ERF reserved bytes must be ${ERF_RESERVED_BYTES} long, got ${doc.reserved.length}`);
  const resRefBytes = erfResRefBytes(doc.version);
  const keyBytes = erfKeyEntryBytes(doc.version);
  const texts = doc.localizedStrings.map((s, i) => byteStringToBytes(s.text, `ERF localized string ${i}`));
  const resRefs = doc.resources.map((r, i) => {
    const b = byteStringToBytes(r.resRef, `ERF resource ${i} resref`);
    if (b.length > resRefBytes) throw new RangeError(`ERF ${doc.version} resref ${JSON.stringify(r.resRef)} is longer than ${resRefBytes} characters`);
    if (!Number.isInteger(r.type) || r.type < 0 || r.type > 0xffff) throw new RangeError(`ERF resource ${JSON.stringify(r.resRef)}: type ${r.type} is not a u16`);
    return b;
  });

  let localizedBytes = 0;
  for (const t of texts) localizedBytes += 8 + t.length;
  const n = doc.resources.length;
  const keyOffset = ERF_HEADER_BYTES + localizedBytes;
  const resourceOffset = keyOffset + n * keyBytes;
  let dataOffset = resourceOffset + n * ERF_RESOURCE_ENTRY_BYTES;
  let total = dataOffset;
  for (const r of doc.resources) total += r.data.length;

  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  const u32 = (at: number, v: number) => view.setUint32(at, v >>> 0, true);
  out.set(fileType, 0);
  out.set(byteStringToBytes(doc.version, 'ERF version'), 4);
  u32(8, doc.localizedStrings.length);
  u32(12, localizedBytes);
  u32(16, n);
  u32(20, ERF_HEADER_BYTES);
  u32(24, keyOffset);
  u32(28, resourceOffset);
  u32(32, doc.buildYear);
  u32(36, doc.buildDay);
  u32(40, doc.descriptionStrRef);
  out.set(doc.reserved, 44);

  let p = ERF_HEADER_BYTES;
  doc.localizedStrings.forEach((s, i) => {
    u32(p, s.language);
    u32(p + 4, texts[i]!.length);
    out.set(texts[i]!, p + 8);
    p += 8 + texts[i]!.length;
  });
  doc.resources.forEach((r, i) => {
    const k = keyOffset + i * keyBytes;
    out.set(resRefs[i]!, k);
    u32(k + resRefBytes, i);
    view.setUint16(k + resRefBytes + 4, r.type, true);
    const e = resourceOffset + i * ERF_RESOURCE_ENTRY_BYTES;
    u32(e, dataOffset);
    u32(e + 4, r.data.length);
    out.set(r.data, dataOffset);
    dataOffset += r.data.length;
  });
  return out;
}

function isUnedited(doc: ErfDocument, was: ErfSnapshot): boolean {
  if (
    doc.fileType !== was.fileType ||
    doc.version !== was.version ||
    doc.buildYear !== was.buildYear ||
    doc.buildDay !== was.buildDay ||
    doc.descriptionStrRef !== was.descriptionStrRef ||
    !bytesEqual(doc.reserved, was.reserved) ||
    doc.localizedStrings.length !== was.localizedStrings.length ||
    doc.resources.length !== was.resources.length
  ) {
    return false;
  }
  for (let i = 0; i < was.localizedStrings.length; i++) {
    const a = doc.localizedStrings[i]!;
    const b = was.localizedStrings[i]!;
    if (a.language !== b.language || a.text !== b.text) return false;
  }
  for (let i = 0; i < was.resources.length; i++) {
    const a = doc.resources[i]!;
    const b = was.resources[i]!;
    if (a.resRef !== b.resRef || a.type !== b.type) return false;
    // Data read from the file are views; an untouched entry still holds the same view.
    if (a.data !== b.data && !bytesEqual(a.data, b.data)) return false;
  }
  return true;
}
