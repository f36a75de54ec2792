import type { FileSummary } from '../format-handler';
import { gridOf, isExterior, triangleCountOf, vertexCountOf } from './nvnm-document';
import { formIdHex, walkRecords, type PluginDocument, type PluginGroup, type PluginItem } from './plugin-document';
import { pluginMasters, pluginNaviEntries, pluginNavmeshes, type PluginNavmesh } from './plugin-navmeshes';

function countGroups(items: readonly PluginItem[]): number {
  let n = 0;
  for (const i of items) if (i.kind === 'group') n += 1 + countGroups((i as PluginGroup).children);
  return n;
}

function gameOf(formVersion: number): string {
  if (formVersion === 43) return 'Skyrim LE (form version 43)';
  if (formVersion === 44) return 'Skyrim SE (form version 44)';
  return `form version ${formVersion}`;
}

/** One line per navmesh: where it sits, its counts and its links. */
export function navmeshLine(n: PluginNavmesh): string {
  if (n.deleted) return `deleted${n.cellFormId !== undefined ? `, cell ${formIdHex(n.cellFormId)}` : ''}`;
  const v = n.nvnm;
  if (!v) return 'no NVNM version 12 subrecord';
  const grid = gridOf(v);
  const where = isExterior(v) && grid
    ? `worldspace ${formIdHex(v.worldspace)} grid (${grid.x}, ${grid.y})${n.cellFormId !== undefined ? `, cell ${formIdHex(n.cellFormId)}` : ''}`
    : `interior cell ${formIdHex(v.parent)}`;
  const targets = new Map<number, number>();
  for (const id of v.edgeLinkNavmesh) targets.set(id, (targets.get(id) ?? 0) + 1);
  const linkList = [...targets].map(([id, n]) => `${formIdHex(id)} ×${n}`).join(', ');
  const doors = [...new Set(v.doorRef)].map((id) => formIdHex(id)).join(', ');
  return `${where}, ${vertexCountOf(v)} vertices, ${triangleCountOf(v)} triangles, ${v.edgeLinkType.length} edge links to ${targets.size} navmesh(es)${linkList ? ` (${linkList})` : ''}, ${v.doorTriangle.length} door links${doors ? ` (${doors})` : ''}, ${v.coverTriangles.length} cover triangles, grid divisor ${v.gridDivisor}`;
}

export function summarizePlugin(doc: PluginDocument): FileSummary {
  const navmeshes = pluginNavmeshes(doc);
  const navi = pluginNaviEntries(doc);
  let records = 0;
  let compressed = 0;
  for (const { record } of walkRecords(doc.items)) {
    records++;
    if (record.compressed) compressed++;
  }
  let vertices = 0;
  let triangles = 0;
  let edgeLinks = 0;
  let doorLinks = 0;
  for (const n of navmeshes) {
    if (!n.nvnm) continue;
    vertices += vertexCountOf(n.nvnm);
    triangles += triangleCountOf(n.nvnm);
    edgeLinks += n.nvnm.edgeLinkType.length;
    doorLinks += n.nvnm.doorTriangle.length;
  }
  const header = doc.items[0];
  const formVersion = header && header.kind === 'record' ? header.formVersion : 0;
  const details: Record<string, string | number | boolean> = {
    game: gameOf(formVersion),
    masters: pluginMasters(doc).join(', '),
  };
  for (const n of navmeshes) details[`navmesh ${formIdHex(n.formId)}`] = navmeshLine(n);
  return {
    version: `TES4, ${gameOf(formVersion)}`,
    counts: {
      records,
      groups: countGroups(doc.items),
      compressedRecords: compressed,
      navmeshes: navmeshes.length,
      deletedNavmeshes: navmeshes.filter((n) => n.deleted).length,
      vertices,
      triangles,
      edgeLinks,
      doorLinks,
      naviRecords: navi.length,
      naviEntries: navi.reduce((s, x) => s + x.entries.length, 0),
    },
    details,
  };
}
