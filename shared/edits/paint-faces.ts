import type { Walkmesh } from '../model/walkmesh';
import type { PaintFacesCommand, SetFaceAttributesCommand } from './edit-command';
import { EditError } from './edit-error';
import { checkFaceList, checkUint32, compactValues } from './edit-checks';
import { checkWalkableMatchesMaterial, checkWalkablePaint, facesOfSameOwners, materialForWalkable, editsWholeAreas, walkableForMaterial } from './game-edit-rules';

/**
 * The attribute change a paint stroke makes. Walkability follows the material where the
 * game derives one from the other (KotOR's surface table, NWN2's flag 0x01) unless the
 * stroke sets it; on Source the stroke covers whole areas.
 */
export function compilePaintFaces(mesh: Walkmesh, cmd: PaintFacesCommand): SetFaceAttributesCommand {
  const kind = cmd.kind;
  checkFaceList(mesh, cmd.faces, kind);
  if (cmd.material !== undefined) checkUint32(cmd.material, kind, 'material');
  if (cmd.setBits !== undefined) checkUint32(cmd.setBits, kind, 'setBits');
  if (cmd.clearBits !== undefined) checkUint32(cmd.clearBits, kind, 'clearBits');
  if (cmd.walkable !== undefined && typeof cmd.walkable !== 'boolean') throw new EditError(kind, `walkable is ${String(cmd.walkable)}, not true or false`);
  const paintsMaterial = cmd.material !== undefined || cmd.setBits !== undefined || cmd.clearBits !== undefined;
  if (!paintsMaterial && cmd.walkable === undefined) throw new EditError(kind, 'the stroke paints nothing: give material, setBits, clearBits or walkable');
  if (cmd.walkable !== undefined) checkWalkablePaint(mesh, cmd.walkable, kind);
  const faces = editsWholeAreas(mesh.game) ? facesOfSameOwners(mesh, cmd.faces) : cmd.faces.slice();
  const n = faces.length;
  const material = new Array<number>(n);
  const walkable = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const f = faces[i]!;
    let m = cmd.material ?? mesh.faceMaterial[f]!;
    m = ((m | (cmd.setBits ?? 0)) & ~(cmd.clearBits ?? 0)) >>> 0;
    let w = paintsMaterial ? walkableForMaterial(mesh.game, m, mesh.faceWalkable[f]!) : mesh.faceWalkable[f]!;
    if (cmd.walkable !== undefined) {
      w = cmd.walkable ? 1 : 0;
      m = materialForWalkable(mesh.game, m, w);
      checkWalkableMatchesMaterial(mesh.game, m, w, kind, `face ${f}`);
    }
    material[i] = m;
    walkable[i] = w;
  }
  const out: SetFaceAttributesCommand = { kind: 'set-face-attributes', faces, walkable: compactValues(walkable) };
  if (paintsMaterial || mesh.game === 'nwn2') out.material = compactValues(material);
  return out;
}
