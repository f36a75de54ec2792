import type { NavAreas, NavDocument } from '../formats/source/nav-document';
import type { DocumentEditCommand, SourceConnectCommand, SourceDisconnectCommand } from './document-edit-command';
import { EditError } from './edit-error';

const DIRECTION_NAMES = ['north', 'east', 'south', 'west'] as const;

/** The direction one step back: north ↔ south, east ↔ west. */
export function oppositeDirection(d: number): number {
  return (d + 2) % 4;
}

function areaIndex(A: NavAreas, id: number, kind: string, field: string): number {
  if (!Number.isInteger(id) || id < 0 || id > 0xffffffff) throw new EditError(kind, `${field} ${id} is not an area ID`);
  for (let a = 0; a < A.count; a++) if (A.id[a] === id) return a;
  throw new EditError(kind, `the .nav has no area ${id} (${field})`);
}

function checkDirection(d: number, kind: string): void {
  if (!Number.isInteger(d) || d < 0 || d > 3) throw new EditError(kind, `direction ${d} is not 0 (north), 1 (east), 2 (south) or 3 (west)`);
}

/** A copy of the areas with the connection columns replaced; every other column is shared. */
function withConnections(A: NavAreas, start: Uint32Array, target: Uint32Array): NavAreas {
  return { ...A, connectionStart: start, connectionTarget: target };
}

/** Inserts one connection into group g (area·4 + direction) at position `at` within the group. */
function insertConnection(A: NavAreas, g: number, at: number, to: number): NavAreas {
  const k = A.connectionStart[g]! + at;
  const target = new Uint32Array(A.connectionTarget.length + 1);
  target.set(A.connectionTarget.subarray(0, k));
  target[k] = to;
  target.set(A.connectionTarget.subarray(k), k + 1);
  const start = A.connectionStart.slice();
  for (let i = g + 1; i < start.length; i++) start[i]! += 1;
  return withConnections(A, start, target);
}

function removeConnection(A: NavAreas, g: number, at: number): NavAreas {
  const k = A.connectionStart[g]! + at;
  const target = new Uint32Array(A.connectionTarget.length - 1);
  target.set(A.connectionTarget.subarray(0, k));
  target.set(A.connectionTarget.subarray(k + 1), k);
  const start = A.connectionStart.slice();
  for (let i = g + 1; i < start.length; i++) start[i]! -= 1;
  return withConnections(A, start, target);
}

function groupList(A: NavAreas, g: number): number[] {
  return Array.from(A.connectionTarget.subarray(A.connectionStart[g]!, A.connectionStart[g + 1]!));
}

interface OneWay {
  doc: NavDocument;
  /** Where the connection was (disconnect) or is now (connect). */
  index: number;
}

function connectOneWay(doc: NavDocument, from: number, to: number, d: number, index: number | undefined, kind: string): OneWay {
  const A = doc.areas;
  const a = areaIndex(A, from, kind, 'from');
  areaIndex(A, to, kind, 'to');
  if (from === to) throw new EditError(kind, `area ${from} cannot connect to itself`);
  const g = a * 4 + d;
  const list = groupList(A, g);
  if (list.includes(to)) throw new EditError(kind, `area ${from} already connects to area ${to} to the ${DIRECTION_NAMES[d]}`);
  const at = index ?? list.length;
  if (!Number.isInteger(at) || at < 0 || at > list.length) throw new EditError(kind, `index ${at} is outside area ${from}'s ${DIRECTION_NAMES[d]} list of ${list.length}`);
  return { doc: { ...doc, areas: insertConnection(A, g, at, to) }, index: at };
}

function disconnectOneWay(doc: NavDocument, from: number, to: number, d: number, kind: string): OneWay {
  const A = doc.areas;
  const a = areaIndex(A, from, kind, 'from');
  const g = a * 4 + d;
  const at = groupList(A, g).indexOf(to);
  if (at < 0) throw new EditError(kind, `area ${from} has no connection to area ${to} to the ${DIRECTION_NAMES[d]}`);
  return { doc: { ...doc, areas: removeConnection(A, g, at) }, index: at };
}

export interface NavEditResult {
  doc: NavDocument;
  inverse: DocumentEditCommand;
}

/**
 * Connects or disconnects areas of a .nav document; the input is not modified. A connection
 * is one-way in the format (a drop connects down only), so the way back is its own list
 * entry, added or removed with `twoWay`. Refused when the entry is already there (connect)
 * or missing (disconnect), so that the inverse puts back exactly what was.
 */
export function applySourceConnectionEdit(doc: NavDocument, cmd: SourceConnectCommand | SourceDisconnectCommand): NavEditResult {
  checkDirection(cmd.direction, cmd.kind);
  const back = oppositeDirection(cmd.direction);
  if (cmd.kind === 'source-connect') {
    const there = connectOneWay(doc, cmd.from, cmd.to, cmd.direction, cmd.index, cmd.kind);
    const one: SourceDisconnectCommand = { kind: 'source-disconnect', from: cmd.from, to: cmd.to, direction: cmd.direction };
    if (!cmd.twoWay) return { doc: there.doc, inverse: one };
    const both = connectOneWay(there.doc, cmd.to, cmd.from, back, undefined, cmd.kind);
    return { doc: both.doc, inverse: { kind: 'document-batch', commands: [{ kind: 'source-disconnect', from: cmd.to, to: cmd.from, direction: back }, one] } };
  }
  const there = disconnectOneWay(doc, cmd.from, cmd.to, cmd.direction, cmd.kind);
  const one: SourceConnectCommand = { kind: 'source-connect', from: cmd.from, to: cmd.to, direction: cmd.direction, index: there.index };
  if (!cmd.twoWay) return { doc: there.doc, inverse: one };
  const both = disconnectOneWay(there.doc, cmd.to, cmd.from, back, cmd.kind);
  return { doc: both.doc, inverse: { kind: 'document-batch', commands: [{ kind: 'source-connect', from: cmd.to, to: cmd.from, direction: back, index: both.index }, one] } };
}

/** Area `id`'s connections per direction N, E, S, W (for the inspector and tests). */
export function areaConnections(doc: NavDocument, id: number): [number[], number[], number[], number[]] {
  const a = areaIndex(doc.areas, id, 'connections', 'area');
  return [0, 1, 2, 3].map((d) => groupList(doc.areas, a * 4 + d)) as [number[], number[], number[], number[]];
}
