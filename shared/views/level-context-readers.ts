import { isMalformedInputError } from '../binary/malformed-input-error';
import type { FormatEnvironment } from '../formats/format-environment';
import { readDds } from '../formats/images/dds-reader';
import type { RgbaImage } from '../formats/images/rgba-image';
import { readTga } from '../formats/images/tga-reader';
import { floatsOf } from '../formats/kotor/bwm-document';
import { readBwm } from '../formats/kotor/bwm-reader';
import { walkmeshNodeOf, type KotorModel } from '../formats/kotor/mdl-document';
import { kotorModelContextPieces } from '../formats/kotor/mdl-level-context';
import { readKotorModel } from '../formats/kotor/mdl-reader';
import { nwn2TerrainContext } from '../formats/nwn2/nwn2-level-context';
import { nwn2PlacedModelPieces } from '../bakers/nwn2/nwn2-model-context';
import { readTrx } from '../formats/nwn2/trx-reader';
import { bspLevelContextPieces } from '../formats/source/bsp-level-context';
import { readBsp } from '../formats/source/bsp-reader';
import { pluginCells } from '../formats/skyrim/plugin-cells';
import { readPlugin } from '../formats/skyrim/plugin-reader';
import { skyrimLevelContext, type SkyrimContextFile } from '../formats/skyrim/skyrim-level-context';
import type { LevelContextGap, LevelContextPiece } from '../model/level-context';
import type { ContextBytes, KotorRoomModelInput, LevelContextReaders, PlacedModelsInput } from './level-context-assemble';

/** Cells of one plugin whose context is drawn at most; more is one gap (each exterior cell is 2,048 terrain triangles). */
const MAX_SKYRIM_CELLS = 256;

/**
 * Skyrim: the context of every cell the plugin holds navmeshes in, its masters loaded in
 * the order given (the last file is the plugin itself).
 */
function skyrimContext(files: readonly ContextBytes[], env: FormatEnvironment): { pieces: LevelContextPiece[]; gaps: LevelContextGap[] } {
  const read: SkyrimContextFile[] = files.map((f) => ({ name: f.name, doc: readPlugin(f.bytes, env) }));
  const plugin = read[read.length - 1]!;
  const masters = read.slice(0, -1);
  const cells = pluginCells(plugin.doc);
  const pieces: LevelContextPiece[] = [];
  const gaps: LevelContextGap[] = [];
  for (const cell of cells.slice(0, MAX_SKYRIM_CELLS)) {
    const c = skyrimLevelContext(plugin, { cell: cell.formId }, masters);
    pieces.push(...c.pieces);
    gaps.push(...c.gaps);
  }
  if (cells.length > MAX_SKYRIM_CELLS) gaps.push({ what: `${cells.length - MAX_SKYRIM_CELLS} cells of ${plugin.name}`, why: `only the first ${MAX_SKYRIM_CELLS} cells with navmeshes are drawn` });
  return { pieces, gaps };
}

type Vec3 = [number, number, number];

/** (w, x, y, z) quaternion q applied to v. */
function rotate(q: readonly [number, number, number, number], v: Vec3): Vec3 {
  const [w, x, y, z] = q;
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

/** The lowest corner of the model's walkmesh node in model space (through its parents' transforms), or undefined. */
function walkmeshMin(model: KotorModel): Vec3 | undefined {
  const node = walkmeshNodeOf(model);
  const v = node?.mesh?.vertices;
  if (!node || !v || v.length === 0) return undefined;
  const chain = [];
  for (let n: typeof node | undefined = node; n; n = n.parent >= 0 ? model.nodes[n.parent] : undefined) chain.push(n);
  const min: Vec3 = [Infinity, Infinity, Infinity];
  for (let i = 0; i + 2 < v.length; i += 3) {
    let p: Vec3 = [v[i]!, v[i + 1]!, v[i + 2]!];
    for (const n of chain) {
      p = rotate(n.orientation, p);
      p = [p[0] + n.position[0], p[1] + n.position[1], p[2] + n.position[2]];
    }
    for (let k = 0; k < 3; k++) if (p[k]! < min[k]!) min[k] = p[k]!;
  }
  return min;
}

function boundsMin(positions: Float32Array): Vec3 {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  for (let i = 0; i + 2 < positions.length; i += 3) for (let k = 0; k < 3; k++) if (positions[i + k]! < min[k]!) min[k] = positions[i + k]!;
  return min;
}

/** How far a layout position may sit from where the room's walkmesh puts the model before the designer is told. */
const PLACE_TOLERANCE = 0.01;

/**
 * KotOR: a room model placed by its layout position. A room's WOK is its model's walkmesh
 * node moved to the room's place (kotor-bwm.md: WOK vertices are world space), so the place
 * can also be read back from the two: the WOK's lowest corner minus the node's. That places
 * a room no layout lists, and checks a layout's position against its walkmesh. (The game's
 * LYT of the fixture rooms is not at hand; on the 8 Black Vulkar rooms and their models the
 * place read this way has z = 2.25 for every room, as one area's rooms share a floor level.)
 */
function kotorRoom(room: KotorRoomModelInput): ReturnType<NonNullable<LevelContextReaders['kotorRoom']>> {
  const model = readKotorModel(room.mdl.bytes, room.mdx, room.mdl.name);
  const gaps = [];
  let place: Vec3 = [room.place.x, room.place.y, room.place.z];
  const fromModel = room.wok ? walkmeshMin(model) : undefined;
  if (room.wok && fromModel) {
    const wok = boundsMin(floatsOf(readBwm(room.wok).vertices));
    const byWalkmesh: Vec3 = [wok[0] - fromModel[0], wok[1] - fromModel[1], wok[2] - fromModel[2]];
    const off = Math.max(...byWalkmesh.map((c, k) => Math.abs(c - place[k]!)));
    if (room.placeByWalkmesh) place = byWalkmesh;
    else if (off > PLACE_TOLERANCE) {
      gaps.push({ what: `${room.label} position`, why: `the layout puts the room at (${place.map((c) => c.toFixed(2)).join(', ')}) but its walkmesh puts its model at (${byWalkmesh.map((c) => c.toFixed(2)).join(', ')}): the WOK and the layout disagree by ${off.toFixed(2)}` });
    }
  }
  return { pieces: kotorModelContextPieces(model, { x: place[0], y: place[1], z: place[2] }, room.label), gaps };
}

/**
 * NWN2: the placed models (the services found each placeable's and door's MDB as the bake
 * does), read once per model file and placed by nwn2-model-context.ts. Each placement is
 * handed over as a placeable whose Appearance is its file's index.
 */
function nwn2Models(models: PlacedModelsInput): ReturnType<NonNullable<LevelContextReaders['nwn2Models']>> {
  const stem = (name: string) => name.replace(/\.[^.]*$/, '');
  const byName = new Map(models.files.map((f) => [stem(f.name).toLowerCase(), f.bytes]));
  const tiles = models.placed.filter((q) => q.tile);
  return nwn2PlacedModelPieces({
    tiles: tiles.map((q, index) => ({
      label: q.label,
      modelName: models.files[q.file] ? stem(models.files[q.file]!.name) : '',
      place: { index, x: q.place.x, y: q.place.y, z: q.place.z, bearing: q.place.bearing, scale: { x: 1, y: 1, z: 1 } },
      metaTile: q.tile!.metaTile,
    })),
    placeables: models.placed.filter((q) => !q.tile).map((q, index) => ({
      index,
      templateResRef: undefined,
      tag: q.label,
      appearance: q.file,
      x: q.place.x,
      y: q.place.y,
      z: q.place.z,
      bearing: q.place.bearing,
      scale: q.place.scale ?? { x: 1, y: 1, z: 1 },
      isWalkable: false,
      isStatic: false,
    })),
    placeableModelName: (file) => (models.files[file] ? stem(models.files[file].name) : undefined),
    resolve: (name) => byName.get(name.toLowerCase()) ?? null,
  });
}

/**
 * NWN2 terrain textures by lower-case name: DDS or TGA by their extension. One that does
 * not decode (a compression the reader refuses, a damaged file) is a gap naming it and its
 * field; the megatiles using it draw its TRRN colour there instead.
 */
function decodeTerrainTextures(files: readonly ContextBytes[]): { images: Map<string, RgbaImage>; gaps: LevelContextGap[] } {
  const images = new Map<string, RgbaImage>();
  const gaps: LevelContextGap[] = [];
  for (const f of files) {
    const stem = f.name.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '').toLowerCase();
    if (images.has(stem)) continue;
    try {
      images.set(stem, /\.tga$/i.test(f.name) ? readTga(f.bytes, f.name) : readDds(f.bytes, f.name));
    } catch (e) {
      if (!isMalformedInputError(e)) throw e;
      gaps.push({ what: f.name, why: `the terrain texture does not decode: ${e.message}` });
    }
  }
  return { images, gaps };
}

/**
 * The format readers the level context is read with (issue 19), one per source kind: each
 * turns a file's bytes into pieces in the walkmesh's world space.
 */
export function levelContextReaders(env: FormatEnvironment): LevelContextReaders {
  return {
    bsp: (bytes, name) => bspLevelContextPieces(readBsp(bytes, name)),
    kotorRoom,
    nwn2Models,
    nwn2Terrain: (bytes, _name, textures) => {
      const decoded = decodeTerrainTextures(textures);
      const c = nwn2TerrainContext(readTrx(bytes, env), { textures: decoded.images });
      return { pieces: c.pieces, gaps: [...decoded.gaps, ...c.gaps] };
    },
    skyrim: (files) => skyrimContext(files, env),
  };
}
