import { applyNavmeshEdit } from '../bakers/skyrim/navmesh-edit';
import { formIdHex, type PluginDocument } from '../formats/skyrim/plugin-document';
import { pluginNavmeshes } from '../formats/skyrim/plugin-navmeshes';
import { ModelMappingError } from '../model/model-mapping-error';
import type { SkyrimSetTriangleFlagsCommand } from './document-edit-command';
import { EditError } from './edit-error';

export interface SkyrimFlagsResult {
  doc: PluginDocument;
  inverse: SkyrimSetTriangleFlagsCommand;
  notes: string[];
}

/**
 * Triangle flags and cover words of one navmesh, through the Skyrim navmesh edit
 * (shared/bakers/skyrim/navmesh-edit.ts), which keeps edge-link bits, the cover list and
 * the NAVI entry consistent. The inverse sets the old values back; its own NAVI rebake
 * gives the stored entry again when the stored one was the derived one.
 */
export function applySkyrimTriangleFlags(doc: PluginDocument, cmd: SkyrimSetTriangleFlagsCommand): SkyrimFlagsResult {
  if (cmd.flags === undefined && cmd.cover === undefined) throw new EditError(cmd.kind, 'give flags, cover or both');
  const navmesh = pluginNavmeshes(doc).find((n) => n.formId === cmd.navmesh && n.nvnm && !n.deleted);
  if (!navmesh?.nvnm) throw new EditError(cmd.kind, `the plugin has no live navmesh ${Number.isInteger(cmd.navmesh) ? formIdHex(cmd.navmesh >>> 0) : String(cmd.navmesh)}`);
  const nvnm = navmesh.nvnm;
  const inverse: SkyrimSetTriangleFlagsCommand = { kind: cmd.kind, navmesh: cmd.navmesh, triangles: cmd.triangles.slice() };
  const old = (values: Uint16Array) =>
    cmd.triangles.map((t) => {
      if (!Number.isInteger(t) || t < 0 || t >= values.length) throw new EditError(cmd.kind, `navmesh ${formIdHex(cmd.navmesh)} has ${values.length} triangles; triangle ${t} does not exist`);
      return values[t]!;
    });
  if (cmd.flags) inverse.flags = old(nvnm.triFlags);
  if (cmd.cover) inverse.cover = old(nvnm.triCover);
  try {
    const r = applyNavmeshEdit(doc, { kind: 'set-triangle-flags', navmesh: cmd.navmesh, triangles: cmd.triangles, ...(cmd.flags ? { flags: cmd.flags } : {}), ...(cmd.cover ? { cover: cmd.cover } : {}) });
    return { doc: r.document, inverse, notes: r.notes };
  } catch (e) {
    if (e instanceof ModelMappingError) throw new EditError(cmd.kind, e.message);
    throw e;
  }
}
