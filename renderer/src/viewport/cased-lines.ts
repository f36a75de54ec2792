import { CreateGreasedLine } from '@babylonjs/core/Meshes/Builders/greasedLineBuilder';
import type { GreasedLineBaseMesh } from '@babylonjs/core/Meshes/GreasedLine/greasedLineBaseMesh';
import { GreasedLineMeshColorMode, GreasedLineMeshMaterialType } from '@babylonjs/core/Materials/GreasedLine/greasedLineMaterialInterfaces';
import { GreasedLinePluginMaterial } from '@babylonjs/core/Materials/GreasedLine/greasedLinePluginMaterial';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Vector2 } from '@babylonjs/core/Maths/math.vector';
import type { Material } from '@babylonjs/core/Materials/material';
import type { Scene } from '@babylonjs/core/scene';
import type { Rgb } from './face-colours';
import { CASING_PX, CASING_RGB, LINE_PX } from './overlay-colours';

/** Polylines of one colour, each as x, y, z per point in Babylon space. */
export interface LineGroup {
  colour: Rgb;
  lines: number[][];
}

/**
 * Lines of constant width on screen, each over a wider near-black casing, so a line reads
 * over a face of its own colour (overlay-colours.ts says which colours, colour-contrast.ts
 * how that is measured). One casing mesh and one mesh per colour, never one per line.
 * The casing is drawn first and the lines are pulled towards the camera by a depth offset,
 * so a line always wins over its own casing and any casing of a crossing line.
 */
export class CasedLines {
  private readonly meshes: GreasedLineBaseMesh[] = [];
  private readonly materials: Material[] = [];

  constructor(
    private readonly scene: Scene,
    name: string,
    groups: readonly LineGroup[],
    renderingGroupId: number,
  ) {
    const all = groups.flatMap((g) => g.lines).filter((l) => l.length >= 6);
    if (all.length === 0) return;
    this.add(`${name} casing`, all, CASING_RGB, CASING_PX, -1, renderingGroupId);
    for (const g of groups) {
      const lines = g.lines.filter((l) => l.length >= 6);
      if (lines.length > 0) this.add(`${name} line`, lines, g.colour, LINE_PX, -3, renderingGroupId);
    }
  }

  private add(name: string, lines: number[][], colour: Rgb, widthPx: number, zOffset: number, group: number): void {
    const engine = this.scene.getEngine();
    const mesh = CreateGreasedLine(
      name,
      { points: lines },
      {
        materialType: GreasedLineMeshMaterialType.MATERIAL_TYPE_STANDARD,
        color: new Color3(colour[0], colour[1], colour[2]),
        colorMode: GreasedLineMeshColorMode.COLOR_MODE_SET,
        // "Attenuation" here keeps the width constant on screen (the plugin scales it by depth).
        sizeAttenuation: true,
        width: widthPx * WIDTH_PER_PX,
        resolution: new Vector2(engine.getRenderWidth(), engine.getRenderHeight()),
      },
      this.scene,
    );
    const material = mesh.material!;
    material.zOffset = zOffset;
    material.backFaceCulling = false;
    if ('disableLighting' in material) material.disableLighting = true;
    mesh.isPickable = false;
    mesh.renderingGroupId = group;
    this.meshes.push(mesh);
    this.materials.push(material);
  }

  /** Keeps the widths in pixels after the canvas is resized. */
  resize(width: number, height: number): void {
    for (const m of this.materials) {
      const plugin = m.pluginManager?.getPlugin<GreasedLinePluginMaterial>(GreasedLinePluginMaterial.GREASED_LINE_MATERIAL_NAME);
      if (plugin) plugin.resolution = new Vector2(width, height);
    }
  }

  isEmpty(): boolean {
    return this.meshes.length === 0;
  }

  dispose(): void {
    for (const m of this.meshes) m.dispose();
    for (const m of this.materials) m.dispose(true, true);
    this.meshes.length = 0;
    this.materials.length = 0;
  }
}

/** Plugin width units per CSS pixel: a width of 2 draws about one pixel in Chromium (seen in the overlay-contrast e2e screenshots). */
const WIDTH_PER_PX = 2;

/** Segments (x, y, z of both ends, Babylon space, six numbers each) as two-point lines. */
export function segmentLines(positions: Float32Array, from: number, to: number): number[][] {
  const out: number[][] = [];
  for (let i = from; i < to; i++) {
    const o = i * 6;
    out.push([positions[o]!, positions[o + 1]!, positions[o + 2]!, positions[o + 3]!, positions[o + 4]!, positions[o + 5]!]);
  }
  return out;
}
