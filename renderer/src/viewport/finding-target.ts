import type { Walkmesh } from '../../../shared/model/walkmesh';
import type { Finding } from '../../../shared/validation/finding';
import type { FaceRef } from '../stores/selection-store';

/**
 * The face a finding is about, so clicking it can select and focus that face: a face or
 * triangle subject names the face (in the first walkmesh that has it, as findings carry
 * no walkmesh index); an area, tile, room or navmesh subject names an owner, whose first
 * face stands for it. Null when the finding names nothing on the mesh.
 */
export function findingTarget(meshes: readonly Walkmesh[], finding: Finding): FaceRef | null {
  const subject = finding.subject;
  if (!subject) return null;
  const id = subject.id;
  if (subject.kind === 'face' || subject.kind === 'triangle') {
    const mesh = meshes.findIndex((m) => id >= 0 && id < m.triangles.length / 3);
    return mesh < 0 ? null : { mesh, face: id };
  }
  if (subject.kind === 'area' || subject.kind === 'tile' || subject.kind === 'room' || subject.kind === 'navmesh') {
    for (let mesh = 0; mesh < meshes.length; mesh++) {
      const face = meshes[mesh]!.faceOwner.indexOf(id);
      if (face >= 0) return { mesh, face };
    }
  }
  return null;
}

/**
 * The targets of many findings at once: the first face of every owner is found in one
 * pass, so a map with thousands of area findings costs one scan, not one per finding.
 */
export function findingTargets(meshes: readonly Walkmesh[], findings: readonly Finding[]): Map<Finding, FaceRef> {
  const firstOfOwner = new Map<number, FaceRef>();
  meshes.forEach((m, mesh) => {
    for (let face = 0; face < m.faceOwner.length; face++) {
      const o = m.faceOwner[face]!;
      if (!firstOfOwner.has(o)) firstOfOwner.set(o, { mesh, face });
    }
  });
  const out = new Map<Finding, FaceRef>();
  for (const f of findings) {
    const s = f.subject;
    if (!s) continue;
    const target = s.kind === 'face' || s.kind === 'triangle' ? findingTarget(meshes, f) : OWNER_KINDS.has(s.kind) ? firstOfOwner.get(s.id) : undefined;
    if (target) out.set(f, target);
  }
  return out;
}

const OWNER_KINDS = new Set(['area', 'tile', 'room', 'navmesh']);
