import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import type { Scene } from '@babylonjs/core/scene';
import type { LevelContext, LevelContextKind, LevelContextPiece } from '../../../shared/model/level-context';

/** Each kind's colour (0–1 RGB) where a piece has no colours of its own; also the legend's swatch. */
export const CONTEXT_KIND_RGB: Record<LevelContextKind, readonly [number, number, number]> = {
  terrain: [0.45, 0.5, 0.34],
  water: [0.25, 0.45, 0.7],
  room: [0.62, 0.56, 0.48],
  model: [0.5, 0.55, 0.62],
  world: [0.58, 0.58, 0.6],
  bounds: [0.85, 0.55, 0.25],
};

/** How much the context's colours are dimmed, so the walkmesh over it stands out. */
const DIM = 0.55;
const KIND_ORDER: readonly LevelContextKind[] = ['terrain', 'world', 'room', 'model', 'water', 'bounds'];

export interface ContextKindCount {
  kind: LevelContextKind;
  pieces: number;
  triangles: number;
}

/** Triangles and pieces per kind, in drawing order, kinds without pieces left out. */
export function contextKindCounts(context: LevelContext): ContextKindCount[] {
  const by = new Map<LevelContextKind, ContextKindCount>();
  for (const p of context.pieces) {
    const c = by.get(p.kind) ?? { kind: p.kind, pieces: 0, triangles: 0 };
    c.pieces++;
    c.triangles += p.triangles.length / 3;
    by.set(p.kind, c);
  }
  return KIND_ORDER.map((k) => by.get(k)).filter((c): c is ContextKindCount => c !== undefined);
}

/**
 * One kind's pieces as one set of buffers (one draw call per kind, however many placed
 * models or bounds boxes there are), in Babylon axes (game x, y, z → x, z, y), dimmed.
 */
export function mergeKind(pieces: readonly LevelContextPiece[], kind: LevelContextKind): { positions: Float32Array; indices: Uint32Array; colours: Float32Array } {
  let vertices = 0;
  let indices = 0;
  for (const p of pieces) {
    vertices += p.positions.length / 3;
    indices += p.triangles.length;
  }
  const positions = new Float32Array(vertices * 3);
  const colours = new Float32Array(vertices * 4);
  const index = new Uint32Array(indices);
  const [kr, kg, kb] = CONTEXT_KIND_RGB[kind];
  const alpha = kind === 'water' ? 0.55 : kind === 'bounds' ? 0.3 : 1;
  let v = 0;
  let t = 0;
  for (const p of pieces) {
    const n = p.positions.length / 3;
    const P = p.positions;
    const C = p.vertexColours;
    for (let i = 0; i < n; i++) {
      const o = (v + i) * 3;
      positions[o] = P[i * 3]!;
      positions[o + 1] = P[i * 3 + 2]!;
      positions[o + 2] = P[i * 3 + 1]!;
      const c = (v + i) * 4;
      if (C) {
        colours[c] = (C[i * 4]! / 255) * DIM;
        colours[c + 1] = (C[i * 4 + 1]! / 255) * DIM;
        colours[c + 2] = (C[i * 4 + 2]! / 255) * DIM;
      } else {
        colours[c] = kr * DIM;
        colours[c + 1] = kg * DIM;
        colours[c + 2] = kb * DIM;
      }
      colours[c + 3] = alpha;
    }
    const T = p.triangles;
    for (let i = 0; i < T.length; i++) index[t + i] = T[i]! + v;
    v += n;
    t += T.length;
  }
  return { positions, indices: index, colours };
}

/**
 * The level context drawn in the walkmesh's scene: read-only, never pickable, pushed back in
 * depth so the walkmesh wins where they lie in one plane, and drawn with back faces culled
 * (a room's ceiling and the far side of its walls face away from a camera above, so the
 * walkmesh inside stays in sight). Built once per context and kept while the tab is open.
 */
export class LevelContextLayer {
  private readonly built = new Map<object, Mesh[]>();
  private shown: object | null = null;
  private readonly solid: StandardMaterial;
  private readonly see: StandardMaterial;
  /** Triangles built so far (the bench's and the e2e test's counter). */
  triangles = 0;

  constructor(private readonly scene: Scene) {
    this.solid = this.material('level context', true);
    this.see = this.material('level context (see-through)', false);
    this.see.alpha = 0.99;
  }

  private material(name: string, cull: boolean): StandardMaterial {
    const m = new StandardMaterial(name, this.scene);
    m.diffuseColor = Color3.White();
    m.specularColor = Color3.Black();
    m.backFaceCulling = cull;
    m.twoSidedLighting = !cull;
    // Behind the walkmesh wherever the two share a plane (a room model's floor is its WOK's
    // plane to 0.04 m on the Black Vulkar rooms). The slope factor alone does nothing for a
    // floor seen from straight above (top view), so a constant offset in depth units too.
    m.zOffset = 2;
    m.zOffsetUnits = 8;
    return m;
  }

  /** Shows `context` (built on first use, under `key`), or nothing for null. */
  show(key: object | null, context: LevelContext | null): void {
    if (this.shown && this.shown !== key) for (const m of this.built.get(this.shown) ?? []) m.setEnabled(false);
    this.shown = context ? key : null;
    if (!key || !context) return;
    let meshes = this.built.get(key);
    if (!meshes) {
      meshes = this.build(context);
      this.built.set(key, meshes);
    }
    for (const m of meshes) m.setEnabled(true);
  }

  private build(context: LevelContext): Mesh[] {
    const meshes: Mesh[] = [];
    for (const { kind } of contextKindCounts(context)) {
      const pieces = context.pieces.filter((p) => p.kind === kind);
      const merged = mergeKind(pieces, kind);
      if (merged.indices.length === 0) continue;
      const data = new VertexData();
      data.positions = merged.positions;
      data.indices = merged.indices;
      data.colors = merged.colours;
      const normals = new Float32Array(merged.positions.length);
      VertexData.ComputeNormals(merged.positions, merged.indices, normals);
      data.normals = normals;
      const mesh = new Mesh(`level context: ${kind}`, this.scene);
      data.applyToMesh(mesh, false);
      mesh.material = kind === 'water' || kind === 'bounds' ? this.see : this.solid;
      mesh.hasVertexAlpha = kind === 'water' || kind === 'bounds';
      mesh.isPickable = false;
      mesh.freezeWorldMatrix();
      this.triangles += merged.indices.length / 3;
      meshes.push(mesh);
    }
    return meshes;
  }

  /** Frees what was built for a closed tab. */
  forget(key: object): void {
    for (const m of this.built.get(key) ?? []) m.dispose();
    this.built.delete(key);
    if (this.shown === key) this.shown = null;
  }

  dispose(): void {
    for (const key of [...this.built.keys()]) this.forget(key);
    this.solid.dispose();
    this.see.dispose();
  }
}
