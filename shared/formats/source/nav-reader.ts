import { BinaryReader } from '../../binary/binary-reader';
import { GrowableU32, GrowableU8 } from '../../binary/growable-array';
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
} from './nav-document';
import {
  APPROACH_BYTES,
  customLayoutCandidates,
  ENCOUNTER_PATH_BYTES,
  ENCOUNTER_SPOT_BYTES,
  HIDING_SPOT_BYTES,
  ladderBytes,
  minAreaBytes,
  navGates,
  VISIBLE_AREA_BYTES,
} from './nav-layout';

export const NAV_FORMAT = 'source-nav';

interface NavHeader {
  version: number;
  subVersion: number;
  bspSize: number;
  isAnalyzed: number;
  places: Uint8Array[];
  hasUnnamedAreas: number;
  areaCountOffset: number;
}

/**
 * Reads a `.nav` file of version 5 to 16. Throws MalformedInputError (with the offset and
 * field) on anything the format does not allow; never reads past the end of `bytes` and
 * never allocates from a count before checking the count against the bytes left.
 */
export function readNav(bytes: Uint8Array): NavDocument {
  const r = new BinaryReader(bytes, NAV_FORMAT);
  const header = readHeader(r);
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
  for (const layout of candidates) {
    try {
      const body = new BinaryReader(bytes, NAV_FORMAT, header.areaCountOffset);
      const doc = readBody(body, header, layout);
      if (doc.trailing.length === 0 || candidates.length === 1) return doc;
      fallback ??= doc;
    } catch (e) {
      firstError ??= e;
    }
  }
  if (fallback) return fallback;
  throw firstError;
}

function readHeader(r: BinaryReader): NavHeader {
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
  const places: Uint8Array[] = [];
  if (navGates.places(version)) {
    const countOffset = r.offset;
    const count = r.checkCount(r.u16('places.count'), 2, 'places.count', countOffset);
    for (let i = 0; i < count; i++) {
      const lenOffset = r.offset;
      const len = r.u16(`places[${i}].length`);
      r.checkCount(len, 1, `places[${i}].length`, lenOffset);
      places.push(r.bytesCopy(len, `places[${i}].name`));
    }
  }
  const hasUnnamedAreas = navGates.hasUnnamedAreas(version) ? r.u8('hasUnnamedAreas') : 0;
  return { version, subVersion, bspSize, isAnalyzed, places, hasUnnamedAreas, areaCountOffset: r.offset };
}

/** Reads the areas, ladders and trailing bytes with one custom-data layout. */
function readBody(r: BinaryReader, h: NavHeader, layout: NavCustomLayout): NavDocument {
  const v = h.version;
  const countOffset = r.offset;
  const areaCount = r.checkCount(r.u32('areas.count'), minAreaBytes(v, layout), 'areas.count', countOffset);
  const areas = readAreas(r, v, areaCount, layout);
  let ladders: NavLadders = emptyLadders();
  if (navGates.ladders(v)) ladders = readLadders(r, v);
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

function readAreas(r: BinaryReader, v: number, n: number, layout: NavCustomLayout): NavAreas {
  const attrBytes = navGates.attributeBytes(v);
  const approachInBase = navGates.approachInBase(v);
  const hasEncounters = navGates.encounterPaths(v);
  const hasPlace = navGates.place(v);
  const hasLadderLinks = navGates.ladderLinks(v);
  const hasOccupy = navGates.earliestOccupy(v);
  const hasLight = navGates.lightIntensity(v);
  const hasVisibility = navGates.visibility(v);
  const readApproach = approachInBase || layout === 'cs-approach';

  const id = new Uint32Array(n);
  const attributes = new Uint32Array(n);
  const corners = new Uint32Array(n * 8);
  const connectionStart = new Uint32Array(n * 4 + 1);
  const connectionTarget = new GrowableU32(n * 4);
  const hidingSpotStart = new Uint32Array(n + 1);
  const hidingSpotId = new GrowableU32();
  const hidingSpotPosition = new GrowableU32();
  const hidingSpotFlags = new GrowableU8();
  const approachStart = new Uint32Array(n + 1);
  const approachHere = new GrowableU32();
  const approachPrev = new GrowableU32();
  const approachPrevHow = new GrowableU8();
  const approachNext = new GrowableU32();
  const approachNextHow = new GrowableU8();
  const encounterStart = new Uint32Array(n + 1);
  const encounterFrom = new GrowableU32();
  const encounterFromDir = new GrowableU8();
  const encounterTo = new GrowableU32();
  const encounterToDir = new GrowableU8();
  const encounterSpotStart = new GrowableU32();
  encounterSpotStart.push(0);
  const encounterSpotId = new GrowableU32();
  const encounterSpotT = new GrowableU8();
  const place = new Uint16Array(n);
  const ladderLinkStart = new Uint32Array(n * 2 + 1);
  const ladderLinkId = new GrowableU32();
  const earliestOccupy = new Uint32Array(hasOccupy ? n * 2 : 0);
  const lightIntensity = new Uint32Array(hasLight ? n * 4 : 0);
  const visibleStart = new Uint32Array(n + 1);
  const visibleId = new GrowableU32();
  const visibleAttributes = new GrowableU8();
  const inheritVisibilityFrom = new Uint32Array(hasVisibility ? n : 0);
  const tfAttributes = new Uint32Array(layout === 'tf-attributes' ? n : 0);

  const readApproachList = (field: string) => {
    const at = r.offset;
    const count = r.checkCount(r.u8(field), APPROACH_BYTES, field, at);
    for (let k = 0; k < count; k++) {
      approachHere.push(r.u32('approach.here'));
      approachPrev.push(r.u32('approach.prev'));
      approachPrevHow.push(r.u8('approach.prevToHereHow'));
      approachNext.push(r.u32('approach.next'));
      approachNextHow.push(r.u8('approach.hereToNextHow'));
    }
  };

  let a = 0;
  try {
    for (; a < n; a++) {
      id[a] = r.u32('id');
      attributes[a] = attrBytes === 1 ? r.u8('attributes') : attrBytes === 2 ? r.u16('attributes') : r.u32('attributes');
      r.words32(corners, a * 8, 8, 'corners');
      for (let d = 0; d < 4; d++) {
        const at = r.offset;
        const count = r.checkCount(r.u32('connections.count'), 4, 'connections.count', at);
        const base = connectionTarget.reserve(count);
        r.words32(connectionTarget.array, base, count, 'connections');
        connectionStart[a * 4 + d + 1] = connectionTarget.length;
      }
      {
        const at = r.offset;
        const count = r.checkCount(r.u8('hidingSpots.count'), HIDING_SPOT_BYTES, 'hidingSpots.count', at);
        for (let k = 0; k < count; k++) {
          hidingSpotId.push(r.u32('hidingSpot.id'));
          const p = hidingSpotPosition.reserve(3);
          r.words32(hidingSpotPosition.array, p, 3, 'hidingSpot.position');
          hidingSpotFlags.push(r.u8('hidingSpot.flags'));
        }
        hidingSpotStart[a + 1] = hidingSpotId.length;
      }
      if (approachInBase) readApproachList('approach.count');
      if (hasEncounters) {
        const at = r.offset;
        const count = r.checkCount(r.u32('encounterPaths.count'), ENCOUNTER_PATH_BYTES, 'encounterPaths.count', at);
        for (let k = 0; k < count; k++) {
          encounterFrom.push(r.u32('encounterPath.from'));
          encounterFromDir.push(r.u8('encounterPath.fromDir'));
          encounterTo.push(r.u32('encounterPath.to'));
          encounterToDir.push(r.u8('encounterPath.toDir'));
          const sat = r.offset;
          const spots = r.checkCount(r.u8('encounterPath.spots.count'), ENCOUNTER_SPOT_BYTES, 'encounterPath.spots.count', sat);
          for (let s = 0; s < spots; s++) {
            encounterSpotId.push(r.u32('encounterSpot.hidingSpotId'));
            encounterSpotT.push(r.u8('encounterSpot.t'));
          }
          encounterSpotStart.push(encounterSpotId.length);
        }
        encounterStart[a + 1] = encounterFrom.length;
      }
      if (hasPlace) place[a] = r.u16('place');
      if (hasLadderLinks) {
        for (let d = 0; d < 2; d++) {
          const at = r.offset;
          const count = r.checkCount(r.u32('ladderLinks.count'), 4, 'ladderLinks.count', at);
          const base = ladderLinkId.reserve(count);
          r.words32(ladderLinkId.array, base, count, 'ladderLinks');
          ladderLinkStart[a * 2 + d + 1] = ladderLinkId.length;
        }
      }
      if (hasOccupy) r.words32(earliestOccupy, a * 2, 2, 'earliestOccupyTime');
      if (hasLight) r.words32(lightIntensity, a * 4, 4, 'lightIntensity');
      if (hasVisibility) {
        const at = r.offset;
        const count = r.checkCount(r.u32('visibleAreas.count'), VISIBLE_AREA_BYTES, 'visibleAreas.count', at);
        for (let k = 0; k < count; k++) {
          visibleId.push(r.u32('visibleArea.id'));
          visibleAttributes.push(r.u8('visibleArea.attributes'));
        }
        visibleStart[a + 1] = visibleId.length;
        inheritVisibilityFrom[a] = r.u32('inheritVisibilityFrom');
      }
      if (layout === 'cs-approach') readApproachList('custom.approach.count');
      else if (layout === 'tf-attributes') tfAttributes[a] = r.u32('custom.tfAttributes');
      approachStart[a + 1] = approachHere.length;
    }
  } catch (e) {
    if (e instanceof MalformedInputError) {
      throw new MalformedInputError({
        ...e.details(),
        field: `area #${a}${a < n ? ` (id ${id[a]})` : ''} ${e.field}`,
      });
    }
    throw e;
  }

  return {
    count: n,
    id,
    attributes,
    corners,
    connectionStart,
    connectionTarget: connectionTarget.finish(),
    hidingSpotStart,
    hidingSpotId: hidingSpotId.finish(),
    hidingSpotPosition: hidingSpotPosition.finish(),
    hidingSpotFlags: hidingSpotFlags.finish(),
    approachStart,
    approachHere: approachHere.finish(),
    approachPrev: approachPrev.finish(),
    approachPrevHow: approachPrevHow.finish(),
    approachNext: approachNext.finish(),
    approachNextHow: approachNextHow.finish(),
    encounterStart,
    encounterFrom: encounterFrom.finish(),
    encounterFromDir: encounterFromDir.finish(),
    encounterTo: encounterTo.finish(),
    encounterToDir: encounterToDir.finish(),
    encounterSpotStart: encounterSpotStart.finish(),
    encounterSpotId: encounterSpotId.finish(),
    encounterSpotT: encounterSpotT.finish(),
    place,
    ladderLinkStart,
    ladderLinkId: ladderLinkId.finish(),
    earliestOccupy,
    lightIntensity,
    visibleStart,
    visibleId: visibleId.finish(),
    visibleAttributes: visibleAttributes.finish(),
    inheritVisibilityFrom,
    tfAttributes,
  };
}

function readLadders(r: BinaryReader, v: number): NavLadders {
  const at = r.offset;
  const n = r.checkCount(r.u32('ladders.count'), ladderBytes(v), 'ladders.count', at);
  const id = new Uint32Array(n);
  const words = new Uint32Array(n * NAV_LADDER_WORDS);
  const dangling = new Uint8Array(navGates.ladderDangling(v) ? n : 0);
  const areas = new Uint32Array(n * NAV_LADDER_AREAS);
  for (let i = 0; i < n; i++) {
    id[i] = r.u32(`ladder #${i} id`);
    r.words32(words, i * NAV_LADDER_WORDS, NAV_LADDER_WORDS, `ladder #${i} geometry`);
    if (navGates.ladderDangling(v)) dangling[i] = r.u8(`ladder #${i} dangling`);
    r.words32(areas, i * NAV_LADDER_AREAS, NAV_LADDER_AREAS, `ladder #${i} areas`);
  }
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
