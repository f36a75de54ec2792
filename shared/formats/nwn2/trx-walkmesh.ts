import { ModelMappingError } from '../../model/model-mapping-error';
import { createWalkmesh, NO_OWNER, type Walkmesh } from '../../model/walkmesh';
import { TriangleFlag, type AswmDocument } from './aswm-document';
import { aswmPacketOf, TRX_FORMAT, type TrxDocument } from './trx-document';

/**
 * The common-model view of a TRN/TRX: one walkmesh (the ASWM packet), or none when the
 * file has no walkmesh.
 *
 * Winding: the model's faces are counter-clockwise seen from above, while TRX triangles
 * are stored clockwise and carry flag 0x04 (TRN triangles are counter-clockwise without
 * it). Every triangle whose flag 0x04 is set is therefore given to the model with its
 * second and third vertices swapped, and fromWalkmeshes swaps them back for every face
 * whose material still has 0x04, so the stored order survives exactly. The flag, not the
 * geometry, decides: the few toolset triangles whose flag disagrees with their winding
 * stay as the file has them.
 *
 * faceWalkable = flag 0x01, faceMaterial = the u16 triangle flags (walkable, clockwise and
 * surface bits), faceOwner = the index of the tile that stores the triangle.
 */
export function trxToWalkmeshes(doc: TrxDocument, name: string): Walkmesh[] {
  const p = aswmPacketOf(doc);
  return p ? [aswmToWalkmesh(p.aswm, name)] : [];
}

export function aswmToWalkmesh(a: AswmDocument, name: string): Walkmesh {
  const T = a.triFlags.length;
  const V = a.vertices.length / 3;
  for (let i = 0; i < a.triVertices.length; i++) {
    if (a.triVertices[i]! >= V) throw new ModelMappingError(`triangle ${(i / 3) | 0} uses vertex ${a.triVertices[i]}, but the walkmesh has ${V} vertices; the file must be repaired before its walkmesh can be shown or edited`);
  }
  const positions = new Float32Array(a.vertices.slice().buffer);
  const triangles = a.triVertices.slice();
  const faceWalkable = new Uint8Array(T);
  const faceMaterial = new Uint32Array(T);
  for (let t = 0; t < T; t++) {
    const flags = a.triFlags[t]!;
    if (flags & TriangleFlag.clockwise) {
      triangles[t * 3 + 1] = a.triVertices[t * 3 + 2]!;
      triangles[t * 3 + 2] = a.triVertices[t * 3 + 1]!;
    }
    faceWalkable[t] = flags & TriangleFlag.walkable;
    faceMaterial[t] = flags;
  }
  return createWalkmesh({ name, game: 'nwn2', format: TRX_FORMAT, positions, triangles, faceWalkable, faceMaterial, faceOwner: tileOwners(a), tileGridWidth: a.gridWidth });
}

/**
 * The tile that stores each triangle, from the tiles' stored offsets and counts (the
 * first tile claiming a triangle wins; NO_OWNER for an unclaimed one).
 */
export function tileOwners(a: AswmDocument): Uint32Array {
  const T = a.triFlags.length;
  const owner = new Uint32Array(T).fill(NO_OWNER);
  const tiles = a.tiles;
  for (let k = 0; k < tiles.count; k++) {
    const start = tiles.triangleOffset[k]!;
    const end = Math.min(T, start + tiles.triangleCount[k]!);
    for (let t = start; t < end; t++) if (owner[t] === NO_OWNER) owner[t] = k;
  }
  return owner;
}
