import type { AswmDocument } from '../../../shared/formats/nwn2/aswm-document';
import type { BwmDocument } from '../../../shared/formats/kotor/bwm-document';
import type { MdbDocument } from '../../../shared/formats/nwn2/mdb-document';
import type { TrxDocument } from '../../../shared/formats/nwn2/trx-document';
import type { NvnmDocument } from '../../../shared/formats/skyrim/nvnm-document';
import type { PluginDocument } from '../../../shared/formats/skyrim/plugin-document';
import { pluginNavmeshes } from '../../../shared/formats/skyrim/plugin-navmeshes';
import type { NavDocument } from '../../../shared/formats/source/nav-document';

/**
 * Whether a document's walkmesh geometry (what the game needs: vertices, normals, plane
 * distances, grid bounds) holds a NaN or an infinity: the fuzz targets then require an
 * error from validation (issue 14).
 */
function anyNonFinite(bits: Uint32Array, from = 0, to = bits.length, stride = 1, width = stride): boolean {
  const f = new Float32Array(bits.buffer, bits.byteOffset, bits.length);
  for (let i = from; i < to; i += stride) for (let k = 0; k < width && i + k < to; k++) if (!Number.isFinite(f[i + k]!)) return true;
  return false;
}

export function hasNonFiniteAswm(a: AswmDocument): boolean {
  return anyNonFinite(a.vertices) || anyNonFinite(a.triNormal) || anyNonFinite(a.triDot) || anyNonFinite(a.triCentre);
}

export function hasNonFiniteTrx(doc: TrxDocument): boolean {
  return doc.packets.some((p) => p.kind === 'aswm' && hasNonFiniteAswm(p.aswm));
}

export function hasNonFiniteBwm(doc: BwmDocument): boolean {
  return anyNonFinite(doc.vertices) || anyNonFinite(doc.hooks) || anyNonFinite(doc.normals) || anyNonFinite(doc.planes);
}

export function hasNonFiniteMdb(doc: MdbDocument): boolean {
  return doc.packets.some((p) => p.walk !== null && p.walk.positions.some((v) => !Number.isFinite(v)));
}

export function hasNonFiniteNvnm(n: NvnmDocument): boolean {
  return anyNonFinite(n.vertices) || anyNonFinite(n.gridBounds);
}

export function hasNonFinitePlugin(doc: PluginDocument): boolean {
  return pluginNavmeshes(doc).some((n) => n.nvnm !== undefined && !n.deleted && hasNonFiniteNvnm(n.nvnm));
}

/** Area corners (8 float words per area). */
export function hasNonFiniteNav(doc: NavDocument): boolean {
  return anyNonFinite(doc.areas.corners);
}
