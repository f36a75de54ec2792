import { ModelMappingError } from '../../model/model-mapping-error';
import { NAV_LADDER_AREAS, NAV_LADDER_WORDS, NAV_MAGIC, placeBytes, type NavAreas, type NavDocument } from './nav-document';
import {
  APPROACH_BYTES,
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

/**
 * Writes a `.nav` document; the mirror of readNav, field for field. The exact file size is
 * computed first (from the same list bounds the writing loop uses), so the bytes are
 * written straight into one buffer of the final size, with no growth and no final copy.
 */
export function writeNav(doc: NavDocument): Uint8Array {
  const v = doc.version;
  const A = doc.areas;
  const out = new Uint8Array(navFileSize(doc));
  const dv = new DataView(out.buffer);
  let o = 0;
  dv.setUint32(o, NAV_MAGIC, true);
  dv.setUint32(o + 4, v, true);
  o += 8;
  if (navGates.subVersion(v)) {
    dv.setUint32(o, doc.subVersion, true);
    o += 4;
  }
  if (navGates.bspSize(v)) {
    dv.setUint32(o, doc.bspSize, true);
    o += 4;
  }
  if (navGates.isAnalyzed(v)) dv.setUint8(o++, doc.isAnalyzed);
  if (navGates.places(v)) {
    const P = doc.places;
    dv.setUint16(o, P.count, true);
    o += 2;
    for (let i = 0; i < P.count; i++) {
      const name = placeBytes(P, i);
      dv.setUint16(o, name.length, true);
      out.set(name, o + 2);
      o += 2 + name.length;
    }
  }
  if (navGates.hasUnnamedAreas(v)) dv.setUint8(o++, doc.hasUnnamedAreas);

  const attrBytes = navGates.attributeBytes(v);
  const approachInBase = navGates.approachInBase(v);
  const hasEncounters = navGates.encounterPaths(v);
  const hidingSpotObjects = navGates.hidingSpotObjects(v);
  const hasPlace = navGates.place(v);
  const hasLadderLinks = navGates.ladderLinks(v);
  const hasOccupy = navGates.earliestOccupy(v);
  const hasLight = navGates.lightIntensity(v);
  const hasVisibility = navGates.visibility(v);
  const csApproach = doc.customLayout === 'cs-approach';
  const tfAttributes = doc.customLayout === 'tf-attributes';

  dv.setUint32(o, A.count, true);
  o += 4;
  for (let a = 0; a < A.count; a++) {
    dv.setUint32(o, A.id[a]!, true);
    o += 4;
    if (attrBytes === 1) dv.setUint8(o, A.attributes[a]!);
    else if (attrBytes === 2) dv.setUint16(o, A.attributes[a]!, true);
    else dv.setUint32(o, A.attributes[a]!, true);
    o += attrBytes;
    o = putWords(dv, o, A.corners, a * 8, 8);
    for (let d = 0; d < 4; d++) {
      const s = A.connectionStart[a * 4 + d]!;
      const e = A.connectionStart[a * 4 + d + 1]!;
      dv.setUint32(o, e - s, true);
      o = putWords(dv, o + 4, A.connectionTarget, s, e - s);
    }
    {
      const s = A.hidingSpotStart[a]!;
      const e = A.hidingSpotStart[a + 1]!;
      dv.setUint8(o++, e - s);
      if (hidingSpotObjects) {
        for (let k = s; k < e; k++) {
          dv.setUint32(o, A.hidingSpotId[k]!, true);
          putWords(dv, o + 4, A.hidingSpotPosition, k * 3, 3);
          dv.setUint8(o + 16, A.hidingSpotFlags[k]!);
          o += HIDING_SPOT_BYTES;
        }
      } else {
        for (let k = s; k < e; k++) o = putWords(dv, o, A.hidingSpotPosition, k * 3, 3);
      }
    }
    if (approachInBase) o = putApproaches(dv, o, A, a);
    if (hasEncounters) {
      const s = A.encounterStart[a]!;
      const e = A.encounterStart[a + 1]!;
      dv.setUint32(o, e - s, true);
      o += 4;
      for (let k = s; k < e; k++) {
        dv.setUint32(o, A.encounterFrom[k]!, true);
        dv.setUint8(o + 4, A.encounterFromDir[k]!);
        dv.setUint32(o + 5, A.encounterTo[k]!, true);
        dv.setUint8(o + 9, A.encounterToDir[k]!);
        const ss = A.encounterSpotStart[k]!;
        const se = A.encounterSpotStart[k + 1]!;
        dv.setUint8(o + 10, se - ss);
        o += ENCOUNTER_PATH_BYTES;
        for (let t = ss; t < se; t++) {
          dv.setUint32(o, A.encounterSpotId[t]!, true);
          dv.setUint8(o + 4, A.encounterSpotT[t]!);
          o += ENCOUNTER_SPOT_BYTES;
        }
      }
    } else {
      // Versions 1 and 2: the obsolete layout, as stored.
      const s = A.encounterStart[a]!;
      const e = A.encounterStart[a + 1]!;
      dv.setUint32(o, e - s, true);
      o += 4;
      for (let k = s; k < e; k++) {
        dv.setUint32(o, A.encounterFrom[k]!, true);
        dv.setUint32(o + 4, A.encounterTo[k]!, true);
        putWords(dv, o + 8, A.encounterPathWords, k * LEGACY_PATH_WORDS, LEGACY_PATH_WORDS);
        const ss = A.encounterSpotStart[k]!;
        const se = A.encounterSpotStart[k + 1]!;
        dv.setUint8(o + 32, se - ss);
        o = putWords(dv, o + LEGACY_ENCOUNTER_PATH_BYTES, A.encounterSpotWords, ss * LEGACY_SPOT_WORDS, (se - ss) * LEGACY_SPOT_WORDS);
      }
    }
    if (hasPlace) {
      dv.setUint16(o, A.place[a]!, true);
      o += 2;
    }
    if (hasLadderLinks) {
      for (let d = 0; d < 2; d++) {
        const s = A.ladderLinkStart[a * 2 + d]!;
        const e = A.ladderLinkStart[a * 2 + d + 1]!;
        dv.setUint32(o, e - s, true);
        o = putWords(dv, o + 4, A.ladderLinkId, s, e - s);
      }
    }
    if (hasOccupy) o = putWords(dv, o, A.earliestOccupy, a * 2, 2);
    if (hasLight) o = putWords(dv, o, A.lightIntensity, a * 4, 4);
    if (hasVisibility) {
      const s = A.visibleStart[a]!;
      const e = A.visibleStart[a + 1]!;
      dv.setUint32(o, e - s, true);
      o += 4;
      for (let k = s; k < e; k++) {
        dv.setUint32(o, A.visibleId[k]!, true);
        dv.setUint8(o + 4, A.visibleAttributes[k]!);
        o += VISIBLE_AREA_BYTES;
      }
      dv.setUint32(o, A.inheritVisibilityFrom[a]!, true);
      o += 4;
    }
    if (csApproach) o = putApproaches(dv, o, A, a);
    else if (tfAttributes) {
      dv.setUint32(o, A.tfAttributes[a]!, true);
      o += 4;
    }
  }

  if (navGates.ladders(v)) {
    const L = doc.ladders;
    const hasDangling = navGates.ladderDangling(v);
    dv.setUint32(o, L.count, true);
    o += 4;
    for (let i = 0; i < L.count; i++) {
      dv.setUint32(o, L.id[i]!, true);
      o = putWords(dv, o + 4, L.words, i * NAV_LADDER_WORDS, NAV_LADDER_WORDS);
      if (hasDangling) dv.setUint8(o++, L.dangling[i]!);
      o = putWords(dv, o, L.areas, i * NAV_LADDER_AREAS, NAV_LADDER_AREAS);
    }
  }
  out.set(doc.trailing, o);
  o += doc.trailing.length;
  if (o !== out.length) throw new Error(`nav writer: wrote ${o} bytes of the ${out.length} computed`);
  return out;
}

/** Writes `count` words (bit patterns) of `source` from `from`; returns the offset after them. */
function putWords(dv: DataView, o: number, source: Uint32Array, from: number, count: number): number {
  for (let i = 0; i < count; i++, o += 4) dv.setUint32(o, source[from + i]!, true);
  return o;
}

function putApproaches(dv: DataView, o: number, A: NavAreas, a: number): number {
  const s = A.approachStart[a]!;
  const e = A.approachStart[a + 1]!;
  dv.setUint8(o++, e - s);
  for (let k = s; k < e; k++, o += APPROACH_BYTES) {
    dv.setUint32(o, A.approachHere[k]!, true);
    dv.setUint32(o + 4, A.approachPrev[k]!, true);
    dv.setUint8(o + 8, A.approachPrevHow[k]!);
    dv.setUint32(o + 9, A.approachNext[k]!, true);
    dv.setUint8(o + 13, A.approachNextHow[k]!);
  }
  return o;
}

/**
 * Items in [s, e) of a list, as the writing loop walks them: none when e ≤ s, or when a
 * bound is missing (a document whose count exceeds its columns; NaN > 0 is false).
 */
function span(starts: Uint32Array, i: number): number {
  const n = starts[i + 1]! - starts[i]!;
  return n > 0 ? n : 0;
}

/**
 * Lists the format counts in a byte hold at most 255 items. The engine truncates on save,
 * silently losing data; Walkbench refuses instead, naming the area.
 */
function checkU8List(A: NavAreas, a: number, what: string, n: number): number {
  if (n > 255) throw new ModelMappingError(`area ${A.id[a]}: ${n} ${what}; a .nav area holds at most 255`);
  return n;
}

/** The exact size writeNav produces for `doc`; refuses lists the format cannot hold. */
export function navFileSize(doc: NavDocument): number {
  const v = doc.version;
  const offsets = navAreaOffsets(doc);
  let size = offsets[doc.areas.count]!;
  if (navGates.ladders(v)) size += 4 + doc.ladders.count * ladderBytes(v);
  return size + doc.trailing.length;
}

/**
 * Where writeNav puts each area record: area a is bytes `[offsets[a], offsets[a + 1])` of
 * the written file (length count + 1; the last entry is where the ladders begin). Lets a
 * caller compare an edited file with its original record by record. Refuses lists the
 * format cannot hold, as writeNav does.
 */
export function navAreaOffsets(doc: NavDocument): Float64Array {
  const v = doc.version;
  const A = doc.areas;
  let size = 8;
  if (navGates.subVersion(v)) size += 4;
  if (navGates.bspSize(v)) size += 4;
  if (navGates.isAnalyzed(v)) size += 1;
  if (navGates.places(v)) {
    size += 2 + 2 * doc.places.count + doc.places.data.length;
  }
  if (navGates.hasUnnamedAreas(v)) size += 1;
  size += 4;
  if (doc.places.count > 0xffff) throw new ModelMappingError(`${doc.places.count} places; a .nav file names at most 65,535`);
  const fixed = minAreaBytes(v, doc.customLayout);
  // Before v15 the list is in the base area; the CS layout adds it as custom data.
  const approachLists = (navGates.approachInBase(v) ? 1 : 0) + (doc.customLayout === 'cs-approach' ? 1 : 0);
  const [pathBytes, spotBytes] = navGates.encounterPaths(v) ? [ENCOUNTER_PATH_BYTES, ENCOUNTER_SPOT_BYTES] : [LEGACY_ENCOUNTER_PATH_BYTES, LEGACY_ENCOUNTER_SPOT_BYTES];
  const spotSize = hidingSpotBytes(v);
  const offsets = new Float64Array(A.count + 1);
  for (let a = 0; a < A.count; a++) {
    offsets[a] = size;
    size += fixed;
    for (let d = 0; d < 4; d++) size += 4 * span(A.connectionStart, a * 4 + d);
    size += spotSize * checkU8List(A, a, 'hiding spots', span(A.hidingSpotStart, a));
    size += approachLists * APPROACH_BYTES * checkU8List(A, a, 'approach entries', span(A.approachStart, a));
    for (let k = A.encounterStart[a]!; k < A.encounterStart[a + 1]!; k++) {
      size += pathBytes + spotBytes * checkU8List(A, a, 'spots on one encounter path', span(A.encounterSpotStart, k));
    }
    if (navGates.ladderLinks(v)) for (let d = 0; d < 2; d++) size += 4 * span(A.ladderLinkStart, a * 2 + d);
    if (navGates.visibility(v)) size += VISIBLE_AREA_BYTES * span(A.visibleStart, a);
  }
  offsets[A.count] = size;
  return offsets;
}
