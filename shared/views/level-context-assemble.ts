import { isMalformedInputError } from '../binary/malformed-input-error';
import { checkLevelContextPiece, type LevelContext, type LevelContextGap, type LevelContextPiece } from '../model/level-context';
import type { GameId } from '../model/walkmesh';

/**
 * What the level context of one walkmesh is read from, gathered by the services (which know
 * where the files are: the project, the folder a file was imported from, the game folders)
 * and converted here, in a worker, into a LevelContext. Everything a reader needs travels as
 * bytes, so the conversion is a pure function of its input (the same input gives the same
 * pieces, whichever worker runs it), and the input's hash is the cache key.
 */
export interface ContextBytes {
  /** What the designer calls the file: `maps/aim_map.bsp`, `m10aa_01c.mdl`. */
  name: string;
  bytes: Uint8Array;
}

/** A placement in the walkmesh's world space: position and a turn about Z in radians. */
export interface ContextPlace {
  x: number;
  y: number;
  z: number;
  /** Turn about +Z in radians (NWN2 GIT Bearing); 0 when the source has none. */
  bearing: number;
  /** Scale per axis (NWN2 GIT ModelScale); 1 when absent. */
  scale?: { x: number; y: number; z: number };
}

/** A KotOR room model placed by the layout, or by its own walkmesh where no layout lists the room. */
export interface KotorRoomModelInput {
  label: string;
  mdl: ContextBytes;
  mdx: Uint8Array | null;
  place: ContextPlace;
  /**
   * The room's WOK as the project holds it. With `placeByWalkmesh`, the model is placed where
   * its walkmesh node lands on the WOK (no layout lists the room); without, the layout's
   * position is checked against it and a disagreement is reported.
   */
  wok?: Uint8Array;
  placeByWalkmesh?: boolean;
}

/** Models placed by the area (NWN2 GIT placeables and doors, ARE tiles): each file once, placed many times. */
export interface PlacedModelsInput {
  files: ContextBytes[];
  /** `tile`: an interior tile's model (ARE TileList), placed by the tile rule of nwn2-model-context.ts. */
  placed: { label: string; file: number; place: ContextPlace; tile?: { metaTile: boolean } }[];
}

export interface LevelContextInput {
  game: GameId;
  /** Source: the compiled map the `.nav` was built from. */
  bsp?: ContextBytes;
  kotorRooms?: KotorRoomModelInput[];
  /** NWN2: the TRN or TRX whose TRRN (terrain) and WATR (water) packets are drawn. */
  nwn2Terrain?: ContextBytes;
  /** NWN2: the terrain textures its TRRN packets name that the services found (`tt_grass01.dds`), each once. */
  nwn2TerrainTextures?: ContextBytes[];
  nwn2Models?: PlacedModelsInput;
  /** Skyrim: the plugin, its masters (in load order), and the navmesh's cell. */
  skyrimPlugins?: ContextBytes[];
  skyrimCell?: number;
  /** What the services looked for and could not find (no file to read). */
  gaps: LevelContextGap[];
}

/**
 * The readers the conversion uses, one per source kind. Passed in rather than imported so
 * this module stays a small dispatcher over the format modules (level-context-readers.ts
 * binds the real ones); a reader absent here is a gap the designer is told about.
 */
export interface LevelContextReaders {
  bsp?(bytes: Uint8Array, name: string): LevelContextPiece[];
  kotorRoom?(room: KotorRoomModelInput): { pieces: LevelContextPiece[]; gaps: LevelContextGap[] };
  nwn2Terrain?(bytes: Uint8Array, name: string, textures: readonly ContextBytes[]): { pieces: LevelContextPiece[]; gaps: LevelContextGap[] };
  nwn2Models?(models: PlacedModelsInput): { pieces: LevelContextPiece[]; gaps: LevelContextGap[] };
  skyrim?(plugins: readonly ContextBytes[], cell: number | undefined): { pieces: LevelContextPiece[]; gaps: LevelContextGap[] };
}

export type ContextProgress = (stage: string, fraction: number) => void;

interface Step {
  stage: string;
  what: string;
  missing: string;
  run: (() => LevelContextPiece[] | { pieces: LevelContextPiece[]; gaps: LevelContextGap[] }) | undefined;
}

/**
 * Reads every part of `input` with `readers`. A file that does not read (bad bytes, a
 * version the reader refuses) becomes a gap naming the file and the reader's message, so
 * one damaged room model never hides the other rooms. Pieces are checked for consistency
 * (a reader bug, not a file fault, throws).
 */
export function assembleLevelContext(input: LevelContextInput, readers: LevelContextReaders, progress: ContextProgress = () => {}): LevelContext {
  const steps: Step[] = [];
  const { bsp, nwn2Terrain } = input;
  if (bsp) steps.push({ stage: `reading ${bsp.name}`, what: bsp.name, missing: 'no BSP reader in this build', run: readers.bsp && (() => readers.bsp!(bsp.bytes, bsp.name)) });
  for (const room of input.kotorRooms ?? []) {
    steps.push({ stage: `room model ${room.mdl.name}`, what: room.mdl.name, missing: 'no KotOR model reader in this build', run: readers.kotorRoom && (() => readers.kotorRoom!(room)) });
  }
  if (nwn2Terrain) steps.push({ stage: `terrain of ${nwn2Terrain.name}`, what: nwn2Terrain.name, missing: 'no NWN2 terrain reader in this build', run: readers.nwn2Terrain && (() => readers.nwn2Terrain!(nwn2Terrain.bytes, nwn2Terrain.name, input.nwn2TerrainTextures ?? [])) });
  const models = input.nwn2Models;
  if (models && models.placed.length > 0) {
    const what = `${models.files.length} placed model${models.files.length === 1 ? '' : 's'}`;
    steps.push({ stage: `placed models (${models.placed.length})`, what, missing: 'no MDB model reader in this build', run: readers.nwn2Models && (() => readers.nwn2Models!(models)) });
  }
  const plugins = input.skyrimPlugins;
  if (plugins && plugins.length > 0) {
    steps.push({ stage: `landscape of ${plugins[plugins.length - 1]!.name}`, what: plugins[plugins.length - 1]!.name, missing: 'no Skyrim landscape reader in this build', run: readers.skyrim && (() => readers.skyrim!(plugins, input.skyrimCell)) });
  }
  const pieces: LevelContextPiece[] = [];
  const gaps: LevelContextGap[] = [...input.gaps];
  steps.forEach((step, i) => {
    progress(step.stage, i / Math.max(steps.length, 1));
    if (!step.run) {
      gaps.push({ what: step.what, why: step.missing });
      return;
    }
    let got: ReturnType<NonNullable<Step['run']>>;
    try {
      got = step.run();
    } catch (e) {
      if (!isMalformedInputError(e)) throw e;
      gaps.push({ what: step.what, why: e.message });
      return;
    }
    const list = Array.isArray(got) ? got : got.pieces;
    if (!Array.isArray(got)) gaps.push(...got.gaps);
    for (const p of list) {
      checkLevelContextPiece(p);
      pieces.push(p);
    }
  });
  progress('done', 1);
  return { game: input.game, pieces, gaps };
}
