/**
 * KotOR RIM V1.0 archives (module `<m>.rim` / `<m>_s.rim`, global `rims/*.rim`): a 120-byte
 * header (`RIM V1.0`, u32 reserved 0, u32 entryCount, u32 keyListOffset, 100 reserved
 * bytes), 32-byte key entries (ResRef[16], u32 type, u32 id, u32 offset, u32 size), then the
 * data. Sources: kotor-bwm.md §8.2 (xoreos `rimfile.cpp`), PyKotor `io_rim.py`, and the
 * fixtures `capsule.rim` (BioWare layout: padded data) and `test.rim` (PyKotor layout).
 */

export const RIM_FORMAT = 'rim';
export const RIM_HEADER_BYTES = 120;
export const RIM_KEY_ENTRY_BYTES = 32;
export const RIM_RESREF_BYTES = 16;

export interface RimResource {
  /** As stored (case kept); look-ups ignore case. A byte string (see byte-string.ts). */
  resRef: string;
  /** Resource type id (u32 in the file; see resource-types.ts). */
  type: number;
  /** A view into the archive read (no copy), or new bytes. */
  data: Uint8Array;
}

export interface RimDocument {
  resources: RimResource[];
  /** Set by the reader for files the canonical writer does not reproduce (see rim-writer). */
  preserved?: { bytes: Uint8Array; snapshot: RimResource[] };
}

export function createRimDocument(): RimDocument {
  return { resources: [] };
}

/** The first resource with this resref (case-insensitive) and type, or undefined. */
export function findRimResource(doc: RimDocument, resRef: string, type: number): RimResource | undefined {
  const want = resRef.toLowerCase();
  return doc.resources.find((r) => r.type === type && r.resRef.toLowerCase() === want);
}

/** Replaces the resource with this resref and type, or appends it. */
export function putRimResource(doc: RimDocument, resource: RimResource): void {
  const want = resource.resRef.toLowerCase();
  const i = doc.resources.findIndex((r) => r.type === resource.type && r.resRef.toLowerCase() === want);
  if (i >= 0) doc.resources[i] = resource;
  else doc.resources.push(resource);
}
