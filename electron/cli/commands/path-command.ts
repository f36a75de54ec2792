import path from 'node:path';
import { readdir } from 'node:fs/promises';
import { loadDocument } from '../../../shared/formats/inspect-file';
import type { WokLoader } from '../../../shared/formats/kotor/kotor-area';
import { LYT_FORMAT, type LytDocument } from '../../../shared/formats/kotor/lyt-document';
import { pathSurfaceFor } from '../../../shared/pathing/path-for-document';
import type { PathResult, Point3 } from '../../../shared/pathing/path-result';
import { round, type PathQueryOptions } from '../../../shared/pathing/path-surface';
import { readBytes } from '../../services/file-access';
import { nodeFormatEnvironment as env } from '../../services/node-format-environment';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { expectedErrorMessage } from '../expected-errors';

export const pathUsage =
  'walkbench path FILE --from X,Y,Z --to X,Y,Z [--walkmesh NAME/ID] [--tolerance D] [--json]   the path a creature would take, or why there is none (exit status 1); --tolerance: how far a point may be moved onto the walkable surface (default about a metre in the game\'s units)';

/** Parses `X,Y,Z` into three finite numbers, or refuses it naming the option. */
export function parsePoint(option: string, value: string | true | undefined): Point3 {
  if (typeof value !== 'string') throw new UsageError(`path needs --${option} X,Y,Z`);
  const parts = value.split(',').map((s) => s.trim());
  const nums = parts.map((s) => (s === '' ? NaN : Number(s)));
  if (parts.length !== 3 || nums.some((n) => !Number.isFinite(n))) {
    throw new UsageError(`--${option} takes three numbers X,Y,Z separated by commas (e.g. 12.5,-3,0), not "${value}"`);
  }
  return [nums[0]!, nums[1]!, nums[2]!];
}

/**
 * `walkbench path`: the path between two points of a walkmesh file, computed the way the
 * game does where the file's baked data says (NWN2 island and tile tables) and by A* with
 * string pulling elsewhere; or the reason there is none. Exit status 0 with a path, 1
 * without (so a build can check reachability), 2 for a bad command line.
 */
export async function pathCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, ['from', 'to', 'walkmesh', 'tolerance'], ['json']);
  if (args.positional.length !== 1) throw new UsageError('path needs exactly one FILE');
  const file = args.positional[0]!;
  const from = parsePoint('from', args.flags.get('from'));
  const to = parsePoint('to', args.flags.get('to'));
  const json = args.flags.has('json');
  const options: PathQueryOptions = {};
  const tol = args.flags.get('tolerance');
  if (tol !== undefined) {
    const t = Number(tol);
    if (typeof tol !== 'string' || tol.trim() === '' || !Number.isFinite(t) || t < 0) throw new UsageError(`--tolerance takes a distance of 0 or more, not "${String(tol)}"`);
    options.tolerance = t;
  }
  let loaded;
  let surface;
  try {
    loaded = loadDocument(file, await readBytes(file), env);
    const context = loaded.handler.id === LYT_FORMAT ? { wok: await roomWalkmeshesBeside(file, loaded.document as LytDocument) } : {};
    surface = pathSurfaceFor(loaded, path.basename(file, path.extname(file)), context);
  } catch (e) {
    const message = expectedErrorMessage(e, file);
    if (message === undefined) throw e;
    io.err(`walkbench: ${message.startsWith(file) ? message : `${file}: ${message}`}\n`);
    if (json) io.out(`${JSON.stringify({ file, format: null, found: false, length: null, points: [], reason: message, code: 'unreadable' }, null, 2)}\n`);
    return ExitCode.failed;
  }
  const walkmesh = args.flags.get('walkmesh');
  let partName: string | null = null;
  if (typeof walkmesh === 'string') {
    if (surface.parts.length === 0) throw new UsageError(`${file} holds one walkmesh; --walkmesh applies to files with several`);
    const part = surface.findPart(walkmesh);
    if (!part) {
      const list = surface.parts.slice(0, 12).map((p) => `${p.index}: ${p.id} (${p.name})`).join(', ');
      throw new UsageError(`${file} has no walkmesh "${walkmesh}"; it has ${surface.parts.length}: ${list}${surface.parts.length > 12 ? ', …' : ''}`);
    }
    options.part = part.index;
    partName = part.name;
  }
  const r = surface.findPath(from, to, options);
  if (json) {
    io.out(`${JSON.stringify({ file, format: loaded.handler.id, walkmesh: partName, from, to, tolerance: options.tolerance ?? surface.snapTolerance, ...jsonOf(r) }, null, 2)}\n`);
  } else {
    printText(io, file, r);
  }
  return r.found ? ExitCode.ok : ExitCode.failed;
}

/** The rooms' `.wok` files in the layout's folder (names match case-insensitively, as the game's resrefs do). */
async function roomWalkmeshesBeside(file: string, lyt: LytDocument): Promise<WokLoader> {
  const dir = path.dirname(file);
  const byLower = new Map<string, string>();
  for (const name of await readdir(dir)) if (name.toLowerCase().endsWith('.wok')) byLower.set(name.slice(0, -4).toLowerCase(), name);
  const bytes = new Map<string, Uint8Array>();
  for (const room of lyt.rooms) {
    const name = byLower.get(room.name.toLowerCase());
    if (name !== undefined && !bytes.has(room.name.toLowerCase())) bytes.set(room.name.toLowerCase(), await readBytes(path.join(dir, name)));
  }
  return (roomName) => bytes.get(roomName.toLowerCase());
}

function jsonOf(r: PathResult): Record<string, unknown> {
  return {
    found: r.found,
    length: r.length === null ? null : round(r.length),
    points: r.points.map((p) => p.map(round)),
    reason: r.reason,
    code: r.code,
    facesCrossed: r.facesCrossed,
    crossed: r.nodeNoun,
    method: r.method,
    start: r.start,
    end: r.end,
    components: r.components,
    islands: r.islands,
    breaks: r.breaks,
    unlinked: r.unlinked,
  };
}

function printText(io: CliIo, file: string, r: PathResult): void {
  const pt = (p: readonly number[]) => `(${p.map((v) => round(v)).join(', ')})`;
  if (r.found) {
    io.out(`${file}: path found, length ${round(r.length!)}, ${r.facesCrossed} ${r.nodeNoun} crossed (${r.method})\n`);
    for (const end of [r.start!, r.end!]) if (end.moved > 0) io.out(`  ${end === r.start ? 'start' : 'end'} moved ${round(end.moved)} onto ${end.label}\n`);
    if (r.islands && r.islands.route.length > 1) io.out(`  islands: ${r.islands.route.join(' → ')}\n`);
    for (const p of r.points) io.out(`  ${pt(p)}\n`);
    return;
  }
  io.out(`${file}: no path: ${r.reason}\n`);
  for (const u of r.unlinked) io.out(`  unlinked edge ${pt(u.a)}–${pt(u.b)} between ${u.fromLabel} and ${u.toLabel}\n`);
  for (const b of r.breaks) io.out(`  break ${pt(b.a)}–${pt(b.b)} on ${b.label}, ${round(b.distance)} from the goal\n`);
}
