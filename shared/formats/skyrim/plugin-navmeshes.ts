import type { NvmiEntry } from './navi-document';
import type { NvnmDocument } from './nvnm-document';
import { walkRecords, RECORD_FLAG_DELETED, type PluginDocument, type PluginRecord } from './plugin-document';

/** Cell-children group type: its label is the cell FormID. */
const GROUP_CELL_CHILDREN = 6;

/** One NAVM record with what the plugin says about where it sits. */
export interface PluginNavmesh {
  /** Position among the plugin's NAVM records (the walkmesh faceOwner). */
  index: number;
  record: PluginRecord;
  formId: number;
  deleted: boolean;
  /** The parsed NVNM v12, or undefined (deleted record, no NVNM, or another version). */
  nvnm: NvnmDocument | undefined;
  /** The cell-children group's label (the CELL FormID) the record sits in. */
  cellFormId: number | undefined;
}

export function pluginNavmeshes(doc: PluginDocument): PluginNavmesh[] {
  const out: PluginNavmesh[] = [];
  for (const { record, parents } of walkRecords(doc.items)) {
    if (record.signature !== 'NAVM') continue;
    let cellFormId: number | undefined;
    for (const g of parents) if (g.groupType === GROUP_CELL_CHILDREN) cellFormId = g.label;
    const sub = record.subrecords.find((s) => s.kind === 'nvnm');
    out.push({
      index: out.length,
      record,
      formId: record.formId,
      deleted: (record.flags & RECORD_FLAG_DELETED) !== 0,
      nvnm: sub?.kind === 'nvnm' ? sub.nvnm : undefined,
      cellFormId,
    });
  }
  return out;
}

/** The NVMI entries of every NAVI record of the plugin. */
export function pluginNaviEntries(doc: PluginDocument): { record: PluginRecord; entries: NvmiEntry[] }[] {
  const out: { record: PluginRecord; entries: NvmiEntry[] }[] = [];
  for (const { record } of walkRecords(doc.items)) {
    if (record.signature !== 'NAVI') continue;
    const entries: NvmiEntry[] = [];
    for (const s of record.subrecords) if (s.kind === 'nvmi') entries.push(s.nvmi);
    out.push({ record, entries });
  }
  return out;
}

/** The master file names from the TES4 header's MAST subrecords. */
export function pluginMasters(doc: PluginDocument): string[] {
  const header = doc.items[0];
  if (!header || header.kind !== 'record') return [];
  const out: string[] = [];
  for (const s of header.subrecords) {
    if (s.signature !== 'MAST' || s.kind !== 'raw') continue;
    let end = s.data.indexOf(0);
    if (end < 0) end = s.data.length;
    out.push(String.fromCharCode(...s.data.subarray(0, Math.min(end, 512))));
  }
  return out;
}
