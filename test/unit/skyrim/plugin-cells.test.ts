import { describe, expect, it } from 'vitest';
import { cellLabel, pluginCells } from '../../../shared/formats/skyrim/plugin-cells';
import { formIdHex, walkRecords } from '../../../shared/formats/skyrim/plugin-document';
import { pluginNavmeshes } from '../../../shared/formats/skyrim/plugin-navmeshes';
import { skyrimCellsView } from '../../../shared/views/game-structure';
import { pluginFiles, readFixturePlugin } from './skyrim-helpers';

describe('pluginCells: navmeshes listed by the cell that owns them', () => {
  it('names every navmesh of every sample plugin by its CELL: EditorID, exterior grid from XCLC', () => {
    for (const file of pluginFiles) {
      const { doc } = readFixturePlugin(file.split('/').pop()!);
      const cells = pluginCells(doc);
      const navmeshes = pluginNavmeshes(doc);
      // Each navmesh in exactly one cell, and that cell is the group label it sits under.
      expect(cells.flatMap((c) => c.navmeshes).sort((a, b) => a - b)).toEqual(navmeshes.map((n) => n.index));
      for (const c of cells) for (const i of c.navmeshes) expect(navmeshes[i]!.cellFormId).toBe(c.formId);
      const cellRecords = new Map([...walkRecords(doc.items)].filter((w) => w.record.signature === 'CELL').map((w) => [w.record.formId, w.record]));
      for (const c of cells) {
        expect(cellRecords.has(c.formId)).toBe(true);
        expect(cellLabel(c)).not.toMatch(/^cell 0x/);
        if (!c.interior) {
          expect(c.grid).toBeDefined();
          // The grid agrees with the navmeshes' own parent (NVNM stores grid Y then X).
          for (const i of c.navmeshes) {
            // A deleted NAVM carries no NVNM to compare with.
            const n = navmeshes[i]!.nvnm;
            if (n === undefined) continue;
            expect([n.parent >> 16, (n.parent << 16) >> 16]).toEqual(c.grid);
          }
        }
      }
    }
  });

  it('lists DawnOfTheSilverHand.esp\'s 17 navmeshes in its cells, interiors by EditorID and exteriors with Tamriel grid', () => {
    const { doc } = readFixturePlugin('DawnOfTheSilverHand.esp');
    const view = skyrimCellsView(doc);
    expect(view.reduce((n, c) => n + c.navmeshes.length, 0)).toBe(17);
    const labels = view.map((c) => c.label);
    expect(labels).toContain('DSilHand_SilverhandsMine');
    expect(labels).toContain('GallowsRockExterior (24, 1)');
    expect(labels).toContain('Tamriel (23, 1)');
    const gallows = view.find((c) => c.label === 'GallowsRockExterior (24, 1)')!;
    expect(gallows.interior).toBe(false);
    expect(gallows.grid).toEqual([24, 1]);
    expect(gallows.navmeshes.length).toBeGreaterThan(1);
    expect(gallows.navmeshes.every((f) => formIdHex(f).startsWith('0x'))).toBe(true);
  });
});
