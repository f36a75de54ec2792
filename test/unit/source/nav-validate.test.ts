import { describe, expect, it } from 'vitest';
import { packAreas, unpackAreas, type NavAreaRecord } from '../../../shared/formats/source/nav-area-records';
import { floatView, type NavDocument } from '../../../shared/formats/source/nav-document';
import { readNav } from '../../../shared/formats/source/nav-reader';
import { validateNav } from '../../../shared/formats/source/nav-validate';
import { fixtureName, fixturesRoot, listFixtures, readFixture } from '../../support/fixtures';

const files = [...listFixtures('source', ['.nav']), ...listFixtures('source-maps', ['.nav'])];

function load(rel: string): NavDocument {
  return readNav(readFixture(`${fixturesRoot}/${rel}`));
}

/** The document with its areas edited as records. */
function edit(doc: NavDocument, change: (areas: NavAreaRecord[]) => void): NavDocument {
  const records = unpackAreas(doc.areas);
  change(records);
  const present = {
    earliestOccupy: doc.areas.earliestOccupy.length > 0,
    lightIntensity: doc.areas.lightIntensity.length > 0,
    visibility: doc.areas.inheritVisibilityFrom.length > 0,
    tfAttributes: doc.areas.tfAttributes.length > 0,
  };
  return { ...doc, areas: packAreas(records, present) };
}

const codes = (doc: NavDocument, severity: 'error' | 'warning') =>
  validateNav(doc)
    .filter((f) => f.severity === severity)
    .map((f) => f.code);

describe('Source .nav validation', () => {
  it.each(files.map((f) => [fixtureName(f), f]))('%s has no errors', (_n, file) => {
    const findings = validateNav(readNav(readFixture(file)));
    expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('reports a connection to a missing area, naming the area', () => {
    const doc = edit(load('source/tf2/itemtest.nav'), (areas) => {
      areas[3]!.connections[1].push(999_999);
    });
    const found = validateNav(doc).filter((f) => f.code === 'nav.connection.missing-area');
    expect(found).toHaveLength(1);
    expect(found[0]!.severity).toBe('error');
    expect(found[0]!.subject).toEqual({ kind: 'area', id: unpackAreas(doc.areas)[3]!.id });
    expect(found[0]!.message).toContain('east connection to area 999999');
  });

  it('reports duplicate and zero area IDs', () => {
    const doc = edit(load('source/tf2/itemtest.nav'), (areas) => {
      areas[1]!.id = areas[0]!.id;
      areas[2]!.id = 0;
    });
    expect(codes(doc, 'error')).toEqual(expect.arrayContaining(['nav.area.duplicate-id', 'nav.area.zero-id']));
  });

  it('warns about a place index beyond the place directory, which the engine loads as no place', () => {
    const base = load('source/css/cs_havana.nav');
    const doc = edit(base, (areas) => {
      areas[0]!.place = base.places.count + 1;
    });
    expect(codes(doc, 'warning')).toContain('nav.area.place-out-of-range');
    expect(codes(doc, 'error')).toEqual([]);
  });

  it('reports corners in the wrong order', () => {
    const doc = edit(load('source/hl2dm/dm_lockdown.nav'), (areas) => {
      const c = floatView(areas[5]!.corners);
      [c[0], c[3]] = [c[3]!, c[0]!];
      c[0] = c[3]! + 10;
    });
    const found = validateNav(doc).filter((f) => f.code === 'nav.area.corners-unordered');
    expect(found).toHaveLength(1);
    expect(found[0]!.subject?.id).toBe(unpackAreas(doc.areas)[5]!.id);
    // The engine loads it with a "Degenerate Navigation Area" warning.
    expect(found[0]!.severity).toBe('warning');
    expect(codes(doc, 'error')).toEqual([]);
  });

  it('warns about attribute bits the version does not define, as an error-free file', () => {
    const doc = edit(load('source/csgo/dm_bloodsport.nav'), (areas) => {
      areas[0]!.attributes |= 0x08000000;
    });
    expect(codes(doc, 'warning')).toContain('nav.area.unknown-attributes');
    expect(codes(doc, 'error')).toEqual([]);
  });

  it('holds GoldSrc files to the four GoldSrc attribute bits', () => {
    const doc = edit(load('source/cs16/de_prodigy.nav'), (areas) => {
      areas[0]!.attributes = 0x10;
    });
    expect(codes(doc, 'warning')).toContain('nav.area.unknown-attributes');
  });

  it('reports ladder links to missing ladders and visibility of missing areas', () => {
    const doc = edit(load('source/tf2/itemtest.nav'), (areas) => {
      areas[0]!.ladderLinks[0].push(77);
      areas[1]!.visible.push({ id: 123_456, attributes: 1 });
      areas[2]!.inheritVisibilityFrom = 654_321;
    });
    expect(codes(doc, 'error')).toEqual(['nav.ladder-link.missing-ladder']);
    // PostLoad drops a visible-set entry it cannot resolve and keeps a null anchor: tolerated.
    expect(codes(doc, 'warning')).toEqual(expect.arrayContaining(['nav.visibility.missing-area', 'nav.visibility.missing-anchor']));
  });

  it('reports encounter spots that name no hiding spot', () => {
    const base = load('source/csgo/dm_bloodsport.nav');
    const withPath = unpackAreas(base.areas).findIndex((r) => r.encounters.some((e) => e.spots.length > 0));
    expect(withPath).toBeGreaterThanOrEqual(0);
    const doc = edit(base, (areas) => {
      areas[withPath]!.encounters.find((e) => e.spots.length > 0)!.spots[0]!.id = 0xfffffff0;
    });
    expect(codes(doc, 'warning')).toContain('nav.encounter.missing-spot');
    expect(codes(doc, 'error')).toEqual([]);
  });

  it('refuses an empty mesh', () => {
    const doc = edit(load('source/tf2/itemtest.nav'), (areas) => areas.splice(0));
    expect(codes(doc, 'error')).toContain('nav.areas.empty');
  });
});
