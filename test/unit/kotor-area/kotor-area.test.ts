import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { BWM_TYPE_OBJECT, floatsOf } from '../../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { loadKotorArea, roomBounds, validateKotorArea, withRoomDocuments, wokLoaderFromResolver } from '../../../shared/formats/kotor/kotor-area';
import { KotorResourceResolver } from '../../../shared/formats/kotor/kotor-resource-resolver';
import { readLyt } from '../../../shared/formats/kotor/lyt-reader';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { BLACK_VULKAR_ROOMS, blackVulkarArea, blackVulkarLyt, blackVulkarWok } from './black-vulkar-area';

const folder = `${fixturesRoot}/kotor/k1-blackvulkar`;

describe('KotOR area made of LYT rooms', () => {
  it('gives each LYT room (mixed case) its WOK, with vertices used as-is in world space', () => {
    const area = blackVulkarArea();
    expect(area.rooms.map((r) => r.name)).toEqual(BLACK_VULKAR_ROOMS.map((n) => n.replace(/^m/, 'M')));
    for (const r of area.rooms) {
      const own = floatsOf(readBwm(blackVulkarWok(BLACK_VULKAR_ROOMS[r.index]!)).vertices);
      // Not offset by the LYT position: the WOK already is in world coordinates.
      expect(r.positions).toEqual(own);
      expect(r.doc!.type).toBe(1);
    }
    // The rooms tile one base: neighbouring rooms share seam coordinates (05a's north edge at y ≈ 115.44 is 01c's south edge).
    expect(roomBounds(area.rooms[6]!)![4]).toBeCloseTo(115.436, 2);
    expect(roomBounds(area.rooms[3]!)![1]).toBeCloseTo(115.436, 2);
    expect(validateKotorArea(area)).toEqual([]);
  });

  it('looks the WOKs up in the game order through the resolver, ignoring case', () => {
    const files = readdirSync(folder).map((f) => f.toUpperCase());
    const resolver = new KotorResourceResolver({ override: { files, read: (f) => readFixture(`${folder}/${f.toLowerCase()}`) } });
    const area = loadKotorArea(blackVulkarLyt(), wokLoaderFromResolver(resolver));
    expect(area.rooms.every((r) => r.doc !== undefined)).toBe(true);
    expect(area.rooms[7]!.doc!.edgeIndex).toEqual(readBwm(blackVulkarWok('m10aa_03a')).edgeIndex);
  });

  it('finds none of the fixture WOKs for the rooms of m40ad.lyt (they belong to other areas)', () => {
    const lyt = readLyt(readFixture(`${fixturesRoot}/kotor/k1cp/m40ad.lyt`));
    const k1cp = `${fixturesRoot}/kotor/k1cp`;
    const files = readdirSync(k1cp);
    const resolver = new KotorResourceResolver({ override: { files, read: (f) => readFixture(`${k1cp}/${f}`) } });
    const area = loadKotorArea(lyt, wokLoaderFromResolver(resolver));
    expect(area.rooms).toHaveLength(13);
    const findings = validateKotorArea(area);
    expect(findings).toHaveLength(13);
    expect(findings.every((f) => f.code === 'kotor.area.room-without-wok' && f.severity === 'warning')).toBe(true);
    expect(findings[12]!.subject).toEqual({ kind: 'room', id: 12 });
    expect(findings[12]!.message).toContain('M40ad_777');
  });

  it('reports a room walkmesh flagged model-local, which the engine would transform again', () => {
    const area = blackVulkarArea();
    const local = { ...area.rooms[2]!.doc!, type: BWM_TYPE_OBJECT };
    const findings = validateKotorArea(withRoomDocuments(area, new Map([[2, local]])));
    expect(findings.map((f) => [f.code, f.subject?.id])).toEqual([['kotor.area.room-not-world', 2]]);
  });

  it('names the room file when a WOK is malformed', () => {
    const bytes = blackVulkarWok('m10aa_08b').slice(0, 100);
    let caught: unknown;
    try {
      loadKotorArea(blackVulkarLyt(), (name) => (name.toLowerCase() === 'm10aa_08b' ? bytes : blackVulkarWok(name)));
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(MalformedInputError);
    expect((caught as MalformedInputError).file).toBe('M10aa_08b.wok');
  });
});
