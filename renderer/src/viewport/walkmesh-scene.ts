import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { Engine } from '@babylonjs/core/Engines/engine';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder';
import { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import { CreatePickingRay } from '@babylonjs/core/Culling/ray.core';
// Registers scene.createPickingRay, which the wheel's zoom towards the cursor uses.
import '@babylonjs/core/Culling/ray';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { Scene } from '@babylonjs/core/scene';
import type { Walkmesh } from '../../../shared/model/walkmesh';
import { boxEdges, type LineOverlay, type OverlayId } from '../../../shared/views/view-overlay';
import { drawnBoxClasses } from './box-budget';
import { overlayClassColour, TOOL_COLOURS } from './overlay-colours';
import { CasedLines, segmentLines, type LineGroup } from './cased-lines';
import { buildFlatMesh, flatVertexColours, gameBounds, gameToBabylon, writeFlatFace, type GameBounds } from './game-to-babylon';
import { buildGrid, type GridLineKind } from './grid-lines';
import { MoveGizmo } from './move-gizmo';
import { LevelContextLayer } from './level-context-layer';
import { Nwn2ToolLayer } from './nwn2-tool-layer';
import { changedWithin, countFrame, listenForInput, markChanged, markChangesOnCalls, RENDER_GRACE_MS } from './render-on-demand';

const BACKGROUND = new Color4(0.114, 0.129, 0.153, 1);
const WHITE_RGB = [1, 1, 1] as const;
/**
 * Views with more segments than this are drawn as plain one-pixel lines without casing: a
 * cased line is eight vertices, and a 200,000-node AABB view would cost more than it shows.
 */
const CASED_SEGMENT_LIMIT = 60_000;

const GRID_COLOURS: Record<GridLineKind, Color4> = {
  minor: new Color4(0.3, 0.33, 0.37, 1),
  major: new Color4(0.45, 0.48, 0.53, 1),
  // The game's axes: X red, Y green, as in most level editors.
  'x-axis': new Color4(0.8, 0.3, 0.3, 1),
  'y-axis': new Color4(0.3, 0.75, 0.35, 1),
};

export type HighlightKind = 'hover' | 'selected';

/** A rectangle in canvas CSS pixels (from the canvas's top left). */
export interface ScreenRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Space kept between the framed mesh and the canvas edges or the legend, in CSS pixels. */
const FRAME_MARGIN_PX = 10;

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
  /**
   * Built meshes of files shown before (open tabs), hidden while another is shown, so
   * switching tabs does not rebuild a 100,000-face mesh. `forget` frees a closed tab's.
   */
  private readonly kept = new Map<object, Mesh[]>();
  private shownKey: object | null = null;
  private grid: LinesMesh | null = null;
  private gridStep: number | null = null;
  private bounds: GameBounds | null = null;
  private readonly resizeObserver: ResizeObserver;
  private readonly overlays = new Map<OverlayId, LinesMesh | CasedLines>();
  /** Every cased line set alive, to keep their widths in pixels when the canvas resizes. */
  private readonly cased = new Set<CasedLines>();
  /** The data each shown line system was built from, so an unchanged view is not rebuilt. */
  private readonly overlaySources = new Map<OverlayId, LineOverlay>();
  private readonly highlights: Record<HighlightKind, { fill: Mesh | null; outline: CasedLines | null }> = {
    hover: { fill: null, outline: null },
    selected: { fill: null, outline: null },
  };
  private readonly highlightMaterials: Record<HighlightKind, StandardMaterial>;
  private faceSet: Mesh | null = null;
  private toolLines: CasedLines | null = null;
  private measureLines: CasedLines | null = null;
  private cameraControl = true;
  /** What covers the canvas (the colour legend), which Frame keeps the mesh out of. */
  private covered: () => ScreenRect | null = () => null;
  /** Walkmesh meshes built since the page loaded, and edits patched into shown ones (timings hook). */
  private builds = 0;
  private patches = 0;

  constructor(canvas: HTMLCanvasElement) {
    this.engine = new Engine(canvas, true, { stencil: false, preserveDrawingBuffer: false, doNotHandleContextLost: false }, true);
    this.scene = new Scene(this.engine);
    this.scene.clearColor = BACKGROUND;
    // Picking goes through the BVH (file-view-data.ts): Babylon's own pick would test every
    // triangle of a 100,000-face mesh on each pointer event.
    this.scene.skipPointerMovePicking = true;
    this.scene.skipPointerDownPicking = true;
    this.scene.skipPointerUpPicking = true;
    this.camera = new ArcRotateCamera('camera', -Math.PI / 2, Math.PI / 3, 10, Vector3.Zero(), this.scene);
    this.camera.wheelDeltaPercentage = 0.02;
    // The wheel zooms towards the point under the cursor (issue 16), at the same speed.
    this.camera.zoomToMouseLocation = true;
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
    this.highlightMaterials = { hover: this.flatMaterial('hover', new Color3(1, 1, 1), 0.35), selected: this.flatMaterial('selected', new Color3(1, 0.85, 0.1), 0.7) };
    // Frames on demand only (render-on-demand.ts): an idle view, however large, draws nothing.
    listenForInput();
    markChanged();
    this.engine.runRenderLoop(() => {
      if (!this.needsFrame()) return;
      const c = this.camera;
      const before = [c.radius, c.target.x, c.target.y, c.target.z];
      this.scene.render();
      // The zoom towards the cursor glides in the wheel input's own state, which needsFrame
      // cannot see: a frame that moved the camera asks for the next one.
      this.cameraMoved = before[0] !== c.radius || before[1] !== c.target.x || before[2] !== c.target.y || before[3] !== c.target.z;
      countFrame();
    });
    this.resizeObserver = new ResizeObserver(() => {
      markChanged();
      this.engine.resize();
      for (const c of this.cased) c.resize(this.engine.getRenderWidth(), this.engine.getRenderHeight());
    });
    this.resizeObserver.observe(canvas);
  }

  /**
   * Replaces the shown walkmeshes; `colours[i]` is RGB per face of `walkmeshes[i]`. With a
   * `key` (the open file), the meshes are kept for the next time that key is shown.
   */
  setWalkmeshes(walkmeshes: readonly Walkmesh[], colours: readonly Float32Array[], key: object | null = null): void {
    if (this.shownKey === null) for (const m of this.meshes) m.dispose();
    else for (const m of this.meshes) m.setEnabled(false);
    this.shownKey = key;
    for (const o of this.overlays.values()) this.disposeLines(o);
    this.overlays.clear();
    this.overlaySources.clear();
    this.setHighlight('hover', null);
    this.setHighlight('selected', null);
    const kept = key ? this.kept.get(key) : undefined;
    if (kept) {
      for (const m of kept) m.setEnabled(true);
      this.meshes = kept;
      this.setColours(colours);
    } else this.meshes = walkmeshes.map((wm, i) => {
      const flat = buildFlatMesh(wm);
      const data = new VertexData();
      data.positions = flat.positions;
      data.normals = flat.normals;
      data.indices = flat.indices;
      data.colors = flatVertexColours(colours[i]!);
      const mesh = new Mesh(`walkmesh ${i}: ${wm.name}`, this.scene);
      data.applyToMesh(mesh, true);
      mesh.material = this.material;
      mesh.isPickable = false;
      this.builds++;
      return mesh;
    });
    if (key && !kept) this.kept.set(key, this.meshes);
    this.bounds = gameBounds(walkmeshes);
    this.rebuildGrid();
    this.frameAll();
  }

  private flatMaterial(name: string, colour: Color3, alpha: number): StandardMaterial {
    const m = new StandardMaterial(name, this.scene);
    m.disableLighting = true;
    m.emissiveColor = colour;
    m.alpha = alpha;
    m.backFaceCulling = false;
    // Drawn over the face it marks without fighting it for depth.
    m.zOffset = -4;
    return m;
  }

  /**
   * Shows a view's lines (one line system per view, never one mesh per line), or removes
   * them for null. Lines are lifted a little above the faces so they are not hidden in them.
   */
  setOverlay(id: OverlayId, overlay: LineOverlay | null): void {
    if (overlay && this.overlaySources.get(id) === overlay) return;
    const old = this.overlays.get(id);
    if (old) this.disposeLines(old);
    this.overlays.delete(id);
    this.overlaySources.delete(id);
    if (!overlay) return;
    const plain = overlay.segmentClass.length;
    const maxClass = drawnBoxClasses(overlay);
    let boxCount = 0;
    for (const c of overlay.boxClass) if (c <= maxClass) boxCount++;
    const n = plain + boxCount * 12;
    if (n === 0) return;
    const lift = this.liftAmount();
    const positions = new Float32Array(n * 6);
    const colors = new Float32Array(n * 8);
    const indices = new Uint32Array(n * 2);
    let seg = overlay.segments;
    let segClass = overlay.segmentClass;
    if (boxCount > 0) {
      seg = new Float32Array(n * 6);
      seg.set(overlay.segments);
      segClass = new Uint8Array(n);
      segClass.set(overlay.segmentClass);
      let at = plain;
      for (let b = 0; b < overlay.boxClass.length; b++) {
        if (overlay.boxClass[b]! > maxClass) continue;
        boxEdges(overlay.boxes, b, seg, at * 6);
        segClass.fill(overlay.boxClass[b]!, at, at + 12);
        at += 12;
      }
    }
    const palette = overlay.classes.map((_, c) => overlayClassColour(id, c, overlay.classes.length));
    for (let i = 0; i < n; i++) {
      const o = i * 6;
      // Game (x, y, z) → Babylon (x, z, y), as in game-to-babylon.ts.
      positions[o] = seg[o]!;
      positions[o + 1] = seg[o + 2]! + lift;
      positions[o + 2] = seg[o + 1]!;
      positions[o + 3] = seg[o + 3]!;
      positions[o + 4] = seg[o + 5]! + lift;
      positions[o + 5] = seg[o + 4]!;
      const c = palette[segClass[i]!] ?? WHITE_RGB;
      const q = i * 8;
      colors[q] = colors[q + 4] = c[0];
      colors[q + 1] = colors[q + 5] = c[1];
      colors[q + 2] = colors[q + 6] = c[2];
      colors[q + 3] = colors[q + 7] = 1;
      indices[i * 2] = i * 2;
      indices[i * 2 + 1] = i * 2 + 1;
    }
    if (n <= CASED_SEGMENT_LIMIT) {
      const groups: LineGroup[] = palette.map((colour) => ({ colour, lines: [] }));
      const extra: LineGroup = { colour: WHITE_RGB, lines: [] };
      const all = segmentLines(positions, 0, n);
      all.forEach((line, i) => (groups[segClass[i]!] ?? extra).lines.push(line));
      this.overlays.set(id, this.casedLines(`overlay ${id}`, [...groups, extra], 0));
      this.overlaySources.set(id, overlay);
      return;
    }
    const lines = new LinesMesh(`overlay ${id}`, this.scene, null, null, undefined, true);
    const data = new VertexData();
    data.positions = positions;
    data.colors = colors;
    data.indices = indices;
    data.applyToMesh(lines, false);
    lines.isPickable = false;
    this.overlays.set(id, lines);
    this.overlaySources.set(id, overlay);
  }

  private casedLines(name: string, groups: readonly LineGroup[], renderingGroupId: number): CasedLines {
    const c = new CasedLines(this.scene, name, groups, renderingGroupId);
    this.cased.add(c);
    return c;
  }

  private disposeLines(lines: LinesMesh | CasedLines): void {
    if (lines instanceof CasedLines) this.cased.delete(lines);
    lines.dispose();
  }

  private liftAmount(): number {
    const b = this.bounds;
    if (!b) return 0;
    return Math.max(Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]) * 0.0015, 0.005);
  }

  /** Marks one face (its three game-space corners) as hovered or selected, or clears the mark. */
  setHighlight(kind: HighlightKind, corners: Float32Array | null): void {
    const h = this.highlights[kind];
    h.fill?.dispose();
    if (h.outline) this.disposeLines(h.outline);
    h.fill = null;
    h.outline = null;
    if (!corners) return;
    const lift = this.liftAmount();
    const pts = [0, 1, 2].map((k) => new Vector3(corners[k * 3]!, corners[k * 3 + 2]! + lift, corners[k * 3 + 1]!));
    const fill = new Mesh(`${kind} face`, this.scene);
    const data = new VertexData();
    data.positions = pts.flatMap((p) => [p.x, p.y, p.z]);
    data.indices = [0, 1, 2];
    data.applyToMesh(fill);
    fill.material = this.highlightMaterials[kind];
    fill.isPickable = false;
    const colour = kind === 'selected' ? TOOL_COLOURS.selected : TOOL_COLOURS.hovered;
    const ring = [pts[0]!, pts[1]!, pts[2]!, pts[0]!].flatMap((p) => [p.x, p.y, p.z]);
    // Over everything: a selected face under a floor must still show where it is.
    const outline = this.casedLines(`${kind} outline`, [{ colour, lines: [ring] }], 1);
    h.fill = fill;
    h.outline = outline;
  }

  /**
   * The ray under a canvas point (CSS pixels from its top left) in game space: origin and
   * direction, for the BVH.
   */
  rayAt(x: number, y: number): { origin: [number, number, number]; dir: [number, number, number] } {
    const ray = CreatePickingRay(this.scene, x, y, Matrix.Identity(), this.camera);
    return {
      origin: [ray.origin.x, ray.origin.z, ray.origin.y],
      dir: [ray.direction.x, ray.direction.z, ray.direction.y],
    };
  }

  /** Looks straight down with north (game +Y) up the screen, keeping target and zoom. */
  topView(): void {
    this.camera.alpha = -Math.PI / 2;
    this.camera.beta = this.camera.lowerBetaLimit ?? 0.01;
  }

  /**
   * Zooms to a box (game space) so it fills about half the view, aiming at `centre` (by
   * default the box's centre; a face's centroid lies inside the face, its box centre may not).
   */
  frameBox(min: readonly number[], max: readonly number[], centre?: readonly number[]): void {
    const c = centre ?? [0, 1, 2].map((k) => (min[k]! + max[k]!) / 2);
    const [cx, cy, cz] = gameToBabylon(c[0]!, c[1]!, c[2]!);
    const radius = Math.max(Math.hypot(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!) / 2, 0.5);
    // cloneAlphaBetaRadius: keep the viewing angles (a top view stays a top view).
    this.camera.setTarget(new Vector3(cx, cy, cz), false, false, true);
    this.camera.targetScreenOffset.set(0, 0);
    this.camera.radius = Math.max((radius / Math.sin(this.camera.fov / 2)) * 2, this.camera.lowerRadiusLimit ?? 0);
  }

  /** Tells Frame what covers the canvas (the colour legend), read each time it frames. */
  setCoveredArea(covered: () => ScreenRect | null): void {
    this.covered = covered;
  }

  /**
   * The kept meshes of `before` now stand for `after`, the same walkmeshes with other facts
   * about them (a new report, revision or bake state): nothing is built or drawn again.
   */
  rekey(before: object, after: object): void {
    const kept = this.kept.get(before);
    if (kept) {
      this.kept.delete(before);
      this.kept.set(after, kept);
    }
    if (this.shownKey === before) this.shownKey = after;
  }

  /** Frees the kept meshes of a file that is no longer open. */
  forget(key: object): void {
    const kept = this.kept.get(key);
    if (!kept) return;
    this.kept.delete(key);
    if (this.shownKey === key) {
      this.shownKey = null;
      return; // still on screen: disposed when something else is shown
    }
    for (const m of kept) m.dispose();
  }

  /** New per-face colours for the current walkmeshes (same order and face counts). */
  setColours(colours: readonly Float32Array[]): void {
    this.meshes.forEach((mesh, i) => {
      const rgb = colours[i];
      if (rgb) mesh.updateVerticesData(VertexBuffer.ColorKind, flatVertexColours(rgb));
    });
  }

  /**
   * X-ray: the faces see-through without writing depth, so lower floors and what lies
   * under a face show through it (issue 16); off draws them solid again.
   */
  setXray(on: boolean): void {
    this.material.alpha = on ? 0.35 : 1;
    this.material.disableDepthWrite = on;
  }

  /**
   * Draws only `faces` of walkmesh `mesh` (the selection isolated), hiding the other
   * walkmeshes, or every face again for null. Only the index buffers change: the flat
   * mesh gives face f the vertices 3f..3f+2 (buildFlatMesh).
   */
  isolateFaces(mesh: number | null, faces: Uint32Array | null): void {
    this.meshes.forEach((m, i) => {
      const total = m.getTotalVertices() / 3;
      const keep = faces !== null && i === mesh ? faces.filter((f) => f < total) : null;
      m.isVisible = faces === null || (keep !== null && keep.length > 0);
      const indices = new Uint32Array((keep ? keep.length : total) * 3);
      for (let k = 0; k < indices.length / 3; k++) {
        const f = keep ? keep[k]! : k;
        indices[k * 3] = f * 3;
        indices[k * 3 + 1] = f * 3 + 1;
        indices[k * 3 + 2] = f * 3 + 2;
      }
      if (keep || m.getTotalIndices() !== indices.length) m.setIndices(indices);
    });
  }

  /** Faces drawn now: of the walkmeshes enabled and visible, their index buffers' triangles. */
  drawnFaces(): number {
    let n = 0;
    for (const m of this.meshes) if (m.isEnabled() && m.isVisible) n += m.getTotalIndices() / 3;
    return n;
  }

  /** Points the camera at everything shown, from the south-east and above. */
  /**
   * Shows only the walkmeshes in `shown` (every one with null) and frames them: a Skyrim
   * cell or navmesh isolated from the plugin's others.
   */
  showOnly(walkmeshes: readonly Walkmesh[], shown: ReadonlySet<number> | null, frame = true): void {
    this.meshes.forEach((m, i) => m.setEnabled(shown === null || shown.has(i)));
    const kept = shown === null ? walkmeshes : walkmeshes.filter((_, i) => shown.has(i));
    if (kept.length > 0) this.bounds = gameBounds(kept);
    if (frame) this.frameAll();
  }

  frameAll(): void {
    const b = this.bounds;
    if (!b) return;
    const [cx, cy, cz] = gameToBabylon((b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, (b.min[2] + b.max[2]) / 2);
    const radius = Math.max(Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]) / 2, 1);
    // The bounding sphere overstates a flat level seen at 45°; a little closer fills the view.
    const distance = (radius / Math.sin(this.camera.fov / 2)) * 0.85;
    this.camera.setTarget(new Vector3(cx, cy, cz));
    this.camera.alpha = -Math.PI / 3;
    this.camera.beta = Math.PI / 4;
    this.camera.radius = distance;
    this.camera.lowerRadiusLimit = radius * 0.002;
    this.camera.upperRadiusLimit = distance * 20;
    this.camera.minZ = Math.max(radius * 0.0005, 0.01);
    this.camera.maxZ = distance * 40;
    this.camera.targetScreenOffset.set(0, 0);
    this.keepClearOf(b);
  }

  /**
   * Moves and zooms the framed view so the mesh's box, as projected, lies beside or below
   * what covers the canvas (whichever leaves it larger), never under it. The box's corners
   * bound every vertex on screen, so the mesh is clear of the legend when they are.
   */
  private keepClearOf(b: GameBounds): void {
    const cover = this.covered();
    const canvas = this.engine.getRenderingCanvas();
    const w = canvas?.clientWidth ?? 0;
    const h = canvas?.clientHeight ?? 0;
    if (!cover || w <= 0 || h <= 0) return;
    const m = FRAME_MARGIN_PX;
    const options: ScreenRect[] = [
      { left: cover.right + m, top: m, right: w - m, bottom: h - m },
      { left: m, top: cover.bottom + m, right: w - m, bottom: h - m },
    ].filter((r) => r.right - r.left > 40 && r.bottom - r.top > 40);
    const first = this.projectedBox(b);
    if (!first || options.length === 0) return;
    const fit = (r: ScreenRect) => Math.min((r.right - r.left) / (first.right - first.left || 1), (r.bottom - r.top) / (first.bottom - first.top || 1));
    const free = options.reduce((best, r) => (fit(r) > fit(best) ? r : best));
    for (let i = 0; i < 8; i++) {
      const box = this.projectedBox(b);
      if (!box) {
        this.camera.radius *= 1.25;
        continue;
      }
      const inside = box.left >= free.left && box.right <= free.right && box.top >= free.top && box.bottom <= free.bottom;
      if (inside && i > 0) return;
      const scale = Math.max((box.right - box.left) / (free.right - free.left), (box.bottom - box.top) / (free.bottom - free.top), 0.05);
      // Screen pixels to view-space units at the target's depth (the offset is a view-space shift).
      const unitsPerPx = (2 * this.camera.radius * Math.tan(this.camera.fov / 2)) / h;
      const off = this.camera.targetScreenOffset;
      off.x += ((free.left + free.right) / 2 - (box.left + box.right) / 2) * unitsPerPx;
      off.y -= ((free.top + free.bottom) / 2 - (box.top + box.bottom) / 2) * unitsPerPx;
      // A little past the exact fit: perspective makes the near corners grow faster than the box.
      const s = inside ? 1 : scale * 1.04;
      this.camera.radius *= s;
      off.scaleInPlace(s);
    }
  }

  /** The screen box (CSS pixels) of the game-space box's eight corners for the camera as set now, or null when one is behind it. */
  private projectedBox(b: GameBounds): ScreenRect | null {
    const view = this.camera.getViewMatrix(true);
    const transform = view.multiply(this.camera.getProjectionMatrix(true));
    const canvas = this.engine.getRenderingCanvas();
    const w = canvas?.clientWidth ?? 1;
    const h = canvas?.clientHeight ?? 1;
    const out: ScreenRect = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
    for (let k = 0; k < 8; k++) {
      const [x, y, z] = gameToBabylon(k & 1 ? b.max[0] : b.min[0], k & 2 ? b.max[1] : b.min[1], k & 4 ? b.max[2] : b.min[2]);
      const c = Vector3.TransformCoordinates(new Vector3(x, y, z), transform);
      const m = transform.m;
      const rw = x * m[3]! + y * m[7]! + z * m[11]! + m[15]!;
      if (rw <= 0) return null;
      const sx = ((c.x + 1) / 2) * w;
      const sy = ((1 - c.y) / 2) * h;
      out.left = Math.min(out.left, sx);
      out.right = Math.max(out.right, sx);
      out.top = Math.min(out.top, sy);
      out.bottom = Math.max(out.bottom, sy);
    }
    return out;
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

  /** Ids of the views whose lines are shown now. */
  shownOverlays(): OverlayId[] {
    return [...this.overlays.keys()];
  }

  stats(): SceneStats {
    let faces = 0;
    for (const m of this.meshes) faces += m.getTotalIndices() / 3;
    return { meshes: this.meshes.length, faces, gridStep: this.gridStep };
  }

  /**
   * Shows an edited file in place of the one shown (same tab): rebuilds the meshes when
   * corners or positions changed, else only recolours them, and keeps the camera where the
   * user put it.
   */
  replaceEdited(walkmeshes: readonly Walkmesh[], colours: readonly Float32Array[], before: object | null, after: object, rebuild: boolean): void {
    if (before) this.kept.delete(before);
    this.shownKey = after;
    if (rebuild || this.meshes.length !== walkmeshes.length) {
      for (const m of this.meshes) m.dispose();
      this.meshes = walkmeshes.map((wm, i) => this.buildMesh(wm, i, colours[i]!));
      this.bounds = gameBounds(walkmeshes);
    } else this.setColours(colours);
    this.kept.set(after, this.meshes);
  }

  private buildMesh(wm: Walkmesh, i: number, colours: Float32Array): Mesh {
    const flat = buildFlatMesh(wm);
    const data = new VertexData();
    data.positions = flat.positions;
    data.normals = flat.normals;
    data.indices = flat.indices;
    data.colors = flatVertexColours(colours);
    const mesh = new Mesh(`walkmesh ${i}: ${wm.name}`, this.scene);
    data.applyToMesh(mesh, true);
    mesh.material = this.material;
    mesh.isPickable = false;
    this.builds++;
    return mesh;
  }

  /** How many walkmesh meshes were built, and how many edits patched in place, since the page loaded. */
  buildCounts(): { meshBuilds: number; deltaPatches: number } {
    return { meshBuilds: this.builds, deltaPatches: this.patches };
  }

  /**
   * Shows an edit that changed no corners in place of the file shown (same tab), writing
   * only what changed into walkmesh `index`'s buffers: the colours of `recoloured` faces
   * (`rgb` holds three numbers per listed face), the corners and normals of `moved` faces
   * (from `wm`). False when the buffers cannot be patched (nothing shown, or
   * not the kind of buffer built here): the caller shows the file the long way.
   */
  patchEdited(before: object | null, after: object, index: number, wm: Walkmesh, recoloured: Uint32Array, rgb: Float32Array, moved: Uint32Array): boolean {
    const mesh = this.meshes[index];
    if (!mesh || mesh.getTotalIndices() !== wm.triangles.length) return false;
    const colour = mesh.getVertexBuffer(VertexBuffer.ColorKind);
    const position = mesh.getVertexBuffer(VertexBuffer.PositionKind);
    const normal = mesh.getVertexBuffer(VertexBuffer.NormalKind);
    const rgba = colour?.getData();
    const xyz = position?.getData();
    const nxyz = normal?.getData();
    if (!(rgba instanceof Float32Array && xyz instanceof Float32Array && nxyz instanceof Float32Array) || !colour!.isUpdatable() || !position!.isUpdatable() || !normal!.isUpdatable()) return false;
    if (recoloured.length > 0) {
      recoloured.forEach((f, i) => {
        for (let k = 0; k < 3; k++) {
          const o = f * 12 + k * 4;
          rgba[o] = rgb[i * 3]!;
          rgba[o + 1] = rgb[i * 3 + 1]!;
          rgba[o + 2] = rgb[i * 3 + 2]!;
          rgba[o + 3] = 1;
        }
      });
      this.upload(colour!, rgba, recoloured, 12);
    }
    if (moved.length > 0) {
      for (const f of moved) writeFlatFace(wm, f, xyz, nxyz);
      this.upload(position!, xyz, moved, 9);
      this.upload(normal!, nxyz, moved, 9);
      this.growBounds(mesh, xyz, moved);
    }
    if (before) this.kept.delete(before);
    this.shownKey = after;
    this.kept.set(after, this.meshes);
    this.patches++;
    return true;
  }

  /** Sends the floats of the listed faces (runs of consecutive faces as one call) to the GPU buffer. */
  private upload(buffer: VertexBuffer, data: Float32Array, faces: Uint32Array, floatsPerFace: number): void {
    const gpu = buffer.getBuffer();
    if (!gpu) return;
    const sorted = faces.slice().sort();
    for (let i = 0; i < sorted.length; ) {
      let j = i + 1;
      while (j < sorted.length && sorted[j]! <= sorted[j - 1]! + 1) j++;
      const from = sorted[i]! * floatsPerFace;
      const to = (sorted[j - 1]! + 1) * floatsPerFace;
      this.engine.updateDynamicVertexBuffer(gpu, data.subarray(from, to), from * Float32Array.BYTES_PER_ELEMENT);
      i = j;
    }
  }

  /** Widens the mesh's bounding box to moved corners, so the camera does not cull a face lifted out of it. */
  private growBounds(mesh: Mesh, xyz: Float32Array, faces: Uint32Array): void {
    const info = mesh.getBoundingInfo();
    const min = info.minimum.clone();
    const max = info.maximum.clone();
    let grew = false;
    for (const f of faces) {
      for (let k = 0; k < 9; k += 3) {
        const o = f * 9 + k;
        const p = new Vector3(xyz[o]!, xyz[o + 1]!, xyz[o + 2]!);
        if (p.x < min.x || p.y < min.y || p.z < min.z || p.x > max.x || p.y > max.y || p.z > max.z) grew = true;
        min.minimizeInPlace(p);
        max.maximizeInPlace(p);
      }
    }
    if (grew) info.reConstruct(min, max, mesh.getWorldMatrix());
  }

  /**
   * Marks many faces at once (the edit tools' selection) with one mesh, or clears the mark.
   * `corners` holds nine game-space numbers per face.
   */
  setFaceSet(corners: Float32Array | null): void {
    this.faceSet?.dispose();
    this.faceSet = null;
    if (!corners || corners.length === 0) return;
    const lift = this.liftAmount();
    const n = corners.length / 3;
    const positions = new Float32Array(corners.length);
    const indices = new Uint32Array(n);
    for (let v = 0; v < n; v++) {
      positions[v * 3] = corners[v * 3]!;
      positions[v * 3 + 1] = corners[v * 3 + 2]! + lift;
      positions[v * 3 + 2] = corners[v * 3 + 1]!;
      indices[v] = v;
    }
    const mesh = new Mesh('edit selection', this.scene);
    const data = new VertexData();
    data.positions = positions;
    data.indices = indices;
    data.applyToMesh(mesh);
    mesh.material = this.highlightMaterials.selected;
    mesh.isPickable = false;
    this.faceSet = mesh;
  }

  /**
   * Draws tool lines over everything, cased (cased-lines.ts): a path (white polyline), where
   * the walkable region breaks (light red segments), picked points (small yellow crosses).
   * Null clears them.
   */
  setToolLines(lines: { path: readonly (readonly number[])[]; breaks: readonly (readonly number[])[][]; marks: readonly (readonly number[])[] } | null): void {
    if (this.toolLines) this.disposeLines(this.toolLines);
    this.toolLines = null;
    if (!lines) return;
    const lift = this.liftAmount() * 2;
    // Game (x, y, z) → Babylon (x, z, y), lifted.
    const at = (p: readonly number[]) => [p[0]!, p[2]! + lift, p[1]!];
    const path: LineGroup = { colour: TOOL_COLOURS.path, lines: lines.path.length > 1 ? [lines.path.flatMap(at)] : [] };
    const breaks: LineGroup = { colour: TOOL_COLOURS.breaks, lines: lines.breaks.map(([a, b]) => [...at(a!), ...at(b!)]) };
    const marks: LineGroup = { colour: TOOL_COLOURS.marks, lines: [] };
    const r = Math.max(this.liftAmount() * 20, 0.1);
    for (const p of lines.marks) {
      const [x, y, z] = at(p) as [number, number, number];
      marks.lines.push([x - r, y, z, x + r, y, z], [x, y, z - r, x, y, z + r]);
    }
    const drawn = this.casedLines('tool lines', [path, breaks, marks], 1);
    if (drawn.isEmpty()) this.disposeLines(drawn);
    else this.toolLines = drawn;
  }

  /** The measure tool's picked points (game space) and the line between them; null or none clears it. */
  setMeasure(points: readonly (readonly number[])[] | null): void {
    if (this.measureLines) this.disposeLines(this.measureLines);
    this.measureLines = null;
    if (!points || points.length === 0) return;
    const lift = this.liftAmount() * 2;
    const at = (p: readonly number[]) => [p[0]!, p[2]! + lift, p[1]!];
    const line: LineGroup = { colour: TOOL_COLOURS.path, lines: points.length > 1 ? [points.flatMap(at)] : [] };
    const marks: LineGroup = { colour: TOOL_COLOURS.marks, lines: [] };
    const r = Math.max(this.liftAmount() * 20, 0.1);
    for (const p of points) {
      const [x, y, z] = at(p) as [number, number, number];
      marks.lines.push([x - r, y, z, x + r, y, z], [x, y, z - r, x, y, z + r], [x, y - r, z, x, y + r, z]);
    }
    this.measureLines = this.casedLines('measure', [line, marks], 1);
  }

  /**
   * A function from game space to canvas CSS pixels for the current camera (null behind
   * it), for box and lasso selection: one matrix product per point, no Babylon objects.
   */
  screenProjector(): (x: number, y: number, z: number) => [number, number] | null {
    const m = this.scene.getTransformMatrix().m;
    const canvas = this.engine.getRenderingCanvas();
    const w = canvas?.clientWidth ?? this.engine.getRenderWidth();
    const h = canvas?.clientHeight ?? this.engine.getRenderHeight();
    return (x, y, z) => {
      // Game (x, y, z) is Babylon (x, z, y); Babylon multiplies row vectors.
      const bx = x, by = z, bz = y;
      const rw = bx * m[3]! + by * m[7]! + bz * m[11]! + m[15]!;
      if (rw <= 0) return null;
      const rx = (bx * m[0]! + by * m[4]! + bz * m[8]! + m[12]!) / rw;
      const ry = (bx * m[1]! + by * m[5]! + bz * m[9]! + m[13]!) / rw;
      return [((rx + 1) / 2) * w, ((1 - ry) / 2) * h];
    };
  }

  /** Lets a tool take left drags (box, lasso, brush) from the orbit camera, and gives them back. */
  setCameraControl(on: boolean): void {
    if (on === this.cameraControl) return;
    this.cameraControl = on;
    if (on) this.camera.attachControl(true);
    else this.camera.detachControl();
  }

  /** A move gizmo drawn in this scene (move-gizmo.ts); the caller disposes it. */
  createMoveGizmo(canvas: HTMLCanvasElement): MoveGizmo {
    return new MoveGizmo(this.scene, this.camera, canvas);
  }

  private contextLayer: LevelContextLayer | null = null;

  /** The level drawn under the walkmesh (level-context-layer.ts), made on first use. */
  levelContext(): LevelContextLayer {
    return (this.contextLayer ??= new LevelContextLayer(this.scene));
  }

  /** Frames someone waits for (afterNextFrame). */
  private awaitedFrames = 0;
  /** The last frame drawn moved the camera (a glide still going). */
  private cameraMoved = false;

  /** The orbit camera's target in game space and its distance, for the test hook. */
  cameraState(): { target: [number, number, number]; radius: number } {
    const t = this.camera.target;
    return { target: [t.x, t.z, t.y], radius: this.camera.radius };
  }

  /** A change within the grace period, the camera still gliding, or a frame waited for. */
  private needsFrame(): boolean {
    const c = this.camera;
    const gliding = c.inertialAlphaOffset !== 0 || c.inertialBetaOffset !== 0 || c.inertialRadiusOffset !== 0 || c.inertialPanningX !== 0 || c.inertialPanningY !== 0;
    return this.awaitedFrames > 0 || gliding || this.cameraMoved || changedWithin(RENDER_GRACE_MS);
  }

  /** Runs `callback` once after the next frame has been drawn. */
  afterNextFrame(callback: () => void): void {
    this.awaitedFrames++;
    this.scene.onAfterRenderObservable.addOnce(() => {
      this.awaitedFrames--;
      callback();
    });
  }

  dispose(): void {
    this.resizeObserver.disconnect();
    this.engine.stopRenderLoop();
    this.contextLayer?.dispose();
    this.scene.dispose();
    this.engine.dispose();
  }
}

// Every change reaches Babylon through these classes' methods: each call asks for frames.
// (The render loop's own question is not a change.)
// Getting the level layer is no change, and its `show` marks one itself when something shown
// changes: a level still being built in slices must not cost a frame of the walkmesh alone
// (with software WebGL a 460,800-face walkmesh's frame holds the page about a second).
// Waiting for a frame asks for that one frame, not for the grace period's frames after it.
markChangesOnCalls(WalkmeshScene.prototype, ['needsFrame', 'cameraState', 'drawnFaces', 'levelContext', 'afterNextFrame']);
// The gizmo's size is worked out before every frame (length): that is drawing, not a change.
markChangesOnCalls(MoveGizmo.prototype, ['length']);
markChangesOnCalls(LevelContextLayer.prototype, ['show']);
for (const proto of [CasedLines.prototype, Nwn2ToolLayer.prototype]) markChangesOnCalls(proto);
