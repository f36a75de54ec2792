import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDocumentEdit, type EditableDocument } from '../../../shared/edits/apply-document-edit';
import type { DocumentEditCommand } from '../../../shared/edits/document-edit-command';
import { EditError } from '../../../shared/edits/edit-error';
import { parseDocumentEditCommand } from '../../../shared/edits/parse-document-edit-command';
import { areaConnections } from '../../../shared/edits/source-connections';
import type { GffDocument } from '../../../shared/formats/aurora/gff-document';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { writeGff } from '../../../shared/formats/aurora/gff-writer';
import { readGitPlaceables, readGitWalkmeshCutters } from '../../../shared/formats/aurora/nwn2-git';
import { NO_TRANSITION } from '../../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { writeBwm } from '../../../shared/formats/kotor/bwm-writer';
import type { NavDocument } from '../../../shared/formats/source/nav-document';
import { readNav } from '../../../shared/formats/source/nav-reader';
import { writeNav } from '../../../shared/formats/source/nav-writer';
import { portableEnvironment } from '../../../shared/formats/format-environment';
import { detectFormat } from '../../../shared/formats/format-registry';
import type { PluginDocument } from '../../../shared/formats/skyrim/plugin-document';
import { pluginNavmeshes } from '../../../shared/formats/skyrim/plugin-navmeshes';
import { fixturesRoot, readFixture } from '../../support/fixtures';

type Seed = [number, number, number, number];

/** Byte equality without the matcher's element-by-element diff, which is slow on files of hundreds of kilobytes. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}
const seeds = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat()), { minLength: 1, maxLength: 10 });

/**
 * Applies the commands the seeds make (each built against the document as it is then;
 * refused ones are skipped), checks each through the JSON parser, then undoes them all.
 */
function roundTrip(start: EditableDocument, make: (doc: EditableDocument['doc'], s: Seed) => DocumentEditCommand, write: (doc: EditableDocument['doc']) => Uint8Array, list: Seed[]): { bytes: Uint8Array; applied: number; edited: Uint8Array } {
  let state = start;
  const inverses: DocumentEditCommand[] = [];
  for (const s of list) {
    const cmd = make(state.doc, s);
    try {
      const r = applyDocumentEdit(state, parseDocumentEditCommand(JSON.parse(JSON.stringify(cmd)), 'test'));
      inverses.push(JSON.parse(JSON.stringify(r.inverse)) as DocumentEditCommand);
      state = { ...state, doc: r.doc } as EditableDocument;
    } catch (e) {
      if (!(e instanceof EditError)) throw e;
    }
  }
  const edited = write(state.doc);
  for (let i = inverses.length - 1; i >= 0; i--) state = { ...state, doc: applyDocumentEdit(state, parseDocumentEditCommand(inverses[i], 'inverse')).doc } as EditableDocument;
  return { bytes: write(state.doc), applied: inverses.length, edited };
}

describe('Source connect/disconnect', () => {
  const bytes = readFixture(`${fixturesRoot}/source/tf2/itemtest.nav`);
  const doc = readNav(bytes);
  const ids = Array.from(doc.areas.id);

  function make(d: EditableDocument['doc'], [k, a, b, c]: Seed): DocumentEditCommand {
    const nav = d as NavDocument;
    const from = ids[a % ids.length]!;
    const direction = c % 4;
    if (k % 2 === 0) return { kind: 'source-connect', from, to: ids[b % ids.length]!, direction, twoWay: k % 4 === 0 };
    const list = areaConnections(nav, from)[direction];
    return { kind: 'source-disconnect', from, to: list.length > 0 ? list[b % list.length]! : ids[b % ids.length]!, direction, twoWay: k % 3 === 0 };
  }

  it('random sequences then their inverses give back the original bytes', () => {
    let applied = 0;
    fc.assert(
      fc.property(seeds, (list) => {
        const r = roundTrip({ target: 'source-nav', doc }, make, (d) => writeNav(d as NavDocument), list);
        applied += r.applied;
        expect(sameBytes(r.bytes, bytes)).toBe(true);
      }),
      { numRuns: 60, seed: 8 },
    );
    expect(applied).toBeGreaterThan(50);
  });

  it('connect adds the target to the list in that direction, and both ways when asked', () => {
    const [a, b] = [ids[0]!, ids[1]!];
    const before = areaConnections(doc, a)[1].length;
    const r = applyDocumentEdit({ target: 'source-nav', doc }, { kind: 'source-connect', from: a, to: b, direction: 1, twoWay: true });
    const nav = r.doc as NavDocument;
    expect(areaConnections(nav, a)[1]).toHaveLength(before + 1);
    expect(areaConnections(nav, a)[1]).toContain(b);
    expect(areaConnections(nav, b)[3]).toContain(a);
    // The edited file reads back with the connection.
    expect(areaConnections(readNav(writeNav(nav)), a)[1]).toContain(b);
    expect(() => applyDocumentEdit({ target: 'source-nav', doc: nav }, { kind: 'source-connect', from: a, to: b, direction: 1 })).toThrow(/already connects/);
    expect(() => applyDocumentEdit({ target: 'source-nav', doc }, { kind: 'source-connect', from: a, to: 999999, direction: 1 })).toThrow(/no area 999999/);
  });
});

describe('KotOR perimeter-edge transitions', () => {
  const bytes = readFixture(`${fixturesRoot}/kotor/k1-blackvulkar/m10aa_09a.wok`);
  const doc = readBwm(bytes);
  const slots = Array.from(doc.edgeIndex);

  it('random sequences then their inverses give back the original bytes', () => {
    expect(slots.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(seeds, (list) => {
        const make = (_: unknown, [k, a, b]: Seed): DocumentEditCommand => {
          // Every few commands names an interior edge, which must be refused.
          const slot = k % 5 === 0 ? b % (doc.faces.length) : slots[a % slots.length]!;
          return { kind: 'kotor-set-transition', face: (slot / 3) | 0, edge: slot % 3, target: b % 3 === 0 ? NO_TRANSITION : b % 12 };
        };
        const r = roundTrip({ target: 'kotor-bwm', doc }, make, (d) => writeBwm(d as typeof doc), list);
        expect(sameBytes(r.bytes, bytes)).toBe(true);
      }),
      { numRuns: 60, seed: 9 },
    );
  });

  it('a set transition is written to the edge table and nothing else changes', () => {
    const slot = slots[0]!;
    const r = applyDocumentEdit({ target: 'kotor-bwm', doc }, { kind: 'kotor-set-transition', face: (slot / 3) | 0, edge: slot % 3, target: 7 });
    const written = writeBwm(r.doc as typeof doc);
    expect(written.length).toBe(bytes.length);
    expect(readBwm(written).edgeTransition[0]).toBe(7);
    let differing = 0;
    for (let i = 0; i < bytes.length; i++) if (written[i] !== bytes[i]) differing++;
    expect(differing).toBeGreaterThan(0);
    expect(differing).toBeLessThanOrEqual(4);
  });

  it('an interior edge is refused with the face named', () => {
    const perimeter = new Set(slots);
    let interior = 0;
    while (perimeter.has(interior)) interior++;
    expect(() => applyDocumentEdit({ target: 'kotor-bwm', doc }, { kind: 'kotor-set-transition', face: (interior / 3) | 0, edge: interior % 3, target: 1 })).toThrow(/not a perimeter edge/);
  });
});

describe('NWN2 GIT cutters and placeables', () => {
  const bytes = readFixture(`${fixturesRoot}/nwn2/mordmansion/CSLMordMansion.GIT`);

  function make(d: EditableDocument['doc'], [k, a, b, c]: Seed): DocumentEditCommand {
    const git = d as GffDocument;
    const cutters = readGitWalkmeshCutters(git);
    const placeables = readGitPlaceables(git);
    const x = (a % 4000) / 100;
    const y = (b % 4000) / 100;
    switch (k % 6) {
      case 0:
        return { kind: 'nwn2-add-cutter', polygon: [x, y, x + 2, y, x + 1, y + 1 + (c % 5)] };
      case 1:
        return { kind: 'nwn2-set-cutter', index: cutters.length > 0 ? cutters[c % cutters.length]!.index : c, polygon: [x, y, x + 3, y, x + 3, y + 3, x, y + 3] };
      case 2:
        return { kind: 'nwn2-delete-cutter', index: cutters.length > 0 ? cutters[c % cutters.length]!.index : c };
      case 3:
        return placeables.length > 0 ? { kind: 'nwn2-add-placeable', copyOf: c % placeables.length, position: [x, y, 0.5], bearing: (c % 628) / 100 } : { kind: 'nwn2-add-placeable', appearance: c % 50, position: [x, y, 0] };
      case 4:
        return { kind: 'nwn2-move-placeable', index: c % Math.max(1, placeables.length), position: [x, y, (c % 10) / 4] };
      default:
        return { kind: 'nwn2-rotate-placeable', index: c % Math.max(1, placeables.length), bearing: (c % 628) / 100 - 3.14 };
    }
  }

  it('random sequences then their inverses give back the original bytes', () => {
    let applied = 0;
    fc.assert(
      fc.property(seeds, (list) => {
        const r = roundTrip({ target: 'git', doc: readGff(bytes) }, make, (d) => writeGff(d as GffDocument), list);
        applied += r.applied;
        expect(sameBytes(r.bytes, bytes)).toBe(true);
      }),
      { numRuns: 15, seed: 10 },
    );
    expect(applied).toBeGreaterThan(15);
  });

  it('a new cutter reads back as the polygon drawn; moving a placeable changes only its position', () => {
    const git = readGff(bytes);
    const before = readGitWalkmeshCutters(git).length;
    applyDocumentEdit({ target: 'git', doc: git }, { kind: 'nwn2-add-cutter', polygon: [10, 10, 14, 10, 14, 13] });
    const cutters = readGitWalkmeshCutters(readGff(writeGff(git)));
    expect(cutters).toHaveLength(before + 1);
    expect(Array.from(cutters[cutters.length - 1]!.polygon)).toEqual([10, 10, 14, 10, 14, 13]);

    const fresh = readGff(bytes);
    const placeables = readGitPlaceables(fresh);
    expect(placeables.length).toBeGreaterThan(0);
    applyDocumentEdit({ target: 'git', doc: fresh }, { kind: 'nwn2-move-placeable', index: 0, position: [placeables[0]!.x + 1, placeables[0]!.y, placeables[0]!.z] });
    const moved = readGitPlaceables(readGff(writeGff(fresh)));
    expect(moved[0]!.x).toBeCloseTo(placeables[0]!.x + 1, 4);
    expect(moved.slice(1)).toEqual(placeables.slice(1));
    expect(moved[0]!.bearing).toBe(placeables[0]!.bearing);
  });

  it('a trigger that is not a cutter is refused', () => {
    const git = readGff(bytes);
    const cutterIndices = new Set(readGitWalkmeshCutters(git).map((c) => c.index));
    const triggers = (git.root.fields.find((f) => f.label === 'TriggerList')?.value as unknown[] | undefined)?.length ?? 0;
    const other = Array.from({ length: triggers }, (_, i) => i).find((i) => !cutterIndices.has(i));
    const index = other ?? triggers;
    expect(() => applyDocumentEdit({ target: 'git', doc: git }, { kind: 'nwn2-delete-cutter', index })).toThrow(EditError);
    expect(sameBytes(writeGff(git), bytes)).toBe(true);
  });
});

describe('document edit parsing', () => {
  it('names the field that is wrong and refuses unknown fields', () => {
    expect(() => parseDocumentEditCommand({ kind: 'source-connect', from: 1, to: 'x', direction: 0 }, 'p')).toThrow(/field to/);
    expect(() => parseDocumentEditCommand({ kind: 'nwn2-move-placeable', index: 0, position: [1, 2], extra: 1 }, 'p')).toThrow(/extra is not a field/);
    expect(() => parseDocumentEditCommand({ kind: 'nope' }, 'p')).toThrow(/kind "nope"/);
  });
});

describe('Skyrim cover words through the navmesh edit', () => {
  const file = `${fixturesRoot}/skyrim/DwemerSecrets.esp`;
  const bytes = readFixture(file);
  const handler = detectFormat(file, bytes)!;
  const doc = handler.read(bytes, portableEnvironment) as PluginDocument;
  const navmesh = pluginNavmeshes(doc).find((n) => n.nvnm && !n.deleted && n.nvnm.triCover.length > 4)!;

  it('cover set then undone gives back the original bytes; the edited plugin reads back with the cover', () => {
    const triangles = [0, 2, 4];
    const cover = [0x0a01, 0x0203, 0];
    const r = applyDocumentEdit({ target: 'skyrim-plugin', doc }, { kind: 'skyrim-set-triangle-flags', navmesh: navmesh.formId, triangles, cover });
    const edited = handler.write(r.doc, portableEnvironment);
    const reread = pluginNavmeshes(handler.read(edited, portableEnvironment) as PluginDocument).find((n) => n.formId === navmesh.formId)!;
    expect(triangles.map((t) => reread.nvnm!.triCover[t])).toEqual(cover);
    const back = applyDocumentEdit({ target: 'skyrim-plugin', doc: r.doc as PluginDocument }, parseDocumentEditCommand(JSON.parse(JSON.stringify(r.inverse)), 'inverse'));
    expect(sameBytes(handler.write(back.doc, portableEnvironment), bytes)).toBe(true);
  });

  it('a triangle the navmesh does not have is refused', () => {
    expect(() => applyDocumentEdit({ target: 'skyrim-plugin', doc }, { kind: 'skyrim-set-triangle-flags', navmesh: navmesh.formId, triangles: [1e6], cover: [1] })).toThrow(/does not exist/);
  });
});
