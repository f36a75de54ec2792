import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packAreas, type NavAreaRecord } from '../../../shared/formats/source/nav-area-records';
import { NAV_LADDER_AREAS, NAV_LADDER_WORDS, placesFromList, type NavCustomLayout, type NavDocument } from '../../../shared/formats/source/nav-document';
import { customLayoutCandidates, hidingSpotBytes, ladderBytes, navGates } from '../../../shared/formats/source/nav-layout';
import { readNav } from '../../../shared/formats/source/nav-reader';
import { writeNav } from '../../../shared/formats/source/nav-writer';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';

/**
 * The fixtures cover versions 3, 4, 5, 9 and 16; these properties cover every version from
 * 1 to 16 with generated files: whatever a document holds, writing it and reading it back
 * gives the same document, and the bytes of that file are written back unchanged. Versions
 * 1 and 2 have no real file anywhere we know of: they are generated to the loaders' rules
 * (spec §3; CNavArea::Load): v1 hiding spots are bare positions, and before v3 encounter
 * paths use the obsolete layout (from, to, two positions, spots as position + t floats).
 */
const u32 = fc.integer({ min: 0, max: 0xffffffff });
const u8 = fc.integer({ min: 0, max: 255 });
const floatBits = fc.float({ noNaN: true }).map((f) => new Uint32Array(new Float32Array([f]).buffer)[0]!);
const words = (n: number) => fc.array(floatBits, { minLength: n, maxLength: n }).map((a) => Uint32Array.from(a));
const ids = fc.array(u32, { maxLength: 4 });

function areaRecord(version: number, layout: NavCustomLayout): fc.Arbitrary<NavAreaRecord> {
  const attrMax = { 1: 0xff, 2: 0xffff, 4: 0xffffffff }[navGates.attributeBytes(version)]!;
  const withApproach = navGates.approachInBase(version) || layout === 'cs-approach';
  return fc.record({
    id: u32,
    attributes: fc.integer({ min: 0, max: attrMax }),
    corners: words(8),
    connections: fc.tuple(ids, ids, ids, ids),
    hidingSpots: navGates.hidingSpotObjects(version)
      ? fc.array(fc.record({ id: u32, position: words(3), flags: u8 }), { maxLength: 3 })
      : fc.array(fc.record({ id: fc.constant(0), position: words(3), flags: fc.constant(0) }), { maxLength: 3 }),
    approach: withApproach ? fc.array(fc.record({ here: u32, prev: u32, prevHow: u8, next: u32, nextHow: u8 }), { maxLength: 3 }) : fc.constant([]),
    encounters: navGates.encounterPaths(version)
      ? fc.array(fc.record({ from: u32, fromDir: u8, to: u32, toDir: u8, spots: fc.array(fc.record({ id: u32, t: u8 }), { maxLength: 3 }) }), { maxLength: 3 })
      : fc.array(
          fc.record({
            from: u32,
            fromDir: fc.constant(0),
            to: u32,
            toDir: fc.constant(0),
            words: words(6),
            spots: fc.array(fc.record({ id: fc.constant(0), t: fc.constant(0), words: words(4) }), { maxLength: 3 }),
          }),
          { maxLength: 3 },
        ),
    place: navGates.place(version) ? fc.integer({ min: 0, max: 0xffff }) : fc.constant(0),
    ladderLinks: navGates.ladderLinks(version) ? fc.tuple(ids, ids) : fc.constant<[number[], number[]]>([[], []]),
    earliestOccupy: navGates.earliestOccupy(version) ? words(2) : fc.constant(new Uint32Array(2)),
    lightIntensity: navGates.lightIntensity(version) ? words(4) : fc.constant(new Uint32Array(4)),
    visible: navGates.visibility(version) ? fc.array(fc.record({ id: u32, attributes: u8 }), { maxLength: 4 }) : fc.constant([]),
    inheritVisibilityFrom: navGates.visibility(version) ? u32 : fc.constant(0),
    tfAttributes: layout === 'tf-attributes' ? u32 : fc.constant(0),
  });
}

function navDocument(version: number): fc.Arbitrary<NavDocument> {
  const subVersion = navGates.subVersion(version) ? fc.constantFrom(0, 1, 2) : fc.constant(0);
  return subVersion.chain((sub) => {
    const layout = customLayoutCandidates(version, sub)[0]!;
    return fc.record({
      bspSize: navGates.bspSize(version) ? u32 : fc.constant(0),
      isAnalyzed: navGates.isAnalyzed(version) ? u8 : fc.constant(0),
      places: navGates.places(version) ? fc.array(fc.uint8Array({ maxLength: 12 }), { maxLength: 4 }) : fc.constant<Uint8Array[]>([]),
      hasUnnamedAreas: navGates.hasUnnamedAreas(version) ? u8 : fc.constant(0),
      areas: fc.array(areaRecord(version, layout), { minLength: 1, maxLength: 6 }),
      ladders: navGates.ladders(version) ? fc.array(fc.tuple(u32, words(NAV_LADDER_WORDS), u8, words(NAV_LADDER_AREAS)), { maxLength: 3 }) : fc.constant<[number, Uint32Array, number, Uint32Array][]>([]),
      trailing: version < 6 ? fc.uint8Array({ maxLength: 8 }) : fc.constant<Uint8Array>(new Uint8Array(0)),
    }).map((g): NavDocument => ({
      version,
      subVersion: sub,
      bspSize: g.bspSize,
      isAnalyzed: g.isAnalyzed,
      places: placesFromList(g.places),
      hasUnnamedAreas: g.hasUnnamedAreas,
      customLayout: layout,
      areas: packAreas(g.areas, {
        earliestOccupy: navGates.earliestOccupy(version),
        lightIntensity: navGates.lightIntensity(version),
        visibility: navGates.visibility(version),
        tfAttributes: layout === 'tf-attributes',
        legacyEncounters: navGates.legacyEncounters(version),
      }),
      ladders: {
        count: g.ladders.length,
        id: Uint32Array.from(g.ladders.map((l) => l[0])),
        words: Uint32Array.from(g.ladders.flatMap((l) => [...l[1]])),
        dangling: navGates.ladderDangling(version) ? Uint8Array.from(g.ladders.map((l) => l[2])) : new Uint8Array(0),
        areas: Uint32Array.from(g.ladders.flatMap((l) => [...l[3]])),
      },
      trailing: g.trailing,
    }));
  });
}

const versions = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];

describe('.nav versions 1 to 16', () => {
  it.each(versions)('version %i: write then read gives the same document and the same bytes again', (version) => {
    fc.assert(
      fc.property(navDocument(version), (doc) => {
        const bytes = writeNav(doc);
        const back = readNav(bytes);
        expect(back).toEqual(doc);
        expect(writeNav(back)).toEqual(bytes);
      }),
      { numRuns: 60, seed: version },
    );
  });

  it('stores attributes in 1, 2 or 4 bytes by version, as the SDK does', () => {
    expect([5, 8, 9, 12, 13, 16].map((v) => navGates.attributeBytes(v))).toEqual([1, 1, 2, 2, 4, 4]);
  });

  it('writes the ladder dangling byte only in version 6', () => {
    expect([6, 7, 16].map(ladderBytes)).toEqual([61, 60, 60]);
  });

  it('sizes hiding spots and encounter paths by version, as the loaders read them', () => {
    expect([1, 2, 16].map(hidingSpotBytes)).toEqual([12, 17, 17]);
    expect([1, 2, 3].map((v) => navGates.legacyEncounters(v))).toEqual([true, true, false]);
    expect([3, 4, 5].map((v) => [navGates.bspSize(v), navGates.place(v)])).toEqual([[false, false], [true, false], [true, true]]);
  });

  it('refuses versions outside 1 to 16 and unknown sub-versions with the field and offset', () => {
    const v16 = writeNav({
      version: 16, subVersion: 0, bspSize: 0, isAnalyzed: 1, places: placesFromList([]), hasUnnamedAreas: 0, customLayout: 'none',
      areas: packAreas([], { earliestOccupy: true, lightIntensity: true, visibility: true, tfAttributes: false }),
      ladders: { count: 0, id: new Uint32Array(0), words: new Uint32Array(0), dangling: new Uint8Array(0), areas: new Uint32Array(0) },
      trailing: new Uint8Array(0),
    });
    const withVersion = (v: number, sub: number) => {
      const b = v16.slice();
      new DataView(b.buffer).setUint32(4, v, true);
      new DataView(b.buffer).setUint32(8, sub, true);
      return b;
    };
    for (const [v, sub, field, offset] of [[0, 0, 'version', 4], [17, 0, 'version', 4], [16, 4, 'subVersion', 8]] as const) {
      let caught: unknown;
      try {
        readNav(withVersion(v, sub));
      } catch (e) {
        caught = e;
      }
      expect(isMalformedInputError(caught)).toBe(true);
      expect(caught).toMatchObject({ field, offset });
    }
  });
});
