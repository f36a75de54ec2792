import { describe, expect, it } from 'vitest';
import { unpackAreas } from '../../../shared/formats/source/nav-area-records';
import { floatView, type NavDocument } from '../../../shared/formats/source/nav-document';
import { navFromWalkmesh } from '../../../shared/formats/source/nav-from-walkmesh';
import { readNav } from '../../../shared/formats/source/nav-reader';
import { validateNav } from '../../../shared/formats/source/nav-validate';
import { navToWalkmesh } from '../../../shared/formats/source/nav-walkmesh';
import { writeNav } from '../../../shared/formats/source/nav-writer';
import { buildFaceAdjacency } from '../../../shared/model/face-adjacency';
import { ModelMappingError } from '../../../shared/model/model-mapping-error';
import { createWalkmesh, type Walkmesh } from '../../../shared/model/walkmesh';
import { fixtureName, fixturesRoot, listFixtures, readFixture } from '../../support/fixtures';

const files = listFixtures('source', ['.nav']);
const load = (rel: string): NavDocument => readNav(readFixture(`${fixturesRoot}/${rel}`));

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** A copy of the mesh keeping only the faces for which `keep` is true. */
function filterFaces(mesh: Walkmesh, keep: (face: number) => boolean): Walkmesh {
  const faces = [...Array(mesh.triangles.length / 3).keys()].filter(keep);
  return createWalkmesh({
    ...mesh,
    triangles: Uint32Array.from(faces.flatMap((f) => [mesh.triangles[f * 3]!, mesh.triangles[f * 3 + 1]!, mesh.triangles[f * 3 + 2]!])),
    faceWalkable: Uint8Array.from(faces.map((f) => mesh.faceWalkable[f]!)),
    faceMaterial: Uint32Array.from(faces.map((f) => mesh.faceMaterial[f]!)),
    faceOwner: Uint32Array.from(faces.map((f) => mesh.faceOwner[f]!)),
  });
}

describe('Source .nav in the common walkmesh model', () => {
  it('makes each area two upward triangles tagged with its ID and attributes', () => {
    const doc = load('source/tf2/koth_megalo.nav');
    const mesh = navToWalkmesh(doc, 'koth_megalo');
    expect(mesh.triangles.length / 3).toBe(doc.areas.count * 2);
    const P = mesh.positions;
    for (let f = 0; f < mesh.triangles.length / 3; f++) {
      const area = f >> 1;
      expect(mesh.faceOwner[f]).toBe(doc.areas.id[area]);
      expect(mesh.faceMaterial[f]).toBe(doc.areas.attributes[area]);
      const [a, b, c] = [0, 1, 2].map((k) => mesh.triangles[f * 3 + k]!);
      const cross = (P[b! * 3]! - P[a! * 3]!) * (P[c! * 3 + 1]! - P[a! * 3 + 1]!) - (P[b! * 3 + 1]! - P[a! * 3 + 1]!) * (P[c! * 3]! - P[a! * 3]!);
      expect(cross).toBeGreaterThanOrEqual(0);
    }
    const adjacency = buildFaceAdjacency(mesh.triangles, P.length / 3);
    expect(adjacency.nonManifold).toEqual([]);
    expect(adjacency.neighbors[2]).toBe(1); // first triangle's diagonal edge (v2→v0) meets the second
  });

  it('places the implicit corners as the engine does: NE = (se.x, nw.y, neZ), SW = (nw.x, se.y, swZ)', () => {
    const doc = load('source/hl2dm/dm_lockdown.nav');
    const mesh = navToWalkmesh(doc, 'dm_lockdown');
    const c = floatView(doc.areas.corners);
    expect(Array.from(mesh.positions.subarray(3, 6))).toEqual([c[3], c[1], c[6]]);
    expect(Array.from(mesh.positions.subarray(9, 12))).toEqual([c[0], c[4], c[7]]);
  });

  it.each(files.map((f) => [fixtureName(f), f]))('%s comes back byte for byte through the model', (_n, file) => {
    const bytes = readFixture(file);
    const doc = readNav(bytes);
    const rebuilt = navFromWalkmesh(navToWalkmesh(doc, 'x'), doc);
    expect(equalBytes(writeNav(rebuilt), bytes)).toBe(true);
  });

  it('lands a moved vertex on its area corner and changes nothing else', () => {
    const doc = load('source/tf2/itemtest.nav');
    const mesh = navToWalkmesh(doc, 'itemtest');
    mesh.positions[4 * 3 * 5 + 2]! += 16; // area #5, NW corner z
    const edited = navFromWalkmesh(mesh, doc);
    const before = floatView(doc.areas.corners);
    const after = floatView(edited.areas.corners);
    for (let i = 0; i < before.length; i++) {
      if (i === 5 * 8 + 2) expect(after[i]).toBeCloseTo(before[i]! + 16, 3);
      else expect(Object.is(after[i], before[i])).toBe(true);
    }
    expect(writeNav(edited).length).toBe(writeNav(doc).length);
  });

  it('removes a deleted area with every reference to it, leaving a valid file', () => {
    const doc = load('source/csgo/dm_bloodsport.nav');
    const records = unpackAreas(doc.areas);
    const victim = records.find((r) => records.some((o) => o.connections.some((l) => l.includes(r.id))))!;
    const mesh = navToWalkmesh(doc, 'dm_bloodsport');
    const edited = navFromWalkmesh(filterFaces(mesh, (f) => mesh.faceOwner[f] !== victim.id), doc);
    expect(edited.areas.count).toBe(doc.areas.count - 1);
    expect(Array.from(edited.areas.id)).not.toContain(victim.id);
    expect(Array.from(edited.areas.connectionTarget)).not.toContain(victim.id);
    expect(validateNav(edited).filter((f) => f.severity === 'error')).toEqual([]);
    expect(readNav(writeNav(edited)).areas.count).toBe(doc.areas.count - 1);
  });

  it('adds an area for faces with a new area ID', () => {
    const doc = load('source/tf2/itemtest.nav');
    const mesh = navToWalkmesh(doc, 'itemtest');
    const v = mesh.positions.length / 3;
    const positions = new Float32Array([...mesh.positions, 0, 0, 5, 50, 0, 6, 50, 40, 7, 0, 40, 8]);
    const triangles = new Uint32Array([...mesh.triangles, v, v + 1, v + 2, v, v + 2, v + 3]);
    const grown = createWalkmesh({
      ...mesh,
      positions,
      triangles,
      faceWalkable: new Uint8Array([...mesh.faceWalkable, 1, 1]),
      faceMaterial: new Uint32Array([...mesh.faceMaterial, 0x1, 0x1]),
      faceOwner: new Uint32Array([...mesh.faceOwner, 9000, 9000]),
    });
    const edited = readNav(writeNav(navFromWalkmesh(grown, doc)));
    expect(edited.areas.count).toBe(doc.areas.count + 1);
    const last = edited.areas.count - 1;
    expect(edited.areas.id[last]).toBe(9000);
    expect(edited.areas.attributes[last]).toBe(0x1);
    expect(Array.from(floatView(edited.areas.corners).subarray(last * 8, last * 8 + 8))).toEqual([0, 0, 5, 50, 40, 7, 6, 8]);
  });

  it('builds a new version-16 file from geometry alone', () => {
    const doc = load('source/tf2/itemtest.nav');
    const fresh = readNav(writeNav(navFromWalkmesh(navToWalkmesh(doc, 'itemtest'), undefined)));
    expect(fresh.version).toBe(16);
    expect(fresh.subVersion).toBe(0);
    expect(Array.from(fresh.areas.id).sort((a, b) => a - b)).toEqual(Array.from(doc.areas.id).sort((a, b) => a - b));
    expect(validateNav(fresh).filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('refuses faces that do not form an axis-aligned quad, naming the area', () => {
    const doc = load('source/tf2/itemtest.nav');
    const mesh = navToWalkmesh(doc, 'itemtest');
    mesh.positions[0]! -= 3; // NW corner of area #0 moves west, but its SW corner stays
    expect(() => navFromWalkmesh(mesh, doc)).toThrow(ModelMappingError);
    expect(() => navFromWalkmesh(mesh, doc)).toThrow(new RegExp(`area ${doc.areas.id[0]}:`));
  });
});

describe('.nav limits the format cannot hold', () => {
  it('refuses an area with more than 255 hiding spots instead of wrapping the count byte', async () => {
    const { unpackAreas: unpack, packAreas } = await import('../../../shared/formats/source/nav-area-records');
    const doc = load('source/tf2/itemtest.nav');
    const records = unpack(doc.areas);
    records[4]!.hidingSpots = Array.from({ length: 256 }, (_, i) => ({ id: 90_000 + i, position: new Uint32Array(3), flags: 1 }));
    const big = { ...doc, areas: packAreas(records, { earliestOccupy: true, lightIntensity: true, visibility: true, tfAttributes: true }) };
    expect(() => writeNav(big)).toThrow(ModelMappingError);
    expect(() => writeNav(big)).toThrow(`area ${records[4]!.id}: 256 hiding spots`);
    records[4]!.hidingSpots.length = 255;
    const before = doc.areas.hidingSpotStart[5]! - doc.areas.hidingSpotStart[4]!;
    const fits = readNav(writeNav({ ...doc, areas: packAreas(records, { earliestOccupy: true, lightIntensity: true, visibility: true, tfAttributes: true }) }));
    expect(fits.areas.hidingSpotId.length).toBe(doc.areas.hidingSpotId.length - before + 255);
  });
});
