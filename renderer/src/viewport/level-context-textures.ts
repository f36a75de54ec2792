import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { RawTexture } from '@babylonjs/core/Materials/Textures/rawTexture';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import type { Scene } from '@babylonjs/core/scene';
import { MAX_CONTEXT_TEXTURE_SIDE, type LevelContextPiece } from '../../../shared/model/level-context';

/** A piece that carries an image and a UV per vertex that agree with it (anything else is drawn in its colours). */
export function hasUsableTexture(p: LevelContextPiece): boolean {
  const t = p.texture;
  if (!t || !p.uvs || p.uvs.length !== (p.positions.length / 3) * 2) return false;
  const ok = (n: number) => Number.isInteger(n) && n >= 1 && n <= MAX_CONTEXT_TEXTURE_SIDE;
  return ok(t.width) && ok(t.height) && t.rgba.length === t.width * t.height * 4;
}

/**
 * One textured piece (an NWN2 megatile's blended terrain textures) as a mesh of its own
 * with its image on a material like `like` (same depth offset, culling), dimmed by `dim`
 * as all context is. The image's first row is v = 0 (the UVs say so), so it is uploaded
 * without turning. The material and texture go with the mesh when it is disposed.
 */
export function texturedPieceMesh(scene: Scene, piece: LevelContextPiece, dim: number, like: StandardMaterial): Mesh {
  const n = piece.positions.length / 3;
  const P = piece.positions;
  const positions = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    positions[i * 3] = P[i * 3]!;
    positions[i * 3 + 1] = P[i * 3 + 2]!;
    positions[i * 3 + 2] = P[i * 3 + 1]!;
  }
  const data = new VertexData();
  data.positions = positions;
  data.indices = piece.triangles;
  data.uvs = piece.uvs!;
  const normals = new Float32Array(positions.length);
  VertexData.ComputeNormals(positions, piece.triangles, normals);
  data.normals = normals;
  const mesh = new Mesh(`level context: ${piece.label} (textured)`, scene);
  data.applyToMesh(mesh, false);
  const t = piece.texture!;
  const texture = RawTexture.CreateRGBATexture(t.rgba, t.width, t.height, scene, true, false, RawTexture.TRILINEAR_SAMPLINGMODE);
  texture.name = t.name;
  texture.wrapU = RawTexture.CLAMP_ADDRESSMODE;
  texture.wrapV = RawTexture.CLAMP_ADDRESSMODE;
  const m = new StandardMaterial(`level context texture: ${piece.label}`, scene);
  m.diffuseTexture = texture;
  m.diffuseColor = new Color3(dim, dim, dim);
  m.specularColor = Color3.Black();
  m.backFaceCulling = like.backFaceCulling;
  m.twoSidedLighting = like.twoSidedLighting;
  m.zOffset = like.zOffset;
  m.zOffsetUnits = like.zOffsetUnits;
  mesh.material = m;
  mesh.isPickable = false;
  mesh.freezeWorldMatrix();
  mesh.onDisposeObservable.addOnce(() => m.dispose(true, true));
  return mesh;
}
