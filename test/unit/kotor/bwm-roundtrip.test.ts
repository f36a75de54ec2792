import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../../shared/formats/format-registry';
import { portableEnvironment as env } from '../../../shared/formats/format-environment';
import { bwmFormat } from '../../../shared/formats/kotor/bwm-format';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { writeBwm } from '../../../shared/formats/kotor/bwm-writer';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';

const files = listFixtures('kotor', ['.wok', '.pwk', '.dwk']);

describe('BWM read/write', () => {
  it('finds the KotOR fixtures', () => {
    expect(files.length).toBeGreaterThanOrEqual(14);
  });

  for (const file of files) {
    const name = fixtureName(file);
    it(`${name}: write(read(bytes)) is byte-identical`, () => {
      const bytes = readFixture(file);
      expect(detectFormat(file, bytes)?.id).toBe('kotor-bwm');
      const doc = readBwm(bytes);
      expect(Buffer.from(writeBwm(doc)).equals(Buffer.from(bytes))).toBe(true);
    });

    it(`${name}: identical bytes through the common model`, () => {
      const bytes = readFixture(file);
      const doc = bwmFormat.read(bytes, env);
      const meshes = bwmFormat.toWalkmeshes(doc, name);
      expect(meshes).toHaveLength(1);
      const mesh = meshes[0]!;
      expect(mesh.triangles.length).toBe(doc.faces.length);
      expect(Array.from(mesh.faceMaterial)).toEqual(Array.from(doc.materials));
      const back = bwmFormat.fromWalkmeshes!(meshes, doc);
      expect(Buffer.from(bwmFormat.write(back, env)).equals(Buffer.from(bytes))).toBe(true);
    });
  }

  it('walkable faces in the model are the adjacency rows of every room file', () => {
    for (const file of files.filter((f) => f.endsWith('.wok'))) {
      const doc = readBwm(readFixture(file));
      const mesh = bwmFormat.toWalkmeshes(doc, 'x')[0]!;
      const walkable = mesh.faceWalkable.reduce((s, w) => s + w, 0);
      expect(walkable, fixtureName(file)).toBe(doc.adjacency.length / 3);
      // Walkable first: no walkable face after the first non-walkable one.
      const firstNon = mesh.faceWalkable.indexOf(0);
      if (firstNon >= 0) expect(mesh.faceWalkable.subarray(firstNon).every((w) => w === 0)).toBe(true);
    }
  });
});
