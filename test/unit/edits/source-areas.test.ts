import { describe, expect, it } from 'vitest';
import { applyEdit } from '../../../shared/edits/apply-edit';
import { copyWalkmesh } from '../../../shared/edits/walkmesh-copy';
import { portableEnvironment as env } from '../../../shared/formats/format-environment';
import { navFormat } from '../../../shared/formats/source/nav-format';
import { unpackAreas } from '../../../shared/formats/source/nav-area-records';
import { floatView, NavCorner as C } from '../../../shared/formats/source/nav-document';
import { fixturesRoot, readFixture } from '../../support/fixtures';

const bytes = readFixture(`${fixturesRoot}/source/tf2/itemtest.nav`);

function load() {
  const doc = navFormat.read(bytes, env);
  return { doc, mesh: copyWalkmesh(navFormat.toWalkmeshes(doc, 'itemtest')[0]!) };
}

describe('Source area commands', () => {
  it('split-area cuts an area in two: the old ID keeps the west part and its connections, a new ID gets the east part', () => {
    const { doc, mesh } = load();
    const records = unpackAreas(doc.areas);
    const target = records.find((r) => r.connections.some((c) => c.length > 0))!;
    const c = floatView(target.corners);
    const mid = Math.fround((c[C.NwX]! + c[C.SeX]!) / 2);
    const r = applyEdit(mesh, { kind: 'split-area', area: target.id, axis: 'x', at: mid });
    const written = navFormat.fromWalkmeshes!([mesh], doc);
    const after = unpackAreas(written.areas);
    expect(after).toHaveLength(records.length + 1);
    const kept = after.find((a) => a.id === target.id)!;
    const added = after[after.length - 1]!;
    expect(added.id).toBe(Math.max(...records.map((a) => a.id)) + 1);
    const k = floatView(kept.corners), n = floatView(added.corners);
    expect([k[C.NwX], k[C.SeX], n[C.NwX], n[C.SeX]]).toEqual([c[C.NwX], mid, mid, c[C.SeX]]);
    expect([k[C.NwY], k[C.SeY], n[C.NwY], n[C.SeY]]).toEqual([c[C.NwY], c[C.SeY], c[C.NwY], c[C.SeY]]);
    expect(kept.connections).toEqual(target.connections);
    expect(added.connections.every((l) => l.length === 0)).toBe(true);
    applyEdit(mesh, r.inverse);
    expect(Buffer.from(navFormat.write(navFormat.fromWalkmeshes!([mesh], doc), env)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('merge-areas after a split gives the original file back', () => {
    const { doc, mesh } = load();
    const target = unpackAreas(doc.areas)[0]!;
    const c = floatView(target.corners);
    applyEdit(mesh, { kind: 'split-area', area: target.id, axis: 'y', at: Math.fround((c[C.NwY]! + c[C.SeY]!) / 2) });
    const added = Math.max(...Array.from(mesh.faceOwner));
    applyEdit(mesh, { kind: 'merge-areas', keep: target.id, remove: added });
    expect(Buffer.from(navFormat.write(navFormat.fromWalkmeshes!([mesh], doc), env)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('refuses a cut outside the area and a merge of areas that are not one rectangle', () => {
    const { doc, mesh } = load();
    const [a, b] = unpackAreas(doc.areas);
    const c = floatView(a!.corners);
    expect(() => applyEdit(mesh, { kind: 'split-area', area: a!.id, axis: 'x', at: c[C.SeX]! + 1 })).toThrow(/not strictly inside/);
    expect(() => applyEdit(mesh, { kind: 'split-area', area: 999999, axis: 'x', at: 0 })).toThrow(/no area 999999/);
    const fb = floatView(b!.corners);
    const oneRectangle = (c[C.NwY] === fb[C.NwY] && c[C.SeY] === fb[C.SeY] && (c[C.SeX] === fb[C.NwX] || fb[C.SeX] === c[C.NwX])) || (c[C.NwX] === fb[C.NwX] && c[C.SeX] === fb[C.SeX] && (c[C.SeY] === fb[C.NwY] || fb[C.SeY] === c[C.NwY]));
    expect(oneRectangle).toBe(false);
    expect(() => applyEdit(mesh, { kind: 'merge-areas', keep: a!.id, remove: b!.id })).toThrow(/whole side/);
  });
});
