import { byteStringToBytes } from '../../../shared/formats/aurora/byte-string';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { floatsOf, type BwmDocument } from '../../../shared/formats/kotor/bwm-document';
import { loadKotorArea, type KotorArea } from '../../../shared/formats/kotor/kotor-area';
import type { LytDocument } from '../../../shared/formats/kotor/lyt-document';
import { readLyt } from '../../../shared/formats/kotor/lyt-reader';
import { fixturesRoot, readFixture } from '../../support/fixtures';

/**
 * The eight Black Vulkar base rooms (m10aa_*) of the fixtures come without their LYT. Their
 * LYT indices were recovered from the seams themselves: wherever two of these WOKs share a
 * perimeter edge with bit-identical XY, each side's transition names the other room, which
 * gives one consistent numbering (06a=0, 08a=1, 08b=2, 05a=3, 09a=4, 09b=5, 01c=6, 03a=7).
 * The other transitions (8, 9, 10, 16) lead to rooms that are not among the fixtures.
 */
export const BLACK_VULKAR_ROOMS = ['m10aa_06a', 'm10aa_08a', 'm10aa_08b', 'm10aa_05a', 'm10aa_09a', 'm10aa_09b', 'm10aa_01c', 'm10aa_03a'] as const;

export function blackVulkarWok(name: string): Uint8Array {
  return readFixture(`${fixturesRoot}/kotor/k1-blackvulkar/${name.toLowerCase()}.wok`);
}

/**
 * A LYT for those rooms, written as game files write them (mixed-case names, tab and space
 * indentation). The real room positions are unknown; each room is placed at the lower
 * corner of its WOK's bounds, which only matters for display since the WOK is world space.
 */
export function blackVulkarLyt(): LytDocument {
  const rows = BLACK_VULKAR_ROOMS.map((name) => {
    const P = floatsOf(readBwm(blackVulkarWok(name)).vertices);
    let x = Infinity, y = Infinity, z = Infinity;
    for (let i = 0; i < P.length; i += 3) {
      x = Math.min(x, P[i]!);
      y = Math.min(y, P[i + 1]!);
      z = Math.min(z, P[i + 2]!);
    }
    return `\t${name.replace(/^m/, 'M')} ${x.toFixed(2)} ${y.toFixed(2)} ${z.toFixed(2)}`;
  });
  const text = ['#MAXLAYOUT ASCII', 'beginlayout', `   roomcount ${rows.length}`, ...rows, '   trackcount 0', '   obstaclecount 0', '   doorhookcount 0', 'donelayout', ''].join('\r\n');
  return readLyt(byteStringToBytes(text, 'black-vulkar.lyt'));
}

export function blackVulkarArea(skip: readonly string[] = []): KotorArea {
  return loadKotorArea(blackVulkarLyt(), (name) => (skip.includes(name.toLowerCase()) ? undefined : blackVulkarWok(name)));
}

/** A copy of a document with one vertex moved in X. */
export function withVertexMoved(doc: BwmDocument, vertex: number, dx: number): BwmDocument {
  const P = floatsOf(doc.vertices);
  P[3 * vertex] = P[3 * vertex]! + dx;
  return { ...doc, vertices: new Uint32Array(P.buffer) };
}
