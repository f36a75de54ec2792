import { watch } from 'vue';
import type { Walkmesh } from '../../../shared/model/walkmesh';
import type { LineOverlay } from '../../../shared/views/view-overlay';
import { useEditStore } from '../stores/edit-store';
import { useNwn2PlacementStore } from '../stores/nwn2-placement-store';
import { SNAP_REACH_PX, refuseClose, refuseCorner, snapCutterPoint, type Point3 } from '../tools/cutter-outline';
import { dragDisplacement, dragPoint, handleAt, handleScreenPoints, type GizmoHandle, type Vec3 } from '../tools/move-gizmo-math';
import { RING_RADIUS, footprintOf, groundCircle, onRing, placeSegments, ringDragPoint, ringGrabPoint, turnBetween, type Pose } from '../tools/placeable-gizmo-math';
import type { MoveGizmo } from './move-gizmo';
import { Nwn2ToolLayer, PLACEABLE_HANDLES, type ToolPolyline } from './nwn2-tool-layer';
import type { WalkmeshScene } from './walkmesh-scene';

/** What the viewport lends the NWN2 tools. */
export interface Nwn2ViewportContext {
  pickPoint(x: number, y: number): { mesh: number; face: number; point: [number, number, number] } | null;
  onPlane(x: number, y: number, z: number): [number, number, number] | null;
  walkmesh(index: number): Walkmesh | undefined;
  /** The footprints view of the open file (placeable outlines), drawn or not. */
  footprints(): LineOverlay | null;
  /** The face tooltip and hover highlight off: the tool's own marks are what matter. */
  hoverOff(): void;
}

/** Turns snap to whole steps of this many degrees when Snap is on, as the toolset's rotate does. */
const TURN_STEP_DEGREES = 15;
/** A footprint segment further than this from its placeable is not its own (the largest NWN2 placeables span some 30 m). */
const FOOTPRINT_REACH = 40;
const PICK_PLACEABLE_PX = 24;

const DRAFT_RGB = [1, 0.62, 0.1] as const;
const REFUSED_RGB = [1, 0.2, 0.2] as const;
const CLOSING_RGB = [0.75, 0.5, 0.2] as const;
const PREVIEW_RGB = [1, 0.85, 0.1] as const;
const BRUSH_RGB = [1, 1, 1] as const;
const SNAP_RGB: Record<string, readonly [number, number, number]> = {
  'cutter-corner': [1, 0.3, 1],
  vertex: [0.2, 0.9, 1],
  grid: [0.9, 0.9, 0.9],
  none: [1, 0.62, 0.1],
};

/** Half the side of the square marking a placeable, as shared/views/placement-overlays.ts draws it. */
const MARKER = 0.5;

/** A square turned by the bearing at the placeable's position (segments, game space). */
function markerSegments(p: Pose): Float32Array {
  const c = Math.cos(p.bearing), s = Math.sin(p.bearing);
  const at = (u: number, v: number) => [p.x + u * c - v * s, p.y + u * s + v * c, p.z];
  const q = [at(-MARKER, -MARKER), at(MARKER, -MARKER), at(MARKER, MARKER), at(-MARKER, MARKER)];
  const out: number[] = [];
  for (let i = 0; i < 4; i++) out.push(...q[i]!, ...q[(i + 1) % 4]!);
  return Float32Array.from(out);
}

interface PlaceableDrag {
  handle: GizmoHandle | 'ring';
  index: number;
  from: Vec3;
  start: Pose;
  pose: Pose;
  footprint: Float32Array;
}

interface HookWindow {
  __walkbench?: {
    /** Footprint segments the placeable drag's preview draws (0 when no drag). */
    placeablePreview?: number;
    /** The brush's circle on the ground as drawn (game space), or null. */
    brushCircle?: { centre: Vec3; radius: number } | null;
    placeableGizmo?: () => { centre: Vec3; length: number; handles: Partial<Record<GizmoHandle, [number, number]>>; ring: [number, number] | null } | null };
}

/**
 * The NWN2 tools' pointer and key handling in the viewport (issue 16 §4): the picked
 * placeable's gizmo (move in the ground plane or along Z, turn on the ring, a live preview
 * of its footprint, one GIT edit per drag, Esc cancels), a cutter drawn corner by corner
 * (outline following the pointer, snapping, Enter or a click on the first corner closes,
 * Backspace removes the last corner, Esc cancels) and the brush's circle on the ground.
 * Each handler answers whether it took the event.
 */
export function useNwn2ViewportTools(ctx: Nwn2ViewportContext) {
  const edit = useEditStore();
  const git = useNwn2PlacementStore();
  let scene: WalkmeshScene | null = null;
  let layer: Nwn2ToolLayer | null = null;
  let canvas: HTMLCanvasElement | null = null;
  let drag: PlaceableDrag | null = null;
  let down: { x: number; y: number } | null = null;
  let brush: ToolPolyline | null = null;
  let draftLines: ToolPolyline[] = [];
  let preview: ToolPolyline[] = [];

  function redraw(): void {
    layer?.setLines([...(brush ? [brush] : []), ...draftLines, ...preview]);
  }

  function poseOf(index: number): Pose | null {
    const p = git.placements?.placeables.find((q) => q.index === index);
    return p ? { x: p.position[0], y: p.position[1], z: p.position[2], bearing: (p.bearing * Math.PI) / 180 } : null;
  }

  function placeableCentre(): Vec3 | null {
    if (git.mode !== 'placeable') return null;
    const p = git.selectedPlaceable;
    return p ? [p.position[0], p.position[1], p.position[2]] : null;
  }

  function updateGizmo(): void {
    if (!layer || drag) return;
    layer.gizmo.setCentre(placeableCentre());
    layer.gizmo.setHot(null);
    layer.gizmo.setRingHot(false);
  }

  type Grab = GizmoHandle | 'ring';
  function grabAt(x: number, y: number): Grab | null {
    const c = layer?.gizmo.centre();
    if (!scene || !layer || !c) return null;
    const length = layer.gizmo.length();
    const project = scene.screenProjector();
    const h = handleAt(x, y, c, length, project, PLACEABLE_HANDLES);
    if (h === 'centre' || h === 'z') return h;
    if (onRing(x, y, c, RING_RADIUS * length, project)) return 'ring';
    return h;
  }

  function setHot(g: Grab | null): void {
    layer?.gizmo.setHot(g && g !== 'ring' ? g : null);
    layer?.gizmo.setRingHot(g === 'ring');
  }

  function startDrag(event: PointerEvent, grab: Grab): boolean {
    const c = layer?.gizmo.centre();
    const start = poseOf(git.placeable);
    if (!scene || !layer || !c || !start || edit.busy) return false;
    const ray = scene.rayAt(event.offsetX, event.offsetY);
    const from = grab === 'ring' ? ringDragPoint(ray, c) : dragPoint(grab, ray, c);
    if (!from) return false;
    const overlay = ctx.footprints();
    const positions = (git.placements?.placeables ?? []).map((p) => p.position);
    const own = git.placements?.placeables.findIndex((p) => p.index === git.placeable) ?? -1;
    const outline = overlay && own >= 0 ? footprintOf(overlay.segments, positions, own, FOOTPRINT_REACH) : new Float32Array(0);
    // Without its outline in the view, the placeable's marker (as the footprints view draws one without a model).
    const footprint = outline.length > 0 ? outline : markerSegments(start);
    drag = { handle: grab, index: git.placeable, from, start, pose: { ...start }, footprint };
    scene.setCameraControl(false);
    canvas?.setPointerCapture(event.pointerId);
    canvas?.focus();
    setHot(grab);
    ctx.hoverOff();
    git.drag = { kind: grab === 'ring' ? 'turn' : 'move', delta: [0, 0, 0], turn: 0, snapped: edit.snap };
    showPreview();
    return true;
  }

  function step(): number | null {
    return edit.snap && edit.gridStep > 0 && Number.isFinite(edit.gridStep) ? edit.gridStep : null;
  }

  function moveDrag(event: PointerEvent): void {
    const d = drag;
    if (!d || !scene || !layer) return;
    const ray = scene.rayAt(event.offsetX, event.offsetY);
    const c: Vec3 = [d.start.x, d.start.y, d.start.z];
    if (d.handle === 'ring') {
      const to = ringDragPoint(ray, c);
      if (!to) return;
      const turn = turnBetween(c, d.from, to, edit.snap ? TURN_STEP_DEGREES : null);
      d.pose = { ...d.start, bearing: d.start.bearing + turn };
      git.drag = { kind: 'turn', delta: [0, 0, 0], turn: (turn * 180) / Math.PI, snapped: edit.snap };
    } else {
      const to = dragPoint(d.handle, ray, c);
      if (!to) return;
      const delta = dragDisplacement(d.handle, d.from, to, step());
      d.pose = { ...d.start, x: d.start.x + delta[0], y: d.start.y + delta[1], z: d.start.z + delta[2] };
      layer.gizmo.setCentre([d.pose.x, d.pose.y, d.pose.z]);
      git.drag = { kind: 'move', delta, turn: 0, snapped: step() !== null };
    }
    showPreview();
  }

  /** The footprint where the drag puts it, and a line along the placeable's facing. */
  function showPreview(): void {
    const d = drag;
    preview = [];
    const w = window as unknown as HookWindow;
    w.__walkbench ??= {};
    w.__walkbench.placeablePreview = d ? d.footprint.length / 6 : 0;
    if (d) {
      const placed = placeSegments(d.footprint, d.start, d.pose);
      for (let i = 0; i + 5 < placed.length; i += 6) preview.push({ points: [[placed[i]!, placed[i + 1]!, placed[i + 2]!], [placed[i + 3]!, placed[i + 4]!, placed[i + 5]!]], rgb: PREVIEW_RGB });
      const reach = (layer?.gizmo.length() ?? 1) * RING_RADIUS;
      const p = d.pose;
      preview.push({ points: [[p.x, p.y, p.z], [p.x + Math.cos(p.bearing) * reach, p.y + Math.sin(p.bearing) * reach, p.z]], rgb: PREVIEW_RGB });
    }
    redraw();
  }

  /** One GIT edit for the whole drag (a move or a turn), or nothing when cancelled or still. */
  function endDrag(commit: boolean): void {
    const d = drag;
    drag = null;
    git.drag = null;
    scene?.setCameraControl(true);
    setHot(null);
    const g = layer?.gizmo;
    const done = () => {
      if (drag) return;
      preview = [];
      redraw();
      updateGizmo();
    };
    if (!d || !commit) return done();
    const moved = d.pose.x !== d.start.x || d.pose.y !== d.start.y || d.pose.z !== d.start.z;
    if (d.handle === 'ring' ? d.pose.bearing === d.start.bearing : !moved) return done();
    const command = d.handle === 'ring'
      ? { kind: 'nwn2-rotate-placeable' as const, index: d.index, bearing: d.pose.bearing }
      : { kind: 'nwn2-move-placeable' as const, index: d.index, position: [d.pose.x, d.pose.y, d.pose.z] as [number, number, number] };
    // The preview stays until the edit has answered (and the placements are read again).
    void edit.applyToGit(command).finally(() => {
      void git.refresh().finally(() => {
        if (g === layer?.gizmo) done();
      });
    });
  }

  function pickPlaceable(x: number, y: number): void {
    if (!scene) return;
    const project = scene.screenProjector();
    let best: number | null = null;
    let bestD = PICK_PLACEABLE_PX;
    for (const p of git.placements?.placeables ?? []) {
      const s = project(p.position[0], p.position[1], p.position[2]);
      const d = s ? Math.hypot(s[0] - x, s[1] - y) : Infinity;
      if (d <= bestD) {
        bestD = d;
        best = p.index;
      }
    }
    if (best !== null) git.placeable = best;
  }

  // The cutter being drawn.

  /** Where the pointer would put the next corner, snapped, with the ground under it. */
  function cursorAt(event: PointerEvent): void {
    const hit = ctx.pickPoint(event.offsetX, event.offsetY);
    const last = git.draft[git.draft.length - 1];
    const point = hit ? hit.point : ctx.onPlane(event.offsetX, event.offsetY, last ? last[2] : 0);
    if (!scene || !point) {
      git.cursor = null;
      drawDraft();
      return;
    }
    const project = scene.screenProjector();
    const corners: number[] = [];
    for (const c of git.placements?.cutters ?? []) for (let i = 0; i + 1 < c.polygon.length; i += 2) corners.push(c.polygon[i]!, c.polygon[i + 1]!, c.z);
    const vertices: number[] = [];
    const m = hit ? ctx.walkmesh(hit.mesh) : undefined;
    if (hit && m) for (let k = 0; k < 3; k++) {
      const v = m.triangles[hit.face * 3 + k]!;
      vertices.push(m.positions[v * 3]!, m.positions[v * 3 + 1]!, m.positions[v * 3 + 2]!);
    }
    const first = git.draft[0];
    const fs = first ? project(first[0], first[1], first[2]) : null;
    const closes = git.draft.length >= 3 && fs !== null && Math.hypot(fs[0] - event.offsetX, fs[1] - event.offsetY) <= SNAP_REACH_PX;
    const snapped = closes ? { point: [first![0], first![1], first![2]] as Point3, kind: 'cutter-corner' as const } : snapCutterPoint(event.offsetX, event.offsetY, point, { cutterCorners: corners, vertices }, project, edit.gridStep > 0 && Number.isFinite(edit.gridStep) ? edit.gridStep : null, event.altKey);
    const xy = git.draft.flatMap((p) => [p[0], p[1]]);
    const refused = closes ? refuseClose(xy) : refuseCorner(xy, snapped.point[0], snapped.point[1]);
    git.cursor = { point: snapped.point, snap: snapped.kind, refused, closes };
    drawDraft();
  }

  function drawDraft(): void {
    draftLines = [];
    if (git.mode === 'cutter') {
      const pts: number[][] = git.draft.map((p) => [...p]);
      const c = git.cursor;
      const rgb = c?.refused ? REFUSED_RGB : DRAFT_RGB;
      if (c) pts.push([...c.point]);
      if (pts.length > 1) draftLines.push({ points: pts, rgb });
      // Where closing would run, dimmer.
      if (pts.length > 2 && !c?.closes) draftLines.push({ points: [pts[pts.length - 1]!, pts[0]!], rgb: CLOSING_RGB });
      // Corner marks a few pixels wide whatever the zoom.
      const scale = (layer?.gizmo.camera.radius ?? 10) * 0.005;
      for (const p of git.draft) draftLines.push({ points: square(p, scale), rgb: DRAFT_RGB });
      if (c) draftLines.push({ points: square(c.point, scale * 1.8), rgb: SNAP_RGB[c.snap]! });
    }
    redraw();
  }

  function square(p: readonly number[], r: number): number[][] {
    return [[p[0]! - r, p[1]! - r, p[2]!], [p[0]! + r, p[1]! - r, p[2]!], [p[0]! + r, p[1]! + r, p[2]!], [p[0]! - r, p[1]! + r, p[2]!], [p[0]! - r, p[1]! - r, p[2]!]];
  }

  function clickCutter(): void {
    const c = git.cursor;
    if (!c || edit.busy) return;
    if (c.closes) {
      void git.closeDraft().then(drawDraft);
      return;
    }
    if (!edit.need(c.refused ?? '', c.refused === null)) return;
    edit.error = null;
    git.draft = [...git.draft, c.point];
    git.cursor = { ...c, refused: refuseCorner(git.draft.flatMap((p) => [p[0], p[1]]), c.point[0], c.point[1]) };
    drawDraft();
  }

  // The brush's circle.

  function brushAt(event: PointerEvent): void {
    const hit = edit.tool === 'paint' ? ctx.pickPoint(event.offsetX, event.offsetY) : null;
    const radius = Math.max(edit.brushRadius, 0.01);
    brush = hit ? { points: groundCircle(hit.point[0], hit.point[1], hit.point[2], radius), rgb: BRUSH_RGB } : null;
    setBrushHook(hit ? { centre: hit.point, radius } : null);
    redraw();
  }

  function setBrushHook(circle: { centre: Vec3; radius: number } | null): void {
    const w = window as unknown as HookWindow;
    w.__walkbench ??= {};
    w.__walkbench.brushCircle = circle;
  }

  return {
    attach(s: WalkmeshScene, base: MoveGizmo, c: HTMLCanvasElement): void {
      scene = s;
      canvas = c;
      layer = new Nwn2ToolLayer(base, c);
      const l = layer;
      (window as unknown as HookWindow).__walkbench ??= {};
      (window as unknown as HookWindow).__walkbench!.placeableGizmo = () => {
        const centre = l.gizmo.centre();
        if (!centre || layer !== l) return null;
        const length = l.gizmo.length();
        const project = s.screenProjector();
        const g = ringGrabPoint(centre, RING_RADIUS * length);
        return { centre, length, handles: handleScreenPoints(centre, length, project, PLACEABLE_HANDLES), ring: project(g[0], g[1], g[2]) };
      };
      updateGizmo();
    },
    dispose(): void {
      layer?.dispose();
      layer = null;
      scene = null;
    },
    pointerDown(event: PointerEvent): boolean {
      if (event.button !== 0 || edit.tool !== 'place' || git.mode === null) return false;
      down = { x: event.offsetX, y: event.offsetY };
      if (git.mode === 'placeable' && !event.altKey) {
        const g = grabAt(event.offsetX, event.offsetY);
        if (g && startDrag(event, g)) down = null;
      }
      return true;
    },
    pointerMove(event: PointerEvent): boolean {
      if (drag) {
        moveDrag(event);
        return true;
      }
      if (edit.tool === 'paint' || brush) brushAt(event);
      if (edit.tool !== 'place' || git.mode === null) return false;
      if (git.mode === 'cutter') {
        cursorAt(event);
        ctx.hoverOff();
        return true;
      }
      const g = grabAt(event.offsetX, event.offsetY);
      setHot(g);
      if (canvas) canvas.style.cursor = g ? (g === 'ring' ? 'grab' : 'move') : '';
      if (g) ctx.hoverOff();
      return g !== null;
    },
    pointerUp(event: PointerEvent): boolean {
      if (drag && event.button === 0) {
        moveDrag(event);
        endDrag(true);
        return true;
      }
      if (event.button !== 0 || edit.tool !== 'place' || git.mode === null) return false;
      const d = down;
      down = null;
      if (!d || Math.hypot(event.offsetX - d.x, event.offsetY - d.y) > 4) return true;
      if (git.mode === 'placeable') pickPlaceable(event.offsetX, event.offsetY);
      else {
        cursorAt(event);
        clickCutter();
      }
      return true;
    },
    leave(): void {
      if (brush) {
        brush = null;
        setBrushHook(null);
        redraw();
      }
    },
    key(event: KeyboardEvent): boolean {
      if (event.key === 'Escape' && drag) {
        endDrag(false);
        return true;
      }
      if (git.mode !== 'cutter' || edit.tool !== 'place') return false;
      if (event.key === 'Escape') {
        git.draft = [];
        git.cursor = null;
      } else if (event.key === 'Backspace') {
        git.draft = git.draft.slice(0, -1);
        git.cursor = git.cursor ? { ...git.cursor, refused: refuseCorner(git.draft.flatMap((p) => [p[0], p[1]]), git.cursor.point[0], git.cursor.point[1]), closes: false } : null;
      } else if (event.key === 'Enter') void git.closeDraft().then(drawDraft);
      else return false;
      event.preventDefault();
      drawDraft();
      return true;
    },
    /** Follows the store: the picked placeable, the mode, the brush tool. */
    watchStores(): void {
      watch(() => [git.mode, git.selectedPlaceable, edit.revision], updateGizmo);
      watch(() => [git.mode, git.draft], drawDraft);
      watch(() => edit.tool, () => {
        if (edit.tool !== 'paint' && brush) {
          brush = null;
          setBrushHook(null);
          redraw();
        }
      });
    },
  };
}
