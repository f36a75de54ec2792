import { statSync } from 'node:fs';
import { placeModelMeshes } from '../../../shared/bakers/nwn2/nwn2-model-context';
import { readLandRecord } from '../../../shared/formats/skyrim/land-record';
import { mdbMeshes, MDB_MESH_READ_MEMORY } from '../../../shared/formats/nwn2/mdb-rigid';
import { nwn2TerrainContext } from '../../../shared/formats/nwn2/nwn2-level-context';
import { readTrx, TRX_READ_MEMORY } from '../../../shared/formats/nwn2/trx-reader';
import { walkRecords, type PluginDocument } from '../../../shared/formats/skyrim/plugin-document';
import { PLUGIN_READ_MEMORY, readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { skyrimLevelContext } from '../../../shared/formats/skyrim/skyrim-level-context';
import { checkLevelContextPiece, type LevelContext } from '../../../shared/model/level-context';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';
import { generateExteriorTrxBytes } from '../../support/nwn2-exterior-generator';
import { fuzzEnvironment as env } from '../fuzz-env';
import type { FuzzTarget } from '../fuzz-target';
import { containerStructure, mdbCountFields, mdbStructureMutators, pluginStructure, pluginStructureMutators, trxStructureMutators } from '../structure-mutators';

/**
 * Fuzz targets for the level-context readers (issue 19): the Skyrim LAND record and the
 * context built from a plugin, the MDB mesh packets, and the NWN2 terrain context of
 * generated TRRN/WATR packets (no public exterior has them). Every accepted input must give
 * pieces whose arrays agree (checkLevelContextPiece) and finite positions.
 */
function fixtures(folder: string, extensions: readonly string[]) {
  return ({ maxSize, all }: { maxSize: number; all: boolean }) =>
    listFixtures(folder, extensions)
      .filter((file) => all || statSync(file).size <= maxSize)
      .map((file) => ({ name: fixtureName(file), bytes: readFixture(file) }));
}

function checkContext(what: string, context: LevelContext): void {
  for (const p of context.pieces) {
    checkLevelContextPiece(p);
    if (!p.positions.every(Number.isFinite)) throw new Error(`${what}: piece ${p.label} has a non-finite position`);
  }
}

/** Every cell with a LAND and every worldspace of the plugin, as contexts. */
function pluginContexts(doc: PluginDocument): LevelContext[] {
  const cells = new Set<number>();
  const worlds = new Set<number>();
  for (const { record, parents } of walkRecords(doc.items)) {
    if (record.signature === 'LAND') {
      const g = parents[parents.length - 1];
      if (g) cells.add(g.label);
      // Decoding errors are MalformedInputErrors (refused input); the context turns them into gaps.
      readLandRecord(record);
    }
    if (record.signature === 'WRLD') worlds.add(record.formId);
  }
  const plugin = { name: 'fuzzed.esp', doc };
  return [...[...cells].map((cell) => skyrimLevelContext(plugin, { cell })), ...[...worlds].map((worldspace) => skyrimLevelContext(plugin, { worldspace }))];
}

export const landTarget: FuzzTarget<unknown> = {
  name: 'land',
  description: 'Skyrim LAND records (readLandRecord) and the level context of every LAND cell and worldspace of a plugin',
  // The plugin's bound plus the context: at most 256 terrain cells of ~45 KB and boxes of
  // 264 bytes per REFR (a REFR is at least 50 bytes in the file).
  memoryFactor: PLUGIN_READ_MEMORY.perInputByte + 8,
  inflatedFactor: PLUGIN_READ_MEMORY.perDecompressedByte + 8,
  loadCorpus: fixtures('skyrim-land', ['.esp', '.esm']),
  structure: pluginStructure,
  structureMutators: pluginStructureMutators,
  parse(bytes) {
    const doc = readPlugin(bytes, env);
    return { doc, contexts: pluginContexts(doc) };
  },
  check(parsed) {
    for (const c of (parsed as { contexts: LevelContext[] }).contexts) checkContext('land', c);
  },
};

export const mdbMeshTarget: FuzzTarget<unknown> = {
  name: 'mdb-mesh',
  description: 'NWN2 MDB RIGD/SKIN/COL2/COL3 meshes (mdbMeshes), placed as a context piece',
  format: 'nwn2-mdb',
  memoryFactor: MDB_MESH_READ_MEMORY.perInputByte + 4,
  loadCorpus: fixtures('nwn2', ['.mdb']),
  countFields: mdbCountFields,
  structure: containerStructure,
  structureMutators: mdbStructureMutators,
  parse: (bytes) => mdbMeshes(bytes),
  check(parsed) {
    const meshes = parsed as ReturnType<typeof mdbMeshes>;
    const piece = placeModelMeshes(meshes, { index: 0, x: 10, y: 20, z: 1, bearing: 0.5, scale: { x: 1, y: 1, z: 1 } }, 'fuzzed');
    checkLevelContextPiece(piece);
  },
};

export const trrnContextTarget: FuzzTarget<unknown> = {
  name: 'trrn-context',
  description: 'NWN2 terrain and water context (nwn2TerrainContext) of a generated one-megatile exterior TRX',
  // The TRX bound plus the pieces: positions, colours and u32 triangles, about 2 × the packets.
  memoryFactor: TRX_READ_MEMORY.perInputByte + 4,
  inflatedFactor: TRX_READ_MEMORY.perDecompressedByte,
  loadCorpus: () => [{ name: 'generated 1-megatile exterior', bytes: generateExteriorTrxBytes({ megatiles: 1 }, env) }],
  structure: containerStructure,
  structureMutators: trxStructureMutators,
  parse(bytes) {
    const doc = readTrx(bytes, env);
    return nwn2TerrainContext(doc);
  },
  check: (context) => checkContext('trrn-context', context as LevelContext),
};
