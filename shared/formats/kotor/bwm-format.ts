import type { FormatHandler } from '../format-handler';
import {
  BWM_FORMAT,
  BWM_TYPE_AREA,
  HOOK_POSITION,
  HOOK_USE1_ABSOLUTE,
  HOOK_USE1_RELATIVE,
  HOOK_USE2_ABSOLUTE,
  HOOK_USE2_RELATIVE,
  hookPoint,
  NO_TRANSITION,
  type BwmDocument,
} from './bwm-document';
import { readBwm } from './bwm-reader';
import { validateBwm } from './bwm-validate';
import { bwmFromWalkmesh, bwmToWalkmesh } from './bwm-walkmesh';
import { writeBwm } from './bwm-writer';
import { DEFAULT_WALKABILITY, isWalkableMaterial, walkabilityDisagreements } from './surface-materials';

/** True for a `BWM V1.0` file. */
export function sniffBwm(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && String.fromCharCode(...bytes.subarray(0, 8)) === 'BWM V1.0';
}

const point = (p: readonly number[]): string => `(${p.map((v) => Number(v.toPrecision(7))).join(', ')})`;

/**
 * KotOR 1/2 walkmeshes: `.wok` (room, world coordinates, AABB tree and walk tables),
 * `.pwk` (placeable) and `.dwk` (door), one BWM V1.0 format. Walkability uses the default
 * (kotorblender) table here; `walkbench bake --surfacemat` takes the game's own 2DA.
 * An edited file is written with the normals' arithmetic of its own game (KotOR 1 or TSL),
 * found from the normals the base file stores (bwmFromWalkmesh).
 */
export const bwmFormat: FormatHandler<BwmDocument> = {
  id: BWM_FORMAT,
  game: 'kotor',
  label: 'KotOR walkmesh (BWM: WOK room, PWK placeable, DWK door)',
  extensions: ['.wok', '.pwk', '.dwk'],
  sniff: sniffBwm,
  read: (bytes) => readBwm(bytes),
  write: (doc) => writeBwm(doc),
  summarize(doc) {
    const faces = doc.faces.length / 3;
    let walkable = 0;
    for (let f = 0; f < faces; f++) if (isWalkableMaterial(DEFAULT_WALKABILITY, doc.materials[f]!)) walkable++;
    const transitions = new Set<number>();
    for (const t of doc.edgeTransition) if (t !== NO_TRANSITION) transitions.add(t);
    const disagreements = walkabilityDisagreements(DEFAULT_WALKABILITY, doc.materials);
    return {
      version: 'V1.0',
      counts: {
        vertices: doc.vertices.length / 3,
        faces,
        walkableFaces: walkable,
        aabbNodes: doc.aabb.length / 11,
        adjacencyRows: doc.adjacency.length / 3,
        edges: doc.edgeIndex.length,
        perimeters: doc.perimeters.length,
        transitionEdges: doc.edgeTransition.filter((t) => t !== NO_TRANSITION).length,
      },
      details: {
        type: doc.type === BWM_TYPE_AREA ? '1 (room, world coordinates)' : `${doc.type} (placeable/door, model-local)`,
        position: point(hookPoint(doc, HOOK_POSITION)),
        use1Relative: point(hookPoint(doc, HOOK_USE1_RELATIVE)),
        use2Relative: point(hookPoint(doc, HOOK_USE2_RELATIVE)),
        use1Absolute: point(hookPoint(doc, HOOK_USE1_ABSOLUTE)),
        use2Absolute: point(hookPoint(doc, HOOK_USE2_ABSOLUTE)),
        aabbRoot: doc.aabbRoot,
        transitionsTo: [...transitions].sort((a, b) => a - b).join(', '),
        walkability: DEFAULT_WALKABILITY.source,
        walkabilityDisagreements: disagreements.map((d) => `${d.material} ${d.label}: ${d.used ? 'walkable' : 'not walkable'} here, opposite in ${d.otherTools.join(', ')}`).join('; '),
        trailingBytes: doc.trailing.length,
      },
    };
  },
  validate: (doc) => validateBwm(doc),
  toWalkmeshes: (doc, name) => [bwmToWalkmesh(doc, name)],
  fromWalkmeshes(meshes, base) {
    if (meshes.length !== 1) throw new RangeError(`a BWM file holds one walkmesh, not ${meshes.length}`);
    return bwmFromWalkmesh(meshes[0]!, base);
  },
};
