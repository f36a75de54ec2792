import { SURFACE_MATERIAL_LABELS } from '../../../shared/formats/kotor/surface-materials';
import { TRI_DELETED, TRI_DOOR, TRI_FOUND, TRI_PREFERRED, TRI_WATER } from '../../../shared/formats/skyrim/nvnm-document';
import { TriangleFlag } from '../../../shared/formats/nwn2/aswm-document';
import { NO_OWNER, type Walkmesh } from '../../../shared/model/walkmesh';
import { NO_ISLAND } from '../../../shared/views/face-islands';

/** What the status bar and the inspector say about one face. */
export interface FaceInfo {
  meshName: string;
  face: number;
  /** Material, flags or attributes as the game names them. */
  material: string;
  walkable: boolean;
  owner: string;
  island: string;
  /** Game-space corners, x y z each. */
  corners: [number, number, number][];
}

const SKYRIM_FLAGS: [number, string][] = [
  [TRI_PREFERRED, 'preferred'],
  [TRI_WATER, 'water'],
  [TRI_DOOR, 'door'],
  [TRI_FOUND, 'found'],
  [TRI_DELETED, 'deleted'],
];

function hex(v: number): string {
  return `0x${v.toString(16)}`;
}

export function describeMaterial(mesh: Walkmesh, value: number): string {
  if (mesh.game === 'kotor') return `${value} ${SURFACE_MATERIAL_LABELS[value] ?? '(unknown material)'}`;
  if (mesh.game === 'skyrim') {
    const names = SKYRIM_FLAGS.filter(([bit]) => (value & bit) !== 0).map(([, n]) => n);
    return `flags ${hex(value)}${names.length ? ` (${names.join(', ')})` : ''}`;
  }
  if (mesh.game === 'source') return `attributes ${hex(value)}`;
  if (mesh.game === 'nwn2') {
    const names = Object.entries(TriangleFlag).filter(([, bit]) => (value & bit) !== 0).map(([n]) => n);
    return `flags ${hex(value)}${names.length ? ` (${names.join(', ')})` : ''}`;
  }
  return `flags ${hex(value)}`;
}

function ownerNoun(mesh: Walkmesh): string {
  return mesh.game === 'nwn2' ? 'tile' : mesh.game === 'source' ? 'area' : mesh.game === 'skyrim' ? 'navmesh' : 'room';
}

/**
 * What the panels say about a face, or null when the mesh no longer has it: a selection or
 * hover can outlive an edit that removed faces (an undo of a created face).
 */
export function faceInfo(mesh: Walkmesh, face: number, faceIsland: Int32Array | undefined): FaceInfo | null {
  if (!Number.isInteger(face) || face < 0 || face * 3 >= mesh.triangles.length) return null;
  const owner = mesh.faceOwner[face]!;
  const island = faceIsland?.[face] ?? NO_ISLAND;
  const corners: [number, number, number][] = [];
  for (let k = 0; k < 3; k++) {
    const v = mesh.triangles[face * 3 + k]! * 3;
    corners.push([mesh.positions[v]!, mesh.positions[v + 1]!, mesh.positions[v + 2]!]);
  }
  return {
    meshName: mesh.name,
    face,
    material: describeMaterial(mesh, mesh.faceMaterial[face]!),
    walkable: mesh.faceWalkable[face] !== 0,
    owner: owner === NO_OWNER ? 'none' : `${ownerNoun(mesh)} ${owner}`,
    island: island === NO_ISLAND ? 'none (not walkable)' : `island ${island}`,
    corners,
  };
}

/** The three corners of a face as one array, for the highlight. */
export function faceCorners(mesh: Walkmesh, face: number): Float32Array {
  const out = new Float32Array(9);
  for (let k = 0; k < 3; k++) {
    const v = mesh.triangles[face * 3 + k]! * 3;
    out[k * 3] = mesh.positions[v]!;
    out[k * 3 + 1] = mesh.positions[v + 1]!;
    out[k * 3 + 2] = mesh.positions[v + 2]!;
  }
  return out;
}
