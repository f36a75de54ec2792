import { formIdHex, walkRecords, type PluginDocument, type PluginRecord } from './plugin-document';
import { gridOf } from './nvnm-document';
import { pluginNavmeshes } from './plugin-navmeshes';

/** World-children group type: its label is the WRLD FormID (skyrim-navm.md §2.3). */
const GROUP_WORLD_CHILDREN = 1;
/** CELL DATA flag: the cell is an interior. */
const CELL_INTERIOR = 0x1;

/**
 * The cell a plugin's navmeshes belong to, named as the Creation Kit lists cells: the
 * CELL record's EditorID, and for an exterior cell its worldspace and grid X, Y.
 */
export interface PluginCell {
  formId: number;
  /** The CELL's EDID, or undefined when the record is absent or has none. */
  editorId: string | undefined;
  interior: boolean;
  /** Exterior grid X, Y (from XCLC, else from the navmesh's own parent union); undefined for an interior. */
  grid: [number, number] | undefined;
  /** The worldspace's FormID and EditorID for an exterior cell. */
  worldFormId: number | undefined;
  worldEditorId: string | undefined;
  /** Indices (as `pluginNavmeshes` numbers them) of the NAVM records in this cell. */
  navmeshes: number[];
  /** Their FormIDs, in the same order (the walkmeshes of a plugin are named by them). */
  navmeshFormIds: number[];
}

function zstring(record: PluginRecord, signature: string): string | undefined {
  const s = record.subrecords.find((x) => x.signature === signature);
  if (s === undefined || s.kind !== 'raw') return undefined;
  let end = s.data.indexOf(0);
  if (end < 0) end = s.data.length;
  // EditorIDs are ASCII in every sample; 512 bounds a garbage subrecord's label.
  return String.fromCharCode(...s.data.subarray(0, Math.min(end, 512)));
}

function rawOf(record: PluginRecord, signature: string): Uint8Array | undefined {
  const s = record.subrecords.find((x) => x.signature === signature);
  return s !== undefined && s.kind === 'raw' ? s.data : undefined;
}

/** A cell's label for lists: `EditorID (X, Y)`, the grid in its worldspace, or the FormID. */
export function cellLabel(cell: PluginCell): string {
  const grid = cell.grid ? `${cell.grid[0]}, ${cell.grid[1]}` : undefined;
  if (cell.editorId && grid) return `${cell.editorId} (${grid})`;
  if (cell.editorId) return cell.editorId;
  if (grid) return `${cell.worldEditorId ?? 'exterior'} (${grid})`;
  return `cell ${formIdHex(cell.formId)}`;
}

/**
 * The cells that own the plugin's NAVM records, in the order their first navmesh appears.
 * A NAVM sits in the cell-children group labelled with its CELL's FormID; the CELL record
 * itself is the group's preceding sibling, which a plugin that only adds navmeshes to a
 * master's cell still carries as an override (checked on 3 plugins: 26 navmeshes in 17
 * cells, every CELL present with its EDID, every exterior one with XCLC). When the record is missing
 * the navmesh's own NVNM parent (worldspace and grid) still names an exterior cell.
 */
export function pluginCells(doc: PluginDocument): PluginCell[] {
  const cellRecords = new Map<number, PluginRecord>();
  const worldRecords = new Map<number, PluginRecord>();
  const worldOfCell = new Map<number, number>();
  for (const { record, parents } of walkRecords(doc.items)) {
    if (record.signature === 'CELL') {
      cellRecords.set(record.formId, record);
      for (const g of parents) if (g.groupType === GROUP_WORLD_CHILDREN) worldOfCell.set(record.formId, g.label >>> 0);
    } else if (record.signature === 'WRLD') worldRecords.set(record.formId, record);
  }
  const cells = new Map<number, PluginCell>();
  for (const n of pluginNavmeshes(doc)) {
    // A NAVM outside any cell group (never seen) is keyed by its own FormID so it still lists.
    const key = n.cellFormId ?? n.formId;
    let cell = cells.get(key);
    if (cell === undefined) {
      const record = cellRecords.get(key);
      let interior = false;
      let grid: [number, number] | undefined;
      let world = worldOfCell.get(key);
      if (record !== undefined) {
        const data = rawOf(record, 'DATA');
        interior = data !== undefined && data.length >= 1 && (data[0]! & CELL_INTERIOR) !== 0;
        const xclc = rawOf(record, 'XCLC');
        if (!interior && xclc !== undefined && xclc.length >= 8) {
          const dv = new DataView(xclc.buffer, xclc.byteOffset, xclc.byteLength);
          grid = [dv.getInt32(0, true), dv.getInt32(4, true)];
        }
      }
      if (n.nvnm !== undefined) {
        const g = gridOf(n.nvnm);
        if (g === undefined) interior = true;
        else {
          world ??= n.nvnm.worldspace >>> 0;
          grid ??= [g.x, g.y];
        }
      }
      const worldRecord = world !== undefined ? worldRecords.get(world) : undefined;
      cell = {
        formId: key,
        editorId: record ? zstring(record, 'EDID') : undefined,
        interior,
        grid: interior ? undefined : grid,
        worldFormId: interior ? undefined : world,
        worldEditorId: !interior && worldRecord ? zstring(worldRecord, 'EDID') : undefined,
        navmeshes: [],
        navmeshFormIds: [],
      };
      cells.set(key, cell);
    }
    cell.navmeshes.push(n.index);
    cell.navmeshFormIds.push(n.formId);
  }
  return [...cells.values()];
}
