import { isMalformedInputError } from '../../shared/binary/malformed-input-error';
import { readGff } from '../../shared/formats/aurora/gff-reader';
import { readGitPlaceables } from '../../shared/formats/aurora/nwn2-git';
import { aswmPacketOf } from '../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../shared/formats/nwn2/trx-reader';
import { writeTrx } from '../../shared/formats/nwn2/trx-writer';
import { bakeTrn, type TrnBakeInput, type TrnBakeOptions, type TrnBakeReport } from '../../shared/bakers/nwn2/trn-bake';
import { compareTrnBake, type TrnBakeComparison } from '../../shared/bakers/nwn2/trn-bake-compare';
import { readBytes } from './file-access';
import { Nwn2ModelResolver, type DamagedArchive, type ModelLookup } from './nwn2-model-resolver';
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
  comparison?: TrnBakeComparison;
}

/**
 * `walkbench bake AREA.trn --git AREA.git [--models DIR…] [--2da DIR] [--compare AREA.trx]`
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
  if (input.modelDirs && input.modelDirs.length > 0) {
    resolver = await Nwn2ModelResolver.open({ modelDirs: input.modelDirs, twoDaDir: input.twoDaDir });
    const wanted = readGitPlaceables(git).filter((p) => !p.isWalkable).map((p) => p.appearance);
    placeableModels = await resolver.preload(wanted);
  }
  const result = bakeTrn({ trn, git, placeableModels, options: input.options });
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
    ...(comparison ? { comparison } : {}),
  };
}

/** Runs a reader, naming the file in a MalformedInputError. */
function parsing<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw isMalformedInputError(e) ? e.withFile(file) : e;
  }
}
