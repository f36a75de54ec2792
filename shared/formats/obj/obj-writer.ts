import type { Walkmesh } from '../../model/walkmesh';
import { formatFloat32 } from './obj-float';
import { materialColour } from './obj-material-colour';
import { encodeMaterialName } from './obj-material-name';

export interface ObjWriteOptions {
  /** File name for the `mtllib` line; without it the OBJ names no material library. */
  mtlFileName?: string;
  /** A human label put in front of each face's material name (e.g. the surface name). */
  materialLabel?: (mesh: Walkmesh, faceIndex: number) => string;
}

export interface ObjFiles {
  obj: string;
  mtl: string;
}

/**
 * Wavefront OBJ text for walkmeshes: one `o` per walkmesh, its vertices, then its faces
 * grouped by `usemtl` runs. The face attributes are encoded in the material names (see
 * obj-material-name.ts) so they survive a round trip through Blender.
 *
 * Coordinates are written as the game holds them (Z up). No axes are swapped here:
 * Blender's OBJ importer and exporter have their own Forward/Up options, and their
 * defaults undo each other, so an import, edit and export gives the game's axes back.
 */
export function writeObj(meshes: readonly Walkmesh[], options: ObjWriteOptions = {}): ObjFiles {
  const lines: string[] = ['# Walkbench walkmesh export', '# Face attributes are kept in the material names: keep them when editing.'];
  if (options.mtlFileName !== undefined) lines.push(`mtllib ${oneLine(options.mtlFileName)}`);
  const materials = new Map<string, [number, number, number]>();
  let vertexBase = 1;

  for (const mesh of meshes) {
    lines.push(`o ${oneLine(mesh.name) || 'walkmesh'}`);
    const p = mesh.positions;
    const vertices = p.length / 3;
    for (let v = 0; v < vertices; v++) {
      const x = p[v * 3]!;
      const y = p[v * 3 + 1]!;
      const z = p[v * 3 + 2]!;
      if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
        throw new RangeError(
          `walkmesh "${mesh.name}" vertex ${v} is (${x}, ${y}, ${z}): OBJ cannot hold a non-finite coordinate; fix or remove the vertex before exporting`,
        );
      }
      lines.push(`v ${formatFloat32(x)} ${formatFloat32(y)} ${formatFloat32(z)}`);
    }

    const t = mesh.triangles;
    const faces = t.length / 3;
    let current: string | undefined;
    let w = -1;
    let m = -1;
    let o = -1;
    for (let f = 0; f < faces; f++) {
      const label = options.materialLabel?.(mesh, f);
      // Runs of faces with the same attributes are the rule: skip re-encoding them.
      if (label === undefined && current !== undefined && mesh.faceWalkable[f] === w && mesh.faceMaterial[f] === m && mesh.faceOwner[f] === o) {
        lines.push(`f ${t[f * 3]! + vertexBase} ${t[f * 3 + 1]! + vertexBase} ${t[f * 3 + 2]! + vertexBase}`);
        continue;
      }
      w = mesh.faceWalkable[f]!;
      m = mesh.faceMaterial[f]!;
      o = mesh.faceOwner[f]!;
      const attrs = { walkable: w, material: m, owner: o };
      const name = encodeMaterialName(attrs, label);
      if (name !== current) {
        lines.push(`usemtl ${name}`);
        current = name;
        if (!materials.has(name)) materials.set(name, materialColour(attrs));
      }
      lines.push(`f ${t[f * 3]! + vertexBase} ${t[f * 3 + 1]! + vertexBase} ${t[f * 3 + 2]! + vertexBase}`);
    }
    vertexBase += vertices;
  }
  lines.push('');

  const mtl: string[] = ['# Walkbench walkmesh materials: the names carry walkable, material and owner.'];
  for (const [name, [r, g, b]] of materials) {
    mtl.push(`newmtl ${name}`, `Kd ${r.toFixed(4)} ${g.toFixed(4)} ${b.toFixed(4)}`, 'Ka 0 0 0', 'Ks 0 0 0', 'd 1', 'illum 1', '');
  }
  return { obj: lines.join('\n'), mtl: mtl.join('\n') };
}

/** Names go on one line; a line break would start a new OBJ statement. */
function oneLine(s: string): string {
  return s.replace(/[\r\n]+/g, ' ').trim();
}
