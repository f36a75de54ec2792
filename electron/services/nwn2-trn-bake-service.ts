import { isMalformedInputError } from '../../shared/binary/malformed-input-error';
import { readGff } from '../../shared/formats/aurora/gff-reader';
import { readGitDoors, readGitPlaceables } from '../../shared/formats/aurora/nwn2-git';
import { aswmPacketOf } from '../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../shared/formats/nwn2/trx-reader';
import { writeTrx } from '../../shared/formats/nwn2/trx-writer';
import { bakeTrn, type TrnBakeInput, type TrnBakeOptions, type TrnBakeReport } from '../../shared/bakers/nwn2/trn-bake';
import { compareTrnBake, type TrnBakeComparison } from '../../shared/bakers/nwn2/trn-bake-compare';
import { readBytes } from './file-access';
import type { Nwn2GameFolders } from './nwn2-game-resources';
import { Nwn2ModelResolver, type DamagedArchive, type MissingModel, type ModelLookup } from './nwn2-model-resolver';
import { nodeFormatEnvironment as env } from './node-format-environment';

export interface TrnBakeFiles {
  /** The area's TRN. */
  trn: string;
  /** The area's GIT (walkmesh cutters, placeables). */
  git: string;
  /** Folders with the placeables' MDB models (loose or in .hak/.mod/.erf archives). */
  modelDirs?: readonly string[];
  /** Folder holding placeables.2da (else looked for in the model folders). */
  twoDaDir?: string;
  /** The game install (and module) searched after the folders above, in the game's order: `--game`, `--module`. */
  game?: Nwn2GameFolders;
  /** A TRX to compare the result with (the toolset's bake of the same TRN): `--compare`. */
  compare?: string;
  options?: TrnBakeOptions;
}

export interface TrnBakeFilesResult {
  /** The baked TRX file. */
  bytes: Uint8Array;
  report: TrnBakeReport;
  /** Where each placeable's model was looked for and found (empty without model folders). */
  models: ModelLookup[];
  /** placeables.2da used, if any. */
  placeablesTable: string | undefined;
  /** Archives in the model folders that could not be read, and why (their models were looked for elsewhere). */
  damagedArchives: DamagedArchive[];
  /** Placeables whose model was not found, grouped by model name (empty when none was looked for). */
  missingModels: MissingModel[];
  /** The game's sources searched, highest priority first (empty without `game`). */
  gameSources: readonly { kind: string; path: string }[];
  /** Haks the module names that no hak folder holds. */
  missingHaks: readonly string[];
  comparison?: TrnBakeComparison;
}

/**
 * `walkbench bake AREA.trn --git AREA.git [--models DIR…] [--2da DIR] [--game DIR [--module DIR|MOD]] [--compare AREA.trx]`
 * without the argument parsing: reads the files, finds the placeables' models, bakes
 * (shared/bakers/nwn2/trn-bake.ts) and returns the TRX bytes with the report. Malformed
 * inputs throw MalformedInputError naming the file; a bake the format cannot store throws
 * ModelMappingError; missing files or folders throw FileAccessError.
 */
export async function bakeTrnFiles(input: TrnBakeFiles): Promise<TrnBakeFilesResult> {
  const trnBytes = await readBytes(input.trn);
  const trn = parsing(input.trn, () => readTrx(trnBytes, env));
  const gitBytes = await readBytes(input.git);
  const git = parsing(input.git, () => readGff(gitBytes));
  let resolver: Nwn2ModelResolver | undefined;
  let placeableModels: TrnBakeInput['placeableModels'];
  let doorModels: TrnBakeInput['doorModels'];
  // A 2DA folder alone still names the models the rows ask for (and finds none), so the report names them.
  if ((input.modelDirs && input.modelDirs.length > 0) || input.twoDaDir !== undefined || input.game) {
    resolver = await Nwn2ModelResolver.open({ modelDirs: input.modelDirs ?? [], twoDaDir: input.twoDaDir, ...(input.game ? { game: input.game } : {}) });
    try {
      const wanted = readGitPlaceables(git).filter((p) => !p.isWalkable).map((p) => p.appearance);
      placeableModels = await resolver.preload(wanted);
      doorModels = await resolver.preloadDoors(readGitDoors(git));
    } finally {
      resolver.close();
    }
  }
  const result = bakeTrn({ trn, git, placeableModels, doorModels, options: input.options });
  const bytes = writeTrx(result.trx, env);
  let comparison: TrnBakeComparison | undefined;
  if (input.compare !== undefined) {
    const compare = input.compare;
    const refBytes = await readBytes(compare);
    const reference = aswmPacketOf(parsing(compare, () => readTrx(refBytes, env)));
    const source = aswmPacketOf(trn);
    if (reference && source) comparison = compareTrnBake(result.aswm, reference.aswm, { trn: source.aswm });
  }
  return {
    bytes,
    report: result.report,
    models: resolver?.lookups ?? [],
    placeablesTable: resolver?.placeablesSource,
    damagedArchives: resolver?.damaged ?? [],
    missingModels: groupMissing(result.report.placeables.missingModel, (a) => resolver?.modelName(a)),
    gameSources: resolver?.gameSources ?? [],
    missingHaks: resolver?.missingHaks ?? [],
    ...(comparison ? { comparison } : {}),
  };
}

/**
 * The placeables the bake found no model for, grouped by the model their placeables.2da
 * row names (undefined: no table, no such row or an empty cell), most frequent first.
 */
export function groupMissing(missing: readonly { appearance: number }[], modelName: (appearance: number) => string | undefined): MissingModel[] {
  const groups = new Map<string, MissingModel>();
  for (const { appearance } of missing) {
    const model = modelName(appearance);
    const k = model?.toLowerCase() ?? `#${appearance}`;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { model, appearances: [], count: 0 }));
    g.count++;
    if (!g.appearances.includes(appearance)) g.appearances.push(appearance);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count || (a.model ?? '').localeCompare(b.model ?? '') || a.appearances[0]! - b.appearances[0]!);
}

/** Runs a reader, naming the file in a MalformedInputError. */
function parsing<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw isMalformedInputError(e) ? e.withFile(file) : e;
  }
}
