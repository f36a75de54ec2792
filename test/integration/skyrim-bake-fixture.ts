import path from 'node:path';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectEdits } from '../../electron/services/project/project-edits';
import { ProjectStore } from '../../electron/services/project/project-store';
import { handlerById } from '../../shared/formats/format-registry';
import type { NvmiEntry } from '../../shared/formats/skyrim/navi-document';
import { TRI_EDGE_LINK_BITS, TRI_PREFERRED, type NvnmDocument } from '../../shared/formats/skyrim/nvnm-document';
import { PLUGIN_FORMAT, type PluginDocument } from '../../shared/formats/skyrim/plugin-document';
import { pluginNaviEntries, pluginNavmeshes } from '../../shared/formats/skyrim/plugin-navmeshes';
import { readPlugin } from '../../shared/formats/skyrim/plugin-reader';
import { writePlugin } from '../../shared/formats/skyrim/plugin-writer';
import { replaceNavmeshData } from '../../shared/bakers/skyrim/plugin-rebake';
import { fixturesRoot, readFixture } from '../support/fixtures';

/**
 * What the Skyrim project-bake tests share: a project made from the fixture plugins, an
 * edit whose full effect only the bake gives, and readers of the results.
 */

export const EDITED = 'DwemerSecrets.esp';
export const UNEDITED = 'DawnOfTheSilverHand.esp';
export const MODULE = 'plugins';
export const pluginFixture = (name: string) => path.join(fixturesRoot, 'skyrim', name);

/** The walkmeshes of a plugin are its navmeshes with an NVNM, in file order. */
function modelled(doc: PluginDocument) {
  return pluginNavmeshes(doc).filter((n): n is typeof n & { nvnm: NvnmDocument } => n.nvnm !== undefined);
}

export function nvmiOf(doc: PluginDocument, formId: number): NvmiEntry | undefined {
  for (const { entries } of pluginNaviEntries(doc)) for (const e of entries) if (e.navmesh === formId) return e;
  return undefined;
}

export function navmeshOf(doc: PluginDocument, formId: number): NvnmDocument {
  const n = pluginNavmeshes(doc).find((m) => m.formId === formId && m.nvnm);
  if (!n?.nvnm) throw new Error(`no navmesh ${formId.toString(16)}`);
  return n.nvnm;
}

export interface PreferredLinkEdit {
  /** The walkmesh (navmesh) index the edit goes to. */
  mesh: number;
  face: number;
  formId: number;
  /** The navmesh the face's edge link leads to, not yet on its NAVI entry's preferred list. */
  target: number;
}

/**
 * A triangle that is not Preferred and has an edge link into a navmesh its NAVI entry does
 * not list as reached from Preferred triangles. Painting it Preferred changes that list,
 * which a walkmesh edit leaves as it was and the bake derives (spec §9.1).
 */
export function findPreferredLinkEdit(doc: PluginDocument): PreferredLinkEdit {
  const navmeshes = modelled(doc);
  for (let mesh = 0; mesh < navmeshes.length; mesh++) {
    const n = navmeshes[mesh]!;
    const nvmi = nvmiOf(doc, n.formId);
    if (n.deleted || !nvmi) continue;
    const v = n.nvnm;
    for (let t = 0; t < v.triFlags.length; t++) {
      if (v.triFlags[t]! & TRI_PREFERRED) continue;
      for (let k = 0; k < 3; k++) {
        if ((v.triFlags[t]! & TRI_EDGE_LINK_BITS[k]!) === 0) continue;
        const target = v.edgeLinkNavmesh[v.triEdges[t * 3 + k]!];
        if (target !== undefined && !nvmi.preferredEdgeLinks.includes(target)) return { mesh, face: t, formId: n.formId, target };
      }
    }
  }
  throw new Error('the fixture has no non-preferred triangle with an edge link');
}

export interface SkyrimProject {
  editedId: number;
  uneditedId: number;
  edit: PreferredLinkEdit;
}

/**
 * A Skyrim project holding the edited fixture plugin (one triangle painted Preferred
 * through ProjectEdits, as the app's paint tool does) and, when asked, an unedited one.
 */
export function createSkyrimProject(file: string, options: { unedited?: boolean } = {}): SkyrimProject {
  const store = ProjectStore.create(file, { name: 'Skyrim bake', game: 'skyrim' });
  try {
    const bytes = readFixture(pluginFixture(EDITED));
    const editedId = store.upsertFile({ module: MODULE, name: EDITED, kind: 'walkmesh', format: PLUGIN_FORMAT, bytes }).fileId;
    const uneditedId = options.unedited
      ? store.upsertFile({ module: MODULE, name: UNEDITED, kind: 'walkmesh', format: PLUGIN_FORMAT, bytes: readFixture(pluginFixture(UNEDITED)) }).fileId
      : 0;
    const edit = findPreferredLinkEdit(readPlugin(bytes, env));
    new ProjectEdits(store).apply(editedId, edit.mesh, { kind: 'paint-faces', faces: [edit.face], setBits: TRI_PREFERRED });
    return { editedId, uneditedId, edit };
  } finally {
    store.close();
  }
}

/** Error codes the format's validator reports for the bytes, each once, sorted. */
export function errorCodes(bytes: Uint8Array): string[] {
  const handler = handlerById(PLUGIN_FORMAT)!;
  const findings = handler.validate(handler.read(bytes, env));
  return [...new Set(findings.filter((f) => f.severity === 'error').map((f) => f.code))].sort();
}

/**
 * The fixture plugin with one triangle of a live navmesh pointing past the navmesh's
 * vertices: it reads, but its neighbours and grid cannot be derived.
 */
export function unrebakeablePlugin(): { bytes: Uint8Array; formId: number; triangle: number } {
  const doc = readPlugin(readFixture(pluginFixture(EDITED)), env);
  const n = modelled(doc).find((m) => !m.deleted && m.nvnm.triFlags.length > 3)!;
  const triVertices = new Uint16Array(n.nvnm.triVertices);
  const triangle = 2;
  triVertices[triangle * 3 + 1] = n.nvnm.vertices.length / 3 + 7;
  const broken = { items: replaceNavmeshData(doc.items, new Map([[n.nvnm, { ...n.nvnm, triVertices }]]), new Map()) };
  return { bytes: writePlugin(broken, env), formId: n.formId, triangle };
}
