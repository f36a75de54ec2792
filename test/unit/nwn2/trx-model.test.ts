import pako from 'pako';
import { describe, expect, it } from 'vitest';
import { readObj } from '../../../shared/formats/obj/obj-reader';
import { writeObj } from '../../../shared/formats/obj/obj-writer';
import { floatView, NONE16, TriangleFlag, type AswmDocument } from '../../../shared/formats/nwn2/aswm-document';
import { signedArea2 } from '../../../shared/formats/nwn2/aswm-geometry';
import { rebuildTopology } from '../../../shared/formats/nwn2/aswm-topology';
import { writeAswm } from '../../../shared/formats/nwn2/aswm-writer';
import { readNwn2Container, writeNwn2Container } from '../../../shared/formats/nwn2/nwn2-container';
import { aswmPacketOf, type TrxDocument } from '../../../shared/formats/nwn2/trx-document';
import { trxFormat } from '../../../shared/formats/nwn2/trx-format';
import { trxFromWalkmeshes } from '../../../shared/formats/nwn2/trx-from-walkmesh';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { validateTrx } from '../../../shared/formats/nwn2/trx-validate';
import { tileOwners, trxToWalkmeshes } from '../../../shared/formats/nwn2/trx-walkmesh';
import { writeTrx } from '../../../shared/formats/nwn2/trx-writer';
import { ModelMappingError } from '../../../shared/model/model-mapping-error';
import { createWalkmesh, type Walkmesh } from '../../../shared/model/walkmesh';
import { readFixture } from '../../support/fixtures';
import { cases, env, firstDifference, loadTrx } from './nwn2-fixtures';

const MORD_TRX = 'mordmansion/CSLMordMansion.TRX';
const MORD_TRN = 'mordmansion/CSLMordMansion.TRN';

function meshOf(doc: TrxDocument): Walkmesh {
  return trxToWalkmeshes(doc, 'mesh')[0]!;
}

function aswmOf(doc: TrxDocument): AswmDocument {
  return aswmPacketOf(doc)!.aswm;
}

function errors(doc: TrxDocument) {
  return validateTrx(doc).filter((f) => f.severity === 'error');
}

/** The same faces in another order, with each face's own copy of its corners (as an OBJ importer may give). */
function reordered(mesh: Walkmesh, order: number[], round?: (v: number) => number): Walkmesh {
  const F = order.length;
  const positions = new Float32Array(F * 9);
  const triangles = new Uint32Array(F * 3);
  order.forEach((f, i) => {
    for (let c = 0; c < 3; c++) {
      const v = mesh.triangles[f * 3 + c]!;
      for (let k = 0; k < 3; k++) positions[i * 9 + c * 3 + k] = round ? round(mesh.positions[v * 3 + k]!) : mesh.positions[v * 3 + k]!;
      triangles[i * 3 + c] = i * 3 + c;
    }
  });
  return createWalkmesh({
    ...mesh,
    positions,
    triangles,
    faceWalkable: Uint8Array.from(order, (f) => mesh.faceWalkable[f]!),
    faceMaterial: Uint32Array.from(order, (f) => mesh.faceMaterial[f]!),
    faceOwner: Uint32Array.from(order, (f) => mesh.faceOwner[f]!),
  });
}

describe('NWN2 TRN/TRX and the common model', () => {
  it('gives TRX triangles to the model counter-clockwise and keeps flags, walkability and tiles', () => {
    const { doc } = loadTrx(MORD_TRX);
    const a = aswmOf(doc);
    const mesh = meshOf(doc);
    const T = a.triFlags.length;
    expect(mesh.triangles.length).toBe(T * 3);
    let clockwise = 0;
    for (let f = 0; f < T; f++) if (signedArea2(mesh.positions, mesh.triangles, f) < -1e-9) clockwise++;
    // Spec §4.1: all 1,768 carry 0x04 and all but 2 are wound clockwise in the file, so
    // only those 2 come out clockwise in the model.
    expect(clockwise).toBe(2);
    expect(Array.from(mesh.triangles.subarray(0, 3))).toEqual([a.triVertices[0], a.triVertices[2], a.triVertices[1]]);
    expect(Array.from(mesh.faceMaterial)).toEqual(Array.from(a.triFlags));
    expect(Array.from(mesh.faceWalkable)).toEqual(Array.from(a.triFlags, (f) => f & 1));
    const owners = tileOwners(a);
    for (let k = 0; k < a.tiles.count; k++) {
      for (let t = a.tiles.triangleOffset[k]!; t < a.tiles.triangleOffset[k]! + a.tiles.triangleCount[k]!; t++) expect(owners[t]).toBe(k);
    }
    expect(Array.from(mesh.faceOwner)).toEqual(Array.from(owners));
    expect(floatView(a.vertices)).toEqual(mesh.positions);
  });

  it('gives TRN triangles (counter-clockwise, no 0x04 flag) in their stored order', () => {
    const { doc } = loadTrx(MORD_TRN);
    const mesh = meshOf(doc);
    expect(mesh.triangles).toEqual(aswmOf(doc).triVertices);
    let ccw = 0;
    for (let f = 0; f < mesh.faceWalkable.length; f++) if (signedArea2(mesh.positions, mesh.triangles, f) > 0) ccw++;
    expect(ccw).toBe(1218);
  });

  it('returns the base document itself for an unchanged mesh', () => {
    const { doc } = loadTrx(MORD_TRX);
    expect(trxFromWalkmeshes(trxToWalkmeshes(doc, 'x'), doc)).toBe(doc);
  });

  it.each(cases)('%s survives an OBJ export and import byte for byte (vertices renumbered, unused ones dropped)', (_name, file) => {
    const bytes = readFixture(file);
    const doc = readTrx(bytes, env);
    const { obj } = writeObj(trxToWalkmeshes(doc, 'area'));
    const meshes = readObj(obj, { name: 'area', game: 'nwn2', format: 'nwn2-trx' });
    const back = trxFromWalkmeshes(meshes, doc);
    expect(back).toBe(doc);
    expect(firstDifference(writeTrx(back, env), bytes)).toBeNull();
  });

  it('recognises the unchanged mesh in another face order with coordinates printed to 6 decimals (as Blender exports)', () => {
    const { bytes, doc } = loadTrx(MORD_TRX);
    const mesh = meshOf(doc);
    // Grouped by material, as Blender's exporter writes faces.
    const order = Array.from(mesh.faceMaterial.keys()).sort((x, y) => mesh.faceMaterial[x]! - mesh.faceMaterial[y]! || y - x);
    const blender = reordered(mesh, order, (v) => Number(v.toFixed(6)));
    const exact = reordered(mesh, order);
    expect(blender.positions.some((v, i) => v !== exact.positions[i])).toBe(true);
    const back = trxFromWalkmeshes([blender], doc);
    expect(firstDifference(writeTrx(back, env), bytes)).toBeNull();
  });

  it('applies a surface change to the stored triangle and keeps the baked tables', () => {
    const { doc } = loadTrx(MORD_TRX);
    const mesh = meshOf(doc);
    const order = Array.from(mesh.faceMaterial.keys()).reverse();
    const edited = reordered(mesh, order);
    // Face 0 of the reversed mesh is the last stored triangle.
    const last = mesh.faceMaterial.length - 1;
    edited.faceMaterial[0] = (mesh.faceMaterial[last]! & ~0x3ff8) | TriangleFlag.metal;
    const written = writeTrx(trxFromWalkmeshes([edited], doc), env);
    const back = aswmOf(readTrx(written, env));
    const before = aswmOf(doc);
    expect(back.triFlags[last]).toBe(edited.faceMaterial[0]);
    expect(back.triFlags.subarray(0, last)).toEqual(before.triFlags.subarray(0, last));
    expect(back.islands).toEqual(before.islands);
    expect(back.tiles.nodes).toEqual(before.tiles.nodes);
    expect(back.bakeStale).toBe(false);
    expect(errors(readTrx(written, env))).toEqual([]);
  });

  it('empties the baked tables when walkability changes, and says the area needs baking', () => {
    const { doc } = loadTrx(MORD_TRX);
    const mesh = meshOf(doc);
    const f = mesh.faceWalkable.indexOf(1);
    mesh.faceWalkable[f] = 0;
    const edited = trxFromWalkmeshes([mesh], doc);
    const a = aswmOf(edited);
    expect(a.bakeStale).toBe(true);
    expect(a.islands.count).toBe(0);
    expect(a.tiles.localToNode.length).toBe(0);
    expect(a.triIsland.every((i) => i === NONE16)).toBe(true);
    expect(a.triFlags[f]! & TriangleFlag.walkable).toBe(0);
    expect(a.triVertices).toEqual(aswmOf(doc).triVertices);
    const findings = validateTrx(edited);
    expect(findings.filter((x) => x.severity === 'error')).toEqual([]);
    expect(findings.map((x) => x.code)).toContain('nwn2.aswm.not-baked');
    // Written and read again: the same findings (they are judged from what the file stores).
    const reread = readTrx(writeTrx(edited, env), env);
    expect(validateTrx(reread)).toEqual(findings);
  });

  it('rebuilds edges, links, centres, normals and tiles after a vertex moves, keeping unmoved vertices exact', () => {
    const { doc } = loadTrx(MORD_TRX);
    const mesh = meshOf(doc);
    const before = aswmOf(doc);
    // Move the first vertex of triangle 100 by 20 cm in x and y.
    const v = mesh.triangles[300]!;
    mesh.positions[v * 3] += 0.2;
    mesh.positions[v * 3 + 1] += 0.2;
    const edited = trxFromWalkmeshes([mesh], doc);
    const a = aswmOf(edited);
    expect(a.version).toBe(0x6c);
    expect(a.bakeStale).toBe(true);
    expect(a.triFlags.length).toBe(before.triFlags.length);
    expect(a.edges.length).toBe(before.edges.length);
    for (let i = 0; i < before.vertices.length; i++) if (((i / 3) | 0) !== v) expect(a.vertices[i]).toBe(before.vertices[i]);
    expect(floatView(a.vertices)[v * 3]).toBeCloseTo(floatView(before.vertices)[v * 3]! + 0.2, 4);
    expect(errors(edited)).toEqual([]);
    let sum = 0;
    for (let k = 0; k < a.tiles.count; k++) sum += a.tiles.triangleCount[k]!;
    expect(sum).toBe(a.triFlags.length);
    // Written with the toolset's compression, read back the same.
    const reread = readTrx(writeTrx(edited, env), env);
    expect(aswmOf(reread)).toEqual({ ...a, bakeStale: false });
  });

  it('removes deleted faces and keeps the rest grouped per tile', () => {
    const { doc } = loadTrx(MORD_TRN);
    const mesh = meshOf(doc);
    const keep = Array.from(mesh.faceMaterial.keys()).filter((f) => f % 10 !== 3);
    const edited = trxFromWalkmeshes([reordered(mesh, keep)], doc);
    const a = aswmOf(edited);
    expect(a.triFlags.length).toBe(keep.length);
    expect(errors(edited)).toEqual([]);
    for (let k = 0; k + 1 < a.tiles.count; k++) expect(a.tiles.triangleOffset[k + 1]).toBe(a.tiles.triangleOffset[k]! + a.tiles.triangleCount[k]!);
    // TRN convention: non-empty tiles carry their size.
    for (let k = 0; k < a.tiles.count; k++) expect(floatView(a.tiles.sizeX)[k]).toBe(a.tiles.triangleCount[k]! > 0 ? 9 : 0);
  });

  it('makes a new file from a mesh alone: a TRX for clockwise-flagged faces, a TRN otherwise', () => {
    for (const [rel, flags] of [[MORD_TRX, 31], [MORD_TRN, 15]] as const) {
      const { doc } = loadTrx(rel);
      const made = trxFormat.fromWalkmeshes!(trxToWalkmeshes(doc, 'x'), undefined);
      const a = aswmOf(made);
      expect(a.tilesFlags).toBe(flags);
      expect([a.gridWidth, a.gridHeight]).toEqual([6, 6]);
      expect(made.packets.map((p) => p.type)).toEqual(['TRWH', 'ASWM']);
      expect(errors(made)).toEqual([]);
      const written = trxFormat.write(made, env);
      const reread = trxFormat.read(written, env);
      expect(firstDifference(trxFormat.write(reread, env), written)).toBeNull();
      // The same faces, regrouped per tile.
      const sorted = (m: Walkmesh) => Array.from(m.faceMaterial).sort((x, y) => x - y);
      expect(sorted(meshOf(reread))).toEqual(sorted(meshOf(doc)));
    }
  });

  it('refuses what NWN2 cannot store, naming the face', () => {
    const { doc } = loadTrx(MORD_TRX);
    const big = meshOf(doc);
    big.faceMaterial[5] = 0x10000;
    expect(() => trxFromWalkmeshes([big], doc)).toThrow(/face 5: material 0x10000/);
    const outside = meshOf(doc);
    for (let c = 0; c < 3; c++) outside.positions[outside.triangles[7 * 3 + c]! * 3] = -30;
    expect(() => trxFromWalkmeshes([outside], doc)).toThrow(ModelMappingError);
    expect(() => trxFromWalkmeshes([outside], doc)).toThrow(/^face \d+ has its centre at \(-[\d.]+, [\d.]+\), outside the 6 × 6 tile grid/);
    const twice = meshOf(doc);
    twice.triangles[3 * 9 + 1] = twice.triangles[3 * 9]!;
    expect(() => trxFromWalkmeshes([twice], doc)).toThrow(/face 9 uses vertex \d+ twice/);
    expect(() => trxFromWalkmeshes([meshOf(doc), meshOf(doc)], doc)).toThrow(/one walkmesh, not 2/);
  });

  it.each(cases)('%s: rebuilding the topology reproduces the toolset\'s centres, normals, dots and edges', (_name, file) => {
    const a = aswmOf(readTrx(readFixture(file), env));
    const r = rebuildTopology(a, { preferredTile: tileOwners(a) });
    expect(r.triVertices).toEqual(a.triVertices);
    expect(r.triCentre).toEqual(a.triCentre);
    expect(r.triNormal).toEqual(a.triNormal);
    expect(r.triDot).toEqual(a.triDot);
    expect(r.tiles.triangleCount).toEqual(a.tiles.triangleCount);
    expect(r.tiles.triangleOffset).toEqual(a.tiles.triangleOffset);
    expect(r.tiles.sizeX).toEqual(a.tiles.sizeX);
    expect(r.edges.length).toBe(a.edges.length);
    // Same vertex pairs in the same order; t0/t1 order and the pairing at spots where three
    // or more triangles meet follow no known rule.
    let samePairs = 0;
    for (let e = 0; e < a.edges.length / 4; e++) if (r.edges[e * 4] === a.edges[e * 4] && r.edges[e * 4 + 1] === a.edges[e * 4 + 1]) samePairs++;
    expect(samePairs).toBe(a.edges.length / 4);
    let sameLinks = 0;
    for (let i = 0; i < a.triLinks.length; i++) if (r.triLinks[i] === a.triLinks[i]) sameLinks++;
    expect(sameLinks / a.triLinks.length).toBeGreaterThan(0.99);
  });

  it('keeps the original compressed bytes of an unedited walkmesh even when re-compressing would differ', () => {
    const { bytes } = loadTrx(MORD_TRX);
    const c = readNwn2Container(bytes, 'nwn2-trx');
    const raw = writeAswm(aswmOf(readTrx(bytes, env)));
    const stream = pako.deflate(raw, { level: 1 });
    const payload = new Uint8Array(12 + stream.length);
    payload.set([0x43, 0x4f, 0x4d, 0x50]);
    new DataView(payload.buffer).setUint32(4, stream.length, true);
    new DataView(payload.buffer).setUint32(8, raw.length, true);
    payload.set(stream, 12);
    const file = writeNwn2Container(c, c.packets.map((p) => ({ type: p.type, payload: p.type === 'ASWM' ? payload : p.payload })));
    const doc = readTrx(file, env);
    expect(firstDifference(writeTrx(doc, env), file)).toBeNull();
    expect(trxFormat.roundtripDetails!(file, doc, env)).toEqual({
      aswmVersion: '0x6C',
      aswmCompressed: true,
      aswmPayloadIdentical: true,
      aswmRecompressedIdentical: false,
      packetsIdentical: true,
    });
  });
});
