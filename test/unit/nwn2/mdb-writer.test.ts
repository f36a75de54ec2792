import { describe, expect, it } from 'vitest';
import { readMdb } from '../../../shared/formats/nwn2/mdb-reader';
import { writeMdb, writeWalk } from '../../../shared/formats/nwn2/mdb-writer';
import { listFixtures, readFixture } from '../../support/fixtures';
import { firstDifference } from './nwn2-fixtures';

const models = listFixtures('nwn2', ['.mdb']);

describe('MDB writer (mirror of readMdb)', () => {
  it('writes every fixture model back byte for byte, WALK packets re-encoded from their fields', () => {
    expect(models.length).toBeGreaterThan(0);
    let walks = 0;
    for (const file of models) {
      const bytes = readFixture(file);
      const doc = readMdb(bytes);
      expect(firstDifference(writeMdb(doc), bytes)).toBeNull();
      for (const p of doc.packets) {
        if (!p.walk) continue;
        walks++;
        // The parsed walkmesh alone reproduces the stored payload: nothing is taken from the bytes read.
        expect(firstDifference(writeWalk(p.walk), p.payload)).toBeNull();
      }
    }
    expect(walks).toBeGreaterThan(0);
  });

  it('an edited WALK vertex and face flag come back through the reader; every other packet and byte is kept', () => {
    const file = models.find((f) => /BALCONY/i.test(f))!;
    const bytes = readFixture(file);
    const doc = readMdb(bytes);
    const walk = doc.packets.find((p) => p.walk)!.walk!;
    walk.positions[4] = 12.5;
    walk.faceFlags[2] = (walk.faceFlags[2]! ^ 0x10) >>> 0;
    const written = writeMdb(doc);
    expect(written.length).toBe(bytes.length);
    const again = readMdb(written);
    const w = again.packets.find((p) => p.walk)!.walk!;
    expect(w.positions[4]).toBe(12.5);
    expect(w.faceFlags[2]).toBe(walk.faceFlags[2]);
    expect(Array.from(w.nameBytes)).toEqual(Array.from(walk.nameBytes));
    expect(w.uiFlags).toBe(walk.uiFlags);
    again.packets.forEach((p, i) => {
      if (!p.walk) expect(firstDifference(p.payload, doc.packets[i]!.payload)).toBeNull();
    });
    let changed = 0;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] !== written[i]) changed++;
    // One float (up to 4 bytes) and one bit of a flag word.
    expect(changed).toBeGreaterThan(0);
    expect(changed).toBeLessThanOrEqual(5);
  });
});
