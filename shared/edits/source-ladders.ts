import { NAV_LADDER_AREAS, NAV_LADDER_WORDS, NavCorner, type NavAreas, type NavDocument, type NavLadders } from '../formats/source/nav-document';
import { navGates } from '../formats/source/nav-layout';
import type { SourceAddLadderCommand, SourceRemoveLadderCommand } from './document-edit-command';
import { EditError } from './edit-error';

/** How far (x, y) outside an area a ladder end may be and still be linked to it: a ladder's top usually stands past the ledge. */
const END_REACH = 64;
/** How far above or below an area a ladder end may be and still belong to it (a standing player is 72 units). */
const END_HEIGHT = 72;
/** Ladder link lists per area: 0 up, 1 down (spec §3). */
const LINK_UP = 0;
const LINK_DOWN = 1;

export interface LadderEditResult {
  doc: NavDocument;
  inverse: SourceAddLadderCommand | SourceRemoveLadderCommand;
}

function f32Words(values: readonly number[]): Uint32Array {
  return new Uint32Array(new Float32Array(values).buffer);
}

function areaRect(A: NavAreas, a: number): { minX: number; minY: number; maxX: number; maxY: number; z: number } {
  const c = new Float32Array(A.corners.buffer, A.corners.byteOffset + a * 32, 8);
  const z = (c[NavCorner.NwZ]! + c[NavCorner.SeZ]! + c[NavCorner.NeZ]! + c[NavCorner.SwZ]!) / 4;
  return { minX: Math.min(c[NavCorner.NwX]!, c[NavCorner.SeX]!), maxX: Math.max(c[NavCorner.NwX]!, c[NavCorner.SeX]!), minY: Math.min(c[NavCorner.NwY]!, c[NavCorner.SeY]!), maxY: Math.max(c[NavCorner.NwY]!, c[NavCorner.SeY]!), z };
}

/**
 * The area a ladder end stands on: the area under or nearest the point in x, y (within
 * END_REACH) whose height is within END_HEIGHT, the closest first; 0 when none.
 */
export function areaAtLadderEnd(A: NavAreas, p: readonly number[]): number {
  let best = 0;
  let bestScore = Infinity;
  for (let a = 0; a < A.count; a++) {
    const r = areaRect(A, a);
    const dx = Math.max(r.minX - p[0]!, 0, p[0]! - r.maxX);
    const dy = Math.max(r.minY - p[1]!, 0, p[1]! - r.maxY);
    const dz = Math.abs(r.z - p[2]!);
    if (Math.hypot(dx, dy) > END_REACH || dz > END_HEIGHT) continue;
    const score = Math.hypot(dx, dy) * 4 + dz;
    if (score < bestScore) [best, bestScore] = [A.id[a]!, score];
  }
  return best;
}

function areaIndex(A: NavAreas, id: number, kind: string, field: string): number {
  for (let a = 0; a < A.count; a++) if (A.id[a] === id) return a;
  throw new EditError(kind, `the .nav has no area ${id} (${field})`);
}

/** The direction the ladder faces (its climbable side's normal): away from the top area, as seen from the bottom. */
function facing(A: NavAreas, top: number, bottom: number, topPoint: readonly number[], bottomPoint: readonly number[]): number {
  const centre = (id: number, fallback: readonly number[]) => {
    if (id === 0) return [fallback[0]!, fallback[1]!];
    const r = areaRect(A, areaIndex(A, id, 'source-add-ladder', 'area'));
    return [(r.minX + r.maxX) / 2, (r.minY + r.maxY) / 2];
  };
  const [tx, ty] = centre(top, topPoint);
  const [bx, by] = centre(bottom, bottomPoint);
  const dx = bx - tx, dy = by - ty;
  // North is −Y, east +X (spec §3).
  if (Math.abs(dx) >= Math.abs(dy)) return dx >= 0 ? 1 : 3;
  return dy >= 0 ? 2 : 0;
}

function insertLadderLink(A: NavAreas, g: number, id: number): NavAreas {
  const k = A.ladderLinkStart[g + 1]!;
  const ids = new Uint32Array(A.ladderLinkId.length + 1);
  ids.set(A.ladderLinkId.subarray(0, k));
  ids[k] = id;
  ids.set(A.ladderLinkId.subarray(k), k + 1);
  const start = A.ladderLinkStart.slice();
  for (let i = g + 1; i < start.length; i++) start[i]! += 1;
  return { ...A, ladderLinkStart: start, ladderLinkId: ids };
}

function withoutLadderLinks(A: NavAreas, id: number): NavAreas {
  if (!A.ladderLinkId.includes(id)) return A;
  const start = new Uint32Array(A.ladderLinkStart.length);
  const ids: number[] = [];
  for (let g = 0; g + 1 < A.ladderLinkStart.length; g++) {
    for (let k = A.ladderLinkStart[g]!; k < A.ladderLinkStart[g + 1]!; k++) if (A.ladderLinkId[k] !== id) ids.push(A.ladderLinkId[k]!);
    start[g + 1] = ids.length;
  }
  return { ...A, ladderLinkStart: start, ladderLinkId: Uint32Array.from(ids) };
}

function checkPoint(p: unknown, kind: string, field: string): [number, number, number] {
  if (!Array.isArray(p) || p.length !== 3 || !p.every((c) => typeof c === 'number' && Number.isFinite(c) && Math.abs(c) < 1e7)) throw new EditError(kind, `${field} must be x, y, z within ±10,000,000`);
  return [p[0], p[1], p[2]];
}

/**
 * A new ladder between two points, linked from the areas at its ends as the engine links
 * them (CNavLadder, spec §4): the bottom area lists it as a way up, the top area as a way
 * down, and the ladder names them as its top-forward and bottom areas. Needs version 7 or
 * later (areas store ladder links from v7; v6 stores a "dangling" byte this edit does not
 * choose). Hiding spots, encounter paths and approach data are not re-derived: they are
 * nav_analyze's (the game's) to recompute.
 */
export function applySourceAddLadder(doc: NavDocument, cmd: SourceAddLadderCommand): LadderEditResult {
  const kind = cmd.kind;
  if (!navGates.ladderLinks(doc.version)) throw new EditError(kind, `this .nav is version ${doc.version}; areas link ladders from version 7 (older files rebuild ladders from func_ladder entities)`);
  const top = checkPoint(cmd.top, kind, 'top');
  const bottom = checkPoint(cmd.bottom, kind, 'bottom');
  if (!(top[2] > bottom[2])) throw new EditError(kind, `the top (z ${top[2]}) must be above the bottom (z ${bottom[2]})`);
  if (!(typeof cmd.width === 'number' && cmd.width > 0 && cmd.width < 10_000)) throw new EditError(kind, `width ${cmd.width} is not a positive size below 10,000`);
  const A = doc.areas;
  const L = doc.ladders;
  const topArea = cmd.topArea ?? areaAtLadderEnd(A, top);
  const bottomArea = cmd.bottomArea ?? areaAtLadderEnd(A, bottom);
  if (topArea !== 0) areaIndex(A, topArea, kind, 'topArea');
  if (bottomArea !== 0) areaIndex(A, bottomArea, kind, 'bottomArea');
  if (topArea !== 0 && topArea === bottomArea) throw new EditError(kind, `both ends are on area ${topArea}: a ladder joins two areas`);
  const others = cmd.topOtherAreas ?? [0, 0, 0];
  if (others.length !== 3) throw new EditError(kind, 'topOtherAreas must be top left, top right and top behind');
  others.forEach((id) => id !== 0 && areaIndex(A, id, kind, 'topOtherAreas'));
  let maxId = 0;
  for (const id of L.id) maxId = Math.max(maxId, id);
  const id = cmd.id ?? maxId + 1;
  if (!Number.isInteger(id) || id <= 0 || id > 0xffffffff) throw new EditError(kind, `ladder ID ${id} is not a positive u32`);
  if (L.id.includes(id)) throw new EditError(kind, `the .nav already has ladder ${id}`);
  const index = cmd.index ?? L.count;
  if (!Number.isInteger(index) || index < 0 || index > L.count) throw new EditError(kind, `index ${index} is outside the ladder list of ${L.count}`);
  const direction = cmd.direction ?? facing(A, topArea, bottomArea, top, bottom);
  if (!Number.isInteger(direction) || direction < 0 || direction > 3) throw new EditError(kind, `direction ${direction} is not 0 (north), 1 (east), 2 (south) or 3 (west)`);
  const length = cmd.length ?? top[2] - bottom[2];

  const words = new Uint32Array(NAV_LADDER_WORDS);
  words.set(f32Words([cmd.width, ...top, ...bottom, length]));
  words[8] = direction;
  const splice = <T extends Uint32Array | Uint8Array>(old: T, per: number, add: ArrayLike<number>, make: (n: number) => T): T => {
    const out = make(old.length + per);
    out.set(old.subarray(0, index * per));
    out.set(add, index * per);
    out.set(old.subarray(index * per), (index + 1) * per);
    return out;
  };
  const ladders: NavLadders = {
    count: L.count + 1,
    id: splice(L.id, 1, [id], (n) => new Uint32Array(n)),
    words: splice(L.words, NAV_LADDER_WORDS, words, (n) => new Uint32Array(n)),
    dangling: L.dangling.length === L.count && navGates.ladderDangling(doc.version) ? splice(L.dangling, 1, [0], (n) => new Uint8Array(n)) : L.dangling,
    areas: splice(L.areas, NAV_LADDER_AREAS, [topArea, others[0]!, others[1]!, others[2]!, bottomArea], (n) => new Uint32Array(n)),
  };
  let areas = A;
  if (bottomArea !== 0) areas = insertLadderLink(areas, areaIndex(A, bottomArea, kind, 'bottomArea') * 2 + LINK_UP, id);
  if (topArea !== 0) areas = insertLadderLink(areas, areaIndex(A, topArea, kind, 'topArea') * 2 + LINK_DOWN, id);
  return { doc: { ...doc, areas, ladders }, inverse: { kind: 'source-remove-ladder', id } };
}

/** Removes a ladder and every area's link to it; the inverse adds it back with all its fields. */
export function applySourceRemoveLadder(doc: NavDocument, cmd: SourceRemoveLadderCommand): LadderEditResult {
  const kind = cmd.kind;
  const L = doc.ladders;
  const index = L.id.indexOf(cmd.id);
  if (!Number.isInteger(cmd.id) || index < 0) throw new EditError(kind, `the .nav has no ladder ${cmd.id}`);
  const w = new Float32Array(L.words.buffer, L.words.byteOffset + index * NAV_LADDER_WORDS * 4, NAV_LADDER_WORDS);
  const ar = L.areas.subarray(index * NAV_LADDER_AREAS, (index + 1) * NAV_LADDER_AREAS);
  const inverse: SourceAddLadderCommand = {
    kind: 'source-add-ladder',
    width: w[0]!, top: [w[1]!, w[2]!, w[3]!], bottom: [w[4]!, w[5]!, w[6]!], length: w[7]!,
    direction: L.words[index * NAV_LADDER_WORDS + 8]!,
    topArea: ar[0]!, topOtherAreas: [ar[1]!, ar[2]!, ar[3]!], bottomArea: ar[4]!,
    id: cmd.id, index,
  };
  const cut = <T extends Uint32Array | Uint8Array>(old: T, per: number): T => {
    const out = old.slice(0, old.length - per) as T;
    out.set(old.subarray((index + 1) * per), index * per);
    return out;
  };
  const ladders: NavLadders = {
    count: L.count - 1,
    id: cut(L.id, 1),
    words: cut(L.words, NAV_LADDER_WORDS),
    dangling: L.dangling.length === L.count && L.count > 0 ? cut(L.dangling, 1) : L.dangling,
    areas: cut(L.areas, NAV_LADDER_AREAS),
  };
  return { doc: { ...doc, areas: withoutLadderLinks(doc.areas, cmd.id), ladders }, inverse };
}
