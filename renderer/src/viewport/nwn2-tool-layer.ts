import { Color4 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import { RING_RADIUS } from '../tools/placeable-gizmo-math';
import type { GizmoHandle } from '../tools/move-gizmo-math';
import { MoveGizmo } from './move-gizmo';

/** The placeable gizmo's handles: the ground plane (square and centre) and the Z arrow; turning is the ring. */
export const PLACEABLE_HANDLES: readonly GizmoHandle[] = ['z', 'xy', 'centre'];

/** A polyline drawn over the walkmesh (game space), in one colour. */
export interface ToolPolyline {
  points: readonly (readonly number[])[];
  rgb: readonly [number, number, number];
}

/**
 * What the NWN2 tools draw in the walkmesh's scene: a second move gizmo for the picked
 * placeable (ground plane, Z arrow and a rotation ring), and lines over everything for the
 * cutter being drawn, the footprint's drag preview and the brush's circle. Drawn after the
 * walkmesh with its depth cleared, like the other tool lines, so a floor never hides them.
 */
export class Nwn2ToolLayer {
  readonly gizmo: MoveGizmo;
  private lines: LinesMesh | null = null;

  constructor(base: MoveGizmo, canvas: HTMLCanvasElement) {
    this.gizmo = new MoveGizmo(base.scene, base.camera, canvas);
    this.gizmo.showOnly(PLACEABLE_HANDLES);
    this.gizmo.setRing(RING_RADIUS);
  }

  setLines(list: readonly ToolPolyline[]): void {
    this.lines?.dispose();
    this.lines = null;
    const shown = list.filter((l) => l.points.length > 1);
    if (shown.length === 0) return;
    // Game (x, y, z) is Babylon (x, z, y).
    const lines = shown.map((l) => l.points.map((p) => new Vector3(p[0]!, p[2]!, p[1]!)));
    const colors = shown.map((l) => l.points.map(() => new Color4(l.rgb[0], l.rgb[1], l.rgb[2], 1)));
    const mesh = CreateLineSystem('nwn2 tool lines', { lines, colors }, this.gizmo.scene);
    mesh.isPickable = false;
    // Bounds change with every pointer move; never culled.
    mesh.alwaysSelectAsActiveMesh = true;
    mesh.renderingGroupId = 1;
    this.lines = mesh;
  }

  dispose(): void {
    this.lines?.dispose();
    this.lines = null;
    this.gizmo.dispose();
  }
}
