import { describe, expect, it } from 'vitest';
import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { byteStringToBytes } from '../../../shared/formats/aurora/byte-string';
import { createLytDocument, lytRoomIndex } from '../../../shared/formats/kotor/lyt-document';
import { readLyt, sniffLyt } from '../../../shared/formats/kotor/lyt-reader';
import { formatLytNumber, lytToCanonicalText, writeLyt } from '../../../shared/formats/kotor/lyt-writer';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { createRng } from '../../fuzz/prng';
import { caught, firstDifference } from '../aurora/aurora-test-support';

const lyts = ['kotor/pykotor/test.lyt', 'kotor/k1cp/m40ad.lyt', 'kotor/k1cp/stunt_endbridge.lyt'];
const load = (name: string) => readFixture(`${fixturesRoot}/${name}`);
const text = (s: string) => byteStringToBytes(s, 'test');

describe('LYT', () => {
  it.each(lyts)('%s is sniffed and written back byte for byte when unedited', (name) => {
    const bytes = load(name);
    expect(sniffLyt(bytes)).toBe(true);
    expect(firstDifference(writeLyt(readLyt(bytes)), bytes)).toBeNull();
  });

  it.each(lyts)('%s survives a canonical rewrite with the same content', (name) => {
    const doc = readLyt(load(name));
    const again = readLyt(text(lytToCanonicalText(doc)));
    for (const key of ['headerLines', 'rooms', 'tracks', 'obstacles', 'doorHooks', 'lineEnding'] as const) expect(again[key]).toEqual(doc[key]);
  });

  it('reads the rooms, tracks, obstacles and door hooks of test.lyt (irregular indentation)', () => {
    const doc = readLyt(load('kotor/pykotor/test.lyt'));
    expect(doc.headerLines).toEqual(['#MAXLAYOUT ASCII', 'filedependancy M17mg.max']);
    expect(doc.rooms).toEqual([
      { name: 'M17mg_01a', x: 100, y: 100, z: 0 },
      { name: 'M17mg_01b', x: 100, y: 100, z: 0 },
    ]);
    expect(doc.tracks.map((t) => [t.name, t.x, t.y])).toEqual([['M17mg_MGT01', 0, 0], ['M17mg_MGT02', 112.047, 209.04]]);
    expect(doc.obstacles[1]).toEqual({ name: 'M17mg_MGO02', x: 118.969, y: 3688, z: 0 });
    expect(doc.doorHooks[0]).toEqual({ room: 'M02ac_02h', door: 'door_01', unknown: '0', x: 170.475, y: 66.375, z: 0, orientation: [0.707107, 0, 0, -0.707107] });
    expect(doc.lineEnding).toBe('\n');
  });

  it('reads the tab-indented room and exponent spellings of K1CP m40ad.lyt', () => {
    const doc = readLyt(load('kotor/k1cp/m40ad.lyt'));
    expect(doc.rooms).toHaveLength(13);
    expect(doc.rooms[12]).toEqual({ name: 'M40ad_777', x: 0, y: 0, z: 0 });
    expect(lytRoomIndex(doc, 'm40ad_08D')).toBe(9);
    expect(lytRoomIndex(doc, 'nothere')).toBe(-1);
    expect(doc.doorHooks).toHaveLength(13);
    expect(doc.doorHooks[2]!.orientation).toEqual([1, 0, 0, 3.84015e-7]);
    expect(doc.tracks).toEqual([]);
  });

  it('keeps **** room names of stunt_endbridge.lyt as names', () => {
    const doc = readLyt(load('kotor/k1cp/stunt_endbridge.lyt'));
    expect(doc.rooms).toHaveLength(16);
    expect(doc.rooms.filter((r) => r.name === '****')).toHaveLength(12);
    expect(doc.doorHooks[10]!.orientation).toEqual([0.707107, 0, 0, 0.707107]);
  });

  it('rewrites only the edited row of m40ad.lyt, keeping its indentation', () => {
    const bytes = load('kotor/k1cp/m40ad.lyt');
    const original = new TextDecoder().decode(bytes);
    const doc = readLyt(bytes);
    doc.rooms[0]!.x = 226.5;
    doc.rooms[12]!.name = 'M40ad_778';
    const out = new TextDecoder().decode(writeLyt(doc));
    expect(out).toBe(original.replace('      M40ad_08c 225.0 44.99 0.0\n', '      M40ad_08c 226.5 44.99 0.0\n').replace('\t  M40ad_777 0.0 0.0 0.0\n', '\t  M40ad_778 0.0 0.0 0.0\n'));
    expect(readLyt(text(out)).rooms[0]).toEqual({ name: 'M40ad_08c', x: 226.5, y: 44.99, z: 0 });
  });

  it('updates counts in place when rows are removed or added', () => {
    const bytes = load('kotor/pykotor/test.lyt');
    const original = new TextDecoder().decode(bytes);
    const doc = readLyt(bytes);
    doc.tracks.pop();
    doc.obstacles.push({ name: 'M17mg_MGO03', x: 1, y: 2, z: 3 });
    const out = new TextDecoder().decode(writeLyt(doc));
    expect(out).toBe(
      original
        .replace('   trackcount 2\n', '   trackcount 1\n')
        .replace('         M17mg_MGT02 112.047 209.04 0.0\n', '')
        .replace('   obstaclecount 2\n', '   obstaclecount 3\n')
        .replace('M17mg_MGO02 118.969 3688.0 0.0\n', 'M17mg_MGO02 118.969 3688.0 0.0\n         M17mg_MGO03 1.0 2.0 3.0\n'),
    );
    const back = readLyt(text(out));
    expect(back.tracks).toEqual(doc.tracks);
    expect(back.obstacles).toEqual(doc.obstacles);
    expect(back.doorHooks).toEqual(doc.doorHooks);
  });

  it('adds a section the file lacked before donelayout, and rewrites canonically for a new line break', () => {
    const source = 'beginlayout\r\n  roomcount 1\r\n\tm01 1 2 3\r\ndonelayout';
    const doc = readLyt(text(source));
    doc.doorHooks.push({ room: 'm01', door: 'd1', unknown: '0', x: 0, y: 0, z: 0, orientation: [1, 0, 0, 0] });
    const out = new TextDecoder().decode(writeLyt(doc));
    expect(out).toBe('beginlayout\r\n  roomcount 1\r\n\tm01 1 2 3\r\n   doorhookcount 1\r\n      m01 d1 0 0.0 0.0 0.0 1.0 0.0 0.0 0.0\r\ndonelayout');
    doc.lineEnding = '\n';
    expect(new TextDecoder().decode(writeLyt(doc))).toBe(lytToCanonicalText(doc));
    expect(lytToCanonicalText(doc)).not.toContain('\r');
  });

  it('builds a new layout with CRLF lines and the 9-token kotorblender hook form', () => {
    const doc = createLytDocument();
    doc.rooms.push({ name: 'm01aa_01a', x: 1, y: -2.5, z: 0 });
    doc.doorHooks.push({ room: 'm01aa_01a', door: 'door_01', unknown: undefined, x: 0, y: 1, z: 2, orientation: [1, 0, 0, 0] });
    const s = lytToCanonicalText(doc);
    expect(s).toBe(
      'beginlayout\r\n   roomcount 1\r\n      m01aa_01a 1.0 -2.5 0.0\r\n   trackcount 0\r\n   obstaclecount 0\r\n   doorhookcount 1\r\n      m01aa_01a door_01 0.0 1.0 2.0 1.0 0.0 0.0 0.0\r\ndonelayout\r\n',
    );
    const back = readLyt(text(s));
    expect(back.doorHooks[0]!.unknown).toBeUndefined();
    expect(back.doorHooks[0]!.orientation).toEqual([1, 0, 0, 0]);
    expect(back.lineEnding).toBe('\r\n');
  });

  it('formats numbers like the game files', () => {
    expect([formatLytNumber(100), formatLytNumber(-0), formatLytNumber(44.99), formatLytNumber(3.84015e-7)]).toEqual(['100.0', '-0.0', '44.99', '3.84015e-7']);
    expect(() => formatLytNumber(Number.NaN)).toThrow(RangeError);
  });

  it('refuses names that would not read back', () => {
    const doc = createLytDocument();
    doc.rooms.push({ name: 'two words', x: 0, y: 0, z: 0 });
    expect(() => writeLyt(doc)).toThrow(RangeError);
  });

  it.each([
    ['no beginlayout', 'roomcount 0\n', 'header'],
    ['missing donelayout', 'beginlayout\nroomcount 0\n', 'donelayout'],
    ['inflated count', 'beginlayout\nroomcount 999999999\na 1 2 3\ndonelayout\n', 'roomcount'],
    ['bad count', 'beginlayout\nroomcount -1\ndonelayout\n', 'roomcount'],
    ['bad number', 'beginlayout\nroomcount 1\na 1 0x10 3\ndonelayout\n', 'rooms[0].y'],
    ['short row', 'beginlayout\nroomcount 1\na 1 2\ndonelayout\n', 'rooms[0]'],
    ['short hook', 'beginlayout\ndoorhookcount 1\nr d 0 1 2 3\ndonelayout\n', 'doorHooks[0]'],
    ['unknown section', 'beginlayout\nconstructor 1\ndonelayout\n', 'section'],
    ['repeated section', 'beginlayout\nroomcount 0\nroomcount 0\ndonelayout\n', 'roomcount'],
  ])('refuses %s with a MalformedInputError', (_label, body, field) => {
    const e = caught(() => readLyt(text(body)));
    expect(e).toBeInstanceOf(MalformedInputError);
    expect(e.format).toBe('kotor-lyt');
    expect(e.field).toBe(field);
  });

  it('reports the byte offset of the offending line', () => {
    const e = caught(() => readLyt(text('beginlayout\r\nroomcount 1\r\nroom 1 2 x\r\ndonelayout\r\n')));
    expect(e.offset).toBe(26);
    expect(e.field).toBe('rooms[0].z');
  });

  it('random byte mutations either read (and write back exactly) or fail with MalformedInputError', () => {
    const base = load('kotor/pykotor/test.lyt');
    const rng = createRng(0x1e7);
    const alphabet = [0x20, 0x09, 0x0a, 0x0d, 0x30, 0x39, 0x2e, 0x2d, 0x65, 0x23, 0x00, 0xff];
    let read = 0;
    for (let t = 0; t < 1500; t++) {
      const b = base.slice();
      for (let k = 0; k < 2; k++) b[rng.below(b.length)] = rng.pick(alphabet);
      try {
        const doc = readLyt(b);
        read++;
        expect(firstDifference(writeLyt(doc), b)).toBeNull();
      } catch (e) {
        expect(e).toBeInstanceOf(MalformedInputError);
      }
    }
    expect(read).toBeGreaterThan(0);
  });
});
