import type { GffDocument, GffStruct } from '../aurora/gff-document';
import { getFloat, optList, optText } from '../aurora/gff-fields';
import { floatsOf, type BwmDocument } from './bwm-document';
import type { KotorArea } from './kotor-area';
import { collectRoomLinks } from './kotor-room-links';
import { DEFAULT_WALKABILITY, isWalkableMaterial, type WalkabilityTable } from './surface-materials';
import type { Finding } from '../../validation/finding';

/**
 * Doors and placeables of a KotOR GIT, placed with their walkmeshes (kotor-bwm.md §7.4).
 * Field names as in the fixtures (pykotor `test.git`): `Door List` and `Placeable List`
 * structs hold `X`, `Y`, `Z`, `Bearing` (radians about +Z), `TemplateResRef` and, for
 * doors, `Tag`. A DWK/PWK is model-local; its world position is rotate-about-Z by the
 * bearing, then translate (reone builds quat(euler(0, 0, Bearing)); KotOR.js rotates then
 * translates).
 */

export type KotorGitObjectKind = 'door' | 'placeable';

export interface KotorGitTransform {
  x: number;
  y: number;
  z: number;
  /** Radians, counter-clockwise about +Z. */
  bearing: number;
}

export interface KotorGitObject extends KotorGitTransform {
  kind: KotorGitObjectKind;
  /** Position in its GIT list. */
  index: number;
  templateResRef: string | undefined;
  tag: string | undefined;
}

export interface KotorGitPlacements {
  doors: KotorGitObject[];
  placeables: KotorGitObject[];
}

function objectOf(s: GffStruct, kind: KotorGitObjectKind, index: number): KotorGitObject {
  return {
    kind,
    index,
    templateResRef: optText(s, 'TemplateResRef'),
    tag: optText(s, 'Tag'),
    x: getFloat(s, 'X'),
    y: getFloat(s, 'Y'),
    z: getFloat(s, 'Z'),
    bearing: getFloat(s, 'Bearing'),
  };
}

/** Doors and placeables of a GIT; a missing list is empty, a struct without X/Y/Z/Bearing throws (MalformedInputError naming the label). */
export function readKotorGitPlacements(git: GffDocument): KotorGitPlacements {
  return {
    doors: optList(git.root, 'Door List').map((s, i) => objectOf(s, 'door', i)),
    placeables: optList(git.root, 'Placeable List').map((s, i) => objectOf(s, 'placeable', i)),
  };
}

/** World positions (xyz per vertex) of a model-local DWK/PWK placed by a GIT transform. */
export function placeWalkmeshVertices(doc: BwmDocument, at: KotorGitTransform): Float32Array {
  const P = floatsOf(doc.vertices);
  const c = Math.cos(at.bearing);
  const s = Math.sin(at.bearing);
  const out = new Float32Array(P.length);
  for (let i = 0; i < P.length; i += 3) {
    const x = P[i]!, y = P[i + 1]!;
    out[i] = x * c - y * s + at.x;
    out[i + 1] = x * s + y * c + at.y;
    out[i + 2] = P[i + 2]! + at.z;
  }
  return out;
}

/** Which walkmesh of the object: a placeable's PWK, or a door's DWK in one of its states (`<model>0/1/2.dwk`). */
export type PlacedState = 'placeable' | 'closed' | 'open1' | 'open2';

export interface PlacedWalkmesh {
  object: KotorGitObject;
  state: PlacedState;
  doc: BwmDocument;
  /** World positions, from `placeWalkmeshVertices`. */
  positions: Float32Array;
}

export function placeWalkmesh(object: KotorGitObject, state: PlacedState, doc: BwmDocument): PlacedWalkmesh {
  return { object, state, doc, positions: placeWalkmeshVertices(doc, object) };
}

/** How far above or below a seam (game units) an object's faces still count as in the way. */
export const SEAM_HEIGHT_BAND = 2;

export interface BlockerFinding extends Finding {
  objectKind: KotorGitObjectKind;
  objectIndex: number;
  state: PlacedState;
  room: number;
  roomName: string;
  face: number;
  edge: number;
  target: number;
  /** The placed walkmesh's face that crosses the seam. */
  objectFace: number;
}

const cross = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);

/** True when segment PQ and triangle ABC overlap in XY (touching counts). */
function segmentHitsTriangle(px: number, py: number, qx: number, qy: number, t: Float64Array): boolean {
  const ax = t[0]!, ay = t[1]!, bx = t[2]!, by = t[3]!, cx = t[4]!, cy = t[5]!;
  const area = cross(ax, ay, bx, by, cx, cy);
  if (area === 0) return false;
  const inside = (x: number, y: number) => {
    const s = Math.sign(area);
    return s * cross(ax, ay, bx, by, x, y) >= 0 && s * cross(bx, by, cx, cy, x, y) >= 0 && s * cross(cx, cy, ax, ay, x, y) >= 0;
  };
  if (inside(px, py) || inside(qx, qy)) return true;
  const crosses = (x1: number, y1: number, x2: number, y2: number) => {
    const d1 = cross(px, py, qx, qy, x1, y1), d2 = cross(px, py, qx, qy, x2, y2);
    const d3 = cross(x1, y1, x2, y2, px, py), d4 = cross(x1, y1, x2, y2, qx, qy);
    return d1 * d2 <= 0 && d3 * d4 <= 0 && !(d1 === 0 && d2 === 0);
  };
  return crosses(ax, ay, bx, by) || crosses(bx, by, cx, cy) || crosses(cx, cy, ax, ay);
}

/**
 * Placed walkmeshes that block a room link: a non-walkable face of a placeable's PWK, or of
 * a door's *open* DWK, lying across a seam (XY overlap, within SEAM_HEIGHT_BAND in Z). A
 * closed door standing in a doorway is the intended case and is not reported. Each link
 * is reported once per object and state, on the link's own room, face and edge (both
 * sides of a reciprocal seam are two links, so a blocked seam is reported from each side).
 */
export function findLinkBlockers(area: KotorArea, placed: readonly PlacedWalkmesh[], table: WalkabilityTable = DEFAULT_WALKABILITY): BlockerFinding[] {
  const out: BlockerFinding[] = [];
  const links = collectRoomLinks(area).filter((l) => area.rooms[l.target] !== undefined && l.target !== l.room);
  const tri = new Float64Array(6);
  for (const p of placed) {
    if (p.state === 'closed') continue;
    const faces = p.doc.faces;
    const P = p.positions;
    for (const link of links) {
      const room = area.rooms[link.room]!;
      const f = link.face, e = link.edge;
      const a = room.doc!.faces[link.slot]!, b = room.doc!.faces[3 * f + (e === 2 ? 0 : e + 1)]!;
      const R = room.positions;
      const px = R[3 * a]!, py = R[3 * a + 1]!, qx = R[3 * b]!, qy = R[3 * b + 1]!;
      const zLow = Math.min(R[3 * a + 2]!, R[3 * b + 2]!) - SEAM_HEIGHT_BAND;
      const zHigh = Math.max(R[3 * a + 2]!, R[3 * b + 2]!) + SEAM_HEIGHT_BAND;
      for (let g = 0; g < faces.length / 3; g++) {
        if (isWalkableMaterial(table, p.doc.materials[g]!)) continue;
        const { zMin, zMax } = faceFootprint(faces, P, g, tri);
        if (zMax < zLow || zMin > zHigh || !segmentHitsTriangle(px, py, qx, qy, tri)) continue;
        const what = p.object.kind === 'door' ? `door ${p.object.index} (${p.object.tag ?? p.object.templateResRef ?? '?'}) when ${p.state === 'open1' ? 'open (side 1)' : 'open (side 2)'}` : `placeable ${p.object.index} (${p.object.templateResRef ?? '?'})`;
        out.push({
          severity: 'warning',
          code: p.object.kind === 'door' ? 'kotor.door.open-blocks-link' : 'kotor.placeable.blocks-link',
          message: `${what} blocks the link from room ${link.room} (${link.roomName}) face ${link.face} edge ${link.edge} to room ${link.target}: its face ${g} lies across the seam`,
          subject: { kind: 'edge', id: link.slot },
          objectKind: p.object.kind,
          objectIndex: p.object.index,
          state: p.state,
          room: link.room,
          roomName: link.roomName,
          face: link.face,
          edge: link.edge,
          target: link.target,
          objectFace: g,
        });
        break;
      }
    }
  }
  return out;
}

/** Uncovered seam length (game units) below which a closed door's cover counts as complete. */
export const DOOR_GAP_TOLERANCE = 0.05;

/**
 * Clips segment PQ to triangle ABC in XY (Cyrus–Beck on the three edge half-planes) and
 * returns the covered parameter range [t0, t1] ⊂ [0, 1], or undefined when they do not overlap.
 */
function clipSegmentToTriangle(px: number, py: number, qx: number, qy: number, t: Float64Array): [number, number] | undefined {
  const ax = t[0]!, ay = t[1]!, bx = t[2]!, by = t[3]!, cx = t[4]!, cy = t[5]!;
  const s = Math.sign(cross(ax, ay, bx, by, cx, cy));
  if (s === 0) return undefined;
  let t0 = 0, t1 = 1;
  const edges = [ax, ay, bx, by, bx, by, cx, cy, cx, cy, ax, ay];
  for (let k = 0; k < 12; k += 4) {
    const x1 = edges[k]!, y1 = edges[k + 1]!, x2 = edges[k + 2]!, y2 = edges[k + 3]!;
    // Signed side of P and Q (≥ 0 inside).
    const fp = s * cross(x1, y1, x2, y2, px, py);
    const fq = s * cross(x1, y1, x2, y2, qx, qy);
    if (fp < 0 && fq < 0) return undefined;
    if (fp < 0) t0 = Math.max(t0, fp / (fp - fq));
    else if (fq < 0) t1 = Math.min(t1, fp / (fp - fq));
    if (t0 > t1) return undefined;
  }
  return [t0, t1];
}

export interface DoorGapFinding extends BlockerFinding {
  /** Seam length (game units) the closed door leaves uncovered. */
  gap: number;
}

/**
 * Closed doors that touch a room link but do not cover the whole seam: the uncovered part
 * is a walkable gap past the closed (perhaps locked) door. The seam is clipped against every
 * non-walkable face of the closed DWK (within SEAM_HEIGHT_BAND in Z); a door that does not
 * touch a seam at all is not about that seam and is not reported.
 */
export function findClosedDoorGaps(area: KotorArea, placed: readonly PlacedWalkmesh[], table: WalkabilityTable = DEFAULT_WALKABILITY): DoorGapFinding[] {
  const out: DoorGapFinding[] = [];
  const links = collectRoomLinks(area).filter((l) => area.rooms[l.target] !== undefined && l.target !== l.room);
  const tri = new Float64Array(6);
  for (const p of placed) {
    if (p.state !== 'closed') continue;
    const faces = p.doc.faces;
    const P = p.positions;
    for (const link of links) {
      const room = area.rooms[link.room]!;
      const a = room.doc!.faces[link.slot]!, b = room.doc!.faces[3 * link.face + (link.edge === 2 ? 0 : link.edge + 1)]!;
      const R = room.positions;
      const px = R[3 * a]!, py = R[3 * a + 1]!, qx = R[3 * b]!, qy = R[3 * b + 1]!;
      const zLow = Math.min(R[3 * a + 2]!, R[3 * b + 2]!) - SEAM_HEIGHT_BAND;
      const zHigh = Math.max(R[3 * a + 2]!, R[3 * b + 2]!) + SEAM_HEIGHT_BAND;
      const covered: [number, number][] = [];
      let firstFace = -1;
      for (let g = 0; g < faces.length / 3; g++) {
        if (isWalkableMaterial(table, p.doc.materials[g]!)) continue;
        const { zMin, zMax } = faceFootprint(faces, P, g, tri);
        if (zMax < zLow || zMin > zHigh) continue;
        const range = clipSegmentToTriangle(px, py, qx, qy, tri);
        if (range === undefined) continue;
        if (firstFace < 0) firstFace = g;
        covered.push(range);
      }
      if (covered.length === 0) continue;
      covered.sort((u, v) => u[0] - v[0]);
      let reach = 0;
      let open = 0;
      for (const [t0, t1] of covered) {
        if (t0 > reach) open += t0 - reach;
        reach = Math.max(reach, t1);
      }
      open += Math.max(0, 1 - reach);
      const gap = open * Math.hypot(qx - px, qy - py);
      if (gap <= DOOR_GAP_TOLERANCE) continue;
      out.push({
        severity: 'warning',
        code: 'kotor.door.gap',
        message: `door ${p.object.index} (${p.object.tag ?? p.object.templateResRef ?? '?'}) when closed leaves ${gap.toFixed(2)} of the seam from room ${link.room} (${link.roomName}) face ${link.face} edge ${link.edge} to room ${link.target} uncovered: a walkable gap past the door`,
        subject: { kind: 'edge', id: link.slot },
        objectKind: p.object.kind,
        objectIndex: p.object.index,
        state: p.state,
        room: link.room,
        roomName: link.roomName,
        face: link.face,
        edge: link.edge,
        target: link.target,
        objectFace: firstFace,
        gap,
      });
    }
  }
  return out;
}

/** Writes face `g`'s XY corners into `tri` (6 numbers) and returns its height range. */
function faceFootprint(faces: Uint32Array, P: ArrayLike<number>, g: number, tri: Float64Array): { zMin: number; zMax: number } {
  let zMin = Infinity;
  let zMax = -Infinity;
  for (let k = 0; k < 3; k++) {
    const v = faces[3 * g + k]!;
    tri[2 * k] = P[3 * v]!;
    tri[2 * k + 1] = P[3 * v + 1]!;
    zMin = Math.min(zMin, P[3 * v + 2]!);
    zMax = Math.max(zMax, P[3 * v + 2]!);
  }
  return { zMin, zMax };
}
