import { describe, expect, it } from 'vitest';
import { applyNavmeshEdit, type NavmeshEdit, type NavmeshEditResult } from '../../../shared/bakers/skyrim/navmesh-edit';
import { buildGrid } from '../../../shared/bakers/skyrim/navmesh-grid';
import { compareRebake, rebakePlugin } from '../../../shared/bakers/skyrim/plugin-rebake';
import { naviNeighboursOf } from '../../../shared/bakers/skyrim/navi-rebake';
import { gridDivisorFor } from '../../../shared/formats/skyrim/nvnm-grid';
import { TRI_EDGE_LINK_BITS, TRI_FOUND, TRI_PREFERRED, type NvnmDocument } from '../../../shared/formats/skyrim/nvnm-document';
import { formIdHex, type PluginDocument } from '../../../shared/formats/skyrim/plugin-document';
import { pluginNaviEntries } from '../../../shared/formats/skyrim/plugin-navmeshes';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { writePlugin } from '../../../shared/formats/skyrim/plugin-writer';
import { validatePlugin } from '../../../shared/formats/skyrim/skyrim-validate';
import { env, floatsOf, modelledNavmeshes, readFixturePlugin, recordBytes } from '../skyrim/skyrim-helpers';

const LINK_BITS = TRI_EDGE_LINK_BITS[0] | TRI_EDGE_LINK_BITS[1] | TRI_EDGE_LINK_BITS[2];

function navmesh(doc: PluginDocument, formId: number): NvnmDocument {
  const n = modelledNavmeshes(doc).find((x) => x.formId === formId && !x.deleted);
  if (!n) throw new Error(`no navmesh ${formIdHex(formId)}`);
  return n.nvnm;
}

function errors(doc: PluginDocument): string[] {
  return validatePlugin(doc).filter((f) => f.severity === 'error').map((f) => `${f.code}: ${f.message}`).sort();
}

function warnings(doc: PluginDocument): string[] {
  return validatePlugin(doc).filter((f) => f.severity === 'warning').map((f) => f.code).sort();
}

/** Writes and re-reads the edited plugin; checks that every record except the edited navmeshes' NAVMs and the NAVI kept its bytes. */
function writtenKeepingOthers(input: { doc: PluginDocument; bytes: Uint8Array }, result: NavmeshEditResult): { doc: PluginDocument; bytes: Uint8Array } {
  const bytes = writePlugin(result.document, env);
  const doc = readPlugin(bytes, env);
  const before = recordBytes(input.doc, input.bytes);
  const after = recordBytes(doc, bytes);
  expect([...after.keys()]).toEqual([...before.keys()]);
  const changed = new Set(result.changed.map(formIdHex));
  let differing = 0;
  for (const [key, data] of before) {
    const [, sig, id] = key.split(' ');
    const same = Buffer.from(after.get(key)!).equals(Buffer.from(data));
    if (!same) differing++;
    if (sig === 'NAVI' || (sig === 'NAVM' && changed.has(id!))) continue;
    expect(same, key).toBe(true);
  }
  expect(differing).toBeGreaterThan(0);
  return { doc, bytes };
}

function undoRestoresBytes(input: { bytes: Uint8Array }, result: NavmeshEditResult): void {
  const undone = applyNavmeshEdit(result.document, result.inverse);
  expect(Buffer.from(writePlugin(undone.document, env)).equals(Buffer.from(input.bytes))).toBe(true);
  // Redoing through the undo's own inverse gives the edited plugin back.
  const redone = applyNavmeshEdit(undone.document, undone.inverse);
  expect(Buffer.from(writePlugin(redone.document, env)).equals(Buffer.from(writePlugin(result.document, env)))).toBe(true);
}

/** How far a rebake of the edited navmesh agrees with what the edit wrote (1 everywhere: the edit left nothing to derive). */
function rebakeAgreement(doc: PluginDocument, formId: number): unknown {
  const [report] = compareRebake(rebakePlugin(doc, { navmesh: formId }));
  return report!.comparison!.agreement;
}

/** A triangle whose three edges are internal (not links, not open) and that nothing else names. */
function interiorTriangle(v: NvnmDocument, from = 0): number {
  const doors = new Set(v.doorTriangle);
  for (let t = from; t < v.triFlags.length; t++) {
    if ((v.triFlags[t]! & LINK_BITS) !== 0 || doors.has(t)) continue;
    if ([0, 1, 2].every((k) => v.triEdges[t * 3 + k]! >= 0)) return t;
  }
  throw new Error('no interior triangle');
}

/** Triangle and edge of an open edge (−1, no link bit). */
function openEdge(v: NvnmDocument): { t: number; k: number } {
  for (let t = 0; t < v.triFlags.length; t++) {
    for (let k = 0; k < 3; k++) if ((v.triFlags[t]! & TRI_EDGE_LINK_BITS[k]!) === 0 && v.triEdges[t * 3 + k] === -1) return { t, k };
  }
  throw new Error('no open edge');
}

describe('navmesh edits on DwemerSecrets.esp', () => {
  const input = readFixturePlugin('DwemerSecrets.esp');
  const baseErrors = errors(input.doc);

  it('moves vertices: new positions, a rebuilt grid and NAVI centre, links untouched, undo restores every byte', () => {
    const id = 0x000f26c7;
    const v = navmesh(input.doc, id);
    const vertex = v.triVertices[interiorTriangle(v) * 3]!;
    const old = floatsOf(v.vertices.subarray(vertex * 3, vertex * 3 + 3));
    const edit: NavmeshEdit = { kind: 'move-vertices', navmesh: id, vertices: [vertex], positions: [old[0]! + 40, old[1]! - 25, old[2]! + 3] };
    const result = applyNavmeshEdit(input.doc, edit);
    expect(result.changed).toEqual([id]);
    expect(result.inverse.kind).toBe('restore');
    expect(result.notes).toEqual([]);
    const out = writtenKeepingOthers(input, result);
    const after = navmesh(out.doc, id);
    expect(Array.from(floatsOf(after.vertices.subarray(vertex * 3, vertex * 3 + 3)))).toEqual([Math.fround(old[0]! + 40), Math.fround(old[1]! - 25), Math.fround(old[2]! + 3)]);
    expect(after.triEdges).toEqual(v.triEdges);
    expect(after.edgeLinkTriangle).toEqual(v.edgeLinkTriangle);
    const grid = buildGrid(after, v.gridDivisor);
    expect(after.gridTriangles).toEqual(grid.gridTriangles);
    expect(after.gridCells).toEqual(grid.gridCells);
    expect(after.gridCellStart).toEqual(grid.gridCellStart);
    // What a rebake would derive, the edit already wrote: grid, cover, edges and NAVI all agree.
    expect(rebakeAgreement(out.doc, id)).toEqual({ edgeLinks: 1, coverList: 1, grid: 1, navi: 1 });
    expect(errors(out.doc)).toEqual(baseErrors);
    undoRestoresBytes(input, result);
  });

  it('changes triangle flags and cover words: link bits stay, the cover list and NAVI preferred fraction follow', () => {
    const id = 0x000f26c8;
    const v = navmesh(input.doc, id);
    const border = v.triFlags.findIndex((f) => (f & LINK_BITS) !== 0);
    const plain = v.triCover.findIndex((c, t) => c === 0 && (v.triFlags[t]! & LINK_BITS) === 0);
    const result = applyNavmeshEdit(input.doc, { kind: 'set-triangle-flags', navmesh: id, triangles: [border, plain], flags: [TRI_FOUND | TRI_PREFERRED, TRI_FOUND | TRI_PREFERRED], cover: [v.triCover[border]!, 0x400f] });
    const out = writtenKeepingOthers(input, result);
    const after = navmesh(out.doc, id);
    expect(after.triFlags[border]).toBe(TRI_FOUND | TRI_PREFERRED | (v.triFlags[border]! & LINK_BITS));
    expect(Array.from(after.coverTriangles)).toContain(plain);
    expect(after.coverTriangles.length).toBe(v.coverTriangles.length + 1);
    const nvmi = pluginNaviEntries(out.doc)[0]!.entries.find((e) => e.navmesh === id)!;
    const preferred = Array.from(after.triFlags).filter((f) => f & TRI_PREFERRED).length;
    expect(floatsOf(nvmi.floats)[3]).toBeCloseTo(preferred / after.triFlags.length, 6);
    expect([...nvmi.preferredEdgeLinks].sort()).toEqual([...naviNeighboursOf(after).preferredEdgeLinks].sort());
    expect(nvmi.preferredEdgeLinks.length).toBeGreaterThan(0);
    expect(errors(out.doc)).toEqual(baseErrors);
    undoRestoresBytes(input, result);
  });

  it('adds triangles: appended after every stored triangle, joined to the open edge they share, grid and divisor rebuilt', () => {
    const id = 0x02002e28;
    const v = navmesh(input.doc, id);
    const nv = v.vertices.length / 3;
    const nt = v.triFlags.length;
    const { t, k } = openEdge(v);
    const a = v.triVertices[t * 3 + k]!;
    const b = v.triVertices[t * 3 + ((k + 1) % 3)]!;
    const pa = floatsOf(v.vertices.subarray(a * 3, a * 3 + 3));
    const pb = floatsOf(v.vertices.subarray(b * 3, b * 3 + 3));
    // A new vertex just outside the open edge (to its right, the side away from triangle t).
    const ex = pb[0]! - pa[0]!, ey = pb[1]! - pa[1]!;
    const apex = [(pa[0]! + pb[0]!) / 2 + ey * 0.5, (pa[1]! + pb[1]!) / 2 - ex * 0.5, (pa[2]! + pb[2]!) / 2];
    const result = applyNavmeshEdit(input.doc, { kind: 'add-triangles', navmesh: id, positions: apex, triangles: [b, a, nv] });
    const out = writtenKeepingOthers(input, result);
    const after = navmesh(out.doc, id);
    expect(after.triFlags.length).toBe(nt + 1);
    expect(after.vertices.length / 3).toBe(nv + 1);
    expect(Array.from(after.triVertices.subarray(nt * 3))).toEqual([b, a, nv]);
    expect(after.triEdges[nt * 3]).toBe(t);
    expect(after.triEdges[t * 3 + k]).toBe(nt);
    expect(after.triFlags[nt]).toBe(TRI_FOUND);
    // Every stored triangle keeps its vertices, flags and index.
    expect(after.triVertices.subarray(0, nt * 3)).toEqual(v.triVertices);
    expect(after.gridDivisor).toBe(gridDivisorFor(nt + 1));
    expect(after.gridTriangles).toContain(nt);
    expect(rebakeAgreement(out.doc, id)).toEqual({ edgeLinks: 1, coverList: 1, grid: 1, navi: 1 });
    expect(errors(out.doc)).toEqual(baseErrors);
    expect(warnings(out.doc)).toEqual(warnings(input.doc));
    undoRestoresBytes(input, result);
  });

  it('adds a triangle across an open edge that carried cover: that edge\'s cover slot is cleared', () => {
    const id = 0x000f26c7;
    const v = navmesh(input.doc, id);
    let u = -1;
    let k = -1;
    for (let t = 0; t < v.triFlags.length && u < 0; t++) {
      for (const e of [0, 1]) {
        if (u < 0 && (v.triFlags[t]! & TRI_EDGE_LINK_BITS[e]!) === 0 && v.triEdges[t * 3 + e] === -1 && ((v.triCover[t]! >> (6 * e)) & 0x3f) !== 0) [u, k] = [t, e];
      }
    }
    expect(u).toBeGreaterThanOrEqual(0);
    const a = v.triVertices[u * 3 + k]!;
    const b = v.triVertices[u * 3 + k + 1]!;
    const pa = floatsOf(v.vertices.subarray(a * 3, a * 3 + 3));
    const pb = floatsOf(v.vertices.subarray(b * 3, b * 3 + 3));
    const apex = [(pa[0]! + pb[0]!) / 2 + (pb[1]! - pa[1]!) / 2, (pa[1]! + pb[1]!) / 2 - (pb[0]! - pa[0]!) / 2, pa[2]!];
    const result = applyNavmeshEdit(input.doc, { kind: 'add-triangles', navmesh: id, positions: apex, triangles: [b, a, v.vertices.length / 3] });
    const after = navmesh(result.document, id);
    expect(after.triEdges[u * 3 + k]).toBe(v.triFlags.length);
    expect((after.triCover[u]! >> (6 * k)) & 0x3f).toBe(0);
    expect(after.triCover[u]! & ~(0x3f << (6 * k))).toBe(v.triCover[u]! & ~(0x3f << (6 * k)));
    expect(Array.from(after.coverTriangles).includes(u)).toBe((after.triCover[u]! & 0x3fff) !== 0);
    expect(errors(result.document)).toEqual(baseErrors);
  });

  it('deletes an interior triangle: border triangles keep their index, every internal reference is remapped', () => {
    const id = 0x000b83e0;
    const v = navmesh(input.doc, id);
    const nt = v.triFlags.length;
    const victim = interiorTriangle(v);
    const result = applyNavmeshEdit(input.doc, { kind: 'delete-triangles', navmesh: id, triangles: [victim] });
    expect(result.changed).toEqual([id]);
    const map = result.triangleMap!;
    expect(map[victim]).toBe(-1);
    const out = writtenKeepingOthers(input, result);
    const after = navmesh(out.doc, id);
    expect(after.triFlags.length).toBe(nt - 1);
    for (let t = 0; t < nt; t++) {
      if (t === victim) continue;
      const n = map[t]!;
      expect(Array.from(after.triVertices.subarray(n * 3, n * 3 + 3))).toEqual(Array.from(v.triVertices.subarray(t * 3, t * 3 + 3)));
      if ((v.triFlags[t]! & LINK_BITS) !== 0) expect(n, `border triangle ${t}`).toBe(t);
      for (let k = 0; k < 3; k++) {
        const e = v.triEdges[t * 3 + k]!;
        const isLink = (v.triFlags[t]! & TRI_EDGE_LINK_BITS[k]!) !== 0;
        expect(after.triEdges[n * 3 + k]).toBe(isLink ? e : e === victim ? -1 : e >= 0 ? map[e] : -1);
      }
    }
    expect(after.edgeLinkTriangle).toEqual(v.edgeLinkTriangle);
    expect(after.gridTriangles.every((t) => t >= 0 && t < nt - 1)).toBe(true);
    expect(rebakeAgreement(out.doc, id)).toEqual({ edgeLinks: 1, coverList: 1, grid: 1, navi: 1 });
    expect(errors(out.doc)).toEqual(baseErrors);
    expect(warnings(out.doc).filter((w) => w !== 'navm.island')).toEqual(warnings(input.doc).filter((w) => w !== 'navm.island'));
    undoRestoresBytes(input, result);
  });

  it('notes that a navmesh\'s NAVI island data is kept as stored when its geometry changes', () => {
    const id = 0x02002e2e;
    const result = applyNavmeshEdit(input.doc, { kind: 'move-vertices', navmesh: id, vertices: [0], positions: [0, 0, 0] });
    expect(pluginNaviEntries(input.doc)[0]!.entries.find((e) => e.navmesh === id)!.island).toBeDefined();
    expect(result.notes).toEqual([`navmesh 0x02002E2E: its NAVI island data is kept as stored and may no longer match the edited geometry`]);
    expect(applyNavmeshEdit(result.document, result.inverse).notes).toEqual([]);
  });

  it('refuses deletions that would break what it cannot update', () => {
    const doc = input.doc;
    const master = navmesh(doc, 0x000f26ca);
    const toMaster = master.triFlags.findIndex((f) => (f & LINK_BITS) !== 0);
    expect(() => applyNavmeshEdit(doc, { kind: 'delete-triangles', navmesh: 0x000f26ca, triangles: [toMaster] })).toThrow(/links to navmesh 0x[0-9A-F]{8}, which this plugin does not hold/);
    // Deleting as many triangles as follow 0x000F26C7's last border triangle would move that one into a hole.
    const tail = navmesh(doc, 0x000f26c7);
    const nt = tail.triFlags.length;
    let lastBorder = nt - 1;
    while ((tail.triFlags[lastBorder]! & LINK_BITS) === 0) lastBorder--;
    expect(lastBorder).toBeGreaterThan(nt - 5);
    const victims: number[] = [];
    for (let t = -1; victims.length < nt - lastBorder; ) victims.push((t = interiorTriangle(tail, t + 1)));
    expect(() => applyNavmeshEdit(doc, { kind: 'delete-triangles', navmesh: 0x000f26c7, triangles: victims })).toThrow(new RegExp(`would renumber border or door triangle ${lastBorder} `));
    expect(() => applyNavmeshEdit(doc, { kind: 'delete-triangles', navmesh: 0x000f26c7, triangles: victims.slice(1) })).not.toThrow();
    expect(() => applyNavmeshEdit(doc, { kind: 'delete-triangles', navmesh: 0x000f26c7, triangles: [9999] })).toThrow(/triangle 9999 does not exist \(the navmesh has 276\)/);
    expect(() => applyNavmeshEdit(doc, { kind: 'delete-triangles', navmesh: 0x0badf00d, triangles: [0] })).toThrow(/no live navmesh 0x0BADF00D/);
    expect(() => applyNavmeshEdit(doc, { kind: 'add-triangles', navmesh: 0x02002e28, triangles: [0, 1, 1_000_000] })).toThrow(/names vertex 1000000/);
    expect(() => applyNavmeshEdit(doc, { kind: 'add-triangles', navmesh: 0x02002e28, triangles: [0, 1, 2], flags: [TRI_FOUND | 1] })).toThrow(/edge-link bits/);
    expect(() => applyNavmeshEdit(doc, { kind: 'move-vertices', navmesh: 0x02002e28, vertices: [0], positions: [0, 1e39, 0] })).toThrow(/not a finite f32/);
    expect(() => applyNavmeshEdit(doc, { kind: 'set-triangle-flags', navmesh: 0x02002e28, triangles: [0, 0], flags: [0, 0] })).toThrow(/listed twice/);
  });
});

describe('navmesh edits with links inside DawnOfTheSilverHand.esp', () => {
  const input = readFixturePlugin('DawnOfTheSilverHand.esp');
  const baseErrors = errors(input.doc);

  it('deletes a border triangle and removes its link on both sides; the neighbour changes only in its link fields', () => {
    const id = 0x0200e9cd;
    const v = navmesh(input.doc, id);
    const li = 0;
    const neighbourId = v.edgeLinkNavmesh[li]!;
    const u = v.edgeLinkTriangle[li]!;
    let victim = -1;
    for (let t = 0; t < v.triFlags.length && victim < 0; t++) {
      for (let k = 0; k < 3; k++) if ((v.triFlags[t]! & TRI_EDGE_LINK_BITS[k]!) !== 0 && v.triEdges[t * 3 + k] === li) victim = t;
    }
    const result = applyNavmeshEdit(input.doc, { kind: 'delete-triangles', navmesh: id, triangles: [victim] });
    expect(result.changed).toEqual([id, neighbourId]);
    const out = writtenKeepingOthers(input, result);
    const after = navmesh(out.doc, id);
    expect(after.edgeLinkNavmesh.length).toBe(v.edgeLinkNavmesh.length - 1);
    for (let t = 0; t < v.triFlags.length; t++) {
      if (t !== victim && (v.triFlags[t]! & LINK_BITS) !== 0) expect(result.triangleMap![t], `border triangle ${t}`).toBe(t);
    }
    const nb = navmesh(input.doc, neighbourId);
    const nbAfter = navmesh(out.doc, neighbourId);
    // Only the link fields changed: one entry fewer and one edge opened.
    for (const field of ['vertices', 'triVertices', 'triCover', 'coverTriangles', 'doorTriangle', 'doorRef', 'gridBounds', 'gridCells', 'gridCellStart', 'gridTriangles'] as const) {
      expect(nbAfter[field], field).toEqual(nb[field]);
    }
    expect(nbAfter.edgeLinkNavmesh.length).toBe(nb.edgeLinkNavmesh.length - 1);
    let opened = 0;
    for (let s = 0; s < nb.triEdges.length; s++) {
      const t = Math.floor(s / 3);
      const bit = TRI_EDGE_LINK_BITS[s % 3]!;
      if ((nb.triFlags[t]! & bit) !== 0 && (nbAfter.triFlags[t]! & bit) === 0) {
        opened++;
        expect(t).toBe(u);
        expect(nbAfter.triEdges[s]).toBe(-1);
      }
      expect(nbAfter.triFlags[t]! & ~LINK_BITS).toBe(nb.triFlags[t]! & ~LINK_BITS);
    }
    expect(opened).toBe(1);
    expect(rebakeAgreement(out.doc, id)).toEqual({ edgeLinks: 1, coverList: 1, grid: 1, navi: 1 });
    const found = validatePlugin(out.doc);
    // Links into Skyrim.esm stay unverifiable without it; every link inside the plugin checks out.
    expect(found.filter((f) => f.code.startsWith('navm.edge-link') && f.code !== 'navm.edge-link.unverifiable')).toEqual([]);
    expect(errors(out.doc)).toEqual(baseErrors);
    undoRestoresBytes(input, result);
  });

  it('refuses to delete a door triangle, which door references name', () => {
    const v = navmesh(input.doc, 0x000aa071);
    expect(() => applyNavmeshEdit(input.doc, { kind: 'delete-triangles', navmesh: 0x000aa071, triangles: [v.doorTriangle[0]!] })).toThrow(/door triangle of door 0x[0-9A-F]{8}/);
  });
});
