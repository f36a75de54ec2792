import type { NavAreas } from './nav-document';

/**
 * One area as a plain record, for edits that add, remove or reshape areas. Reading and
 * writing use the column form (NavAreas); edits unpack, change records, and pack again.
 * Float fields stay bit patterns so untouched values are written back exactly.
 */
export interface NavAreaRecord {
  id: number;
  attributes: number;
  /** 8 float words: nw x y z, se x y z, ne z, sw z. */
  corners: Uint32Array;
  /** Target area IDs per direction N, E, S, W. */
  connections: [number[], number[], number[], number[]];
  hidingSpots: { id: number; position: Uint32Array; flags: number }[];
  approach: { here: number; prev: number; prevHow: number; next: number; nextHow: number }[];
  encounters: NavEncounterRecord[];
  place: number;
  /** Ladder IDs up, down. */
  ladderLinks: [number[], number[]];
  earliestOccupy: Uint32Array;
  lightIntensity: Uint32Array;
  visible: { id: number; attributes: number }[];
  inheritVisibilityFrom: number;
  tfAttributes: number;
}

export interface NavEncounterRecord {
  from: number;
  fromDir: number;
  to: number;
  toDir: number;
  spots: { id: number; t: number; /** v < 3: position xyz and t as float words. */ words?: Uint32Array }[];
  /** v < 3: from xyz, to xyz as float words (the obsolete layout). */
  words?: Uint32Array;
}

/** Which optional per-area columns the document carries (they are empty otherwise). */
export interface NavAreaColumnsPresent {
  earliestOccupy: boolean;
  lightIntensity: boolean;
  visibility: boolean;
  tfAttributes: boolean;
  /** The v < 3 encounter words (encounterPathWords, encounterSpotWords); absent = false. */
  legacyEncounters?: boolean;
}

export function unpackAreas(A: NavAreas): NavAreaRecord[] {
  const out: NavAreaRecord[] = [];
  const hasOccupy = A.earliestOccupy.length > 0;
  const hasLight = A.lightIntensity.length > 0;
  const hasInherit = A.inheritVisibilityFrom.length > 0;
  const hasTf = A.tfAttributes.length > 0;
  const legacy = A.encounterPathWords.length > 0;
  for (let a = 0; a < A.count; a++) {
    const range = <T>(start: Uint32Array, g: number, f: (k: number) => T): T[] => {
      const items: T[] = [];
      for (let k = start[g]!; k < start[g + 1]!; k++) items.push(f(k));
      return items;
    };
    out.push({
      id: A.id[a]!,
      attributes: A.attributes[a]!,
      corners: A.corners.slice(a * 8, a * 8 + 8),
      connections: [0, 1, 2, 3].map((d) => range(A.connectionStart, a * 4 + d, (k) => A.connectionTarget[k]!)) as NavAreaRecord['connections'],
      hidingSpots: range(A.hidingSpotStart, a, (k) => ({
        id: A.hidingSpotId[k]!,
        position: A.hidingSpotPosition.slice(k * 3, k * 3 + 3),
        flags: A.hidingSpotFlags[k]!,
      })),
      approach: range(A.approachStart, a, (k) => ({
        here: A.approachHere[k]!,
        prev: A.approachPrev[k]!,
        prevHow: A.approachPrevHow[k]!,
        next: A.approachNext[k]!,
        nextHow: A.approachNextHow[k]!,
      })),
      encounters: range(A.encounterStart, a, (p): NavEncounterRecord => {
        const e: NavEncounterRecord = {
          from: A.encounterFrom[p]!,
          fromDir: A.encounterFromDir[p]!,
          to: A.encounterTo[p]!,
          toDir: A.encounterToDir[p]!,
          spots: range(A.encounterSpotStart, p, (s) =>
            legacy ? { id: A.encounterSpotId[s]!, t: A.encounterSpotT[s]!, words: A.encounterSpotWords.slice(s * 4, s * 4 + 4) } : { id: A.encounterSpotId[s]!, t: A.encounterSpotT[s]! },
          ),
        };
        if (legacy) e.words = A.encounterPathWords.slice(p * 6, p * 6 + 6);
        return e;
      }),
      place: A.place[a]!,
      ladderLinks: [0, 1].map((d) => range(A.ladderLinkStart, a * 2 + d, (k) => A.ladderLinkId[k]!)) as NavAreaRecord['ladderLinks'],
      earliestOccupy: hasOccupy ? A.earliestOccupy.slice(a * 2, a * 2 + 2) : new Uint32Array(2),
      lightIntensity: hasLight ? A.lightIntensity.slice(a * 4, a * 4 + 4) : new Uint32Array(4),
      visible: range(A.visibleStart, a, (k) => ({ id: A.visibleId[k]!, attributes: A.visibleAttributes[k]! })),
      inheritVisibilityFrom: hasInherit ? A.inheritVisibilityFrom[a]! : 0,
      tfAttributes: hasTf ? A.tfAttributes[a]! : 0,
    });
  }
  return out;
}

export function packAreas(records: readonly NavAreaRecord[], present: NavAreaColumnsPresent): NavAreas {
  const n = records.length;
  const sum = (f: (r: NavAreaRecord) => number) => records.reduce((s, r) => s + f(r), 0);
  const conns = sum((r) => r.connections.reduce((s, c) => s + c.length, 0));
  const spots = sum((r) => r.hidingSpots.length);
  const approaches = sum((r) => r.approach.length);
  const paths = sum((r) => r.encounters.length);
  const pathSpots = sum((r) => r.encounters.reduce((s, e) => s + e.spots.length, 0));
  const ladderLinks = sum((r) => r.ladderLinks[0].length + r.ladderLinks[1].length);
  const visible = sum((r) => r.visible.length);

  const A: NavAreas = {
    count: n,
    id: new Uint32Array(n),
    attributes: new Uint32Array(n),
    corners: new Uint32Array(n * 8),
    connectionStart: new Uint32Array(n * 4 + 1),
    connectionTarget: new Uint32Array(conns),
    hidingSpotStart: new Uint32Array(n + 1),
    hidingSpotId: new Uint32Array(spots),
    hidingSpotPosition: new Uint32Array(spots * 3),
    hidingSpotFlags: new Uint8Array(spots),
    approachStart: new Uint32Array(n + 1),
    approachHere: new Uint32Array(approaches),
    approachPrev: new Uint32Array(approaches),
    approachPrevHow: new Uint8Array(approaches),
    approachNext: new Uint32Array(approaches),
    approachNextHow: new Uint8Array(approaches),
    encounterStart: new Uint32Array(n + 1),
    encounterFrom: new Uint32Array(paths),
    encounterFromDir: new Uint8Array(paths),
    encounterTo: new Uint32Array(paths),
    encounterToDir: new Uint8Array(paths),
    encounterSpotStart: new Uint32Array(paths + 1),
    encounterSpotId: new Uint32Array(pathSpots),
    encounterSpotT: new Uint8Array(pathSpots),
    encounterPathWords: new Uint32Array(present.legacyEncounters ? paths * 6 : 0),
    encounterSpotWords: new Uint32Array(present.legacyEncounters ? pathSpots * 4 : 0),
    place: new Uint16Array(n),
    ladderLinkStart: new Uint32Array(n * 2 + 1),
    ladderLinkId: new Uint32Array(ladderLinks),
    earliestOccupy: new Uint32Array(present.earliestOccupy ? n * 2 : 0),
    lightIntensity: new Uint32Array(present.lightIntensity ? n * 4 : 0),
    visibleStart: new Uint32Array(n + 1),
    visibleId: new Uint32Array(visible),
    visibleAttributes: new Uint8Array(visible),
    inheritVisibilityFrom: new Uint32Array(present.visibility ? n : 0),
    tfAttributes: new Uint32Array(present.tfAttributes ? n : 0),
  };

  let ci = 0;
  let hi = 0;
  let ai = 0;
  let pi = 0;
  let si = 0;
  let li = 0;
  let vi = 0;
  records.forEach((r, a) => {
    A.id[a] = r.id;
    A.attributes[a] = r.attributes;
    A.corners.set(r.corners, a * 8);
    r.connections.forEach((list, d) => {
      for (const t of list) A.connectionTarget[ci++] = t;
      A.connectionStart[a * 4 + d + 1] = ci;
    });
    for (const h of r.hidingSpots) {
      A.hidingSpotId[hi] = h.id;
      A.hidingSpotPosition.set(h.position, hi * 3);
      A.hidingSpotFlags[hi++] = h.flags;
    }
    A.hidingSpotStart[a + 1] = hi;
    for (const e of r.approach) {
      A.approachHere[ai] = e.here;
      A.approachPrev[ai] = e.prev;
      A.approachPrevHow[ai] = e.prevHow;
      A.approachNext[ai] = e.next;
      A.approachNextHow[ai++] = e.nextHow;
    }
    A.approachStart[a + 1] = ai;
    for (const e of r.encounters) {
      A.encounterFrom[pi] = e.from;
      A.encounterFromDir[pi] = e.fromDir;
      A.encounterTo[pi] = e.to;
      A.encounterToDir[pi] = e.toDir;
      if (present.legacyEncounters && e.words) A.encounterPathWords.set(e.words, pi * 6);
      for (const s of e.spots) {
        if (present.legacyEncounters && s.words) A.encounterSpotWords.set(s.words, si * 4);
        A.encounterSpotId[si] = s.id;
        A.encounterSpotT[si++] = s.t;
      }
      A.encounterSpotStart[++pi] = si;
    }
    A.encounterStart[a + 1] = pi;
    A.place[a] = r.place;
    r.ladderLinks.forEach((list, d) => {
      for (const l of list) A.ladderLinkId[li++] = l;
      A.ladderLinkStart[a * 2 + d + 1] = li;
    });
    if (present.earliestOccupy) A.earliestOccupy.set(r.earliestOccupy, a * 2);
    if (present.lightIntensity) A.lightIntensity.set(r.lightIntensity, a * 4);
    for (const v of r.visible) {
      A.visibleId[vi] = v.id;
      A.visibleAttributes[vi++] = v.attributes;
    }
    A.visibleStart[a + 1] = vi;
    if (present.visibility) A.inheritVisibilityFrom[a] = r.inheritVisibilityFrom;
    if (present.tfAttributes) A.tfAttributes[a] = r.tfAttributes;
  });
  return A;
}
