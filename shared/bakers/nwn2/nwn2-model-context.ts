import { isMalformedInputError } from '../../binary/malformed-input-error';
import type { AreTile } from '../../formats/aurora/nwn2-are';
import type { GitDoor, GitPlaceable } from '../../formats/aurora/nwn2-git';
import type { TwoDaTable } from '../../formats/aurora/twoda-table';
import { mdbMeshes, type MdbMesh } from '../../formats/nwn2/mdb-rigid';
import type { LevelContextGap, LevelContextPiece } from '../../model/level-context';
import type { DoorModelName } from './door-walkmesh';
import type { PlacedObject } from './placeable-walkmesh';

/**
 * The models of an NWN2 area drawn as level context (issue 19): the placeables' and doors'
 * MDB meshes placed by the GIT, and the interior tiles' models placed by the ARE.
 *
 * Placement is the placeable walkmesh bake's (placeable-walkmesh.ts rule 2): model x, y
 * scaled by ModelScale x, y, turned by Bearing (radians, counter-clockwise about +Z) and
 * moved to X, Y; model z scaled by ModelScale z and raised by Z. So a model's walkmesh as
 * baked and its drawn meshes line up (the WALK curtain vertices aside, which the bake
 * drapes on the ground).
 *
 * Which meshes: the RIGD and SKIN packets (what the game draws; skins in bind pose); a
 * model with neither (a collision-only helper) gives its COL3, else its COL2 mesh, so it
 * still shows where it stands.
 */
export interface Nwn2ModelResolve {
  /** The MDB bytes of a model resref (case as the 2DA gives it), or null when the project has none. */
  (modelName: string): Uint8Array | null;
}

export interface Nwn2PlacedModelsInput {
  placeables: readonly GitPlaceable[];
  doors?: readonly GitDoor[];
  /** placeables.2da row → `NWN2_ModelName` (as the bake's model resolver reads it). */
  placeableModelName: (appearance: number) => string | undefined;
  /** A door's model by door-walkmesh.ts doorModelName (doortypes.2da / genericdoors.2da). */
  doorModelName?: (door: GitDoor) => DoorModelName;
  resolve: Nwn2ModelResolve;
  /** Leave out placeables with IsWalkable set (rugs, chairs; default false: draw them). */
  skipWalkThrough?: boolean;
}

/** placeables.2da's `NWN2_ModelName` of a row, as the bake's model resolver reads it (electron/services/nwn2-model-resolver.ts). */
export function placeableModelNameIn(table: TwoDaTable): (appearance: number) => string | undefined {
  return (appearance) => table.cell(appearance, 'NWN2_ModelName')?.trim() || undefined;
}

/** Parsed models by lower-case resref (null: not found or unreadable, with the reason). */
class ModelCache {
  private readonly models = new Map<string, { meshes: MdbMesh[] } | { why: string }>();
  constructor(private readonly resolve: Nwn2ModelResolve) {}

  get(name: string): { meshes: MdbMesh[] } | { why: string } {
    const key = name.toLowerCase();
    let m = this.models.get(key);
    if (m) return m;
    const bytes = this.resolve(name);
    if (!bytes) m = { why: `model ${name}.mdb is not in the module, its haks or the install's Data` };
    else {
      try {
        const all = mdbMeshes(bytes);
        const drawn = all.filter((x) => x.kind === 'RIGD' || x.kind === 'SKIN');
        const meshes = drawn.length > 0 ? drawn : all.filter((x) => x.kind === 'COL3').length > 0 ? all.filter((x) => x.kind === 'COL3') : all.filter((x) => x.kind === 'COL2');
        m = meshes.length > 0 ? { meshes } : { why: `model ${name}.mdb has no RIGD, SKIN, COL3 or COL2 mesh` };
      } catch (e) {
        if (!isMalformedInputError(e)) throw e;
        m = { why: `model ${name}.mdb does not read: ${e.message}` };
      }
    }
    this.models.set(key, m);
    return m;
  }
}

/** One piece of a model's meshes placed like a GIT object (the bake's transform). */
export function placeModelMeshes(meshes: readonly MdbMesh[], at: PlacedObject, label: string): LevelContextPiece {
  let nv = 0;
  let nt = 0;
  for (const m of meshes) {
    nv += m.positions.length / 3;
    nt += m.faces.length / 3;
  }
  const positions = new Float32Array(nv * 3);
  const triangles = new Uint32Array(nt * 3);
  const faceSurface = new Uint16Array(nt);
  const surfaces: string[] = [];
  const cos = Math.cos(at.bearing);
  const sin = Math.sin(at.bearing);
  let v0 = 0;
  let t0 = 0;
  for (const m of meshes) {
    const V = m.positions.length / 3;
    for (let v = 0; v < V; v++) {
      const lx = m.positions[v * 3]! * at.scale.x;
      const ly = m.positions[v * 3 + 1]! * at.scale.y;
      positions[(v0 + v) * 3] = at.x + cos * lx - sin * ly;
      positions[(v0 + v) * 3 + 1] = at.y + sin * lx + cos * ly;
      positions[(v0 + v) * 3 + 2] = at.z + m.positions[v * 3 + 2]! * at.scale.z;
    }
    const surface = m.diffuseMap || m.name;
    let s = surfaces.indexOf(surface);
    if (s < 0) s = surfaces.push(surface) - 1;
    const T = m.faces.length / 3;
    for (let i = 0; i < T * 3; i++) triangles[t0 * 3 + i] = v0 + m.faces[i]!;
    faceSurface.fill(s, t0, t0 + T);
    v0 += V;
    t0 += T;
  }
  return { label, kind: 'model', positions, triangles, faceSurface, surfaces };
}

function finite(o: PlacedObject): boolean {
  return [o.x, o.y, o.z, o.bearing, o.scale.x, o.scale.y, o.scale.z].every(Number.isFinite);
}

/** Groups gaps by their reason so a module missing one model used 40 times says it once. */
class Gaps {
  private readonly byWhy = new Map<string, string[]>();
  add(what: string, why: string): void {
    let list = this.byWhy.get(why);
    if (!list) this.byWhy.set(why, (list = []));
    list.push(what);
  }
  list(): LevelContextGap[] {
    return [...this.byWhy].map(([why, whats]) => ({ what: whats.length <= 3 ? whats.join(', ') : `${whats.slice(0, 3).join(', ')} and ${whats.length - 3} more`, why }));
  }
}

/** The placeables' and doors' models placed by the GIT, and what could not be drawn. */
export function nwn2PlacedModelPieces(input: Nwn2PlacedModelsInput): { pieces: LevelContextPiece[]; gaps: LevelContextGap[] } {
  const cache = new ModelCache(input.resolve);
  const pieces: LevelContextPiece[] = [];
  const gaps = new Gaps();
  for (const p of input.placeables) {
    if (input.skipWalkThrough && p.isWalkable) continue;
    const what = `placeable #${p.index}${p.tag ? ` (${p.tag})` : ''}`;
    const name = input.placeableModelName(p.appearance);
    if (!name) {
      gaps.add(what, `placeables.2da row ${p.appearance} names no model (NWN2_ModelName)`);
      continue;
    }
    if (!finite(p)) {
      gaps.add(what, 'its position, bearing or scale is not a finite number');
      continue;
    }
    const m = cache.get(name);
    if ('why' in m) gaps.add(what, m.why);
    else pieces.push(placeModelMeshes(m.meshes, p, `${name} #${p.index}`));
  }
  for (const d of input.doors ?? []) {
    const what = `door #${d.index}${d.tag ? ` (${d.tag})` : ''}`;
    if (!input.doorModelName) {
      gaps.add(what, 'no doortypes.2da / genericdoors.2da lookup was given');
      continue;
    }
    const n = input.doorModelName(d);
    if (n.invisible) continue;
    if (!n.modelName) {
      gaps.add(what, n.reason ?? 'its 2DA row names no model');
      continue;
    }
    if (!finite(d)) {
      gaps.add(what, 'its position, bearing or scale is not a finite number');
      continue;
    }
    const m = cache.get(n.modelName);
    if ('why' in m) gaps.add(what, m.why);
    else pieces.push(placeModelMeshes(m.meshes, d, `door ${n.modelName} #${d.index}`));
  }
  return { pieces, gaps: gaps.list() };
}

/**
 * The interior tiles' models placed by the ARE's TileList.
 *
 * What is not known from the fixtures (no tiles.2da, no tile MDB and no tileset file
 * among them): how a tile's `Appearance` (a tiles.2da row) and `Variation` name its MDB,
 * and which way `Orientation` turns. So the caller gives the model name (`tileModelName`,
 * e.g. from a tiles.2da column it knows); without one every tile is a single gap saying
 * so. Placement as decided here: the model's origin at the tile's `Position` (the tile
 * centre, spec §8), turned counter-clockwise by `Orientation` quarter turns.
 */
export function nwn2TileModelPieces(
  tiles: readonly AreTile[],
  tileModelName: ((tile: AreTile) => string | undefined) | undefined,
  resolve: Nwn2ModelResolve,
): { pieces: LevelContextPiece[]; gaps: LevelContextGap[] } {
  if (tiles.length === 0) return { pieces: [], gaps: [] };
  if (!tileModelName) {
    const rows = [...new Set(tiles.map((t) => t.appearance))].sort((a, b) => a - b);
    return {
      pieces: [],
      gaps: [{
        what: `${tiles.length} interior tile model(s) (tiles.2da rows ${rows.slice(0, 8).join(', ')}${rows.length > 8 ? ', …' : ''})`,
        why: 'the rule naming a tile\'s model from its tiles.2da row and variation is not known to Walkbench, so tiles are not drawn',
      }],
    };
  }
  const cache = new ModelCache(resolve);
  const pieces: LevelContextPiece[] = [];
  const gaps = new Gaps();
  for (const t of tiles) {
    const what = `tile #${t.index}`;
    const name = tileModelName(t);
    if (!name) {
      gaps.add(what, `tiles.2da row ${t.appearance} (variation ${t.variation}) names no model`);
      continue;
    }
    if (!t.position.every(Number.isFinite)) {
      gaps.add(what, 'its position is not a finite number');
      continue;
    }
    const m = cache.get(name);
    if ('why' in m) {
      gaps.add(what, m.why);
      continue;
    }
    const at: PlacedObject = { index: t.index, x: t.position[0], y: t.position[1], z: t.position[2], bearing: (t.orientation * Math.PI) / 2, scale: { x: 1, y: 1, z: 1 } };
    const piece = placeModelMeshes(m.meshes, at, `tile ${name} #${t.index}`);
    pieces.push({ ...piece, kind: 'room' });
  }
  return { pieces, gaps: gaps.list() };
}
