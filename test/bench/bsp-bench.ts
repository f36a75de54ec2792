import path from 'node:path';
import type { BspMap } from '../../shared/formats/source/bsp-document';
import { bspLevelContextPieces } from '../../shared/formats/source/bsp-level-context';
import { readBsp } from '../../shared/formats/source/bsp-reader';
import type { LevelContextPiece } from '../../shared/model/level-context';
import { syntheticVbsp } from '../support/big-bsp';
import { fixtureName, listFixtures, readFixture } from '../support/fixtures';
import type { BenchGroup, BenchSuite } from './bench-suite';

/**
 * Compiled maps (issue 19's level context): one row per fixture folder and one for a
 * synthetic 100 MB Source map (test/support/big-bsp.ts: 57,816 faces, 5,780
 * displacements, 820,936 drawn triangles, the rest lightmaps). Two suites: readBsp alone,
 * and readBsp followed by bspLevelContextPieces (what the context worker does before the
 * pieces are sent to the viewport), so their difference is the cost of the pieces.
 */
const SYNTHETIC_BYTES = 100_000_000;

function groups(): BenchGroup[] {
  const byFolder = new Map<string, BenchGroup>();
  for (const file of listFixtures('source-maps', ['.bsp'])) {
    const label = path.dirname(fixtureName(file)).split(path.sep).slice(1).join('/') || 'source-maps';
    let group = byFolder.get(label);
    if (!group) byFolder.set(label, (group = { label, inputs: [] }));
    group.inputs.push({ name: path.basename(file), bytes: readFixture(file) });
  }
  const synthetic = syntheticVbsp(SYNTHETIC_BYTES);
  return [
    ...[...byFolder.values()].sort((a, b) => a.label.localeCompare(b.label)),
    { label: 'synthetic 100 MB', inputs: [{ name: 'synthetic.bsp', bytes: synthetic.bytes }] },
  ];
}

export const bspReadBench: BenchSuite<BspMap> = {
  name: 'source .bsp read',
  groups,
  read: (bytes) => readBsp(bytes, 'bench.bsp'),
};

export const bspContextBench: BenchSuite<LevelContextPiece[]> = {
  name: 'source .bsp read + context',
  groups,
  read: (bytes) => bspLevelContextPieces(readBsp(bytes, 'bench.bsp')),
};
