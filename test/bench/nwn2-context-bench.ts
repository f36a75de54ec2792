import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { nwn2TerrainContext } from '../../shared/formats/nwn2/nwn2-level-context';
import type { TrxDocument } from '../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../shared/formats/nwn2/trx-reader';
import type { LevelContext } from '../../shared/model/level-context';
import { generateExteriorTrxBytes } from '../support/nwn2-exterior-generator';
import type { BenchGroup, BenchSuite } from './bench-suite';

/**
 * Issue 19: "a 400-megatile NWN2 exterior opens with the walkmesh first". No such file is
 * public, so the exterior is generated (test/support/nwn2-exterior-generator.ts: 20 × 20
 * megatiles of TRRN terrain, one WATR, and the 80 × 80-tile ASWM walkmesh, about 38 MB;
 * generating it takes about 20 s, once, outside the timings). Two rows: reading the TRX
 * (the walkmesh is ready then), and reading it and building the terrain and water context
 * (460,800 terrain triangles with blend colours), whose difference is the context's cost.
 */
let generated: Uint8Array | undefined;
function exterior(): BenchGroup[] {
  generated ??= generateExteriorTrxBytes({ megatiles: 20 }, env);
  return [{ label: '400 megatiles (generated)', inputs: [{ name: 'generated-400-megatiles.trx', bytes: generated }] }];
}

export const nwn2ExteriorReadBench: BenchSuite<TrxDocument> = {
  name: 'nwn2 exterior: walkmesh read',
  groups: exterior,
  read: (bytes) => readTrx(bytes, env),
};

export const nwn2ExteriorContextBench: BenchSuite<LevelContext> = {
  name: 'nwn2 exterior: read + terrain context',
  groups: exterior,
  read: (bytes) => nwn2TerrainContext(readTrx(bytes, env)),
};
