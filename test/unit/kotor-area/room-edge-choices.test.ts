import { describe, expect, it } from 'vitest';
import { floatsOf, NO_TRANSITION } from '../../../shared/formats/kotor/bwm-document';
import { withRoomDocuments } from '../../../shared/formats/kotor/kotor-area';
import { checkRoomLinks, roomEdgeChoices, SHARED_EDGE_TOLERANCE } from '../../../shared/formats/kotor/kotor-room-links';
import { blackVulkarArea, withVertexMoved } from './black-vulkar-area';
import type { KotorArea } from '../../../shared/formats/kotor/kotor-area';

/** The rule written the slow way (every edge against every edge), as the oracle. */
function bruteForce(area: KotorArea, room: number, tolerance: number): Map<number, number[]> {
  const ends = (r: number, slot: number) => {
    const doc = area.rooms[r]!.doc!;
    const P = floatsOf(doc.vertices);
    const f = (slot / 3) | 0, e = slot % 3;
    const a = doc.faces[slot]!, b = doc.faces[3 * f + (e === 2 ? 0 : e + 1)]!;
    return [P[3 * a]!, P[3 * a + 1]!, P[3 * b]!, P[3 * b + 1]!] as const;
  };
  const out = new Map<number, number[]>();
  const here = area.rooms[room]!.doc!;
  for (let row = 0; row < here.edgeIndex.length; row++) {
    const p = ends(room, here.edgeIndex[row]!);
    const rooms: number[] = [];
    for (const other of area.rooms) {
      if (other.index === room || !other.doc) continue;
      const hit = Array.from(other.doc.edgeIndex).some((slot) => {
        const q = ends(other.index, slot);
        const same = Math.max(Math.hypot(p[0] - q[0], p[1] - q[1]), Math.hypot(p[2] - q[2], p[3] - q[3]));
        const swapped = Math.max(Math.hypot(p[0] - q[2], p[1] - q[3]), Math.hypot(p[2] - q[0], p[3] - q[1]));
        return Math.min(same, swapped) <= tolerance;
      });
      if (hit) rooms.push(other.index);
    }
    out.set(here.edgeIndex[row]!, rooms);
  }
  return out;
}

describe('roomEdgeChoices: the rooms a perimeter edge may link to are those sharing the edge', () => {
  const area = blackVulkarArea();

  it('agrees with the all-pairs rule on every room of the Black Vulkar base, and offers each reciprocal link target', () => {
    let offered = 0;
    let linked = 0;
    for (const r of area.rooms) {
      const choices = roomEdgeChoices(area, r.index);
      const oracle = bruteForce(area, r.index, SHARED_EDGE_TOLERANCE);
      expect(choices).toHaveLength(oracle.size);
      for (const c of choices) {
        expect(c.rooms).toEqual(oracle.get(c.face * 3 + c.edge));
        expect(c.rooms).not.toContain(r.index);
        offered += c.rooms.length;
        // A link whose target has a WOK and meets it is always among the choices.
        if (c.current !== NO_TRANSITION && area.rooms[c.current]?.doc) {
          const broken = checkRoomLinks(area).some((f) => f.room === r.index && f.face === c.face && f.edge === c.edge && f.code === 'kotor.link.no-seam');
          if (!broken) {
            expect(c.rooms).toContain(c.current);
            linked++;
          }
        }
      }
    }
    expect(offered).toBeGreaterThan(0);
    expect(linked).toBeGreaterThan(0);
  });

  it('keeps offering a room whose edge is off by less than the tolerance, and stops past it', () => {
    const r0 = roomEdgeChoices(area, 0);
    const shared = r0.find((c) => c.rooms.length > 0)!;
    const other = shared.rooms[0]!;
    const doc = area.rooms[other]!.doc!;
    // Move every vertex of the other room a little (then a lot) in X.
    const shifted = (dx: number) => {
      let d = doc;
      for (let v = 0; v < doc.vertices.length / 3; v++) d = withVertexMoved(d, v, dx);
      return withRoomDocuments(area, new Map([[other, d]]));
    };
    const near = roomEdgeChoices(shifted(SHARED_EDGE_TOLERANCE / 2), 0).find((c) => c.face === shared.face && c.edge === shared.edge)!;
    expect(near.rooms).toContain(other);
    const far = roomEdgeChoices(shifted(SHARED_EDGE_TOLERANCE * 5), 0).find((c) => c.face === shared.face && c.edge === shared.edge)!;
    expect(far.rooms).not.toContain(other);
  });

  it('gives nothing for a room without a walkmesh or outside the layout', () => {
    expect(roomEdgeChoices(blackVulkarArea(['m10aa_06a']), 0)).toEqual([]);
    expect(roomEdgeChoices(area, 99)).toEqual([]);
  });
});
