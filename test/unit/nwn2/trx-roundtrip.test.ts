import pako from 'pako';
import { afterAll, describe, expect, it } from 'vitest';
import { compressedStreamOf } from '../../../shared/formats/nwn2/aswm-packet';
import { writeAswm } from '../../../shared/formats/nwn2/aswm-writer';
import { aswmPacketOf } from '../../../shared/formats/nwn2/trx-document';
import { trxFormat } from '../../../shared/formats/nwn2/trx-format';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { writeTrx } from '../../../shared/formats/nwn2/trx-writer';
import { readFixture } from '../../support/fixtures';
import { cases, env, firstDifference, trxFiles } from './nwn2-fixtures';

const recompression: string[] = [];

describe('NWN2 TRN/TRX round trip', () => {
  it('finds the 23 Kaedrin TRX, 5 Kaedrin TRN and the Mord Mansion pair', () => {
    expect(trxFiles.length).toBe(30);
    expect(trxFiles.filter((f) => /\.trn$/i.test(f)).length).toBe(6);
  });

  it.each(cases)('%s is written back byte for byte', (_name, file) => {
    const bytes = readFixture(file);
    const doc = readTrx(bytes, env);
    expect(firstDifference(writeTrx(doc, env), bytes)).toBeNull();
  });

  it.each(cases)('%s: the walkmesh re-serialises to the decompressed ASWM and every other packet is unchanged', (_name, file) => {
    const bytes = readFixture(file);
    const doc = readTrx(bytes, env);
    const packet = aswmPacketOf(doc)!;
    const stream = compressedStreamOf(packet.payload);
    expect(stream).toBeDefined();
    // Inflated here with pako directly, independent of the reader's environment.
    const inflated = pako.inflate(stream!);
    const raw = writeAswm(packet.aswm);
    expect(firstDifference(raw, inflated)).toBeNull();

    const details = trxFormat.roundtripDetails!(bytes, doc, env);
    expect(details).toMatchObject({ aswmVersion: '0x6C', aswmCompressed: true, aswmPayloadIdentical: true, packetsIdentical: true });
    recompression.push(`${_name}: ${details.aswmRecompressedIdentical ? 're-compresses identically' : 'DIFFERS when re-compressed'}`);
    // The toolset's streams are reproduced by pako 2.1.0 at level 6 (checked on every fixture).
    expect(details.aswmRecompressedIdentical).toBe(true);
  });

  it.each(cases)('%s comes back identical through the common model', (name, file) => {
    const bytes = readFixture(file);
    const doc = trxFormat.read(bytes, env);
    const meshes = trxFormat.toWalkmeshes(doc, name);
    expect(meshes).toHaveLength(1);
    const back = trxFormat.fromWalkmeshes!(meshes, doc);
    expect(firstDifference(trxFormat.write(back, env), bytes)).toBeNull();
  });

  it.each(cases)('%s: the summary counts agree with the document', (_name, file) => {
    const doc = readTrx(readFixture(file), env);
    const a = aswmPacketOf(doc)!.aswm;
    const s = trxFormat.summarize(doc);
    let tileTriangles = 0;
    for (let k = 0; k < a.tiles.count; k++) tileTriangles += a.tiles.triangleCount[k]!;
    expect(s.counts.triangles).toBe(tileTriangles);
    expect(s.counts.tiles).toBe(a.gridWidth * a.gridHeight);
    expect(s.counts.packets).toBe(doc.packets.length);
    expect(s.counts.packetsTRWH).toBe(1);
    expect(s.counts.packetsASWM).toBe(1);
    const mesh = trxFormat.toWalkmeshes(doc, 'x')[0]!;
    expect(s.counts.walkableTriangles).toBe(mesh.faceWalkable.reduce((n, w) => n + w, 0));
    expect(s.counts.vertices).toBe(mesh.positions.length / 3);
    expect(s.details.compressed).toBe(true);
    expect(s.details.aswmVersion).toBe('0x6C');
    // Interiors: 9 m tiles, no border, TRWH = the tile grid (spec §2.2, §4.6).
    expect(s.details.tileWidth).toBe(9);
    expect(s.details.borderSize).toBe(0);
    expect(s.details.areaSize).toMatch(new RegExp(`^${a.gridWidth} × ${a.gridHeight} `));
    const trn = /\.trn$/i.test(file);
    expect(s.details.tilesFlags).toBe(trn ? 15 : 31);
    expect(s.counts.islands === 0).toBe(trn);
    expect(s.details.clockwiseTriangles === 0).toBe(trn);
  });

  afterAll(() => {
    if (recompression.length > 0) console.info(`ASWM re-compression with pako 2.1.0 level 6:\n  ${recompression.join('\n  ')}`);
  });
});
