import { describe, expect, it } from 'vitest';
import { compareRebake, rebakePlugin } from '../../../shared/bakers/skyrim/plugin-rebake';
import { nodeFormatEnvironment } from '../../../electron/services/node-format-environment';
import { formIdHex, walkRecords } from '../../../shared/formats/skyrim/plugin-document';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { writePlugin } from '../../../shared/formats/skyrim/plugin-writer';
import { writeNvnm } from '../../../shared/formats/skyrim/nvnm-writer';
import { writeNvmi } from '../../../shared/formats/skyrim/navi-writer';
import { validatePlugin } from '../../../shared/formats/skyrim/skyrim-validate';
import { readFixturePlugin, recordBytes } from '../skyrim/skyrim-helpers';

const bases = ['DawnOfTheSilverHand.esp', 'DwemerSecrets.esp', 'FreeCamera.esp'];

/**
 * Edge slots the CK leaves open although two triangles share the edge with opposite winding
 * and positive XY area (the CK's own "should be linked, but they are not" case, spec §14).
 * Found by diffing; the rebake links them, so these navmeshes sit just under 100 %.
 */
const CK_UNLINKED_SLOTS: Record<string, number> = { '0x000FCC53': 2, '0x000F26C8': 2 };

/**
 * Grid entries the rebake gets wrong, per navmesh; every other fixture navmesh is exact.
 * 0x000FD76B: triangle 398 touches cell (9, 3) only along its bottom line, which the CK
 * skipped here although it lists such touches elsewhere. 0x000FCC53: triangle 15 in cell
 * (5, 3), which neither the touch rule nor the edge 1-2 corner explains.
 */
const GRID_MISMATCHES: Record<string, number> = { '0x000FD76B': 1, '0x000FCC53': 1 };

describe.each(bases)('rebake of %s against its own stored data', (base) => {
  const { doc, bytes: input } = readFixturePlugin(base);
  const rebake = rebakePlugin(doc);
  const reports = compareRebake(rebake);

  it('rebakes every live navmesh and skips deleted ones', () => {
    expect(rebake.navmeshes.length).toBeGreaterThan(0);
    expect(reports.every((r) => r.comparison !== undefined)).toBe(true);
  });

  it('reproduces cover lists, NAVI centres and every NAVI field on every navmesh', () => {
    for (const r of reports) {
      const c = r.comparison!;
      expect(c.agreement.coverList, formIdHex(r.formId)).toBe(1);
      expect(c.navi?.centre, formIdHex(r.formId)).toBe(true);
      expect(c.agreement.navi, formIdHex(r.formId)).toBe(1);
      expect(c.counts.gridBoundsIdentical, formIdHex(r.formId)).toBe(true);
      expect(c.counts.divisor).toBe(c.counts.referenceDivisor);
    }
  });

  it('reproduces the edge links except the edges the CK left unlinked', () => {
    for (const r of reports) {
      const c = r.comparison!;
      const id = formIdHex(r.formId);
      expect(c.counts.edgeSlots - c.counts.edgeSlotsMatching, id).toBe(CK_UNLINKED_SLOTS[id] ?? 0);
      if (!(id in CK_UNLINKED_SLOTS)) expect(c.agreement.edgeLinks, id).toBe(1);
    }
  });

  it('reproduces the grid: at least 99.9 % of each navmesh\'s entries, 21 of 23 navmeshes exactly', () => {
    for (const r of reports) {
      const c = r.comparison!;
      const id = formIdHex(r.formId);
      expect(c.counts.gridExtra + c.counts.gridMissing, id).toBe(GRID_MISMATCHES[id] ?? 0);
      expect(c.agreement.grid, id).toBeGreaterThanOrEqual(0.999);
    }
  });

  it('reproduces the stored NVNM and NVMI bytes of every navmesh without a known difference', () => {
    for (const n of rebake.navmeshes) {
      const id = formIdHex(n.formId);
      const known = id in CK_UNLINKED_SLOTS || id in GRID_MISMATCHES;
      expect(Buffer.from(writeNvnm(n.after)).equals(Buffer.from(writeNvnm(n.before))), id).toBe(!known);
      if (n.nvmiBefore) expect(writeNvmi(n.nvmiAfter!), id).toEqual(writeNvmi(n.nvmiBefore));
    }
  });

  it('writes a plugin that reads back, validates without new errors and keeps every other record byte-identical', () => {
    const bytes = writePlugin(rebake.document, nodeFormatEnvironment);
    const back = readPlugin(bytes, nodeFormatEnvironment);
    expect(writePlugin(back, nodeFormatEnvironment)).toEqual(bytes);
    const before = validatePlugin(doc).filter((f) => f.severity === 'error').map((f) => f.code);
    const after = validatePlugin(back).filter((f) => f.severity === 'error').map((f) => f.code);
    expect(after.length).toBeLessThanOrEqual(before.length);
    for (const code of after) expect(before).toContain(code);
    const a = recordBytes(doc, input);
    const b = recordBytes(back, bytes);
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [key, data] of a) {
      if (/ (NAVM|NAVI) /.test(key)) continue;
      expect(b.get(key), key).toEqual(data);
    }
  });
});

describe('single-navmesh rebake', () => {
  it('changes only the chosen NAVM and its NVMI entry', () => {
    const { doc } = readFixturePlugin('DwemerSecrets.esp');
    const target = 0x000f26c8;
    const rebake = rebakePlugin(doc, { navmesh: target });
    expect(rebake.navmeshes.map((n) => n.formId)).toEqual([target]);
    const before = [...walkRecords(doc.items)].map((x) => x.record);
    const after = [...walkRecords(rebake.document.items)].map((x) => x.record);
    after.forEach((rec, i) => {
      if (rec.signature === 'NAVM' && rec.formId === target) expect(rec).not.toBe(before[i]);
      else if (rec.signature !== 'NAVI') expect(rec).toBe(before[i]);
    });
  });

  it('refuses an unknown FormID', () => {
    const { doc } = readFixturePlugin('FreeCamera.esp');
    expect(() => rebakePlugin(doc, { navmesh: 0x0badf00d })).toThrow(/no navmesh 0x0BADF00D/);
  });
});
