import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateCylinder } from '@babylonjs/core/Meshes/Builders/cylinderBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import { CreateTorus } from '@babylonjs/core/Meshes/Builders/torusBuilder';
import { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import type { Observer } from '@babylonjs/core/Misc/observable';
import type { Scene } from '@babylonjs/core/scene';
import type { Walkmesh } from '../../../shared/model/walkmesh';
import { ARROW_FROM, PLANE_FROM, PLANE_TO, lengthForPixels, type GizmoHandle, type Vec3 } from '../tools/move-gizmo-math';
import { gameToBabylon } from './game-to-babylon';

/** How long the arrows are on screen, whatever the zoom. */
export const GIZMO_PIXELS = 110;
/** Drawn after the walkmesh and its tool lines, with the depth cleared: never hidden by a floor. */
const GIZMO_GROUP = 2;
const PREVIEW_GROUP = 1;

/** Game X red, Y green, Z blue, as the ground grid's axis lines. */
const COLOURS: Record<GizmoHandle, Color3> = {
  x: new Color3(0.95, 0.25, 0.25),
  y: new Color3(0.3, 0.85, 0.35),
  z: new Color3(0.3, 0.5, 1),
  xy: new Color3(0.3, 0.5, 1),
  xz: new Color3(0.3, 0.85, 0.35),
  yz: new Color3(0.95, 0.25, 0.25),
  centre: new Color3(0.75, 0.75, 0.75),
};
/** White, not the selection's yellow: the handle under the pointer must stand out over a selected face. */
const HOT = new Color3(1, 1, 1);
const PREVIEW = new Vector3(1, 0.85, 0.1);
/** The rotation ring: yellow, apart from the three axis colours. */
const RING = new Color3(1, 0.8, 0.15);

/**
 * The move tool's gizmo drawn in the walkmesh's scene: arrows along the game axes, plane
 * squares and a centre ball, one size on screen however far the camera is. The hit test
 * and the drag maths are in move-gizmo-math.ts, on the same geometry; this only draws it,
 * plus the drag preview (the affected faces' edges at their moved positions), which never
 * touches the walkmesh's own buffers.
 */
export class MoveGizmo {
  private readonly root: TransformNode;
  private readonly materials = new Map<GizmoHandle, StandardMaterial>();
  private readonly meshes: Mesh[] = [];
  /** Each handle's meshes, so a gizmo can show some handles only (the NWN2 placeable gizmo). */
  private readonly byHandle = new Map<GizmoHandle, Mesh[]>();
  /** The rotation ring about Z (NWN2 placeables), when shown; its radius is a fraction of the length. */
  private ring: Mesh | null = null;
  private ringMaterial: StandardMaterial | null = null;
  private readonly observer: Observer<Scene>;
  private at: Vec3 | null = null;
  private hot: GizmoHandle | null = null;
  private preview: LinesMesh | null = null;
  private previewPositions: Float32Array | null = null;
  /** For each preview line end: the index into the moved list, or -1 for a vertex that stays. */
  private previewSlots: Int32Array | null = null;
  private previewBase: Float32Array | null = null;

  constructor(
    readonly scene: Scene,
    readonly camera: ArcRotateCamera,
    private readonly canvas: HTMLCanvasElement,
  ) {
    this.root = new TransformNode('move gizmo', scene);
    for (const id of ['x', 'y', 'z', 'xy', 'xz', 'yz', 'centre'] as const) {
      const m = new StandardMaterial(`move gizmo ${id}`, scene);
      m.disableLighting = true;
      m.emissiveColor = COLOURS[id];
      m.backFaceCulling = false;
      if (id.length === 2) m.alpha = 0.55;
      this.materials.set(id, m);
    }
    this.buildArrow('x', new Vector3(0, 0, -Math.PI / 2));
    this.buildArrow('y', new Vector3(Math.PI / 2, 0, 0));
    this.buildArrow('z', Vector3.Zero());
    this.buildPlane('xy', 0, 1);
    this.buildPlane('xz', 0, 2);
    this.buildPlane('yz', 1, 2);
    const ball = CreateSphere('move gizmo centre', { diameter: 0.13, segments: 8 }, scene);
    this.adopt(ball, 'centre');
    this.root.setEnabled(false);
    this.observer = scene.onBeforeRenderObservable.add(() => {
      if (this.at) this.root.scaling.setAll(this.length());
    });
  }

  /** Local +Y of the arrow's node is turned onto the game axis by `rotation` (Babylon axes). */
  private buildArrow(id: 'x' | 'y' | 'z', rotation: Vector3): void {
    const node = new TransformNode(`move gizmo ${id} axis`, this.scene);
    node.parent = this.root;
    node.rotation = rotation;
    const shaftEnd = 0.8;
    const shaft = CreateCylinder(`move gizmo ${id} shaft`, { height: shaftEnd - ARROW_FROM, diameter: 0.035, tessellation: 8 }, this.scene);
    shaft.position.y = (ARROW_FROM + shaftEnd) / 2;
    const tip = CreateCylinder(`move gizmo ${id} tip`, { height: 1 - shaftEnd, diameterTop: 0, diameterBottom: 0.11, tessellation: 12 }, this.scene);
    tip.position.y = (shaftEnd + 1) / 2;
    for (const m of [shaft, tip]) {
      m.parent = node;
      this.adopt(m, id);
    }
  }

  /** A square spanning PLANE_FROM..PLANE_TO along game axes a and b. */
  private buildPlane(id: 'xy' | 'xz' | 'yz', a: number, b: number): void {
    const corner = (s: number, t: number) => {
      const g = [0, 0, 0];
      g[a] = s;
      g[b] = t;
      return gameToBabylon(g[0]!, g[1]!, g[2]!);
    };
    const data = new VertexData();
    data.positions = [...corner(PLANE_FROM, PLANE_FROM), ...corner(PLANE_TO, PLANE_FROM), ...corner(PLANE_TO, PLANE_TO), ...corner(PLANE_FROM, PLANE_TO)];
    data.indices = [0, 1, 2, 0, 2, 3];
    const mesh = new Mesh(`move gizmo ${id}`, this.scene);
    data.applyToMesh(mesh);
    mesh.parent = this.root;
    this.adopt(mesh, id);
  }

  private adopt(mesh: Mesh, id: GizmoHandle): void {
    if (!mesh.parent) mesh.parent = this.root;
    mesh.material = this.materials.get(id)!;
    mesh.isPickable = false;
    mesh.renderingGroupId = GIZMO_GROUP;
    this.meshes.push(mesh);
    const list = this.byHandle.get(id) ?? [];
    list.push(mesh);
    this.byHandle.set(id, list);
  }

  /** Shows only these handles (null: all of them). */
  showOnly(handles: readonly GizmoHandle[] | null): void {
    for (const [id, list] of this.byHandle) for (const m of list) m.setEnabled(handles === null || handles.includes(id));
  }

  /**
   * A ring about the game Z axis at `radius` (a fraction of the arrows' length, so it keeps
   * its size on screen), for turning; null removes it. Babylon's torus lies in its XZ
   * plane, which is the game's ground plane.
   */
  setRing(radius: number | null): void {
    this.ring?.dispose();
    this.ring = null;
    if (radius === null) return;
    this.ringMaterial ??= (() => {
      const m = new StandardMaterial('move gizmo ring', this.scene);
      m.disableLighting = true;
      m.emissiveColor = RING;
      m.backFaceCulling = false;
      return m;
    })();
    const ring = CreateTorus('move gizmo ring', { diameter: radius * 2, thickness: 0.03, tessellation: 64 }, this.scene);
    ring.parent = this.root;
    ring.material = this.ringMaterial;
    ring.isPickable = false;
    ring.renderingGroupId = GIZMO_GROUP;
    this.ring = ring;
  }

  /** Marks the ring as under the pointer (or being dragged). */
  setRingHot(on: boolean): void {
    if (this.ringMaterial) this.ringMaterial.emissiveColor = on ? HOT : RING;
  }

  /** Shows the gizmo at a game-space point, or hides it for null. */
  setCentre(centre: Vec3 | null): void {
    this.at = centre;
    this.root.setEnabled(centre !== null);
    if (!centre) return;
    const [x, y, z] = gameToBabylon(...centre);
    this.root.position.set(x, y, z);
    this.root.scaling.setAll(this.length());
  }

  centre(): Vec3 | null {
    return this.at;
  }

  /** The arrows' game-space length now: GIZMO_PIXELS on screen at the gizmo's depth. */
  length(): number {
    const c = this.at;
    if (!c) return 0;
    const [x, y, z] = gameToBabylon(...c);
    const pos = this.camera.position;
    const forward = this.camera.target.subtract(pos).normalize();
    const depth = (x - pos.x) * forward.x + (y - pos.y) * forward.y + (z - pos.z) * forward.z;
    return Math.max(lengthForPixels(depth, this.camera.fov, this.canvas.clientHeight, GIZMO_PIXELS), 1e-6);
  }

  /** Marks the handle under the pointer (or being dragged) in yellow. */
  setHot(handle: GizmoHandle | null): void {
    if (handle === this.hot) return;
    if (this.hot) this.materials.get(this.hot)!.emissiveColor = COLOURS[this.hot];
    this.hot = handle;
    if (handle) this.materials.get(handle)!.emissiveColor = HOT;
  }

  /**
   * Starts the drag preview: `edges` (vertex pairs) of the affected faces, of which the
   * `moved` vertices will follow updatePreview's positions.
   */
  startPreview(mesh: Walkmesh, edges: Uint32Array, moved: readonly number[]): void {
    this.clearPreview();
    if (edges.length === 0) return;
    const index = new Map<number, number>();
    moved.forEach((v, i) => index.set(v, i));
    const n = edges.length;
    const slots = new Int32Array(n);
    const base = new Float32Array(n * 3);
    for (let i = 0; i < n; i++) {
      const v = edges[i]!;
      slots[i] = index.get(v) ?? -1;
      // Game (x, y, z) → Babylon (x, z, y).
      base[i * 3] = mesh.positions[v * 3]!;
      base[i * 3 + 1] = mesh.positions[v * 3 + 2]!;
      base[i * 3 + 2] = mesh.positions[v * 3 + 1]!;
    }
    const indices = new Uint32Array(n);
    for (let i = 0; i < n; i++) indices[i] = i;
    const colors = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) colors.set([PREVIEW.x, PREVIEW.y, PREVIEW.z, 1], i * 4);
    const lines = new LinesMesh('move preview', this.scene, null, null, undefined, true);
    const data = new VertexData();
    data.positions = base.slice();
    data.colors = colors;
    data.indices = indices;
    data.applyToMesh(lines, true);
    lines.isPickable = false;
    // Its bounds are the unmoved ones: a drag away must not cull it.
    lines.alwaysSelectAsActiveMesh = true;
    lines.renderingGroupId = PREVIEW_GROUP;
    this.preview = lines;
    this.previewSlots = slots;
    this.previewBase = base;
    this.previewPositions = base.slice();
  }

  /** The moved vertices' new positions (game space, three numbers each, in `moved` order). */
  updatePreview(positions: readonly number[]): void {
    const lines = this.preview, slots = this.previewSlots, base = this.previewBase, out = this.previewPositions;
    if (!lines || !slots || !base || !out) return;
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i]!;
      if (s < 0) continue;
      out[i * 3] = positions[s * 3]!;
      out[i * 3 + 1] = positions[s * 3 + 2]!;
      out[i * 3 + 2] = positions[s * 3 + 1]!;
    }
    lines.updateVerticesData(VertexBuffer.PositionKind, out);
  }

  clearPreview(): void {
    this.preview?.dispose();
    this.preview = null;
    this.previewSlots = null;
    this.previewBase = null;
    this.previewPositions = null;
  }

  dispose(): void {
    this.scene.onBeforeRenderObservable.remove(this.observer);
    this.clearPreview();
    for (const m of this.meshes) m.dispose();
    this.ring?.dispose();
    this.ringMaterial?.dispose();
    for (const m of this.materials.values()) m.dispose();
    this.root.dispose();
  }
}
