import type { EditCommand } from '../../../shared/edits/edit-command';
import { faceCount, vertexCount, type Walkmesh } from '../../../shared/model/walkmesh';

/** Numbers drawn by fast-check, turned into a command that fits the mesh as it is now. */
export type EditSeed = [kind: number, a: number, b: number, c: number];

export const editKinds = ['paint', 'walkable', 'move', 'delete', 'create', 'fill', 'split', 'weld', 'flip', 'batch', 'split-area', 'merge-areas'] as const;

export function commandFromSeed(mesh: Walkmesh, [kind, a, b, c]: EditSeed): EditCommand {
  const F = faceCount(mesh);
  const V = vertexCount(mesh);
  const face = (n: number) => n % F;
  const corner = (f: number, k: number) => mesh.triangles[f * 3 + (k % 3)]!;
  const faces = (n: number, m: number) => [...new Set([face(n), face(n + 1 + m), face(n * 7 + m)])];
  switch (editKinds[kind % editKinds.length]!) {
    case 'paint':
      return { kind: 'paint-faces', faces: faces(a, b), material: c % 20 };
    case 'walkable':
      return { kind: 'paint-faces', faces: faces(a, b), walkable: c % 2 === 0 };
    case 'move': {
      const v = a % V;
      const P = mesh.positions;
      return { kind: 'move-vertices', vertices: [v], positions: [P[v * 3]!, P[v * 3 + 1]!, Math.fround(P[v * 3 + 2]! + ((c % 200) - 100) / 64)] };
    }
    case 'delete':
      return { kind: 'delete-faces', faces: faces(a, b) };
    case 'create': {
      const f = face(a);
      return { kind: 'create-face', vertices: [corner(f, 0), corner(f, 1), b % V] };
    }
    case 'fill': {
      const f = face(a);
      return { kind: 'fill-hole', edge: [corner(f, b), corner(f, b + 1)] };
    }
    case 'split': {
      const f = face(a);
      return { kind: 'split-edge', edge: [corner(f, b), corner(f, b + 1)], t: ((c % 9) + 1) / 10 };
    }
    case 'weld': {
      const f = face(a);
      return { kind: 'weld-vertices', vertices: [corner(f, b), corner(f, b + 1)] };
    }
    case 'flip':
      return { kind: 'flip-faces', faces: faces(a, b) };
    case 'split-area': {
      const f = face(a);
      const P = mesh.positions;
      const axis = b % 2 === 0 ? 'x' : 'y';
      const k = axis === 'x' ? 0 : 1;
      const at = (P[corner(f, 0) * 3 + k]! + P[corner(f, 1) * 3 + k]! + P[corner(f, 2) * 3 + k]!) / 3;
      return { kind: 'split-area', area: mesh.faceOwner[f]!, axis, at };
    }
    case 'merge-areas':
      return { kind: 'merge-areas', keep: mesh.faceOwner[face(a)]!, remove: mesh.faceOwner[face(b)]! };
    case 'batch':
      return { kind: 'batch', commands: [{ kind: 'paint-faces', faces: [face(a)], setBits: 1 << c % 12 }, { kind: 'delete-faces', faces: [face(b)] }] };
  }
}
