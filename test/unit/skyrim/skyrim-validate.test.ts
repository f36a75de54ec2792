import { describe, expect, it } from 'vitest';
import { TRI_DOOR, TRI_EDGE_LINK_BITS } from '../../../shared/formats/skyrim/nvnm-document';
import { rebakePlugin } from '../../../shared/bakers/skyrim/plugin-rebake';
import { validatePlugin } from '../../../shared/formats/skyrim/skyrim-validate';
import { modelledNavmeshes, readFixturePlugin, type ModelledNavmesh } from './skyrim-helpers';

function codes(findings: readonly { code: string }[]): string[] {
  return [...new Set(findings.map((f) => f.code))].sort();
}

/** A navmesh of DawnOfTheSilverHand with a link to another navmesh of the same plugin. */
function linkedPair(navmeshes: ModelledNavmesh[]): { from: ModelledNavmesh; t: number; edge: number; link: number } {
  const ids = new Set(navmeshes.map((n) => n.formId));
  for (const from of navmeshes) {
    const v = from.nvnm;
    for (let t = 0; t < v.triFlags.length; t++) {
      for (let e = 0; e < 3; e++) {
        if (!(v.triFlags[t]! & TRI_EDGE_LINK_BITS[e]!)) continue;
        const link = v.triEdges[t * 3 + e]!;
        if (ids.has(v.edgeLinkNavmesh[link]!)) return { from, t, edge: e, link };
      }
    }
  }
  throw new Error('no link within the plugin');
}

describe('Skyrim navmesh validation', () => {
  it('reports the deleted vanilla navmesh of DwemerSecrets and nothing else as an error', () => {
    const { doc } = readFixturePlugin('DwemerSecrets.esp');
    const errors = validatePlugin(doc).filter((f) => f.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe('navm.deleted');
    expect(errors[0]!.subject).toEqual({ kind: 'navmesh', id: 0x000f26c9 });
    expect(errors[0]!.message).toContain('0x000F26C9');
  });

  it('finds the links between DawnOfTheSilverHand\'s navmeshes reciprocal and its indices in range', () => {
    const { doc } = readFixturePlugin('DawnOfTheSilverHand.esp');
    const findings = validatePlugin(doc);
    expect(findings.filter((f) => f.code === 'navm.deleted')).toHaveLength(2);
    // (the one shared edge the CK left open is the next test's subject)
    expect(codes(findings).filter((c) => c !== 'navm.deleted' && c !== 'navm.triangle.zero-area' && c !== 'navm.edge-link.unverifiable' && c !== 'navm.edge.open-shared')).toEqual([]);
    // Links into Skyrim.esm's navmeshes cannot be checked without it: warnings, not errors.
    const unverifiable = findings.filter((f) => f.code === 'navm.edge-link.unverifiable');
    expect(unverifiable.length).toBeGreaterThan(0);
    for (const f of unverifiable) {
      expect(f.severity).toBe('warning');
      expect(f.message).toMatch(/^navmesh 0x[0-9A-F]{8} has \d+ edge link\(s\) into navmesh 0x00[0-9A-F]{6} of Skyrim\.esm, which was not given as a master: not checked$/);
    }
  });

  it('reports the shared edges the CK left open on both sides, and none after a rebake links them', () => {
    const open = (file: string) =>
      validatePlugin(readFixturePlugin(file).doc)
        .filter((f) => f.code === 'navm.edge.open-shared')
        .map((f) => `${f.subject?.id}: ${f.message}`);
    expect(open('DawnOfTheSilverHand.esp')).toEqual([
      '240: navmesh 0x000FCC53 triangle 240 edge 2 and triangle 321 edge 0 share vertices 141 and 320 but are not linked: nothing can walk across (a rebake links them)',
    ]);
    expect(open('DwemerSecrets.esp')).toEqual([
      '117: navmesh 0x000F26C8 triangle 117 edge 1 and triangle 118 edge 2 share vertices 49 and 208 but are not linked: nothing can walk across (a rebake links them)',
    ]);
    expect(open('FreeCamera.esp')).toEqual([]);
    for (const file of ['DawnOfTheSilverHand.esp', 'DwemerSecrets.esp']) {
      const rebaked = rebakePlugin(readFixturePlugin(file).doc).document;
      expect(validatePlugin(rebaked).filter((f) => f.code === 'navm.edge.open-shared'), file).toEqual([]);
    }
  });

  it('reports a vertex index out of range with the navmesh and the triangle', () => {
    const { doc } = readFixturePlugin('FreeCamera.esp');
    const [n] = modelledNavmeshes(doc);
    n!.nvnm.triVertices[4 * 3 + 1] = 9;
    const f = validatePlugin(doc).find((x) => x.code === 'navm.triangle.vertex-range');
    expect(f?.subject).toEqual({ kind: 'triangle', id: 4 });
    expect(f?.message).toContain('0x01000D69');
  });

  it('reports cover and grid entries that name missing triangles', () => {
    const { doc } = readFixturePlugin('FreeCamera.esp');
    const [n] = modelledNavmeshes(doc);
    n!.nvnm.gridTriangles[0] = 12;
    n!.nvnm.coverTriangles = new Int16Array([-1]);
    const found = validatePlugin(doc);
    expect(codes(found)).toEqual(['navm.cover.triangle-range', 'navm.grid.triangle-range']);
    expect(found.every((f) => f.subject?.kind === 'navmesh' && f.subject.id === 0x01000d69)).toBe(true);
  });

  it('reports a zero-area triangle', () => {
    const { doc } = readFixturePlugin('FreeCamera.esp');
    const [n] = modelledNavmeshes(doc);
    const v = n!.nvnm;
    v.triVertices[2 * 3 + 2] = v.triVertices[2 * 3]!;
    expect(validatePlugin(doc).filter((x) => x.code === 'navm.triangle.zero-area').map((x) => x.subject)).toEqual([{ kind: 'triangle', id: 2 }]);
  });

  it('reports an edge-link bit with no matching link and a link count that disagrees with the bits', () => {
    const { doc } = readFixturePlugin('DawnOfTheSilverHand.esp');
    const { from, t, edge } = linkedPair(modelledNavmeshes(doc));
    from.nvnm.triEdges[t * 3 + edge] = from.nvnm.edgeLinkType.length;
    const found = codes(validatePlugin(doc));
    expect(found).toContain('navm.triangle.edge-link-range');
    expect(found).toContain('navm.edge-link.unused');
    const { doc: doc2 } = readFixturePlugin('FreeCamera.esp');
    const [n] = modelledNavmeshes(doc2);
    const v = n!.nvnm;
    const open = v.triEdges.indexOf(-1);
    v.triFlags[Math.floor(open / 3)] = v.triFlags[Math.floor(open / 3)]! | TRI_EDGE_LINK_BITS[open % 3]!;
    expect(codes(validatePlugin(doc2))).toEqual(['navm.edge-link.count', 'navm.triangle.edge-link-range']);
  });

  it('reports a link between navmeshes of the plugin that is not reciprocal', () => {
    const { doc } = readFixturePlugin('DawnOfTheSilverHand.esp');
    const { from, t, link } = linkedPair(modelledNavmeshes(doc));
    const target = modelledNavmeshes(doc).find((n) => n.formId === from.nvnm.edgeLinkNavmesh[link])!;
    from.nvnm.edgeLinkTriangle[link] = (from.nvnm.edgeLinkTriangle[link]! + 1) % target.nvnm.triFlags.length;
    const f = validatePlugin(doc).filter((x) => x.code === 'navm.edge-link.not-reciprocal');
    // Both ends now disagree: the edited link and the old target's link back.
    expect(f.length).toBeGreaterThanOrEqual(1);
    expect(f.some((x) => x.subject?.id === t && x.message.includes(`0x${from.formId.toString(16).toUpperCase().padStart(8, '0')}`))).toBe(true);
  });

  it('reports a door-link triangle without the Door flag', () => {
    const { doc } = readFixturePlugin('DawnOfTheSilverHand.esp');
    const n = modelledNavmeshes(doc).find((x) => x.nvnm.doorTriangle.length > 0)!;
    const t = n.nvnm.doorTriangle[0]!;
    n.nvnm.triFlags[t] = n.nvnm.triFlags[t]! & ~TRI_DOOR;
    const f = validatePlugin(doc).filter((x) => x.code === 'navm.door.not-flagged');
    expect(f.map((x) => x.subject)).toEqual([{ kind: 'triangle', id: t }]);
  });

  it('reports a part of a navmesh that no edge, link or door reaches as an island', () => {
    const { doc } = readFixturePlugin('FreeCamera.esp');
    const [n] = modelledNavmeshes(doc);
    const v = n!.nvnm;
    // Cut triangle 0 loose from its neighbours on both sides.
    for (let e = 0; e < 3; e++) {
      const u = v.triEdges[e]!;
      if (u < 0) continue;
      for (let f = 0; f < 3; f++) if (v.triEdges[u * 3 + f] === 0) v.triEdges[u * 3 + f] = -1;
      v.triEdges[e] = -1;
    }
    const f = validatePlugin(doc).filter((x) => x.code === 'navm.island');
    expect(f.map((x) => x.subject)).toEqual([{ kind: 'triangle', id: 0 }]);
    expect(validatePlugin(doc).filter((x) => x.code === 'navm.triangle.neighbour-asymmetric')).toEqual([]);
  });

  it('reports an internal edge that is not shared back', () => {
    const { doc } = readFixturePlugin('FreeCamera.esp');
    const [n] = modelledNavmeshes(doc);
    const v = n!.nvnm;
    const e = Array.from(v.triEdges).findIndex((x) => x >= 0);
    const other = v.triEdges[e]!;
    for (let f = 0; f < 3; f++) if (v.triEdges[other * 3 + f] === Math.floor(e / 3)) v.triEdges[other * 3 + f] = -1;
    const f = validatePlugin(doc).filter((x) => x.code === 'navm.triangle.neighbour-asymmetric');
    expect(f.map((x) => x.subject)).toEqual([{ kind: 'triangle', id: Math.floor(e / 3) }]);
  });
});
