import { BinaryWriter } from '../../binary/binary-writer';
import { NAV_LADDER_AREAS, NAV_LADDER_WORDS, NAV_MAGIC, type NavDocument } from './nav-document';
import { navGates } from './nav-layout';

/** Writes a `.nav` document; the mirror of readNav, field for field. */
export function writeNav(doc: NavDocument): Uint8Array {
  const v = doc.version;
  const A = doc.areas;
  const w = new BinaryWriter(estimateSize(doc));
  w.u32(NAV_MAGIC);
  w.u32(v);
  if (navGates.subVersion(v)) w.u32(doc.subVersion);
  if (navGates.bspSize(v)) w.u32(doc.bspSize);
  if (navGates.isAnalyzed(v)) w.u8(doc.isAnalyzed);
  if (navGates.places(v)) {
    w.u16(doc.places.length);
    for (const p of doc.places) {
      w.u16(p.length);
      w.bytes(p);
    }
  }
  if (navGates.hasUnnamedAreas(v)) w.u8(doc.hasUnnamedAreas);

  const attrBytes = navGates.attributeBytes(v);
  const approachInBase = navGates.approachInBase(v);
  const writeApproach = (a: number) => {
    const s = A.approachStart[a]!;
    const e = A.approachStart[a + 1]!;
    w.u8(e - s);
    for (let k = s; k < e; k++) {
      w.u32(A.approachHere[k]!);
      w.u32(A.approachPrev[k]!);
      w.u8(A.approachPrevHow[k]!);
      w.u32(A.approachNext[k]!);
      w.u8(A.approachNextHow[k]!);
    }
  };

  w.u32(A.count);
  for (let a = 0; a < A.count; a++) {
    w.u32(A.id[a]!);
    if (attrBytes === 1) w.u8(A.attributes[a]!);
    else if (attrBytes === 2) w.u16(A.attributes[a]!);
    else w.u32(A.attributes[a]!);
    w.words32(A.corners, a * 8, 8);
    for (let d = 0; d < 4; d++) {
      const s = A.connectionStart[a * 4 + d]!;
      const e = A.connectionStart[a * 4 + d + 1]!;
      w.u32(e - s);
      w.words32(A.connectionTarget, s, e - s);
    }
    {
      const s = A.hidingSpotStart[a]!;
      const e = A.hidingSpotStart[a + 1]!;
      w.u8(e - s);
      for (let k = s; k < e; k++) {
        w.u32(A.hidingSpotId[k]!);
        w.words32(A.hidingSpotPosition, k * 3, 3);
        w.u8(A.hidingSpotFlags[k]!);
      }
    }
    if (approachInBase) writeApproach(a);
    if (navGates.encounterPaths(v)) {
      const s = A.encounterStart[a]!;
      const e = A.encounterStart[a + 1]!;
      w.u32(e - s);
      for (let k = s; k < e; k++) {
        w.u32(A.encounterFrom[k]!);
        w.u8(A.encounterFromDir[k]!);
        w.u32(A.encounterTo[k]!);
        w.u8(A.encounterToDir[k]!);
        const ss = A.encounterSpotStart[k]!;
        const se = A.encounterSpotStart[k + 1]!;
        w.u8(se - ss);
        for (let t = ss; t < se; t++) {
          w.u32(A.encounterSpotId[t]!);
          w.u8(A.encounterSpotT[t]!);
        }
      }
    }
    if (navGates.place(v)) w.u16(A.place[a]!);
    if (navGates.ladderLinks(v)) {
      for (let d = 0; d < 2; d++) {
        const s = A.ladderLinkStart[a * 2 + d]!;
        const e = A.ladderLinkStart[a * 2 + d + 1]!;
        w.u32(e - s);
        w.words32(A.ladderLinkId, s, e - s);
      }
    }
    if (navGates.earliestOccupy(v)) w.words32(A.earliestOccupy, a * 2, 2);
    if (navGates.lightIntensity(v)) w.words32(A.lightIntensity, a * 4, 4);
    if (navGates.visibility(v)) {
      const s = A.visibleStart[a]!;
      const e = A.visibleStart[a + 1]!;
      w.u32(e - s);
      for (let k = s; k < e; k++) {
        w.u32(A.visibleId[k]!);
        w.u8(A.visibleAttributes[k]!);
      }
      w.u32(A.inheritVisibilityFrom[a]!);
    }
    if (doc.customLayout === 'cs-approach') writeApproach(a);
    else if (doc.customLayout === 'tf-attributes') w.u32(A.tfAttributes[a]!);
  }

  if (navGates.ladders(v)) {
    const L = doc.ladders;
    w.u32(L.count);
    for (let i = 0; i < L.count; i++) {
      w.u32(L.id[i]!);
      w.words32(L.words, i * NAV_LADDER_WORDS, NAV_LADDER_WORDS);
      if (navGates.ladderDangling(v)) w.u8(L.dangling[i]!);
      w.words32(L.areas, i * NAV_LADDER_AREAS, NAV_LADDER_AREAS);
    }
  }
  w.bytes(doc.trailing);
  return w.finish();
}

function estimateSize(doc: NavDocument): number {
  const A = doc.areas;
  return (
    64 +
    A.count * 80 +
    A.connectionTarget.length * 4 +
    A.hidingSpotId.length * 17 +
    A.approachHere.length * 14 +
    A.encounterFrom.length * 11 +
    A.encounterSpotId.length * 5 +
    A.visibleId.length * 5 +
    doc.ladders.count * 61 +
    doc.trailing.length
  );
}
