import type { NvmiEntry } from '../../formats/skyrim/navi-document';
import type { NvnmDocument } from '../../formats/skyrim/nvnm-document';
import type { PluginDocument, PluginItem, Subrecord } from '../../formats/skyrim/plugin-document';
import { pluginNaviEntries, pluginNavmeshes } from '../../formats/skyrim/plugin-navmeshes';
import { ModelMappingError } from '../../model/model-mapping-error';
import { floatsOfBits, requireFiniteVertices } from '../non-finite-geometry';
import { formIdHex } from '../../formats/skyrim/plugin-document';
import { rebakeNvmi } from './navi-rebake';
import { compareNavmesh, type NavmeshComparison } from './navmesh-compare';
import { rebakeNavmesh, type EdgeRebakeCounts, type NavmeshRebakeOptions } from './navmesh-rebake';

export interface PluginRebakeOptions extends NavmeshRebakeOptions {
  /** Only this navmesh (FormID); all live navmeshes when absent. */
  navmesh?: number;
  /** Milliseconds clock for per-navmesh timings (performance.now in callers that want them). */
  clock?: () => number;
}

export interface RebakedNavmesh {
  formId: number;
  /** The CELL FormID of the cell-children group the NAVM sits in. */
  cellFormId: number | undefined;
  before: NvnmDocument;
  after: NvnmDocument;
  nvmiBefore: NvmiEntry | undefined;
  nvmiAfter: NvmiEntry | undefined;
  edges: EdgeRebakeCounts;
  /** Rebake time in ms (0 without a clock). */
  milliseconds: number;
}

export interface PluginRebake {
  document: PluginDocument;
  navmeshes: RebakedNavmesh[];
  /** Deleted NAVM records and NAVMs without an NVNM v12, by FormID: nothing to rebake. */
  skipped: number[];
}

/**
 * The items with NVNM and NVMI subrecords swapped by object identity; every record and group
 * holding none of them is the input's own object, so it is written back byte for byte (and
 * an edit of one navmesh copies only the groups on its way).
 */
export function replaceNavmeshData(items: readonly PluginItem[], nvnm: ReadonlyMap<NvnmDocument, NvnmDocument>, nvmi: ReadonlyMap<NvmiEntry, NvmiEntry>): PluginItem[] {
  return items.map((item) => {
    if (item.kind === 'group') {
      const children = replaceNavmeshData(item.children, nvnm, nvmi);
      return children.every((c, i) => c === item.children[i]) ? item : { ...item, children };
    }
    if (item.signature !== 'NAVM' && item.signature !== 'NAVI') return item;
    let changed = false;
    const subrecords = item.subrecords.map((s): Subrecord => {
      if (s.kind === 'nvnm' && nvnm.has(s.nvnm)) {
        changed = true;
        return { ...s, nvnm: nvnm.get(s.nvnm)! };
      }
      if (s.kind === 'nvmi' && nvmi.has(s.nvmi)) {
        changed = true;
        return { ...s, nvmi: nvmi.get(s.nvmi)! };
      }
      return s;
    });
    return changed ? { ...item, subrecords } : item;
  });
}

/**
 * Recomputes what the Creation Kit derives for every live navmesh of the plugin (or one):
 * the NVNM's internal edge links, link bits, cover list and grid, and the NAVI override's
 * NVMI fields for it. Every other record and subrecord is the input's own object, so it is
 * written back byte for byte. Throws ModelMappingError for a navmesh vertex that is not a
 * finite point (non-finite-geometry.ts), naming the navmesh and the vertex.
 */
export function rebakePlugin(doc: PluginDocument, options: PluginRebakeOptions = {}): PluginRebake {
  const clock = options.clock ?? (() => 0);
  const all = pluginNavmeshes(doc);
  if (options.navmesh !== undefined && !all.some((n) => n.formId === options.navmesh)) {
    throw new ModelMappingError(`the plugin has no navmesh ${formIdHex(options.navmesh)}`);
  }
  const nvmiByNavmesh = new Map<number, NvmiEntry>();
  for (const { entries } of pluginNaviEntries(doc)) for (const e of entries) if (!nvmiByNavmesh.has(e.navmesh)) nvmiByNavmesh.set(e.navmesh, e);
  const nvnmMap = new Map<NvnmDocument, NvnmDocument>();
  const nvmiMap = new Map<NvmiEntry, NvmiEntry>();
  const navmeshes: RebakedNavmesh[] = [];
  const skipped: number[] = [];
  for (const n of all) {
    if (options.navmesh !== undefined && n.formId !== options.navmesh) continue;
    if (!n.nvnm || n.deleted) {
      skipped.push(n.formId);
      continue;
    }
    requireFiniteVertices(floatsOfBits(n.nvnm.vertices), `navmesh ${formIdHex(n.formId)}`);
    const t0 = clock();
    const baked = rebakeNavmesh(n.nvnm, options);
    const nvmiBefore = nvmiByNavmesh.get(n.formId);
    const nvmiAfter = nvmiBefore ? rebakeNvmi(nvmiBefore, baked.nvnm) : undefined;
    const t1 = clock();
    nvnmMap.set(n.nvnm, baked.nvnm);
    if (nvmiBefore && nvmiAfter) nvmiMap.set(nvmiBefore, nvmiAfter);
    navmeshes.push({
      formId: n.formId, cellFormId: n.cellFormId, before: n.nvnm, after: baked.nvnm, nvmiBefore, nvmiAfter, edges: baked.edges, milliseconds: t1 - t0,
    });
  }
  return { document: { items: replaceNavmeshData(doc.items, nvnmMap, nvmiMap) }, navmeshes, skipped };
}

export interface NavmeshAgreementReport {
  formId: number;
  cellFormId: number | undefined;
  comparison: NavmeshComparison | undefined;
}

/**
 * Agreement of each rebaked navmesh with the navmesh of the same FormID in `reference`
 * (the input plugin's own stored data when absent). `comparison` is undefined when the
 * reference has no live navmesh with that FormID.
 */
export function compareRebake(rebake: PluginRebake, reference?: PluginDocument): NavmeshAgreementReport[] {
  let refNvnm: Map<number, NvnmDocument> | undefined;
  let refNvmi: Map<number, NvmiEntry> | undefined;
  if (reference) {
    refNvnm = new Map();
    for (const n of pluginNavmeshes(reference)) if (n.nvnm && !n.deleted && !refNvnm.has(n.formId)) refNvnm.set(n.formId, n.nvnm);
    refNvmi = new Map();
    for (const { entries } of pluginNaviEntries(reference)) for (const e of entries) if (!refNvmi.has(e.navmesh)) refNvmi.set(e.navmesh, e);
  }
  return rebake.navmeshes.map((n) => {
    const nvnm = refNvnm ? refNvnm.get(n.formId) : n.before;
    const nvmi = refNvmi ? refNvmi.get(n.formId) : n.nvmiBefore;
    return { formId: n.formId, cellFormId: n.cellFormId, comparison: nvnm ? compareNavmesh(n.after, nvnm, n.nvmiAfter, nvmi) : undefined };
  });
}
