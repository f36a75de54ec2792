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

/** The smallest framed half-diagonal, as a share of the whole mesh's: enough to see where the face is. */
export const MIN_FOCUS_SHARE = 0.04;

export interface FocusBox {
  min: [number, number, number];
  max: [number, number, number];
  /** Where the camera aims: the face's centroid (inside the face; its box centre may not be). */
  centre: [number, number, number];
}

/**
 * What to frame to show a face where it is: the face and its ring of neighbours (every face
 * touching one of its corners, by index or by position, as some formats repeat corners per
 * face), grown around the face's centroid to at least MIN_FOCUS_SHARE of the mesh's size.
 * One pass over the faces, run once per click.
 */
export function focusBox(mesh: Walkmesh, face: number): FocusBox | null {
  const tri = mesh.triangles;
  const pos = mesh.positions;
  if (face < 0 || face * 3 + 2 >= tri.length) return null;
  const corners = [0, 1, 2].map((k) => tri[face * 3 + k]!);
  const keys = new Set(corners.map((v) => `${pos[v * 3]},${pos[v * 3 + 1]},${pos[v * 3 + 2]}`));
  const ids = new Set(corners);
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const meshMin = [Infinity, Infinity, Infinity];
  const meshMax = [-Infinity, -Infinity, -Infinity];
  const grow = (v: number, lo: number[], hi: number[]) => {
    for (let a = 0; a < 3; a++) {
      const x = pos[v * 3 + a]!;
      if (x < lo[a]!) lo[a] = x;
      if (x > hi[a]!) hi[a] = x;
    }
  };
  for (let f = 0; f < tri.length / 3; f++) {
    let touches = f === face;
    for (let k = 0; k < 3; k++) {
      const v = tri[f * 3 + k]!;
      grow(v, meshMin, meshMax);
      if (!touches && (ids.has(v) || keys.has(`${pos[v * 3]},${pos[v * 3 + 1]},${pos[v * 3 + 2]}`))) touches = true;
    }
    if (touches) for (let k = 0; k < 3; k++) grow(tri[f * 3 + k]!, min, max);
  }
  const centre = [0, 1, 2].map((a) => corners.reduce((n, v) => n + pos[v * 3 + a]!, 0) / 3) as [number, number, number];
  const meshHalf = Math.hypot(meshMax[0]! - meshMin[0]!, meshMax[1]! - meshMin[1]!, meshMax[2]! - meshMin[2]!) / 2;
  const want = meshHalf * MIN_FOCUS_SHARE;
  for (let a = 0; a < 3; a++) {
    min[a] = Math.min(min[a]!, centre[a]! - want / Math.sqrt(3));
    max[a] = Math.max(max[a]!, centre[a]! + want / Math.sqrt(3));
  }
  return { min, max, centre };
}
