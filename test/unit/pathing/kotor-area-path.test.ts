import { describe, expect, it } from 'vitest';
import { withRoomDocuments } from '../../../shared/formats/kotor/kotor-area';
import { kotorAreaPathSurface } from '../../../shared/pathing/kotor-area-path';
import type { PathSurface } from '../../../shared/pathing/path-surface';
import type { Point3 } from '../../../shared/pathing/path-result';
import { blackVulkarArea } from '../kotor-area/black-vulkar-area';

/** The centre of the first walkable face of a part (room). */
function roomPoint(s: PathSurface, room: number): Point3 {
  const p = s.parts[room]!;
  for (let f = p.faceStart; f < p.faceEnd; f++) if (s.graph.walkable[f]) return [s.graph.centre[f * 3]!, s.graph.centre[f * 3 + 1]!, s.graph.centre[f * 3 + 2]!];
  throw new Error(`room ${room} has no walkable face`);
}

/** The room (part) of a face. */
const roomOf = (s: PathSurface, f: number) => s.parts.findIndex((p) => f >= p.faceStart && f < p.faceEnd);

describe('KotOR area paths across room transitions', () => {
  // Room 2 (m10aa_08b) joins the rest only through one doorway into room 1 (m10aa_08a).
  it('walks from room to room through the welded doorways', () => {
    const s = kotorAreaPathSurface(blackVulkarArea());
    const r = s.findPath(roomPoint(s, 2), roomPoint(s, 0), { tolerance: 0 });
    expect(r.found, r.reason ?? '').toBe(true);
    const rooms = r.corridor.map((f) => roomOf(s, f)).filter((room, i, all) => i === 0 || all[i - 1] !== room);
    expect(rooms[0]).toBe(2);
    expect(rooms[1]).toBe(1);
    expect(rooms[rooms.length - 1]).toBe(0);
    const G = s.graph;
    for (let k = 0; k + 1 < r.corridor.length; k++) {
      const u = r.corridor[k]!;
      expect(Array.from(G.linkTarget.subarray(G.linkStart[u]!, G.linkStart[u + 1]!))).toContain(r.corridor[k + 1]);
    }
    expect(r.start!.label).toMatch(/of room 2 \(M10aa_08b\)$/);
  });

  it('names the doorway as an unlinked edge when one side lost its transition', () => {
    const area = blackVulkarArea();
    const room2 = area.rooms[2]!.doc!;
    const broken = { ...room2, edgeTransition: Int32Array.from(room2.edgeTransition, (t) => (t === 1 ? -1 : t)) };
    const s = kotorAreaPathSurface(withRoomDocuments(area, new Map([[2, broken]])));
    const r = s.findPath(roomPoint(s, 2), roomPoint(s, 0), { tolerance: 0 });
    expect(r.found).toBe(false);
    expect(r.code).toBe('unlinked-edge');
    expect(r.unlinked).toHaveLength(1);
    const u = r.unlinked[0]!;
    expect(roomOf(s, u.from)).toBe(2);
    expect(roomOf(s, u.to)).toBe(1);
    expect(r.reason).toMatch(/unlinked edge between face \d+ of room 2 \(M10aa_08b\) and face \d+ of room 1 \(M10aa_08a\)/);
  });

  it('refuses a room whose faces name vertices it does not have, naming the room and face', () => {
    const area = blackVulkarArea();
    const room = area.rooms[4]!.doc!;
    const faces = room.faces.slice();
    faces[7] = 99999;
    const broken = withRoomDocuments(area, new Map([[4, { ...room, faces }]]));
    expect(() => kotorAreaPathSurface(broken)).toThrow(/room 4 \(M10aa_09a\.wok\): face 2 uses vertex 99999, but the walkmesh has \d+ vertices/);
  });

  it('has no floor in a room whose WOK is missing', () => {
    const s = kotorAreaPathSurface(blackVulkarArea(['m10aa_08a']));
    expect(s.parts.map((p) => p.name)).not.toContain('M10aa_08a');
    const r = s.findPath(roomPoint(s, s.parts.findIndex((p) => p.name === 'M10aa_08b')), roomPoint(s, 0), { tolerance: 0 });
    expect(r.found).toBe(false);
    expect(r.code).toBe('different-components');
  });
});
