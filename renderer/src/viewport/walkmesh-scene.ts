import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { Engine } from '@babylonjs/core/Engines/engine';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { Scene } from '@babylonjs/core/scene';
import type { Walkmesh } from '../../../shared/model/walkmesh';
import { buildFlatMesh, flatVertexColours, gameBounds, gameToBabylon, type GameBounds } from './game-to-babylon';
import { buildGrid, type GridLineKind } from './grid-lines';

const BACKGROUND = new Color4(0.114, 0.129, 0.153, 1);

const GRID_COLOURS: Record<GridLineKind, Color4> = {
  minor: new Color4(0.3, 0.33, 0.37, 1),
  major: new Color4(0.45, 0.48, 0.53, 1),
  // The game's axes: X red, Y green, as in most level editors.
  'x-axis': new Color4(0.8, 0.3, 0.3, 1),
  'y-axis': new Color4(0.3, 0.75, 0.35, 1),
};

export interface SceneStats {
  meshes: number;
  faces: number;
  gridStep: number | null;
}

/**
 * The 3-D view of the open walkmeshes: one Babylon mesh per walkmesh (never one per
 * face), a ground grid in game units and an orbit camera. Colours are per face and can
 * be replaced without rebuilding the geometry. See game-to-babylon.ts for the axes.
 */
export class WalkmeshScene {
  private readonly engine: Engine;
  private readonly scene: Scene;
  private readonly camera: ArcRotateCamera;
  private readonly material: StandardMaterial;
  private meshes: Mesh[] = [];
  private grid: LinesMesh | null = null;
  private gridStep: number | null = null;
  private bounds: GameBounds | null = null;
  private readonly resizeObserver: ResizeObserver;

  constructor(canvas: HTMLCanvasElement) {
    this.engine = new Engine(canvas, true, { stencil: false, preserveDrawingBuffer: false, doNotHandleContextLost: false }, true);
    this.scene = new Scene(this.engine);
    this.scene.clearColor = BACKGROUND;
    this.camera = new ArcRotateCamera('camera', -Math.PI / 2, Math.PI / 3, 10, Vector3.Zero(), this.scene);
    this.camera.wheelDeltaPercentage = 0.02;
    this.camera.pinchDeltaPercentage = 0.002;
    this.camera.lowerBetaLimit = 0.01;
    this.camera.upperBetaLimit = Math.PI - 0.01;
    this.camera.attachControl(true);
    const light = new HemisphericLight('sky', new Vector3(0.3, 1, 0.2), this.scene);
    light.intensity = 1;
    light.groundColor = new Color3(0.35, 0.35, 0.4);
    light.specular = Color3.Black();
    this.material = new StandardMaterial('walkmesh', this.scene);
    this.material.diffuseColor = Color3.White();
    this.material.specularColor = Color3.Black();
    // Both sides are drawn: designers orbit under floors, and a face whose winding points
    // down must still be visible (and lit) to be found.
    this.material.backFaceCulling = false;
    this.material.twoSidedLighting = true;
    // Pan speed follows the zoom, so a 10-unit prop and a 30,000-unit map both pan at a
    // comfortable rate.
    this.scene.onBeforeRenderObservable.add(() => {
      this.camera.panningSensibility = 1000 / Math.max(this.camera.radius, 1e-3);
    });
    this.engine.runRenderLoop(() => this.scene.render());
    this.resizeObserver = new ResizeObserver(() => this.engine.resize());
    this.resizeObserver.observe(canvas);
  }

  /** Replaces the shown walkmeshes; `colours[i]` is RGB per face of `walkmeshes[i]`. */
  setWalkmeshes(walkmeshes: readonly Walkmesh[], colours: readonly Float32Array[]): void {
    for (const m of this.meshes) m.dispose();
    this.meshes = walkmeshes.map((wm, i) => {
      const flat = buildFlatMesh(wm);
      const data = new VertexData();
      data.positions = flat.positions;
      data.normals = flat.normals;
      data.indices = flat.indices;
      data.colors = flatVertexColours(colours[i]!);
      const mesh = new Mesh(`walkmesh ${i}: ${wm.name}`, this.scene);
      data.applyToMesh(mesh, true);
      mesh.material = this.material;
      mesh.isPickable = true;
      return mesh;
    });
    this.bounds = gameBounds(walkmeshes);
    this.rebuildGrid();
    this.frameAll();
  }

  /** New per-face colours for the current walkmeshes (same order and face counts). */
  setColours(colours: readonly Float32Array[]): void {
    this.meshes.forEach((mesh, i) => {
      const rgb = colours[i];
      if (rgb) mesh.updateVerticesData(VertexBuffer.ColorKind, flatVertexColours(rgb));
    });
  }

  /** Points the camera at everything shown, from the south-east and above. */
  frameAll(): void {
    const b = this.bounds;
    if (!b) return;
    const [cx, cy, cz] = gameToBabylon((b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, (b.min[2] + b.max[2]) / 2);
    const radius = Math.max(Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]) / 2, 1);
    const distance = radius / Math.sin(this.camera.fov / 2);
    this.camera.setTarget(new Vector3(cx, cy, cz));
    this.camera.alpha = -Math.PI / 3;
    this.camera.beta = Math.PI / 4;
    this.camera.radius = distance;
    this.camera.lowerRadiusLimit = radius * 0.002;
    this.camera.upperRadiusLimit = distance * 20;
    this.camera.minZ = Math.max(radius * 0.0005, 0.01);
    this.camera.maxZ = distance * 40;
  }

  private rebuildGrid(): void {
    this.grid?.dispose();
    this.grid = null;
    this.gridStep = null;
    if (!this.bounds) return;
    const grid = buildGrid(this.bounds);
    const lines = grid.lines.map((l) => [new Vector3(...gameToBabylon(...l.from)), new Vector3(...gameToBabylon(...l.to))]);
    const colors = grid.lines.map((l) => [GRID_COLOURS[l.kind], GRID_COLOURS[l.kind]]);
    this.grid = CreateLineSystem('grid', { lines, colors }, this.scene);
    this.grid.isPickable = false;
    this.gridStep = grid.step;
  }

  stats(): SceneStats {
    let faces = 0;
    for (const m of this.meshes) faces += m.getTotalIndices() / 3;
    return { meshes: this.meshes.length, faces, gridStep: this.gridStep };
  }

  /** Runs `callback` once after the next frame has been drawn. */
  afterNextFrame(callback: () => void): void {
    this.scene.onAfterRenderObservable.addOnce(() => callback());
  }

  dispose(): void {
    this.resizeObserver.disconnect();
    this.engine.stopRenderLoop();
    this.scene.dispose();
    this.engine.dispose();
  }
}
