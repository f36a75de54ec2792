import { describe, expect, it } from 'vitest';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { bitsOf, emptyBwmDocument, floatsOf, type BwmDocument } from '../../../shared/formats/kotor/bwm-document';
import { collectRoomLinks } from '../../../shared/formats/kotor/kotor-room-links';
import { findClosedDoorGaps, findLinkBlockers, placeWalkmesh, placeWalkmeshVertices, readKotorGitPlacements, type KotorGitObject } from '../../../shared/formats/kotor/kotor-git-placement';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { blackVulkarArea } from './black-vulkar-area';

const fixture = (name: string) => readFixture(`${fixturesRoot}/kotor/${name}`);
const cage = () => readBwm(fixture('k1cp/plc_fccage2.pwk'));

describe('KotOR GIT doors and placeables', () => {
  it('reads the door and placeable of test.git with their transforms', () => {
    const git = readKotorGitPlacements(readGff(fixture('pykotor/test.git')));
    expect(git.doors).toHaveLength(1);
    expect(git.doors[0]).toMatchObject({ kind: 'door', index: 0, templateResRef: 'sw_door_taris007', tag: 'Ithorian', z: 1, bearing: 1 });
    expect(git.doors[0]!.x).toBeCloseTo(-43.7635, 4);
    expect(git.doors[0]!.y).toBeCloseTo(-20.1431, 4);
    expect(git.placeables).toHaveLength(1);
    expect(git.placeables[0]).toMatchObject({ kind: 'placeable', templateResRef: 'k_trans_abort', tag: undefined, bearing: 1 });
    expect(git.placeables[0]!.z).toBeCloseTo(9.536, 3);
  });

  it('reads the empty lists of zio001.git', () => {
    expect(readKotorGitPlacements(readGff(fixture('pykotor/zio001.git')))).toEqual({ doors: [], placeables: [] });
  });

  it('places the K1CP cage PWK by the GIT transform: rotate about Z by the bearing, then translate', () => {
    const doc = cage();
    const local = floatsOf(doc.vertices);
    const placeable = readKotorGitPlacements(readGff(fixture('pykotor/test.git'))).placeables[0]!;
    const world = placeWalkmeshVertices(doc, placeable);
    expect(world).toHaveLength(local.length);
    const c = Math.cos(1), s = Math.sin(1);
    for (let i = 0; i < local.length; i += 3) {
      expect(world[i]).toBeCloseTo(local[i]! * c - local[i + 1]! * s + placeable.x, 4);
      expect(world[i + 1]).toBeCloseTo(local[i]! * s + local[i + 1]! * c + placeable.y, 4);
      expect(world[i + 2]).toBeCloseTo(local[i + 2]! + placeable.z, 4);
    }
    // A quarter turn maps (x, y) to (−y, x): vertex 12 (0.209, 1.442, 0) lands at (−1.442, 0.209) around the origin.
    const quarter = placeWalkmeshVertices(doc, { x: 10, y: 20, z: 3, bearing: Math.PI / 2 });
    expect(quarter[36]).toBeCloseTo(10 - local[37]!, 5);
    expect(quarter[37]).toBeCloseTo(20 + local[36]!, 5);
    expect(quarter[38]).toBeCloseTo(3, 5);
    // Distances from the pivot are kept: the footprint is moved, not deformed.
    for (let i = 0; i < local.length; i += 3) {
      expect(Math.hypot(quarter[i]! - 10, quarter[i + 1]! - 20)).toBeCloseTo(Math.hypot(local[i]!, local[i + 1]!), 5);
    }
  });

  it('reports a placeable standing across a room link, naming the link, and not one placed away from it', () => {
    const area = blackVulkarArea();
    const link = collectRoomLinks(area).find((l) => l.roomName === 'M10aa_05a' && l.target === 7)!; // the 05a–03a seam
    const room = area.rooms[link.room]!;
    const a = room.doc!.faces[link.slot]!, b = room.doc!.faces[3 * link.face + ((link.edge + 1) % 3)]!;
    const P = room.positions;
    const mid = { x: (P[3 * a]! + P[3 * b]!) / 2, y: (P[3 * a + 1]! + P[3 * b + 1]!) / 2, z: P[3 * a + 2]! };
    const at = (x: number, y: number): KotorGitObject => ({ kind: 'placeable', index: 0, templateResRef: 'plc_fccage2', tag: undefined, x, y, z: mid.z, bearing: 0.3 });
    const found = findLinkBlockers(area, [placeWalkmesh(at(mid.x, mid.y), 'placeable', cage())]);
    // Both sides of the seam are links and both are blocked.
    expect(found.map((f) => [f.code, f.roomName, f.face, f.edge, f.target]).sort()).toEqual([
      ['kotor.placeable.blocks-link', 'M10aa_03a', 25, 0, 3],
      ['kotor.placeable.blocks-link', 'M10aa_05a', 34, 1, 7],
    ]);
    expect(findLinkBlockers(area, [placeWalkmesh(at(mid.x + 20, mid.y + 20), 'placeable', cage())])).toEqual([]);
    // Far above the seam (another floor) it is not in the way.
    const above = { ...at(mid.x, mid.y), z: mid.z + 10 };
    expect(findLinkBlockers(area, [placeWalkmesh(above, 'placeable', cage())])).toEqual([]);
  });

  it('reports a door only in its open states (a closed door in a doorway is intended)', () => {
    const area = blackVulkarArea();
    const link = collectRoomLinks(area).find((l) => l.roomName === 'M10aa_08a' && l.target === 2)!;
    const room = area.rooms[link.room]!;
    const a = room.doc!.faces[link.slot]!;
    const door: KotorGitObject = { kind: 'door', index: 4, templateResRef: 'door_test', tag: 'door_17', x: room.positions[3 * a]!, y: room.positions[3 * a + 1]!, z: room.positions[3 * a + 2]!, bearing: 0 };
    // The cage geometry stands in for a door walkmesh: no DWK is among the fixtures.
    const geometry = cage();
    expect(findLinkBlockers(area, [placeWalkmesh(door, 'closed', geometry)])).toEqual([]);
    const open = findLinkBlockers(area, [placeWalkmesh(door, 'open1', geometry)]);
    expect(open.length).toBeGreaterThan(0);
    expect(open.every((f) => f.code === 'kotor.door.open-blocks-link' && f.objectIndex === 4 && f.state === 'open1')).toBe(true);
    expect(open.map((f) => f.roomName)).toContain('M10aa_08a');
    expect(open[0]!.message).toContain('door 4 (door_17) when open (side 1)');
  });

  it('reports a closed door that leaves part of its doorway seam uncovered, with the gap length', () => {
    const area = blackVulkarArea();
    const link = collectRoomLinks(area).find((l) => l.roomName === 'M10aa_08a' && l.target === 2)!;
    const room = area.rooms[link.room]!;
    const a = room.doc!.faces[link.slot]!, b = room.doc!.faces[3 * link.face + ((link.edge + 1) % 3)]!;
    const P = room.positions;
    const seam = Math.hypot(P[3 * b]! - P[3 * a]!, P[3 * b + 1]! - P[3 * a + 1]!);
    const door: KotorGitObject = {
      kind: 'door', index: 2, templateResRef: undefined, tag: 'door_08',
      x: (P[3 * a]! + P[3 * b]!) / 2, y: (P[3 * a + 1]! + P[3 * b + 1]!) / 2, z: P[3 * a + 2]!,
      bearing: Math.atan2(P[3 * b + 1]! - P[3 * a + 1]!, P[3 * b]! - P[3 * a]!),
    };
    const wide = findClosedDoorGaps(area, [placeWalkmesh(door, 'closed', panel(seam + 0.4))]);
    expect(wide).toEqual([]);
    const narrow = findClosedDoorGaps(area, [placeWalkmesh(door, 'closed', panel(seam - 1.5))]);
    // Reported from both sides of the seam (08a → 08b and 08b → 08a).
    expect(narrow.map((f) => [f.code, f.roomName, f.face, f.edge]).sort()).toEqual([['kotor.door.gap', 'M10aa_08a', 58, 0], ['kotor.door.gap', 'M10aa_08b', 17, 0]]);
    for (const f of narrow) expect(f.gap).toBeCloseTo(1.5, 3);
    // Away from every seam the door is about no link.
    expect(findClosedDoorGaps(area, [placeWalkmesh({ ...door, x: door.x + 30 }, 'closed', panel(1))])).toEqual([]);
  });
});

/** A door walkmesh as a flat non-walkable panel `width` long in X and 0.2 thick, centred on the origin. */
function panel(width: number): BwmDocument {
  const doc = emptyBwmDocument(0);
  const h = width / 2;
  doc.vertices = bitsOf(new Float32Array([-h, -0.1, 0, h, -0.1, 0, h, 0.1, 0, -h, 0.1, 0]));
  doc.faces = new Uint32Array([0, 1, 2, 0, 2, 3]);
  doc.materials = new Uint32Array([7, 7]);
  doc.normals = bitsOf(new Float32Array([0, 0, 1, 0, 0, 1]));
  doc.planes = bitsOf(new Float32Array([0, 0]));
  return doc;
}
