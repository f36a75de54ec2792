import { describe, expect, it } from 'vitest';
import { applyDocumentEdit } from '../../../shared/edits/apply-document-edit';
import { EditError } from '../../../shared/edits/edit-error';
import { parseDocumentEditCommand } from '../../../shared/edits/parse-document-edit-command';
import type { NavDocument } from '../../../shared/formats/source/nav-document';
import { readNav } from '../../../shared/formats/source/nav-reader';
import { navAreaOffsets, writeNav } from '../../../shared/formats/source/nav-writer';
import { sourcePlacesView } from '../../../shared/views/game-structure';
import { fixturesRoot, readFixture } from '../../support/fixtures';

const bytes = readFixture(`${fixturesRoot}/source/csgo/de_shortnuke.nav`);

function differing(a: Uint8Array, b: Uint8Array): number[] {
  expect(b.length).toBe(a.length);
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) out.push(i);
  return out;
}

describe('Source place edit (source-set-place)', () => {
  it('paints a place onto one area: the written file differs only in that area record, and undo gives the bytes back', () => {
    const doc = readNav(bytes);
    expect(writeNav(doc)).toEqual(bytes);
    expect(doc.places.count).toBeGreaterThan(1);
    // An area whose place is not the one painted.
    const a = Array.from(doc.areas.place).findIndex((p) => p !== 2);
    const id = doc.areas.id[a]!;
    const before = doc.areas.place[a]!;
    const r = applyDocumentEdit({ target: 'source-nav', doc }, parseDocumentEditCommand({ kind: 'source-set-place', areas: [id], place: 2 }, 'test'));
    const edited = r.doc as NavDocument;
    expect(edited.areas.place[a]).toBe(2);
    expect(doc.areas.place[a]).toBe(before);
    const written = writeNav(edited);
    const diff = differing(bytes, written);
    expect(diff.length).toBeGreaterThan(0);
    expect(diff.length).toBeLessThanOrEqual(2);
    const offsets = navAreaOffsets(doc);
    for (const o of diff) {
      expect(o).toBeGreaterThanOrEqual(offsets[a]!);
      expect(o).toBeLessThan(offsets[a + 1] ?? bytes.length);
    }
    // Read back: the view names the new place for that area and no other area changed.
    const back = readNav(written);
    const view = sourcePlacesView(back)!;
    expect(view.names[view.areaPlaces[a]! - 1]).toBe(sourcePlacesView(doc)!.names[1]);
    for (let i = 0; i < doc.areas.count; i++) if (i !== a) expect(back.areas.place[i]).toBe(doc.areas.place[i]);
    const undone = applyDocumentEdit({ target: 'source-nav', doc: edited }, parseDocumentEditCommand(r.inverse, 'inverse'));
    expect(writeNav(undone.doc as NavDocument)).toEqual(bytes);
  });

  it('paints several areas and clears them (place 0); the inverse restores each area its own old place', () => {
    const doc = readNav(bytes);
    const ids = [doc.areas.id[0]!, doc.areas.id[1]!, doc.areas.id[2]!];
    const r = applyDocumentEdit({ target: 'source-nav', doc }, { kind: 'source-set-place', areas: ids, place: 0 });
    const edited = r.doc as NavDocument;
    expect(Array.from(edited.areas.place.subarray(0, 3))).toEqual([0, 0, 0]);
    expect(r.inverse).toEqual({ kind: 'source-set-place', areas: ids, places: Array.from(doc.areas.place.subarray(0, 3)) });
    const undone = applyDocumentEdit({ target: 'source-nav', doc: edited }, r.inverse);
    expect((undone.doc as NavDocument).areas.place).toEqual(doc.areas.place);
  });

  it('refuses a place outside the directory, an unknown area and an area named twice, naming them', () => {
    const doc = readNav(bytes);
    const id = doc.areas.id[0]!;
    expect(() => applyDocumentEdit({ target: 'source-nav', doc }, { kind: 'source-set-place', areas: [id], place: doc.places.count + 1 })).toThrow(/place \d+ is not 0 \(none\) or a place/);
    expect(() => applyDocumentEdit({ target: 'source-nav', doc }, { kind: 'source-set-place', areas: [0xfffffff0], place: 1 })).toThrow(EditError);
    expect(() => applyDocumentEdit({ target: 'source-nav', doc }, { kind: 'source-set-place', areas: [id, id], place: 1 })).toThrow(/named twice/);
    expect(() => parseDocumentEditCommand({ kind: 'source-set-place', areas: [id], place: 1, name: 'x' }, 'test')).toThrow(/name is not a field/);
  });
});
