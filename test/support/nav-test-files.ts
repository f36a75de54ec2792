import { packAreas, unpackAreas, type NavAreaRecord } from '../../shared/formats/source/nav-area-records';
import { floatView, placesFromList, type NavDocument } from '../../shared/formats/source/nav-document';
import { navGates } from '../../shared/formats/source/nav-layout';
import { emptyLadders } from '../../shared/formats/source/nav-reader';

/** The columns a document of `version` carries, for packAreas. */
export function presentColumns(doc: NavDocument): Parameters<typeof packAreas>[1] {
  return {
    earliestOccupy: navGates.earliestOccupy(doc.version),
    lightIntensity: navGates.lightIntensity(doc.version),
    visibility: navGates.visibility(doc.version),
    tfAttributes: doc.customLayout === 'tf-attributes',
    legacyEncounters: navGates.legacyEncounters(doc.version),
  };
}

/** The document with its areas changed as records. */
export function editAreas(doc: NavDocument, change: (areas: NavAreaRecord[]) => void): NavDocument {
  const records = unpackAreas(doc.areas);
  change(records);
  return { ...doc, areas: packAreas(records, presentColumns(doc)) };
}

const wordOf = (f: number) => new Uint32Array(new Float32Array([f]).buffer)[0]!;

/**
 * A real version-3 to 5 document rewritten as a version 1 or 2 file, by the loaders' rules
 * (spec §3, CNavArea::Load): no real file of these versions is known, so tests and fuzz
 * seeds use these. Version 1 keeps only each hiding spot's position; before version 3 an
 * encounter path is (from, to, from position, to position, spots as position + t), the
 * positions being what the old saver stored: the two areas' centres and each spot's place.
 */
export function navAsOldVersion(doc: NavDocument, version: 1 | 2): NavDocument {
  if (doc.version < 3 || doc.version > 5) throw new RangeError(`navAsOldVersion takes a version 3–5 document, not ${doc.version}`);
  const records = unpackAreas(doc.areas);
  const centre = new Map<number, number[]>();
  const spotPosition = new Map<number, Uint32Array>();
  for (const r of records) {
    const c = floatView(r.corners);
    centre.set(r.id, [(c[0]! + c[3]!) / 2, (c[1]! + c[4]!) / 2, (c[2]! + c[5]!) / 2]);
    for (const h of r.hidingSpots) spotPosition.set(h.id, h.position);
  }
  for (const r of records) {
    if (version === 1) r.hidingSpots = r.hidingSpots.map((h) => ({ id: 0, position: h.position, flags: 0 }));
    r.place = 0;
    r.encounters = r.encounters.map((e) => ({
      from: e.from,
      fromDir: 0,
      to: e.to,
      toDir: 0,
      words: Uint32Array.from([...(centre.get(e.from) ?? [0, 0, 0]), ...(centre.get(e.to) ?? [0, 0, 0])].map(wordOf)),
      spots: e.spots.map((s) => ({ id: 0, t: 0, words: Uint32Array.from([...(spotPosition.get(s.id) ?? new Uint32Array(3)), wordOf(s.t / 255)]) })),
    }));
  }
  const out: NavDocument = {
    ...doc,
    version,
    subVersion: 0,
    bspSize: 0,
    isAnalyzed: 0,
    places: placesFromList([]),
    hasUnnamedAreas: 0,
    customLayout: 'none',
    ladders: emptyLadders(),
    trailing: new Uint8Array(0),
    areas: doc.areas,
  };
  return { ...out, areas: packAreas(records, presentColumns(out)) };
}

/** The areas a flawed variant changed, by what was done to them. */
export interface NavFlaws {
  zeroWidth: number;
  zeroDepth: number;
  point: number;
  unordered: number;
  absentAnchor: number;
  absentVisible: number;
  /** An ID no area of the file has. */
  absentId: number;
}

/**
 * A copy of a version-16 document with what real files carry and the engine loads: areas
 * of zero width, zero depth and zero size, corners out of order, visibility inherited from
 * and listing an area ID the file does not have, and garbage after the last structure.
 * Areas are chosen from the middle of the file so the first few stay untouched.
 */
export function navWithToleratedFlaws(doc: NavDocument): { doc: NavDocument; flaws: NavFlaws } {
  if (!navGates.visibility(doc.version)) throw new RangeError('navWithToleratedFlaws needs a version-16 document');
  if (doc.areas.count < 12) throw new RangeError('navWithToleratedFlaws needs at least 12 areas');
  const base = doc.areas.count >> 1;
  const records = unpackAreas(doc.areas);
  const absentId = Math.max(...records.map((r) => r.id)) + 1000;
  const pick = (k: number) => records[base - 3 + k]!;
  const flaws: NavFlaws = {
    zeroWidth: pick(0).id,
    zeroDepth: pick(1).id,
    point: pick(2).id,
    unordered: pick(3).id,
    absentAnchor: pick(4).id,
    absentVisible: pick(5).id,
    absentId,
  };
  const corners = (k: number) => floatView(pick(k).corners);
  corners(0)[3] = corners(0)[0]!; // se.x = nw.x
  corners(1)[4] = corners(1)[1]!; // se.y = nw.y
  const p = corners(2);
  p[3] = p[0]!;
  p[4] = p[1]!;
  const u = corners(3);
  [u[0], u[3]] = [u[3]!, u[0]!]; // west edge east of the east edge
  pick(4).inheritVisibilityFrom = absentId;
  pick(5).visible.push({ id: absentId, attributes: 1 });
  const trailing = Uint8Array.from([0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3]);
  return { doc: { ...doc, trailing, areas: packAreas(records, presentColumns(doc)) }, flaws };
}
