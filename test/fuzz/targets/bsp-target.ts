import { statSync } from 'node:fs';
import type { BspMap } from '../../../shared/formats/source/bsp-document';
import { bspLevelContextPieces } from '../../../shared/formats/source/bsp-level-context';
import { BSP_LEVEL_CONTEXT_MEMORY, readBsp } from '../../../shared/formats/source/bsp-reader';
import { checkLevelContextPiece, type LevelContextPiece } from '../../../shared/model/level-context';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';
import { withLzmaLumps } from '../../support/lzma-lumps';
import type { CountField, FuzzTarget } from '../fuzz-target';

interface BspParsed {
  map: BspMap;
  pieces: LevelContextPiece[];
}

/**
 * Compiled maps (GoldSrc BSP 30, Source VBSP 19–21): readBsp and the level context built
 * from the map, on the mutated bytes. An accepted input must give pieces whose arrays
 * agree, and no more triangles than its surfedges and displacement vertices allow (what
 * the reader's run checks promise). Errors come as `goldsrc-bsp`, `source-vbsp` or `bsp`
 * (no version), so the target names no single format.
 */
export const bspTarget: FuzzTarget<BspParsed> = {
  name: 'bsp',
  description: 'GoldSrc/Source map reader (readBsp) and its level context (bspLevelContextPieces)',
  memoryFactor: BSP_LEVEL_CONTEXT_MEMORY.perInputByte,
  inflatedFactor: BSP_LEVEL_CONTEXT_MEMORY.perDecompressedByte,
  loadCorpus({ maxSize, all }) {
    const files = listFixtures('source-maps', ['.bsp']);
    const real = files.filter((file) => all || statSync(file).size <= maxSize).map((file) => ({ name: fixtureName(file), bytes: readFixture(file) }));
    // No real map has LZMA lumps: one is made from the map the LZMA test streams come from.
    const base = files.find((f) => f.endsWith('test_physcollide.bsp'));
    const packed = base ? [{ name: 'generated/test_physcollide-lzma.bsp', bytes: withLzmaLumps(readFixture(base)) }] : [];
    return [...real, ...packed];
  },
  countFields(bytes) {
    const fields: CountField[] = [];
    const map = readBsp(bytes, 'seed.bsp');
    const vbsp = map.format === 'source-vbsp';
    for (const lump of map.lumps) {
      fields.push({ offset: lump.headerOffset + 4, byteWidth: 4, kind: 'lump.length' });
      fields.push({ offset: lump.headerOffset, byteWidth: 4, kind: 'lump.offset' });
    }
    const faces = map.lumps[7]!;
    const faceBytes = vbsp ? 56 : 20;
    for (let f = 0; f < map.faces.count; f++) fields.push({ offset: faces.offset + f * faceBytes + 8, byteWidth: 2, kind: 'face.numedges' });
    const models = map.lumps[14]!;
    const modelBytes = vbsp ? 48 : 64;
    for (let m = 0; m < map.models.count; m++) fields.push({ offset: models.offset + m * modelBytes + modelBytes - 4, byteWidth: 4, kind: 'model.numfaces' });
    if (!vbsp && map.lumps[2]!.length >= 4) fields.push({ offset: map.lumps[2]!.offset, byteWidth: 4, kind: 'nummiptex' });
    if (vbsp) {
      const info = map.lumps[26]!;
      for (let d = 0; d < map.displacements.count; d++) fields.push({ offset: info.offset + d * 176 + 20, byteWidth: 4, kind: 'dispinfo.power' });
    }
    return fields;
  },
  parse(bytes) {
    const map = readBsp(bytes, 'fuzz.bsp');
    return { map, pieces: bspLevelContextPieces(map) };
  },
  check({ map, pieces }) {
    let triangles = 0;
    for (const p of pieces) {
      checkLevelContextPiece(p);
      triangles += p.triangles.length / 3;
    }
    const allowed = map.surfedges.length + 2 * (map.displacements.verts.length / 5);
    if (triangles > allowed) throw new Error(`bspLevelContextPieces made ${triangles} triangles from ${map.surfedges.length} surfedges and ${map.displacements.verts.length / 5} displacement vertices`);
  },
};
