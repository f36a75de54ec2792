import { describe, expect, it } from 'vitest';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { writeBwm } from '../../../shared/formats/kotor/bwm-writer';
import { validateBwm } from '../../../shared/formats/kotor/bwm-validate';
import { NO_TRANSITION } from '../../../shared/formats/kotor/bwm-document';
import { withRoomDocuments } from '../../../shared/formats/kotor/kotor-area';
import { checkRoomLinks, collectRoomLinks, fixOneSidedLink, summarizeRoomLinks } from '../../../shared/formats/kotor/kotor-room-links';
import { blackVulkarArea, blackVulkarWok, withVertexMoved } from './black-vulkar-area';

const ROOM_03A = 7;
const ROOM_05A = 3;
const ROOM_08B = 2;

describe('KotOR room links on the Black Vulkar rooms', () => {
  it('counts 21 links, 8 seams linked from both sides, and 5 links past the 8 rooms', () => {
    const area = blackVulkarArea();
    expect(collectRoomLinks(area)).toHaveLength(21);
    expect(summarizeRoomLinks(area)).toEqual({ links: 21, reciprocalSeams: 8, unverified: 0 });
    const findings = checkRoomLinks(area);
    const dangling = findings.filter((f) => f.code === 'kotor.link.dangling');
    expect(dangling.map((f) => [f.roomName, f.target]).sort()).toEqual([
      ['M10aa_01c', 10], ['M10aa_01c', 9], ['M10aa_03a', 9], ['M10aa_05a', 16], ['M10aa_05a', 8],
    ].sort());
    // Everything else is reciprocal and meets edge to edge.
    expect(findings.filter((f) => f.severity === 'error' && f.code !== 'kotor.link.dangling')).toEqual([]);
  });

  it('treats links into a LYT room without a WOK as unverified, not broken', () => {
    const area = blackVulkarArea(['m10aa_03a']);
    const findings = checkRoomLinks(area);
    const unverified = findings.filter((f) => f.code === 'kotor.link.unverified');
    expect(unverified.map((f) => f.roomName).sort()).toEqual(['M10aa_01c', 'M10aa_05a']);
    expect(unverified.every((f) => f.target === ROOM_03A && f.severity === 'warning')).toBe(true);
    expect(summarizeRoomLinks(area)).toEqual({ links: 18, reciprocalSeams: 6, unverified: 2 });
  });

  it('reports a one-sided link naming room, face and edge of both sides, and fixes it back to the original bytes', () => {
    const area = blackVulkarArea();
    const original = area.rooms[ROOM_03A]!.doc!;
    const row = original.edgeIndex.indexOf(75); // 03a face 25 edge 0, linked to 05a
    expect(original.edgeTransition[row]).toBe(ROOM_05A);
    const broken = { ...original, edgeTransition: original.edgeTransition.slice() };
    broken.edgeTransition[row] = NO_TRANSITION;
    const brokenArea = withRoomDocuments(area, new Map([[ROOM_03A, broken]]));

    const oneWay = checkRoomLinks(brokenArea).filter((f) => f.code === 'kotor.link.one-way');
    expect(oneWay).toHaveLength(1);
    const f = oneWay[0]!;
    expect([f.room, f.roomName, f.face, f.edge, f.target]).toEqual([ROOM_05A, 'M10aa_05a', 34, 1, ROOM_03A]);
    expect(f.subject).toEqual({ kind: 'edge', id: 103 });
    expect(f.other).toMatchObject({ room: ROOM_03A, face: 25, edge: 0, transition: NO_TRANSITION, distance: 0 });
    expect(f.message).toContain('room 3 (M10aa_05a) face 34 edge 1');
    expect(summarizeRoomLinks(brokenArea).reciprocalSeams).toBe(7);

    const fix = fixOneSidedLink(brokenArea, f.room, f.face, f.edge);
    if (!fix.ok) throw new Error(fix.reason);
    expect([...fix.documents.keys()]).toEqual([ROOM_03A]);
    const fixed = fix.documents.get(ROOM_03A)!;
    expect(fixed.edgeTransition[row]).toBe(ROOM_05A);
    // Only the transition changed: the fixed room writes back as the game file.
    expect(writeBwm(fixed)).toEqual(blackVulkarWok('m10aa_03a'));
    expect(broken.edgeTransition[row]).toBe(NO_TRANSITION); // the input is left alone
    const repaired = withRoomDocuments(brokenArea, fix.documents);
    expect(checkRoomLinks(repaired)).toEqual(checkRoomLinks(area));
    expect(summarizeRoomLinks(repaired).reciprocalSeams).toBe(8);
    expect(validateBwm(fixed)).toEqual(validateBwm(readBwm(blackVulkarWok('m10aa_03a'))));
  });

  it('can instead drop the one-sided link, leaving a clean unlinked seam', () => {
    const area = blackVulkarArea();
    const doc = area.rooms[ROOM_03A]!.doc!;
    const broken = { ...doc, edgeTransition: doc.edgeTransition.slice() };
    broken.edgeTransition[doc.edgeIndex.indexOf(75)] = NO_TRANSITION;
    const brokenArea = withRoomDocuments(area, new Map([[ROOM_03A, broken]]));
    const fix = fixOneSidedLink(brokenArea, ROOM_05A, 34, 1, 'unlink');
    if (!fix.ok) throw new Error(fix.reason);
    const after = checkRoomLinks(withRoomDocuments(brokenArea, fix.documents));
    expect(after.filter((f) => f.code === 'kotor.link.one-way')).toEqual([]);
    const gap = after.filter((f) => f.code === 'kotor.link.unlinked-seam');
    expect(gap).toHaveLength(1);
    expect([gap[0]!.room, gap[0]!.face, gap[0]!.edge, gap[0]!.other?.room, gap[0]!.other?.face]).toEqual([ROOM_05A, 34, 1, ROOM_03A, 25]);
  });

  it('reports both sides of a seam whose vertices no longer meet exactly, with the gap', () => {
    const area = blackVulkarArea();
    const doc = area.rooms[ROOM_08B]!.doc!;
    const slot = 51; // 08b face 17 edge 0, linked to 08a
    const moved = withVertexMoved(doc, doc.faces[slot]!, 0.01);
    const findings = checkRoomLinks(withRoomDocuments(area, new Map([[ROOM_08B, moved]])));
    const misaligned = findings.filter((f) => f.code === 'kotor.link.misaligned');
    expect(misaligned.map((f) => [f.roomName, f.face, f.edge, f.target]).sort()).toEqual([['M10aa_08a', 58, 0, ROOM_08B], ['M10aa_08b', 17, 0, 1]]);
    for (const f of misaligned) expect(f.other!.distance).toBeCloseTo(0.01, 4);
    // A fix cannot reciprocate a seam that does not meet.
    const fix = fixOneSidedLink(withRoomDocuments(area, new Map([[ROOM_08B, moved]])), ROOM_08B, 17, 0);
    expect(fix.ok).toBe(false);
  });

  it('reports a transition to its own room and to a room past the layout', () => {
    const area = blackVulkarArea();
    const doc = area.rooms[0]!.doc!; // 06a: one link, to 05a
    const row = doc.edgeTransition.findIndex((t) => t !== NO_TRANSITION);
    const self = { ...doc, edgeTransition: doc.edgeTransition.slice() };
    self.edgeTransition[row] = 0;
    const slot = doc.edgeIndex[row]!;
    const findings = checkRoomLinks(withRoomDocuments(area, new Map([[0, self]])));
    const own = findings.filter((f) => f.code === 'kotor.link.self');
    expect(own.map((f) => [f.room, f.face, f.edge])).toEqual([[0, Math.floor(slot / 3), slot % 3]]);
    // 05a's side of that seam is now one-way.
    expect(findings.filter((f) => f.code === 'kotor.link.one-way').map((f) => [f.room, f.other?.room, f.other?.transition])).toEqual([[ROOM_05A, 0, 0]]);
  });
});
