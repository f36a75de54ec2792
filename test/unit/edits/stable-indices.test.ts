import { describe, expect, it } from 'vitest';
import { applyEdit } from '../../../shared/edits/apply-edit';
import { EditError } from '../../../shared/edits/edit-error';
import { copyWalkmesh } from '../../../shared/edits/walkmesh-copy';
import { faceEdgeTransitions } from '../../../shared/bakers/kotor/bwm-face-order';
import { floatsOf, NO_TRANSITION, type BwmDocument } from '../../../shared/formats/kotor/bwm-document';
import { portableEnvironment as env } from '../../../shared/formats/format-environment';
import { detectFormat } from '../../../shared/formats/format-registry';
import type { FormatHandler } from '../../../shared/formats/format-handler';
import { unpackAreas } from '../../../shared/formats/source/nav-area-records';
import type { NavDocument } from '../../../shared/formats/source/nav-document';
import { faceCount, type Walkmesh } from '../../../shared/model/walkmesh';
import { fixturesRoot, readFixture } from '../../support/fixtures';

interface Loaded {
  handler: FormatHandler<unknown>;
  doc: unknown;
  bytes: Uint8Array;
  meshes: Walkmesh[];
}

function load(relative: string): Loaded {
  const file = `${fixturesRoot}/${relative}`;
  const bytes = readFixture(file);
  const handler = detectFormat(file, bytes)!;
  const doc = handler.read(bytes, env);
  return { handler, doc, bytes, meshes: handler.toWalkmeshes(doc, relative).map(copyWalkmesh) };
}

/** Writes the edited meshes and reads the file back. */
function writeAndRead(l: Loaded): { doc: unknown; meshes: Walkmesh[]; bytes: Uint8Array } {
  const bytes = l.handler.write(l.handler.fromWalkmeshes!(l.meshes, l.doc), env);
  const doc = l.handler.read(bytes, env);
  return { doc, bytes, meshes: l.handler.toWalkmeshes(doc, 'again') };
}

/** A face's corner positions, in an order that does not depend on numbering or winding. */
function faceKey(m: Walkmesh, f: number): string {
  const corners = [0, 1, 2].map((k) => Array.from(m.positions.subarray(m.triangles[f * 3 + k]! * 3, m.triangles[f * 3 + k]! * 3 + 3)).join(','));
  return corners.sort().join('|');
}

describe('data keyed by face index survives a delete that renumbers faces', () => {
  it('KotOR: every edge transition stays on its edge (found again by its endpoints)', () => {
    const l = load('kotor/k1-blackvulkar/m10aa_05a.wok');
    const transitions = (doc: BwmDocument): string[] => {
      const t = faceEdgeTransitions(doc);
      const P = floatsOf(doc.vertices);
      const out: string[] = [];
      for (let s = 0; s < t.length; s++) {
        if (t[s] === NO_TRANSITION) continue;
        const f = (s / 3) | 0;
        const a = doc.faces[s]!, b = doc.faces[f * 3 + ((s % 3) + 1) % 3]!;
        const ends = [a, b].map((v) => `${P[v * 3]},${P[v * 3 + 1]},${P[v * 3 + 2]}`).sort();
        out.push(`${ends.join('|')}→${t[s]}`);
      }
      return out.sort();
    };
    const before = transitions(l.doc as BwmDocument);
    expect(before).toHaveLength(7);
    const slots = faceEdgeTransitions(l.doc as BwmDocument);
    // The first face with no transition on any of its edges, early enough that many faces follow it.
    let f = 0;
    while (slots[f * 3] !== NO_TRANSITION || slots[f * 3 + 1] !== NO_TRANSITION || slots[f * 3 + 2] !== NO_TRANSITION) f++;
    const F = faceCount(l.meshes[0]!);
    expect(applyEdit(l.meshes[0]!, { kind: 'delete-faces', faces: [f] }).renumbered).toBe(true);
    const again = writeAndRead(l);
    expect(faceCount(again.meshes[0]!)).toBe(F - 1);
    expect(transitions(again.doc as BwmDocument)).toEqual(before);
  });

  it('NWN2: every face keeps its tile after a delete renumbers the faces after it', () => {
    const l = load('nwn2/kaedrin/dm001_cargohold.trx');
    const mesh = l.meshes[0]!;
    expect(applyEdit(mesh, { kind: 'delete-faces', faces: [10] }).renumbered).toBe(true);
    const tileOf = new Map<string, number>();
    for (let f = 0; f < faceCount(mesh); f++) tileOf.set(faceKey(mesh, f), mesh.faceOwner[f]!);
    const again = writeAndRead(l).meshes[0]!;
    expect(faceCount(again)).toBe(faceCount(mesh));
    let checked = 0;
    for (let f = 0; f < faceCount(again); f++) {
      expect(again.faceOwner[f]).toBe(tileOf.get(faceKey(again, f)));
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('Source: deleting a face deletes its area and the connections to it; the other areas keep their IDs', () => {
    const l = load('source/tf2/itemtest.nav');
    const mesh = l.meshes[0]!;
    const gone = mesh.faceOwner[2]!;
    const ids = unpackAreas((l.doc as NavDocument).areas).map((r) => r.id);
    const r = applyEdit(mesh, { kind: 'delete-faces', faces: [2] });
    expect(faceCount(mesh)).toBe(ids.length * 2 - 2);
    const again = writeAndRead(l);
    const records = unpackAreas((again.doc as NavDocument).areas);
    expect(records.map((a) => a.id)).toEqual(ids.filter((id) => id !== gone));
    for (const a of records) for (const list of a.connections) expect(list).not.toContain(gone);
    // The undo brings the area back with its connections: the file's own bytes.
    applyEdit(mesh, r.inverse);
    expect(Buffer.from(writeAndRead(l).bytes).equals(Buffer.from(l.bytes))).toBe(true);
  });

  it('Skyrim: a delete that would renumber triangles is refused; appended faces can be added and undone', () => {
    const l = load('skyrim/FreeCamera.esp');
    const mesh = l.meshes.find((m) => faceCount(m) > 2)!;
    const F = faceCount(mesh);
    expect(() => applyEdit(mesh, { kind: 'delete-faces', faces: [0] })).toThrow(EditError);
    expect(() => applyEdit(mesh, { kind: 'delete-faces', faces: [0] })).toThrow(/renumber/);
    const r = applyEdit(mesh, { kind: 'split-edge', edge: [mesh.triangles[0]!, mesh.triangles[1]!] });
    expect(faceCount(mesh)).toBeGreaterThan(F);
    applyEdit(mesh, r.inverse);
    expect(faceCount(mesh)).toBe(F);
    expect(Buffer.from(writeAndRead(l).bytes).equals(Buffer.from(l.bytes))).toBe(true);
  });
});
