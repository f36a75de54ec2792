import { walkRecords, type PluginDocument, type PluginItem, type PluginRecord } from '../../../shared/formats/skyrim/plugin-document';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { writePlugin } from '../../../shared/formats/skyrim/plugin-writer';
import { env } from './skyrim-helpers';

/** TES4 record flag: the file is a master (ESM). */
const TES4_MASTER = 0x1;

function isMoved(item: PluginItem, formIds: ReadonlySet<number>): boolean {
  return item.kind === 'record' && item.signature === 'NAVM' && formIds.has(item.formId);
}

/** The groups on the way to the moved records, holding only them; undefined when none is inside. */
function onlyMoved(items: readonly PluginItem[], formIds: ReadonlySet<number>): PluginItem[] {
  const out: PluginItem[] = [];
  for (const item of items) {
    if (isMoved(item, formIds)) out.push(item);
    else if (item.kind === 'group') {
      const children = onlyMoved(item.children, formIds);
      if (children.length) out.push({ ...item, children });
    }
  }
  return out;
}

function withoutMoved(items: readonly PluginItem[], formIds: ReadonlySet<number>): PluginItem[] {
  return items.filter((i) => !isMoved(i, formIds)).map((i) => (i.kind === 'group' ? { ...i, children: withoutMoved(i.children, formIds) } : i));
}

/**
 * Splits a fixture plugin whose vanilla navmeshes link to each other into a small master
 * (standing in for Skyrim.esm, which it is then named as) holding the given vanilla NAVMs,
 * and the plugin without them. The master has the plugin's TES4 header minus its masters,
 * so FormIDs with top byte 0 are its own, as in the real Skyrim.esm. Both are written and
 * read back, so they are real files' worth of bytes.
 */
export function splitMaster(plugin: PluginDocument, formIds: readonly number[]): { master: PluginDocument; masterBytes: Uint8Array; plugin: PluginDocument; pluginBytes: Uint8Array } {
  const ids = new Set(formIds);
  const header = plugin.items[0] as PluginRecord;
  const masterHeader: PluginRecord = { ...header, flags: header.flags | TES4_MASTER, subrecords: header.subrecords.filter((s) => s.signature !== 'MAST' && s.signature !== 'DATA') };
  const masterBytes = writePlugin({ items: [masterHeader, ...onlyMoved(plugin.items.slice(1), ids)] }, env);
  const pluginBytes = writePlugin({ items: withoutMoved(plugin.items, ids) }, env);
  return { master: readPlugin(masterBytes, env), masterBytes, plugin: readPlugin(pluginBytes, env), pluginBytes };
}

/**
 * Gives a navmesh another FormID everywhere in a plugin read for the test (in place): its
 * NAVM record, every edge link naming it and the NAVI entries. Used to turn one of the
 * plugin's new navmeshes into an override of a "vanilla" one, which a master can link to.
 */
export function renumberNavmesh(doc: PluginDocument, from: number, to: number): void {
  for (const { record } of walkRecords(doc.items)) {
    if (record.signature === 'NAVM' && record.formId === from) record.formId = to;
    for (const s of record.subrecords) {
      if (s.kind === 'nvnm') s.nvnm.edgeLinkNavmesh.forEach((id, i, a) => void (id === from && (a[i] = to)));
      if (s.kind === 'nvmi') {
        if (s.nvmi.navmesh === from) s.nvmi.navmesh = to;
        for (const list of [s.nvmi.edgeLinks, s.nvmi.preferredEdgeLinks]) list.forEach((id, i, a) => void (id === from && (a[i] = to)));
      }
    }
  }
}
