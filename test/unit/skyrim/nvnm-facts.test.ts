import { describe, expect, it } from 'vitest';
import { NAVI_FORM_ID } from '../../../shared/formats/skyrim/navi-document';
import { writeNvmi } from '../../../shared/formats/skyrim/navi-writer';
import { readNvmi } from '../../../shared/formats/skyrim/navi-reader';
import {
  COVER_MASK, gridOf, NVNM_VERSION, PATHING_CELL_HASH, PATHING_DOOR_HASH, TRI_DOOR, TRI_EDGE_LINK_BITS, TRI_FOUND, TRI_PREFERRED,
} from '../../../shared/formats/skyrim/nvnm-document';
import { readNvnm } from '../../../shared/formats/skyrim/nvnm-reader';
import { writeNvnm } from '../../../shared/formats/skyrim/nvnm-writer';
import { pluginNaviEntries, pluginNavmeshes } from '../../../shared/formats/skyrim/plugin-navmeshes';
import { firstDifference, floatsOf, modelledNavmeshes, readFixturePlugin } from './skyrim-helpers';

const bases = ['DawnOfTheSilverHand.esp', 'DwemerSecrets.esp', 'FreeCamera.esp'];

describe('NAVM / NVNM v12 of the fixture plugins', () => {
  it('DawnOfTheSilverHand holds 17 navmeshes, 2 of them deleted, and door links', () => {
    const { doc } = readFixturePlugin('DawnOfTheSilverHand.esp');
    const all = pluginNavmeshes(doc);
    expect(all).toHaveLength(17);
    expect(all.filter((n) => n.deleted)).toHaveLength(2);
    for (const n of all.filter((x) => x.deleted)) expect(n.record.subrecords).toEqual([]);
    const modelled = modelledNavmeshes(doc);
    expect(modelled).toHaveLength(15);
    expect(Math.max(...modelled.map((n) => n.nvnm.triFlags.length))).toBe(1621);
    expect(Math.max(...modelled.map((n) => n.nvnm.coverTriangles.length))).toBe(438);
    expect(modelled.reduce((s, n) => s + n.nvnm.doorTriangle.length, 0)).toBeGreaterThan(0);
  });

  it('DwemerSecrets holds 8 navmeshes: one interior, six in Tamriel and one deleted vanilla navmesh', () => {
    const { doc } = readFixturePlugin('DwemerSecrets.esp');
    const all = pluginNavmeshes(doc);
    expect(all).toHaveLength(8);
    const deleted = all.filter((n) => n.deleted);
    expect(deleted).toHaveLength(1);
    expect(deleted[0]!.formId >>> 24).toBe(0);
    const live = modelledNavmeshes(doc);
    expect(live.filter((n) => n.nvnm.worldspace === 0)).toHaveLength(1);
    expect(live.filter((n) => n.nvnm.worldspace === 0x3c)).toHaveLength(6);
    // Cell (-12, 18) is stored Y first, then X.
    expect(live.some((n) => gridOf(n.nvnm)?.x === -12 && gridOf(n.nvnm)?.y === 18)).toBe(true);
  });

  it('FreeCamera holds one interior navmesh of 9 vertices and 12 triangles with grid divisor 1', () => {
    const { doc } = readFixturePlugin('FreeCamera.esp');
    const [n, ...rest] = modelledNavmeshes(doc);
    expect(rest).toHaveLength(0);
    expect(n!.nvnm.vertices.length / 3).toBe(9);
    expect(n!.nvnm.triFlags.length).toBe(12);
    expect(n!.nvnm.gridDivisor).toBe(1);
    expect(n!.nvnm.worldspace).toBe(0);
    expect(n!.nvnm.parent).toBe(n!.cellFormId);
  });

  it.each(bases)('%s: header constants, Found and Door flags, cover list and link counts hold', (base) => {
    const { doc } = readFixturePlugin(base);
    for (const { nvnm: v, cellFormId } of modelledNavmeshes(doc)) {
      expect(v.version).toBe(NVNM_VERSION);
      expect(v.pathingCellHash).toBe(PATHING_CELL_HASH);
      if (v.worldspace === 0) expect(v.parent).toBe(cellFormId);
      expect(v.trailing.length).toBe(0);
      const nt = v.triFlags.length;
      for (let t = 0; t < nt; t++) expect(v.triFlags[t]! & TRI_FOUND).toBe(TRI_FOUND);
      for (let i = 0; i < v.doorTriangle.length; i++) {
        expect(v.triFlags[v.doorTriangle[i]!]! & TRI_DOOR).toBe(TRI_DOOR);
        expect(v.doorHash[i]).toBe(PATHING_DOOR_HASH);
      }
      const cover: number[] = [];
      for (let t = 0; t < nt; t++) if ((v.triCover[t]! & COVER_MASK) !== 0) cover.push(t);
      expect(Array.from(v.coverTriangles)).toEqual(cover);
      let bits = 0;
      for (let t = 0; t < nt; t++) for (const b of TRI_EDGE_LINK_BITS) if (v.triFlags[t]! & b) bits++;
      expect(bits).toBe(v.edgeLinkType.length);
      for (const type of v.edgeLinkType) expect(type).toBe(0);
      expect(v.gridCellStart.length).toBe(v.gridCells.length + 1);
      expect(v.gridCells.every((c) => c < v.gridDivisor * v.gridDivisor)).toBe(true);
      expect(v.gridDivisor).toBeGreaterThanOrEqual(1);
      expect(v.gridDivisor).toBeLessThanOrEqual(12);
      // Grid min/max are the vertex AABB, Z included.
      const p = floatsOf(v.vertices);
      const b = floatsOf(v.gridBounds);
      for (let a = 0; a < 3; a++) {
        let lo = Infinity;
        let hi = -Infinity;
        for (let i = a; i < p.length; i += 3) {
          lo = Math.min(lo, p[i]!);
          hi = Math.max(hi, p[i]!);
        }
        expect(b[2 + a]).toBe(lo);
        expect(b[5 + a]).toBe(hi);
      }
    }
  });

  it.each(bases)('%s: every NVNM and NVMI re-serialises to its own bytes', (base) => {
    const { doc } = readFixturePlugin(base);
    for (const { nvnm } of modelledNavmeshes(doc)) {
      const bytes = writeNvnm(nvnm);
      expect(firstDifference(writeNvnm(readNvnm(bytes, 0, bytes.length, 'test')), bytes)).toBeNull();
    }
    for (const { entries } of pluginNaviEntries(doc)) {
      for (const e of entries) {
        const bytes = writeNvmi(e);
        expect(firstDifference(writeNvmi(readNvmi(bytes, 0, bytes.length, 'test')), bytes)).toBeNull();
      }
    }
  });

  it.each(bases)('%s: the NAVI override of 0x12FB4 lists the plugin\'s navmeshes with their vertex means', (base) => {
    const { doc } = readFixturePlugin(base);
    const navi = pluginNaviEntries(doc);
    expect(navi).toHaveLength(1);
    expect(navi[0]!.record.formId & 0xffffff).toBe(NAVI_FORM_ID);
    const entries = new Map(navi[0]!.entries.map((e) => [e.navmesh, e]));
    for (const { formId, nvnm: v } of modelledNavmeshes(doc)) {
      const e = entries.get(formId);
      expect(e, `NVMI for ${formId.toString(16)}`).toBeDefined();
      expect(e!.category === 0 || e!.category === 0x20).toBe(true);
      expect(e!.islandFlag !== 0).toBe(e!.category === 0x20);
      const p = floatsOf(v.vertices);
      const f = floatsOf(e!.floats);
      const nv = p.length / 3;
      for (let a = 0; a < 3; a++) {
        let sum = 0;
        for (let i = a; i < p.length; i += 3) sum += p[i]!;
        expect(Math.abs(f[a]! - sum / nv)).toBeLessThan(0.01 + Math.abs(sum / nv) * 1e-5);
      }
      let preferred = 0;
      for (const fl of v.triFlags) if (fl & TRI_PREFERRED) preferred++;
      expect(f[3]!).toBeCloseTo(preferred / v.triFlags.length, 5);
      expect(e!.doors.length / 2).toBe(v.doorTriangle.length);
    }
  });
});
