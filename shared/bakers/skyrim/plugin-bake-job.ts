import { isMalformedInputError } from '../../binary/malformed-input-error';
import type { FormatEnvironment } from '../../formats/format-environment';
import type { NvnmDocument } from '../../formats/skyrim/nvnm-document';
import { formIdHex, type PluginDocument } from '../../formats/skyrim/plugin-document';
import { pluginNavmeshes } from '../../formats/skyrim/plugin-navmeshes';
import { readPlugin } from '../../formats/skyrim/plugin-reader';
import { writePlugin } from '../../formats/skyrim/plugin-writer';
import { ModelMappingError } from '../../model/model-mapping-error';
import { rebakePlugin } from './plugin-rebake';

/** Triangle indices are s16 in an NVNM (neighbours, cover list, grid, door links). */
const MAX_TRIANGLES = 0x7fff;

/**
 * Why the rebake cannot derive this navmesh's data, or undefined when it can: adjacency
 * and the grid need every corner to be a vertex of the navmesh, and the derived lists name
 * triangles in 16 bits. (The rebake itself would not throw on either; it would write
 * nonsense.) The triangle is named as "triangle index N", not "triangle N": a job failure
 * naming a triangle links to that face of the file's first walkmesh, which for a plugin is
 * the first navmesh, not necessarily this one.
 */
export function navmeshRebakeProblem(n: NvnmDocument): string | undefined {
  const nt = n.triFlags.length;
  if (nt > MAX_TRIANGLES) return `it has ${nt} triangles, more than the ${MAX_TRIANGLES} its 16-bit triangle indices can name`;
  const nv = n.vertices.length / 3;
  for (let c = 0; c < n.triVertices.length; c++) {
    const v = n.triVertices[c]!;
    if (v >= nv) return `its triangle index ${Math.floor(c / 3)} uses vertex ${v} but the navmesh has ${nv} vertices, so its neighbours and grid cannot be derived`;
  }
  return undefined;
}

export interface PluginBakeResult {
  bytes: Uint8Array;
  /** Navmeshes rebaked; deleted NAVMs and NAVMs without an NVNM v12 are left as they are. */
  navmeshes: number;
  skipped: number;
  externalEdges: number;
}

/**
 * A plugin's bytes baked as `walkbench bake PLUGIN.esp` bakes them (rebakePlugin over every
 * live navmesh, written with the plugin writer), for the project's bake job. Every failure
 * is a one-line error naming `file`, and the navmesh (FormID) when one is at fault.
 */
export function runPluginBake(input: Uint8Array, env: FormatEnvironment, file: string): PluginBakeResult {
  let doc: PluginDocument;
  try {
    doc = readPlugin(input, env);
  } catch (e) {
    if (isMalformedInputError(e)) throw e.withFile(file);
    throw e;
  }
  for (const n of pluginNavmeshes(doc)) {
    if (!n.nvnm || n.deleted) continue;
    const problem = navmeshRebakeProblem(n.nvnm);
    if (problem !== undefined) throw new ModelMappingError(`${file}: navmesh ${formIdHex(n.formId)} cannot be rebaked: ${problem}`);
  }
  try {
    const rebake = rebakePlugin(doc);
    return {
      bytes: writePlugin(rebake.document, env),
      navmeshes: rebake.navmeshes.length,
      skipped: rebake.skipped.length,
      externalEdges: rebake.navmeshes.reduce((sum, n) => sum + n.edges.externalEdges, 0),
    };
  } catch (e) {
    if (e instanceof ModelMappingError) throw new ModelMappingError(`${file}: ${e.message}`);
    if (isMalformedInputError(e)) throw e.withFile(file);
    throw e;
  }
}
