import { describe, expect, it } from 'vitest';
import { portableEnvironment } from '../../../shared/formats/format-environment';
import { byteStringToBytes } from '../../../shared/formats/aurora/byte-string';
import { lytFormat } from '../../../shared/formats/kotor/lyt-format';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { firstDifference } from '../aurora/aurora-test-support';

const load = (name: string) => readFixture(`${fixturesRoot}/kotor/${name}`);

describe('LYT format handler', () => {
  it('summarizes m40ad.lyt and writes it back unchanged', () => {
    const bytes = load('k1cp/m40ad.lyt');
    expect(lytFormat.sniff(bytes)).toBe(true);
    const doc = lytFormat.read(bytes, portableEnvironment);
    const summary = lytFormat.summarize(doc);
    expect(summary.counts).toEqual({ rooms: 13, tracks: 0, obstacles: 0, doorHooks: 13 });
    expect(summary.details.fileDependency).toBe('m40ad.max');
    expect(lytFormat.toWalkmeshes(doc, 'm40ad')).toEqual([]);
    expect(firstDifference(lytFormat.write(doc, portableEnvironment), bytes)).toBeNull();
    expect(lytFormat.validate(doc)).toEqual([]);
  });

  it('does not sniff other formats as LYT', () => {
    expect(lytFormat.sniff(load('pykotor/test.wok'))).toBe(false);
    expect(lytFormat.sniff(load('pykotor/test.git'))).toBe(false);
  });

  it('flags duplicate rooms, over-long resrefs and hooks on unknown rooms', () => {
    const text = 'beginlayout\nroomcount 3\nm01aa_01a 0 0 0\nM01AA_01A 1 1 1\nm01aa_room_far_too_long 0 0 0\ndoorhookcount 1\nm01aa_99z door_01 0 0 0 0 1 0 0 0\ndonelayout\n';
    const doc = lytFormat.read(byteStringToBytes(text, 'lyt'), portableEnvironment);
    expect(lytFormat.validate(doc).map((f) => [f.code, f.severity, f.subject?.id])).toEqual([
      ['lyt.room.duplicate', 'warning', 1],
      ['lyt.room.name-too-long', 'error', 2],
      ['lyt.doorhook.unknown-room', 'warning', undefined],
    ]);
  });

  it('reports stunt_endbridge.lyt hooks on rooms it blanks as **** without calling the blanks duplicates', () => {
    const doc = lytFormat.read(load('k1cp/stunt_endbridge.lyt'), portableEnvironment);
    const codes = lytFormat.validate(doc).map((f) => f.code);
    expect(codes.filter((c) => c === 'lyt.doorhook.unknown-room')).toHaveLength(13);
    expect(codes.filter((c) => c === 'lyt.room.duplicate')).toHaveLength(0);
  });
});

describe('LYT sniffing', () => {
  it('needs beginlayout after only comment, dependency and blank lines', () => {
    const sniff = (s: string) => lytFormat.sniff(byteStringToBytes(s, 'lyt'));
    expect(sniff('\r\n#MAXLAYOUT ASCII\r\nfiledependancy a.max\r\n\tbeginlayout\r\n')).toBe(true);
    expect(sniff('roomcount 1\nbeginlayout\n')).toBe(false);
    expect(sniff('\n'.repeat(600))).toBe(false);
    expect(sniff('')).toBe(false);
  });
});
