import type { ReadMemoryBound } from '../../binary/read-budget';
import { BinaryReader } from '../../binary/binary-reader';
import { MalformedInputError } from '../../binary/malformed-input-error';
import {
  NAV_LADDER_AREAS,
  NAV_LADDER_WORDS,
  NAV_MAGIC,
  NAV_MAX_VERSION,
  NAV_MIN_VERSION,
  type NavAreas,
  type NavCustomLayout,
  type NavDocument,
  type NavLadders,
  type NavPlaces,
} from './nav-document';
import {
  APPROACH_BYTES,
  customLayoutCandidates,
  ENCOUNTER_PATH_BYTES,
  ENCOUNTER_SPOT_BYTES,
  HIDING_SPOT_BYTES,
  hidingSpotBytes,
  ladderBytes,
  LEGACY_ENCOUNTER_PATH_BYTES,
  LEGACY_ENCOUNTER_SPOT_BYTES,
  LEGACY_PATH_WORDS,
  LEGACY_SPOT_WORDS,
  minAreaBytes,
  navGates,
  VISIBLE_AREA_BYTES,
} from './nav-layout';

export const NAV_FORMAT = 'source-nav';

/** readNav's memory bound (see ReadMemoryBound). */
export const NAV_READ_MEMORY: ReadMemoryBound = { perInputByte: 4, perDecompressedByte: 0 };

export interface ReadNavOptions {
  /**
   * Called once per count field (list lengths, place-name lengths, area and ladder counts)
   * of the structure that was read, with its offset, its width in bytes (1, 2 or 4) and
   * what it counts (e.g. `connections.count`, the same for every area). Only called when
   * readNav returns. The fuzzer uses it to aim mutations at count fields.
   */
  onCount?: (offset: number, byteWidth: number, field: string) => void;
}

interface NavHeader {
  version: number;
  subVersion: number;
  bspSize: number;
  isAnalyzed: number;
  places: NavPlaces;
  hasUnnamedAreas: number;
  areaCountOffset: number;
}

/** Count fields as they are met, collected only for `onCount`. */
type CountLog = CountEntry[] | undefined;

interface CountEntry {
  offset: number;
  width: number;
  field: string;
}

/**
 * Reads a `.nav` file of version 1 to 16. Throws MalformedInputError (with the offset and
 * field) on anything the format does not allow; never reads past the end of `bytes` and
 * never allocates from a count before checking the count against the bytes left.
 *
 * The areas are read in two passes: a checking pass walks every count and fixed field with
 * bounds checks and sums the list lengths, then a filling pass copies the values into
 * typed arrays allocated at their exact final size, without further checks. Nothing is
 * allocated for the areas until the whole area table is known to fit in the file.
 *
 * Memory bound (NAV_READ_MEMORY): the typed columns take 1.0–1.4 bytes per byte they come
 * from, and nothing is decompressed: at most 4 bytes per input byte.
 */
export function readNav(bytes: Uint8Array, options?: ReadNavOptions): NavDocument {
  const onCount = options?.onCount;
  const headerCounts: CountLog = onCount ? [] : undefined;
  const r = new BinaryReader(bytes, NAV_FORMAT);
  const header = readHeader(r, headerCounts);
  const candidates = customLayoutCandidates(header.version, header.subVersion);
  if (candidates.length === 0) {
    throw new MalformedInputError({
      format: NAV_FORMAT,
      offset: 8,
      field: 'subVersion',
      expected: 'sub-version 0 (Source SDK), 1 (Counter-Strike) or 2 (Team Fortress 2); other games\' per-area data has no documented size',
      found: String(header.subVersion),
    });
  }
  let firstError: unknown;
  let fallback: NavDocument | undefined;
  let fallbackCounts: CountLog;
  for (const layout of candidates) {
    const bodyCounts: CountLog = onCount ? [] : undefined;
    try {
      const body = new BinaryReader(bytes, NAV_FORMAT, header.areaCountOffset);
      const doc = readBody(body, header, layout, bodyCounts);
      if (doc.trailing.length === 0 || candidates.length === 1) {
        reportCounts(onCount, headerCounts, bodyCounts);
        return doc;
      }
      if (!fallback) {
        fallback = doc;
        fallbackCounts = bodyCounts;
      }
    } catch (e) {
      firstError ??= e;
    }
  }
  if (fallback) {
    reportCounts(onCount, headerCounts, fallbackCounts);
    return fallback;
  }
  throw firstError;
}

function reportCounts(onCount: ReadNavOptions['onCount'], ...logs: CountLog[]): void {
  if (!onCount) return;
  for (const log of logs) {
    if (!log) continue;
    for (const c of log) onCount(c.offset, c.width, c.field);
  }
}

function readHeader(r: BinaryReader, counts: CountLog): NavHeader {
  const magic = r.u32('magic');
  if (magic !== NAV_MAGIC) {
    throw r.error('magic', '0xFEEDFACE', `0x${magic.toString(16).toUpperCase().padStart(8, '0')}`, 0);
  }
  const version = r.u32('version');
  if (version < NAV_MIN_VERSION || version > NAV_MAX_VERSION) {
    throw r.error('version', `a version from ${NAV_MIN_VERSION} to ${NAV_MAX_VERSION}`, String(version), 4);
  }
  const subVersion = navGates.subVersion(version) ? r.u32('subVersion') : 0;
  const bspSize = navGates.bspSize(version) ? r.u32('bspSize') : 0;
  const isAnalyzed = navGates.isAnalyzed(version) ? r.u8('isAnalyzed') : 0;
  let places: NavPlaces = { count: 0, data: new Uint8Array(0), start: new Uint32Array(1) };
  if (navGates.places(version)) places = readPlaces(r, counts);
  const hasUnnamedAreas = navGates.hasUnnamedAreas(version) ? r.u8('hasUnnamedAreas') : 0;
  return { version, subVersion, bspSize, isAnalyzed, places, hasUnnamedAreas, areaCountOffset: r.offset };
}

/** The place directory: checked in full before the one copy of its names is made. */
function readPlaces(r: BinaryReader, counts: CountLog): NavPlaces {
  const countOffset = r.offset;
  const count = r.checkCount(r.u16('places.count'), 2, 'places.count', countOffset);
  counts?.push({ offset: countOffset, width: 2, field: 'places.count' });
  const start = new Uint32Array(count + 1);
  const first = r.offset;
  for (let i = 0; i < count; i++) {
    const lenOffset = r.offset;
    const len = r.u16('places[].length');
    if (len > r.remaining) r.checkCount(len, 1, `places[${i}].length`, lenOffset);
    counts?.push({ offset: lenOffset, width: 2, field: 'places[].length' });
    r.skip(len, 'places[].name');
    start[i + 1] = start[i]! + len;
  }
  // Byte by byte rather than set(subarray()): a view object per name would cost ~100 bytes
  // of heap for as little as 2 bytes of file when a file declares thousands of places.
  const data = new Uint8Array(start[count]!);
  const src = r.bytes;
  let o = first;
  for (let i = 0; i < count; i++) {
    const to = start[i]!;
    const len = start[i + 1]! - to;
    for (let k = 0; k < len; k++) data[to + k] = src[o + 2 + k]!;
    o += 2 + len;
  }
  return { count, data, start };
}

/** Reads the areas, ladders and trailing bytes with one custom-data layout. */
function readBody(r: BinaryReader, h: NavHeader, layout: NavCustomLayout, counts: CountLog): NavDocument {
  const v = h.version;
  const countOffset = r.offset;
  const areaCount = r.checkCount(r.u32('areas.count'), minAreaBytes(v, layout), 'areas.count', countOffset);
  counts?.push({ offset: countOffset, width: 4, field: 'areas.count' });
  const shape = areaShape(v, layout);
  const dv = new DataView(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
  const totals = checkAreas(r, dv, shape, areaCount, counts);
  const areas = fillAreas(r.bytes, dv, r.offset, shape, areaCount, totals);
  r.offset = totals.end;
  let ladders: NavLadders = emptyLadders();
  if (navGates.ladders(v)) ladders = readLadders(r, dv, v, counts);
  const trailing = r.bytesCopy(r.remaining, 'trailing');
  return {
    version: v,
    subVersion: h.subVersion,
    bspSize: h.bspSize,
    isAnalyzed: h.isAnalyzed,
    places: h.places,
    hasUnnamedAreas: h.hasUnnamedAreas,
    customLayout: layout,
    areas,
    ladders,
    trailing,
  };
}

/** Which fields an area record of one version and custom layout holds. */
interface AreaShape {
  attrBytes: number;
  hidingSpotBytes: number;
  legacyEncounters: boolean;
  approachInBase: boolean;
  hasEncounters: boolean;
  hasPlace: boolean;
  hasLadderLinks: boolean;
  hasOccupy: boolean;
  hasLight: boolean;
  hasVisibility: boolean;
  csApproach: boolean;
  tfAttributes: boolean;
}

function areaShape(v: number, layout: NavCustomLayout): AreaShape {
  return {
    attrBytes: navGates.attributeBytes(v),
    hidingSpotBytes: hidingSpotBytes(v),
    legacyEncounters: navGates.legacyEncounters(v),
    approachInBase: navGates.approachInBase(v),
    hasEncounters: navGates.encounterPaths(v),
    hasPlace: navGates.place(v),
    hasLadderLinks: navGates.ladderLinks(v),
    hasOccupy: navGates.earliestOccupy(v),
    hasLight: navGates.lightIntensity(v),
    hasVisibility: navGates.visibility(v),
    csApproach: layout === 'cs-approach',
    tfAttributes: layout === 'tf-attributes',
  };
}

/** List lengths summed over all areas, and where the area table ends. */
interface AreaTotals {
  connections: number;
  hidingSpots: number;
  approaches: number;
  encounterPaths: number;
  encounterSpots: number;
  ladderLinks: number;
  visible: number;
  end: number;
}

const ENCOUNTER_PATH_FIELDS: readonly (readonly [string, number])[] = [
  ['encounterPath.from', 4],
  ['encounterPath.fromDir', 1],
  ['encounterPath.to', 4],
  ['encounterPath.toDir', 1],
];

const LEGACY_ENCOUNTER_PATH_FIELDS: readonly (readonly [string, number])[] = [
  ['encounterPath.from', 4],
  ['encounterPath.to', 4],
  ['encounterPath.fromPosition', 12],
  ['encounterPath.toPosition', 12],
];

/**
 * The checking pass: walks the area table from `r.offset`, checking every field against the
 * end of the data and every count against the bytes left, in the order the format stores
 * them. A failed check re-reads the failing field through BinaryReader, so the error names
 * the same field and offset as a field-by-field reader would.
 */
function checkAreas(r: BinaryReader, dv: DataView, s: AreaShape, n: number, counts: CountLog): AreaTotals {
  const end = r.end;
  const headFields: readonly (readonly [string, number])[] = [
    ['id', 4],
    ['attributes', s.attrBytes],
    ['corners', 32],
  ];
  const headBytes = 4 + s.attrBytes + 32;
  let connections = 0;
  let hidingSpots = 0;
  let approaches = 0;
  let encounterPaths = 0;
  let encounterSpots = 0;
  let ladderLinks = 0;
  let visible = 0;
  let o = r.offset;
  let a = 0;
  let areaStart = o;
  try {
    for (; a < n; a++) {
      areaStart = o;
      if (end - o < headBytes) failFixed(r, o, headFields);
      o += headBytes;
      for (let d = 0; d < 4; d++) {
        const c = listCount(r, dv, o, 4, 4, 'connections.count', counts);
        o += 4 + c * 4;
        connections += c;
      }
      {
        const c = listCount(r, dv, o, 1, s.hidingSpotBytes, 'hidingSpots.count', counts);
        o += 1 + c * s.hidingSpotBytes;
        hidingSpots += c;
      }
      if (s.approachInBase) {
        const c = listCount(r, dv, o, 1, APPROACH_BYTES, 'approach.count', counts);
        o += 1 + c * APPROACH_BYTES;
        approaches += c;
      }
      if (s.hasEncounters) {
        const paths = listCount(r, dv, o, 4, ENCOUNTER_PATH_BYTES, 'encounterPaths.count', counts);
        o += 4;
        for (let k = 0; k < paths; k++) {
          // The count check covered every path's minimum size, but earlier paths' spots use
          // up bytes, so each path's fixed fields are checked again.
          if (end - o < ENCOUNTER_PATH_BYTES - 1) failFixed(r, o, ENCOUNTER_PATH_FIELDS);
          o += ENCOUNTER_PATH_BYTES - 1;
          const c = listCount(r, dv, o, 1, ENCOUNTER_SPOT_BYTES, 'encounterPath.spots.count', counts);
          o += 1 + c * ENCOUNTER_SPOT_BYTES;
          encounterSpots += c;
        }
        encounterPaths += paths;
      } else if (s.legacyEncounters) {
        const paths = listCount(r, dv, o, 4, LEGACY_ENCOUNTER_PATH_BYTES, 'encounterPaths.count', counts);
        o += 4;
        for (let k = 0; k < paths; k++) {
          if (end - o < LEGACY_ENCOUNTER_PATH_BYTES - 1) failFixed(r, o, LEGACY_ENCOUNTER_PATH_FIELDS);
          o += LEGACY_ENCOUNTER_PATH_BYTES - 1;
          const c = listCount(r, dv, o, 1, LEGACY_ENCOUNTER_SPOT_BYTES, 'encounterPath.spots.count', counts);
          o += 1 + c * LEGACY_ENCOUNTER_SPOT_BYTES;
          encounterSpots += c;
        }
        encounterPaths += paths;
      }
      if (s.hasPlace) o = fixed(r, o, 2, 'place');
      if (s.hasLadderLinks) {
        for (let d = 0; d < 2; d++) {
          const c = listCount(r, dv, o, 4, 4, 'ladderLinks.count', counts);
          o += 4 + c * 4;
          ladderLinks += c;
        }
      }
      if (s.hasOccupy) o = fixed(r, o, 8, 'earliestOccupyTime');
      if (s.hasLight) o = fixed(r, o, 16, 'lightIntensity');
      if (s.hasVisibility) {
        const c = listCount(r, dv, o, 4, VISIBLE_AREA_BYTES, 'visibleAreas.count', counts);
        o += 4 + c * VISIBLE_AREA_BYTES;
        visible += c;
        o = fixed(r, o, 4, 'inheritVisibilityFrom');
      }
      if (s.csApproach) {
        const c = listCount(r, dv, o, 1, APPROACH_BYTES, 'custom.approach.count', counts);
        o += 1 + c * APPROACH_BYTES;
        approaches += c;
      } else if (s.tfAttributes) {
        o = fixed(r, o, 4, 'custom.tfAttributes');
      }
    }
  } catch (e) {
    if (e instanceof MalformedInputError) {
      const id = end - areaStart >= 4 ? dv.getUint32(areaStart, true) : 0;
      throw new MalformedInputError({ ...e.details(), field: `area #${a} (id ${id}) ${e.field}` });
    }
    throw e;
  }
  return { connections, hidingSpots, approaches, encounterPaths, encounterSpots, ladderLinks, visible, end: o };
}

/** Checks that `size` bytes of `field` fit at `o`; returns the offset after them. */
function fixed(r: BinaryReader, o: number, size: number, field: string): number {
  if (r.end - o < size) failFixed(r, o, [[field, size]]);
  return o + size;
}

/** Reads a count of `width` bytes at `o` and checks that `count` items of `itemSize` fit after it. */
function listCount(r: BinaryReader, dv: DataView, o: number, width: number, itemSize: number, field: string, counts: CountLog): number {
  const left = r.end - o;
  if (left < width) failFixed(r, o, [[field, width]]);
  const count = width === 4 ? dv.getUint32(o, true) : width === 1 ? dv.getUint8(o) : dv.getUint16(o, true);
  if (count * itemSize > left - width) {
    r.offset = o + width;
    r.checkCount(count, itemSize, field, o);
    throw checksDisagree(field);
  }
  if (counts !== undefined) counts.push({ offset: o, width, field });
  return count;
}

/** Throws BinaryReader's error for the first of consecutive fields at `o` that does not fit. */
function failFixed(r: BinaryReader, o: number, fields: readonly (readonly [string, number])[]): never {
  r.offset = o;
  for (const [field, size] of fields) {
    r.need(size, field);
    r.offset += size;
  }
  throw checksDisagree(fields.map((f) => f[0]).join(', '));
}

function checksDisagree(field: string): Error {
  return new Error(`nav reader: a failed bounds check at ${field} did not fail when re-read`);
}

/**
 * The filling pass over an area table that checkAreas accepted: every offset is known to
 * be in bounds and every list's total length is known, so values are copied straight into
 * exactly sized typed arrays.
 */
function fillAreas(bytes: Uint8Array, dv: DataView, start: number, s: AreaShape, n: number, t: AreaTotals): NavAreas {
  const id = new Uint32Array(n);
  const attributes = new Uint32Array(n);
  const corners = new Uint32Array(n * 8);
  const connectionStart = new Uint32Array(n * 4 + 1);
  const connectionTarget = new Uint32Array(t.connections);
  const hidingSpotStart = new Uint32Array(n + 1);
  const hidingSpotId = new Uint32Array(t.hidingSpots);
  const hidingSpotPosition = new Uint32Array(t.hidingSpots * 3);
  const hidingSpotFlags = new Uint8Array(t.hidingSpots);
  const approachStart = new Uint32Array(n + 1);
  const approach: ApproachColumns = {
    here: new Uint32Array(t.approaches),
    prev: new Uint32Array(t.approaches),
    prevHow: new Uint8Array(t.approaches),
    next: new Uint32Array(t.approaches),
    nextHow: new Uint8Array(t.approaches),
  };
  const encounterStart = new Uint32Array(n + 1);
  const encounterFrom = new Uint32Array(t.encounterPaths);
  const encounterFromDir = new Uint8Array(t.encounterPaths);
  const encounterTo = new Uint32Array(t.encounterPaths);
  const encounterToDir = new Uint8Array(t.encounterPaths);
  const encounterSpotStart = new Uint32Array(t.encounterPaths + 1);
  const encounterSpotId = new Uint32Array(t.encounterSpots);
  const encounterSpotT = new Uint8Array(t.encounterSpots);
  const encounterPathWords = new Uint32Array(s.legacyEncounters ? t.encounterPaths * LEGACY_PATH_WORDS : 0);
  const encounterSpotWords = new Uint32Array(s.legacyEncounters ? t.encounterSpots * LEGACY_SPOT_WORDS : 0);
  const place = new Uint16Array(n);
  const ladderLinkStart = new Uint32Array(n * 2 + 1);
  const ladderLinkId = new Uint32Array(t.ladderLinks);
  const earliestOccupy = new Uint32Array(s.hasOccupy ? n * 2 : 0);
  const lightIntensity = new Uint32Array(s.hasLight ? n * 4 : 0);
  const visibleStart = new Uint32Array(n + 1);
  const visibleId = new Uint32Array(t.visible);
  const visibleAttributes = new Uint8Array(t.visible);
  const inheritVisibilityFrom = new Uint32Array(s.hasVisibility ? n : 0);
  const tfAttributes = new Uint32Array(s.tfAttributes ? n : 0);

  const attrBytes = s.attrBytes;
  let o = start;
  let ci = 0;
  let hi = 0;
  let ai = 0;
  let ei = 0;
  let si = 0;
  let li = 0;
  let vi = 0;
  for (let a = 0; a < n; a++) {
    id[a] = dv.getUint32(o, true);
    o += 4;
    attributes[a] = attrBytes === 4 ? dv.getUint32(o, true) : attrBytes === 2 ? dv.getUint16(o, true) : bytes[o]!;
    o += attrBytes;
    copyWords(dv, o, corners, a * 8, 8);
    o += 32;
    for (let d = 0; d < 4; d++) {
      const c = dv.getUint32(o, true);
      copyWords(dv, o + 4, connectionTarget, ci, c);
      o += 4 + c * 4;
      ci += c;
      connectionStart[a * 4 + d + 1] = ci;
    }
    {
      const c = bytes[o++]!;
      if (s.hidingSpotBytes === HIDING_SPOT_BYTES) {
        for (let k = 0; k < c; k++) {
          hidingSpotId[hi] = dv.getUint32(o, true);
          copyWords(dv, o + 4, hidingSpotPosition, hi * 3, 3);
          hidingSpotFlags[hi] = bytes[o + 16]!;
          o += HIDING_SPOT_BYTES;
          hi++;
        }
      } else {
        // Version 1: positions only; ID and flags stay 0 (not stored).
        for (let k = 0; k < c; k++) {
          copyWords(dv, o, hidingSpotPosition, hi * 3, 3);
          o += s.hidingSpotBytes;
          hi++;
        }
      }
      hidingSpotStart[a + 1] = hi;
    }
    if (s.approachInBase) {
      const c = bytes[o]!;
      fillApproaches(bytes, dv, o + 1, c, approach, ai);
      o += 1 + c * APPROACH_BYTES;
      ai += c;
    }
    if (s.hasEncounters) {
      const paths = dv.getUint32(o, true);
      o += 4;
      for (let k = 0; k < paths; k++) {
        encounterFrom[ei] = dv.getUint32(o, true);
        encounterFromDir[ei] = bytes[o + 4]!;
        encounterTo[ei] = dv.getUint32(o + 5, true);
        encounterToDir[ei] = bytes[o + 9]!;
        const c = bytes[o + 10]!;
        o += ENCOUNTER_PATH_BYTES;
        for (let j = 0; j < c; j++) {
          encounterSpotId[si] = dv.getUint32(o, true);
          encounterSpotT[si] = bytes[o + 4]!;
          o += ENCOUNTER_SPOT_BYTES;
          si++;
        }
        ei++;
        encounterSpotStart[ei] = si;
      }
    } else if (s.legacyEncounters) {
      const paths = dv.getUint32(o, true);
      o += 4;
      for (let k = 0; k < paths; k++) {
        encounterFrom[ei] = dv.getUint32(o, true);
        encounterTo[ei] = dv.getUint32(o + 4, true);
        copyWords(dv, o + 8, encounterPathWords, ei * LEGACY_PATH_WORDS, LEGACY_PATH_WORDS);
        const c = bytes[o + 32]!;
        o += LEGACY_ENCOUNTER_PATH_BYTES;
        copyWords(dv, o, encounterSpotWords, si * LEGACY_SPOT_WORDS, c * LEGACY_SPOT_WORDS);
        o += c * LEGACY_ENCOUNTER_SPOT_BYTES;
        si += c;
        ei++;
        encounterSpotStart[ei] = si;
      }
    }
    encounterStart[a + 1] = ei;
    if (s.hasPlace) {
      place[a] = dv.getUint16(o, true);
      o += 2;
    }
    if (s.hasLadderLinks) {
      for (let d = 0; d < 2; d++) {
        const c = dv.getUint32(o, true);
        copyWords(dv, o + 4, ladderLinkId, li, c);
        o += 4 + c * 4;
        li += c;
        ladderLinkStart[a * 2 + d + 1] = li;
      }
    }
    if (s.hasOccupy) {
      copyWords(dv, o, earliestOccupy, a * 2, 2);
      o += 8;
    }
    if (s.hasLight) {
      copyWords(dv, o, lightIntensity, a * 4, 4);
      o += 16;
    }
    if (s.hasVisibility) {
      const c = dv.getUint32(o, true);
      o += 4;
      for (let k = 0; k < c; k++) {
        visibleId[vi] = dv.getUint32(o, true);
        visibleAttributes[vi] = bytes[o + 4]!;
        o += VISIBLE_AREA_BYTES;
        vi++;
      }
      visibleStart[a + 1] = vi;
      inheritVisibilityFrom[a] = dv.getUint32(o, true);
      o += 4;
    }
    if (s.csApproach) {
      const c = bytes[o]!;
      fillApproaches(bytes, dv, o + 1, c, approach, ai);
      o += 1 + c * APPROACH_BYTES;
      ai += c;
    } else if (s.tfAttributes) {
      tfAttributes[a] = dv.getUint32(o, true);
      o += 4;
    }
    approachStart[a + 1] = ai;
  }
  if (o !== t.end) throw new Error(`nav reader: the filling pass ended at ${o}, the checking pass at ${t.end}`);

  return {
    count: n,
    id,
    attributes,
    corners,
    connectionStart,
    connectionTarget,
    hidingSpotStart,
    hidingSpotId,
    hidingSpotPosition,
    hidingSpotFlags,
    approachStart,
    approachHere: approach.here,
    approachPrev: approach.prev,
    approachPrevHow: approach.prevHow,
    approachNext: approach.next,
    approachNextHow: approach.nextHow,
    encounterStart,
    encounterFrom,
    encounterFromDir,
    encounterTo,
    encounterToDir,
    encounterSpotStart,
    encounterSpotId,
    encounterSpotT,
    encounterPathWords,
    encounterSpotWords,
    place,
    ladderLinkStart,
    ladderLinkId,
    earliestOccupy,
    lightIntensity,
    visibleStart,
    visibleId,
    visibleAttributes,
    inheritVisibilityFrom,
    tfAttributes,
  };
}

interface ApproachColumns {
  here: Uint32Array;
  prev: Uint32Array;
  prevHow: Uint8Array;
  next: Uint32Array;
  nextHow: Uint8Array;
}

function fillApproaches(bytes: Uint8Array, dv: DataView, o: number, count: number, c: ApproachColumns, at: number): void {
  for (let k = 0; k < count; k++, at++, o += APPROACH_BYTES) {
    c.here[at] = dv.getUint32(o, true);
    c.prev[at] = dv.getUint32(o + 4, true);
    c.prevHow[at] = bytes[o + 8]!;
    c.next[at] = dv.getUint32(o + 9, true);
    c.nextHow[at] = bytes[o + 13]!;
  }
}

/** Copies `count` little-endian words (float bit patterns included) from `o` into `target`. */
function copyWords(dv: DataView, o: number, target: Uint32Array, at: number, count: number): void {
  for (let i = 0; i < count; i++, o += 4) target[at + i] = dv.getUint32(o, true);
}

function readLadders(r: BinaryReader, dv: DataView, v: number, counts: CountLog): NavLadders {
  const at = r.offset;
  const size = ladderBytes(v);
  // The count check proves every record fits, so the records are copied without checks.
  const n = r.checkCount(r.u32('ladders.count'), size, 'ladders.count', at);
  counts?.push({ offset: at, width: 4, field: 'ladders.count' });
  const hasDangling = navGates.ladderDangling(v);
  const id = new Uint32Array(n);
  const words = new Uint32Array(n * NAV_LADDER_WORDS);
  const dangling = new Uint8Array(hasDangling ? n : 0);
  const areas = new Uint32Array(n * NAV_LADDER_AREAS);
  let o = r.offset;
  for (let i = 0; i < n; i++) {
    id[i] = dv.getUint32(o, true);
    copyWords(dv, o + 4, words, i * NAV_LADDER_WORDS, NAV_LADDER_WORDS);
    o += 4 + NAV_LADDER_WORDS * 4;
    if (hasDangling) dangling[i] = r.bytes[o++]!;
    copyWords(dv, o, areas, i * NAV_LADDER_AREAS, NAV_LADDER_AREAS);
    o += NAV_LADDER_AREAS * 4;
  }
  r.offset = o;
  return { count: n, id, words, dangling, areas };
}

export function emptyLadders(): NavLadders {
  return {
    count: 0,
    id: new Uint32Array(0),
    words: new Uint32Array(0),
    dangling: new Uint8Array(0),
    areas: new Uint32Array(0),
  };
}
