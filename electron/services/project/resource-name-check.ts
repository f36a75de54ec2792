import type { GameId } from '../../../shared/model/walkmesh';

/**
 * Longest resource name (without extension) each Aurora game accepts: a resref is 16 bytes
 * in KotOR (ERF V1.0, RIM, KEY) and 32 in NWN2 (ERF V1.1).
 */
export const RESREF_LIMIT: Readonly<Partial<Record<GameId, number>>> = { kotor: 16, nwn2: 32 };

/** Characters Windows refuses in file names; every one of these games runs on Windows. */
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;
const DEVICE_NAMES = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/i;
/** KotOR resrefs are plain identifiers (the engine lower-cases and compares them as bytes). */
const KOTOR_RESREF = /^[A-Za-z0-9_-]+$/;

function describeChar(c: string): string {
  const code = c.codePointAt(0)!;
  return code < 0x20 || code === 0x7f || code > 0x7e ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : JSON.stringify(c);
}

/**
 * Why `name` (a file name with its extension, e.g. `enter world.trx`) cannot be written as a
 * game resource, or undefined when it can. Refuses anything that could escape the chosen
 * folder (a path separator, `.` or `..`) and what the game or Windows would refuse.
 */
export function resourceNameProblem(name: string, game: GameId): string | undefined {
  if (name.length === 0) return 'the name is empty';
  if (name.includes('/') || name.includes('\\')) return 'the name contains a path separator';
  if (name === '.' || name === '..' || name.includes('..')) return 'the name contains ".."';
  for (const c of name) {
    const code = c.codePointAt(0)!;
    if (code < 0x20 || code === 0x7f) return `the name contains the control character ${describeChar(c)}`;
    if (WINDOWS_FORBIDDEN.test(c)) return `the name contains ${describeChar(c)}, which Windows refuses in file names`;
  }
  if (/[ .]$/.test(name)) return 'the name ends with a space or a dot, which Windows drops';
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  if (dot <= 0 || dot === name.length - 1) return 'the name has no extension';
  if (DEVICE_NAMES.test(stem)) return `"${stem}" is a device name Windows reserves`;
  const limit = RESREF_LIMIT[game];
  if (limit !== undefined) {
    for (const c of name) if (c.codePointAt(0)! > 0x7e) return `the name contains ${describeChar(c)}: ${game} resource names are ASCII`;
    if (stem.length > limit) return `the resource name "${stem}" is ${stem.length} characters long; ${game} allows at most ${limit}`;
  }
  if (game === 'kotor' && !KOTOR_RESREF.test(stem)) return `the resource name "${stem}" has characters KotOR does not use in resrefs (letters, digits, _ and - only)`;
  return undefined;
}
