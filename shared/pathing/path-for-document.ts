import type { LoadedDocument } from '../formats/inspect-file';
import type { BwmDocument } from '../formats/kotor/bwm-document';
import { BWM_FORMAT } from '../formats/kotor/bwm-document';
import { loadKotorArea, type WokLoader } from '../formats/kotor/kotor-area';
import { LYT_FORMAT, type LytDocument } from '../formats/kotor/lyt-document';
import { kotorAreaPathSurface } from './kotor-area-path';
import { aswmPacketOf, TRX_FORMAT, type TrxDocument } from '../formats/nwn2/trx-document';
import { PLUGIN_FORMAT, type PluginDocument } from '../formats/skyrim/plugin-document';
import type { NavDocument } from '../formats/source/nav-document';
import { ModelMappingError } from '../model/model-mapping-error';
import { createWalkmesh, type Walkmesh } from '../model/walkmesh';
import { Nwn2PathSurface } from './nwn2-path';
import type { PathSurface } from './path-surface';
import { skyrimPathSurface } from './skyrim-path';
import { sourcePathSurface } from './source-path';
import { kotorPathSurface, walkmeshPathSurface } from './walkmesh-path';

/** What a document needs from beside it: a KotOR layout's room walkmeshes. */
export interface PathContext {
  wok?: WokLoader;
}

/**
 * The path surface for a document read by its format handler: each game's own links
 * (NWN2 baked tables, KotOR adjacency and room transitions, Skyrim edge links, Source
 * connections), and for any
 * other format the walkmeshes joined through shared vertices.
 */
export function pathSurfaceFor(loaded: LoadedDocument, name: string, context: PathContext = {}): PathSurface {
  const { handler, document } = loaded;
  switch (handler.id) {
    case LYT_FORMAT: {
      if (!context.wok) throw new ModelMappingError('a .lyt lists rooms; their .wok walkmeshes are needed to walk the area');
      const area = loadKotorArea(document as LytDocument, context.wok);
      if (area.rooms.every((r) => r.doc === undefined)) {
        throw new ModelMappingError(`none of the ${area.rooms.length} rooms has a .wok beside the layout (${area.rooms.slice(0, 5).map((r) => r.name).join(', ')}${area.rooms.length > 5 ? ', …' : ''})`);
      }
      return kotorAreaPathSurface(area);
    }
    case TRX_FORMAT: {
      const packet = aswmPacketOf(document as TrxDocument);
      if (!packet) throw new ModelMappingError('the file has no ASWM walkmesh packet, so there is nothing to walk on');
      return new Nwn2PathSurface(packet.aswm, name);
    }
    case BWM_FORMAT:
      return kotorPathSurface(document as BwmDocument, name);
    case PLUGIN_FORMAT: {
      const surface = skyrimPathSurface(document as PluginDocument, name);
      if (surface.parts.length === 0) throw new ModelMappingError('the plugin has no navmesh (NAVM with an NVNM) to walk on');
      return surface;
    }
    case 'source-nav':
      return sourcePathSurface(document as NavDocument, name);
    default: {
      const meshes = handler.toWalkmeshes(document, name);
      if (meshes.length === 0) throw new ModelMappingError(`a ${handler.label} file without a walkmesh has nothing to walk on`);
      return combinedSurface(meshes);
    }
  }
}

/** Several unrelated walkmeshes as one surface, one part (and one space) each. */
function combinedSurface(meshes: readonly Walkmesh[]): PathSurface {
  if (meshes.length === 1) return walkmeshPathSurface(meshes[0]!);
  let V = 0, T = 0;
  for (const m of meshes) {
    V += m.positions.length / 3;
    T += m.triangles.length / 3;
  }
  const positions = new Float32Array(V * 3);
  const triangles = new Uint32Array(T * 3);
  const faceWalkable = new Uint8Array(T);
  const starts: number[] = [];
  let v = 0, t = 0;
  for (const m of meshes) {
    starts.push(t);
    positions.set(m.positions, v * 3);
    for (let i = 0; i < m.triangles.length; i++) triangles[t * 3 + i] = m.triangles[i]! + v;
    faceWalkable.set(m.faceWalkable, t);
    v += m.positions.length / 3;
    t += m.triangles.length / 3;
  }
  const surface = walkmeshPathSurface(createWalkmesh({ name: meshes[0]!.name, game: meshes[0]!.game, format: meshes[0]!.format, positions, triangles, faceWalkable }));
  surface.parts = meshes.map((m, i) => ({ index: i, name: m.name, id: String(i), faceStart: starts[i]!, faceEnd: starts[i]! + m.triangles.length / 3, space: `walkmesh ${i}` }));
  return surface;
}
