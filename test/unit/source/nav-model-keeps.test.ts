import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unpackAreas, type NavAreaRecord } from '../../../shared/formats/source/nav-area-records';
import { floatView, type NavDocument } from '../../../shared/formats/source/nav-document';
import { navFromWalkmesh } from '../../../shared/formats/source/nav-from-walkmesh';
import { navGates } from '../../../shared/formats/source/nav-layout';
import { readNav } from '../../../shared/formats/source/nav-reader';
import { validateNav } from '../../../shared/formats/source/nav-validate';
import { navToWalkmesh } from '../../../shared/formats/source/nav-walkmesh';
import { navAreaOffsets, writeNav } from '../../../shared/formats/source/nav-writer';
import { applyEdit } from '../../../shared/edits/apply-edit';
import type { EditCommand } from '../../../shared/edits/edit-command';
import { faceCount, type Walkmesh } from '../../../shared/model/walkmesh';
import { fixtureName, fixturesRoot, listFixtures, readFixture } from '../../support/fixtures';
import { editAreas, navWithToleratedFlaws } from '../../support/nav-test-files';

/**
 * Every edit goes through the common model (navToWalkmesh, an edit, navFromWalkmesh): what
 * the model does not edit must come back byte for byte. Every `.nav` under the fixtures'
 * source/ and source-maps/ folders is used, found by walking them.
 */
const files = [...listFixtures('source', ['.nav']), ...listFixtures('source-maps', ['.nav'])];

const equalBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

type Edit = { kind: 'move'; dx: number; dy: number; dz: number } | { kind: 'attributes'; value: number } | { kind: 'delete' };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('move' as const), dx: fc.integer({ min: -64, max: 64 }), dy: fc.integer({ min: -64, max: 64 }), dz: fc.integer({ min: -64, max: 64 }) }),
  fc.record({ kind: fc.constant('attributes' as const), value: fc.integer({ min: 0, max: 0xffffffff }) }),
  fc.record({ kind: fc.constant('delete' as const) }),
);

function facesOf(mesh: Walkmesh, id: number): number[] {
  const out: number[] = [];
  for (let f = 0; f < faceCount(mesh); f++) if (mesh.faceOwner[f] === id) out.push(f);
  return out;
}

/** The edit as the app issues it, through the edit commands of shared/edits. */
function command(mesh: Walkmesh, doc: NavDocument, id: number, edit: Edit): EditCommand {
  const faces = facesOf(mesh, id);
  if (edit.kind === 'delete') return { kind: 'delete-faces', faces };
  if (edit.kind === 'attributes') {
    const width = navGates.attributeBytes(doc.version);
    const value = width === 4 ? edit.value : edit.value % (width === 2 ? 0x10000 : 0x100);
    return { kind: 'set-face-attributes', faces, material: value };
  }
  const vertices = [...new Set(faces.flatMap((f) => [0, 1, 2].map((k) => mesh.triangles[f * 3 + k]!)))];
  const P = mesh.positions;
  return {
    kind: 'move-vertices',
    vertices,
    positions: vertices.flatMap((v) => [P[v * 3]! + edit.dx, P[v * 3 + 1]! + edit.dy, P[v * 3 + 2]! + edit.dz]),
  };
}

/** Whether a record names area `id` anywhere (those records lose the reference on delete). */
function refersTo(r: NavAreaRecord, id: number, spots: Set<number>): boolean {
  return (
    r.connections.some((l) => l.includes(id)) ||
    r.approach.some((e) => e.here === id || e.prev === id || e.next === id) ||
    r.encounters.some((e) => e.from === id || e.to === id || e.spots.some((s) => spots.has(s.id))) ||
    r.visible.some((v) => v.id === id) ||
    r.inheritVisibilityFrom === id
  );
}

/**
 * Applies `edit` to area `id` through the model and checks that every other area record,
 * the header and (when no ladder names the area) the ladders and trailing bytes are written
 * back byte for byte. Returns the rebuilt document.
 */
function checkEditElsewhere(doc: NavDocument, bytes: Uint8Array, id: number, edit: Edit): NavDocument {
  const mesh = navToWalkmesh(doc, 'x');
  applyEdit(mesh, command(mesh, doc, id, edit));
  const edited = navFromWalkmesh(mesh, doc);
  const out = writeNav(edited);
  const before = navAreaOffsets(doc);
  const after = navAreaOffsets(edited);
  const records = unpackAreas(doc.areas);
  const target = records.find((r) => r.id === id)!;
  const targetSpots = new Set(navGates.encounterPaths(doc.version) ? target.hidingSpots.map((h) => h.id) : []);
  // Matched by ID, in order (a file may give two areas one ID).
  const indexBefore = new Map<number, number[]>();
  records.forEach((r, i) => indexBefore.set(r.id, [...(indexBefore.get(r.id) ?? []), i]));

  // The header up to the area count (which a delete lowers by one).
  expect(equalBytes(out.subarray(0, after[0]! - 4), bytes.subarray(0, before[0]! - 4))).toBe(true);
  let compared = 0;
  for (let a = 0; a < edited.areas.count; a++) {
    const aid = edited.areas.id[a]!;
    const i = indexBefore.get(aid)!.shift()!;
    const original = bytes.subarray(before[i], before[i + 1]);
    const written = out.subarray(after[a], after[a + 1]);
    if (aid === id) {
      // The edited area itself: only its attributes and corners may change.
      const head = 4 + navGates.attributeBytes(doc.version) + 32;
      expect(equalBytes(written.subarray(head), original.subarray(head)), `area ${aid} beyond its corners`).toBe(true);
      continue;
    }
    if (edit.kind === 'delete' && refersTo(records[i]!, id, targetSpots)) continue;
    expect(equalBytes(written, original), `area ${aid}`).toBe(true);
    compared++;
  }
  expect(compared).toBeGreaterThan(0);
  const ladderNamesIt = Array.from(doc.ladders.areas).includes(id);
  if (edit.kind !== 'delete' || !ladderNamesIt) {
    expect(equalBytes(out.subarray(after[edited.areas.count]), bytes.subarray(before[doc.areas.count]))).toBe(true);
  }
  expect(edited.areas.count).toBe(doc.areas.count - (edit.kind === 'delete' ? 1 : 0));
  return edited;
}

describe('.nav through the common model keeps what it does not edit', () => {
  it('finds the fixtures of both folders, the old versions among them', () => {
    const versions = new Set(files.map((f) => readNav(readFixture(f)).version));
    for (const v of [3, 4, 5, 9, 16]) expect(versions.has(v), `version ${v}`).toBe(true);
  });

  it.each(files.map((f) => [fixtureName(f), f]))('%s: unedited, the whole file comes back byte for byte', (_n, file) => {
    const bytes = readFixture(file);
    const doc = readNav(bytes);
    expect(equalBytes(writeNav(navFromWalkmesh(navToWalkmesh(doc, 'x'), doc)), bytes)).toBe(true);
  });

  it.each(files.map((f) => [fixtureName(f), f]))('%s: a random edit of one area leaves every other area record byte-identical', (_n, file) => {
    const bytes = readFixture(file);
    const doc = readNav(bytes);
    const runs = bytes.length > 1_000_000 ? 2 : 3;
    fc.assert(
      fc.property(fc.nat(doc.areas.count - 1), editArb, (index, edit) => {
        checkEditElsewhere(doc, bytes, doc.areas.id[index]!, edit);
      }),
      { numRuns: runs, seed: bytes.length },
    );
  });
});

describe('areas the engine tolerates survive the model', () => {
  const source = readNav(readFixture(`${fixturesRoot}/source/csgo/dm_bloodsport.nav`));
  const { doc, flaws } = navWithToleratedFlaws(source);
  const bytes = writeNav(doc);

  it('the variant holds what it should: degenerate, unordered, absent anchor and visible entry', () => {
    const again = readNav(bytes);
    const records = new Map(unpackAreas(again.areas).map((r) => [r.id, r]));
    const c = (id: number) => floatView(records.get(id)!.corners);
    expect(c(flaws.zeroWidth)[0]).toBe(c(flaws.zeroWidth)[3]);
    expect(c(flaws.zeroDepth)[1]).toBe(c(flaws.zeroDepth)[4]);
    expect([c(flaws.point)[0], c(flaws.point)[1]]).toEqual([c(flaws.point)[3], c(flaws.point)[4]]);
    expect(c(flaws.unordered)[0]).toBeGreaterThan(c(flaws.unordered)[3]!);
    expect(records.get(flaws.absentAnchor)!.inheritVisibilityFrom).toBe(flaws.absentId);
    expect(records.has(flaws.absentId)).toBe(false);
  });

  it('comes back byte for byte through the model without an edit', () => {
    expect(equalBytes(writeNav(navFromWalkmesh(navToWalkmesh(readNav(bytes), 'x'), readNav(bytes))), bytes)).toBe(true);
  });

  it('keeps the flawed records byte for byte when another area is moved, re-attributed or deleted', () => {
    const again = readNav(bytes);
    const other = again.areas.id[1]!;
    for (const edit of [{ kind: 'move', dx: 25, dy: -25, dz: 8 }, { kind: 'attributes', value: 0x4 }, { kind: 'delete' }] as const) {
      const edited = checkEditElsewhere(again, bytes, other, edit);
      const records = new Map(unpackAreas(edited.areas).map((r) => [r.id, r]));
      expect(records.get(flaws.absentAnchor)!.inheritVisibilityFrom).toBe(flaws.absentId);
      expect(records.get(flaws.absentVisible)!.visible.some((v) => v.id === flaws.absentId)).toBe(true);
    }
  });

  it('moves a degenerate and an unordered area themselves as they are stored', () => {
    const again = readNav(bytes);
    for (const id of [flaws.zeroWidth, flaws.point, flaws.unordered]) {
      const edited = checkEditElsewhere(again, bytes, id, { kind: 'move', dx: 0, dy: 0, dz: 16 });
      const a = Array.from(edited.areas.id).indexOf(id);
      const b = Array.from(again.areas.id).indexOf(id);
      const after = floatView(edited.areas.corners).subarray(a * 8, a * 8 + 8);
      const before = floatView(again.areas.corners).subarray(b * 8, b * 8 + 8);
      expect(Array.from(after)).toEqual(Array.from(before).map((v, k) => ([2, 5, 6, 7].includes(k) ? v + 16 : v)));
    }
  });

  it('drops a reference to an area only when the edit removed that area', () => {
    const [inheritor, anchor] = [unpackAreas(doc.areas)[2]!.id, unpackAreas(doc.areas)[3]!.id];
    const withAnchor = editAreas(doc, (areas) => {
      areas[2]!.inheritVisibilityFrom = anchor;
    });
    const anchored = writeNav(withAnchor);
    const edited = checkEditElsewhere(readNav(anchored), anchored, anchor, { kind: 'delete' });
    const after = new Map(unpackAreas(edited.areas).map((r) => [r.id, r]));
    expect(after.has(anchor)).toBe(false);
    expect(after.get(inheritor)!.inheritVisibilityFrom).toBe(0);
    expect(after.get(flaws.absentAnchor)!.inheritVisibilityFrom).toBe(flaws.absentId);
  });

  it('validates with warnings only: the engine loads all of it', () => {
    const findings = validateNav(readNav(bytes));
    expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
    const warned = new Set(findings.map((f) => f.code));
    for (const code of ['nav.area.degenerate', 'nav.area.corners-unordered', 'nav.visibility.missing-anchor', 'nav.visibility.missing-area', 'nav.trailing-bytes']) {
      expect(warned.has(code), code).toBe(true);
    }
  });
});

describe('what the validator calls errors still comes back through the model unchanged', () => {
  const source = readNav(readFixture(`${fixturesRoot}/source/tf2/itemtest.nav`));

  it('two areas sharing an ID, an area with ID 0, a NaN corner with a payload and a connection to an absent area', () => {
    const doc = editAreas(source, (areas) => {
      areas[4]!.id = areas[3]!.id;
      areas[4]!.attributes = areas[3]!.attributes ^ 0x1;
      areas[6]!.id = 0;
      areas[7]!.corners[2] = 0x7fc01234; // a NaN whose payload a float read would lose
      areas[8]!.connections[0].push(9_999_999);
    });
    const bytes = writeNav(doc);
    const again = readNav(bytes);
    const codes = new Set(validateNav(again).filter((f) => f.severity === 'error').map((f) => f.code));
    expect([...codes].sort()).toEqual(['nav.area.corner-not-finite', 'nav.area.duplicate-id', 'nav.area.zero-id', 'nav.connection.missing-area']);
    expect(equalBytes(writeNav(navFromWalkmesh(navToWalkmesh(again, 'x'), again)), bytes)).toBe(true);
    for (const edit of [{ kind: 'move', dx: 0, dy: 0, dz: 4 }, { kind: 'attributes', value: 0x2 }, { kind: 'delete' }] as const) {
      checkEditElsewhere(again, bytes, again.areas.id[10]!, edit);
    }
  });
});
