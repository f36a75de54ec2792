/**
 * ERF V1.0 / V1.1 archives (`MOD`, `ERF`, `HAK`, `SAV`, `NWM`, `PWC`): a 160-byte header,
 * localized descriptions, a key list (resref, id, type), a resource list (offset, size) and
 * the resource data. V1.0 (NWN1, KotOR) has 16-character resrefs, V1.1 (NWN2) 32.
 */

export const ERF_FORMAT = 'erf';
export const ERF_HEADER_BYTES = 160;
export const ERF_RESERVED_BYTES = 116;
export const ERF_RESOURCE_ENTRY_BYTES = 8;

export type ErfVersion = 'V1.0' | 'V1.1';

export function erfResRefBytes(version: ErfVersion): number {
  return version === 'V1.1' ? 32 : 16;
}

/** Key entry: resref, u32 resource id, u16 type, u16 unused. */
export function erfKeyEntryBytes(version: ErfVersion): number {
  return erfResRefBytes(version) + 8;
}

export interface ErfResource {
  /** As stored (case kept); look-ups ignore case. A byte string (see byte-string.ts). */
  resRef: string;
  /** Resource type id (see resource-types.ts). */
  type: number;
  /** The bytes: a view into the archive read (no copy), or new bytes. */
  data: Uint8Array;
}

export interface ErfLocalizedString {
  /** Language id (0 English, 1 French, … 128+ Asian languages). */
  language: number;
  /** A byte string. */
  text: string;
}

export interface ErfDocument {
  /** Four characters: `MOD `, `ERF `, `HAK `, `SAV `, `NWM `, `PWC `… */
  fileType: string;
  version: ErfVersion;
  /** Build year − 1900. */
  buildYear: number;
  /** Build day of the year, 0-based. */
  buildDay: number;
  /** Talk-table reference of the description, 0xFFFFFFFF or 0 when none. */
  descriptionStrRef: number;
  localizedStrings: ErfLocalizedString[];
  /** The 116 bytes after the header fields (zero in every known file; kept as read). */
  reserved: Uint8Array;
  resources: ErfResource[];
  /** Set by the reader for files the canonical writer does not reproduce (see erf-writer). */
  preserved?: ErfPreservedLayout;
}

/** The original bytes and a snapshot of what was read, to tell an unedited document. */
export interface ErfPreservedLayout {
  bytes: Uint8Array;
  snapshot: ErfSnapshot;
}

export interface ErfSnapshot {
  fileType: string;
  version: ErfVersion;
  buildYear: number;
  buildDay: number;
  descriptionStrRef: number;
  localizedStrings: ErfLocalizedString[];
  reserved: Uint8Array;
  resources: ErfResource[];
}

export function createErfDocument(fileType: string, version: ErfVersion): ErfDocument {
  return {
    fileType: fileType.padEnd(4, ' ').slice(0, 4),
    version,
    buildYear: 0,
    buildDay: 0,
    descriptionStrRef: 0xffffffff,
    localizedStrings: [],
    reserved: new Uint8Array(ERF_RESERVED_BYTES),
    resources: [],
  };
}

/** The first resource with this resref (case-insensitive) and type, or undefined. */
export function findErfResource(doc: ErfDocument, resRef: string, type: number): ErfResource | undefined {
  const want = resRef.toLowerCase();
  return doc.resources.find((r) => r.type === type && r.resRef.toLowerCase() === want);
}

/**
 * A hash index over an archive's resources for repeated look-ups (case-insensitive resref
 * and type). Reflects the resources at the time it was built; the first of duplicate
 * entries wins, as in findErfResource.
 */
export class ErfIndex {
  private readonly map = new Map<string, ErfResource>();

  constructor(doc: ErfDocument) {
    for (const r of doc.resources) {
      const key = ErfIndex.key(r.resRef, r.type);
      if (!this.map.has(key)) this.map.set(key, r);
    }
  }

  get(resRef: string, type: number): ErfResource | undefined {
    return this.map.get(ErfIndex.key(resRef, type));
  }

  private static key(resRef: string, type: number): string {
    return `${type}:${resRef.toLowerCase()}`;
  }
}

/** Replaces the resource with this resref and type, or appends it. */
export function putErfResource(doc: ErfDocument, resource: ErfResource): void {
  const want = resource.resRef.toLowerCase();
  const i = doc.resources.findIndex((r) => r.type === resource.type && r.resRef.toLowerCase() === want);
  if (i >= 0) doc.resources[i] = resource;
  else doc.resources.push(resource);
}
