import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import type { Scene } from '@babylonjs/core/scene';
import type { LevelContext, LevelContextKind, LevelContextPiece } from '../../../shared/model/level-context';
import { hasUsableTexture, texturedPieceMesh } from './level-context-textures';
import { markChanged } from './render-on-demand';
import { runSliced, type SlicedRun } from './time-sliced';

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

export interface MergedKind {
  positions: Float32Array;
  indices: Uint32Array;
  colours: Float32Array;
}

/**
 * Vertices and indices copied between two points where the build may stop (time-sliced.ts):
 * about 5 ms of copying on the bench machine, so a 100 MB map's 820,000-triangle world
 * (one piece) no longer merges in one 25 ms+ stretch.
 */
export const MERGE_STEP_ITEMS = 131_072;

/**
 * One kind's pieces as one set of buffers (one draw call per kind, however many placed
 * models or bounds boxes there are), in Babylon axes (game x, y, z → x, z, y), dimmed.
 */
export function mergeKind(pieces: readonly LevelContextPiece[], kind: LevelContextKind): MergedKind {
  const steps = mergeKindSteps(pieces, kind);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** mergeKind as steps: yields after about `stepItems` vertices or indices, returns the buffers. */
export function* mergeKindSteps(pieces: readonly LevelContextPiece[], kind: LevelContextKind, stepItems = MERGE_STEP_ITEMS): Generator<void, MergedKind> {
  const step = Math.max(1, Math.floor(stepItems));
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
  // Items copied since the last yield: many small pieces (a megatile is 625 vertices) add up.
  let since = 0;
  for (const p of pieces) {
    const n = p.positions.length / 3;
    const P = p.positions;
    const C = p.vertexColours;
    for (let from = 0; from < n; from += step) {
      if (since >= step) {
        since = 0;
        yield;
      }
      const to = Math.min(n, from + step);
      for (let i = from; i < to; i++) {
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
      since += to - from;
    }
    const T = p.triangles;
    for (let from = 0; from < T.length; from += step) {
      if (since >= step) {
        since = 0;
        yield;
      }
      const to = Math.min(T.length, from + step);
      for (let i = from; i < to; i++) index[t + i] = T[i]! + v;
      since += to - from;
    }
    v += n;
    t += T.length;
  }
  return { positions, indices: index, colours };
}

/**
 * Per-vertex normals as Babylon's VertexData.ComputeNormals makes them (each face's unit
 * normal added to its corners, then each sum normalised, in the same order and float32
 * steps, so the result is the same to the bit: the unit test compares), yielding after
 * about `stepItems` faces or vertices: a 820,000-triangle world took 35 to 130 ms in one go.
 */
export function* computeNormalsSteps(positions: Float32Array, indices: Uint32Array, normals: Float32Array, stepItems = MERGE_STEP_ITEMS): Generator<void, void> {
  const step = Math.max(1, Math.floor(stepItems));
  normals.fill(0, 0, positions.length);
  const faces = (indices.length / 3) | 0;
  for (let from = 0; from < faces; from += step) {
    if (from > 0) yield;
    const to = Math.min(faces, from + step);
    for (let f = from; f < to; f++) {
      const a = indices[f * 3]! * 3;
      const b = indices[f * 3 + 1]! * 3;
      const c = indices[f * 3 + 2]! * 3;
      const p1p2x = positions[a]! - positions[b]!;
      const p1p2y = positions[a + 1]! - positions[b + 1]!;
      const p1p2z = positions[a + 2]! - positions[b + 2]!;
      const p3p2x = positions[c]! - positions[b]!;
      const p3p2y = positions[c + 1]! - positions[b + 1]!;
      const p3p2z = positions[c + 2]! - positions[b + 2]!;
      let nx = p1p2y * p3p2z - p1p2z * p3p2y;
      let ny = p1p2z * p3p2x - p1p2x * p3p2z;
      let nz = p1p2x * p3p2y - p1p2y * p3p2x;
      let length = Math.sqrt(nx * nx + ny * ny + nz * nz);
      length = length === 0 ? 1 : length;
      nx /= length;
      ny /= length;
      nz /= length;
      normals[a] += nx;
      normals[a + 1] += ny;
      normals[a + 2] += nz;
      normals[b] += nx;
      normals[b + 1] += ny;
      normals[b + 2] += nz;
      normals[c] += nx;
      normals[c + 1] += ny;
      normals[c + 2] += nz;
    }
  }
  const vertices = (normals.length / 3) | 0;
  for (let from = 0; from < vertices; from += step) {
    yield;
    const to = Math.min(vertices, from + step);
    for (let v = from; v < to; v++) {
      let x = normals[v * 3]!;
      let y = normals[v * 3 + 1]!;
      let z = normals[v * 3 + 2]!;
      let length = Math.sqrt(x * x + y * y + z * z);
      length = length === 0 ? 1 : length;
      x /= length;
      y /= length;
      z /= length;
      normals[v * 3] = x;
      normals[v * 3 + 1] = y;
      normals[v * 3 + 2] = z;
    }
  }
}

/** A context's meshes, hidden until all are built (`run` is the build still going). */
interface BuiltContext {
  meshes: Mesh[];
  run: SlicedRun | null;
  onShown: (() => void) | undefined;
  /** The build threw: nothing of this context is shown, and onShown never runs. */
  failed: boolean;
}

/**
 * Main-thread time per slice of a context's build: one frame's worth at 60 Hz. A step is
 * never cut, and each kind's upload is one step (35 ms for a 100 MB map's 820,904-triangle
 * world on an idle bench machine, more under load); the rest streams in 16 ms slices.
 */
const BUILD_SLICE_MS = 16;

function reveal(entry: BuiltContext): void {
  for (const m of entry.meshes) m.setEnabled(true);
  // The viewport asks for the one frame that shows it (onShown: afterNextFrame); a marked
  // change would add the grace period's frames, each a full frame of the level and walkmesh.
  if (entry.onShown) entry.onShown();
  else markChanged();
}

/**
 * The layer's meshes, built step by step (a yield wherever the build may stop): each kind's
 * pieces merged (mergeKindSteps), their normals, then the upload; textured pieces one mesh
 * each. Kept outside the class, whose calls mark the view changed (render-on-demand.ts):
 * a hidden mesh built in a slice is no reason to draw a frame. Meshes start hidden.
 */
function* buildSteps(scene: Scene, context: LevelContext, solid: StandardMaterial, see: StandardMaterial, meshes: Mesh[], built: (triangles: number) => void): Generator<void | Promise<void>, void> {
  const compiling = new Map<string, Promise<void>>();
  for (const { kind } of contextKindCounts(context)) yield* kindSteps(scene, context, kind, solid, see, meshes, built, compiling);
  // Shown only with their shaders ready, so the first frame with the level draws all of it
  // (a mesh whose shader still compiles is left out of a frame: one more full frame later).
  if (compiling.size > 0) yield Promise.all(compiling.values()).then(() => undefined);
}

/** One kind's meshes (a function of its own, so its merged buffers are garbage once it returns). */
function* kindSteps(scene: Scene, context: LevelContext, kind: LevelContextKind, solid: StandardMaterial, see: StandardMaterial, meshes: Mesh[], built: (triangles: number) => void, compiling: Map<string, Promise<void>>): Generator<void, void> {
  const all = context.pieces.filter((p) => p.kind === kind);
  // Pieces with an image of their own (NWN2 megatiles' terrain textures) get a mesh each; the rest keep their colours, merged.
  const pieces = all.filter((p) => !hasUsableTexture(p));
  for (const p of all) {
    if (!hasUsableTexture(p)) continue;
    const mesh = texturedPieceMesh(scene, p, DIM, solid);
    mesh.setEnabled(false);
    // Every textured piece's material has the same shader: compiling one compiles it for all.
    precompile(compiling, 'textured', mesh);
    meshes.push(mesh);
    built(p.triangles.length / 3);
    yield;
  }
  const merged = yield* mergeKindSteps(pieces, kind);
  if (merged.indices.length === 0) return;
  yield;
  const normals = new Float32Array(merged.positions.length);
  yield* computeNormalsSteps(merged.positions, merged.indices, normals);
  yield;
  // One mesh per kind, uploaded in one step: cutting a 100 MB map's world in parts of
  // 131,072 triangles (one upload each) kept the upload steps short, but left the page's
  // JS heap about 40 MB larger after a full GC (72 → 110 MB, cause not found), so it is not done.
  const data = new VertexData();
  data.positions = merged.positions;
  data.indices = merged.indices;
  data.colors = merged.colours;
  data.normals = normals;
  const mesh = new Mesh(`level context: ${kind}`, scene);
  mesh.setEnabled(false);
  data.applyToMesh(mesh, false);
  mesh.material = kind === 'water' || kind === 'bounds' ? see : solid;
  mesh.hasVertexAlpha = kind === 'water' || kind === 'bounds';
  mesh.isPickable = false;
  mesh.freezeWorldMatrix();
  precompile(compiling, `${mesh.material.uniqueId}`, mesh);
  built(merged.indices.length / 3);
  meshes.push(mesh);
  yield;
}

/** The longest the build waits for a shader (a lost WebGL context never answers). */
const COMPILE_WAIT_MS = 5_000;

/** Starts compiling `mesh`'s material's shader for it, once per `key`, off the main thread where WebGL can. */
function precompile(compiling: Map<string, Promise<void>>, key: string, mesh: Mesh): void {
  const material = mesh.material;
  if (!material || compiling.has(key)) return;
  compiling.set(
    key,
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, COMPILE_WAIT_MS);
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      material.forceCompilation(mesh, done, undefined, done);
    }),
  );
}

/**
 * The level context drawn in the walkmesh's scene: read-only, never pickable, pushed back in
 * depth so the walkmesh wins where they lie in one plane, and drawn with back faces culled
 * (a room's ceiling and the far side of its walls face away from a camera above, so the
 * walkmesh inside stays in sight). Built once per context and kept while the tab is open.
 */
export class LevelContextLayer {
  private readonly built = new Map<object, BuiltContext>();
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

  /**
   * Shows `context` (built on first use, under `key`), or nothing for null. A first build
   * runs in slices (buildSteps) with its meshes hidden, and they are shown together once
   * all are built, in one frame: `onShown` runs then (at once when built before).
   */
  show(key: object | null, context: LevelContext | null, onShown?: () => void): void {
    const before = this.shown;
    if (before && before !== key) {
      const hidden = this.built.get(before)?.meshes ?? [];
      for (const m of hidden) m.setEnabled(false);
      if (hidden.length > 0) markChanged();
    }
    this.shown = context ? key : null;
    if (!key || !context) return;
    const have = this.built.get(key);
    if (have) {
      have.onShown = onShown;
      if (have.run === null && !have.failed) reveal(have);
      return;
    }
    const entry: BuiltContext = { meshes: [], run: null, onShown, failed: false };
    this.built.set(key, entry);
    const run = runSliced(buildSteps(this.scene, context, this.solid, this.see, entry.meshes, (n) => (this.triangles += n)), BUILD_SLICE_MS);
    entry.run = run;
    run.done.then(
      (finished) => {
        if (!finished || this.built.get(key) !== entry) return;
        entry.run = null;
        if (this.shown === key) reveal(entry);
      },
      (e: unknown) => {
        // A reader bug (arrays that disagree): the level is left out rather than half drawn.
        console.error('the level context could not be built', e);
        entry.run = null;
        entry.failed = true;
        for (const m of entry.meshes) m.dispose();
        entry.meshes.length = 0;
      },
    );
  }

  /** Frees what was built for a closed tab (a build still going is stopped). */
  forget(key: object): void {
    const entry = this.built.get(key);
    entry?.run?.cancel();
    for (const m of entry?.meshes ?? []) m.dispose();
    this.built.delete(key);
    if (this.shown === key) this.shown = null;
  }

  dispose(): void {
    for (const key of [...this.built.keys()]) this.forget(key);
    this.solid.dispose();
    this.see.dispose();
  }
}
