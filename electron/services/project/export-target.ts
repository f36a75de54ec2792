import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { GameId } from '../../../shared/model/walkmesh';
import { FileAccessError, fileTypeName } from '../file-access';

/**
 * Where an export writes: loose files into a folder, or resources into an existing
 * archive (NWN2 / KotOR `.mod`, `.erf`, `.hak`, KotOR `.rim`), rewritten whole.
 */
export type ExportTarget =
  | { kind: 'folder'; game: GameId; root: string; dir: string }
  | { kind: 'archive'; game: GameId; root: string; file: string; archive: 'erf' | 'rim' };

const ERF_EXTENSIONS = ['.mod', '.erf', '.hak'];

/** The sub-folder of `dir` named `name` in any case, if there is one. */
export function subfolderAnyCase(dir: string, name: string): string | undefined {
  const want = name.toLowerCase();
  for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory() && e.name.toLowerCase() === want) return path.join(dir, e.name);
  return undefined;
}

/**
 * Finds where the game looks, from the folder or archive the user chose (`--to`):
 * - NWN2: the module folder itself, or its `.mod`;
 * - KotOR: `override/` of a game folder (the folder itself when it has none), or a module archive;
 * - Skyrim: `Data/` of a game folder, or the folder itself (it is `Data`);
 * - Source: `maps/` of a game folder, or the folder itself (it is `maps`).
 * Nothing is written outside `root`, the folder chosen (an archive's own folder).
 */
export function resolveExportTarget(game: GameId, to: string): ExportTarget {
  const abs = path.resolve(to);
  let st;
  try {
    st = statSync(abs);
  } catch {
    throw new FileAccessError(abs, 'no such folder or archive (export writes into an existing game folder)');
  }
  if (st.isFile()) {
    const ext = path.extname(abs).toLowerCase();
    const aurora = game === 'nwn2' || game === 'kotor';
    if (aurora && ERF_EXTENSIONS.includes(ext)) return { kind: 'archive', game, root: path.dirname(abs), file: abs, archive: 'erf' };
    if (game === 'kotor' && ext === '.rim') return { kind: 'archive', game, root: path.dirname(abs), file: abs, archive: 'rim' };
    throw new FileAccessError(abs, `is a file; ${game} exports go into a folder${aurora ? ` or a ${game === 'kotor' ? '.mod/.erf/.rim' : '.mod/.erf/.hak'} archive` : ''}`);
  }
  if (!st.isDirectory()) throw new FileAccessError(abs, `is ${fileTypeName(st)}, neither a folder nor an archive`);
  const sub = (name: string) => (path.basename(abs).toLowerCase() === name ? abs : (subfolderAnyCase(abs, name) ?? abs));
  switch (game) {
    case 'kotor':
      return { kind: 'folder', game, root: abs, dir: sub('override') };
    case 'skyrim':
      return { kind: 'folder', game, root: abs, dir: sub('data') };
    case 'source':
      return { kind: 'folder', game, root: abs, dir: sub('maps') };
    default:
      return { kind: 'folder', game, root: abs, dir: abs };
  }
}

/** What export runs are recorded under: the archive written, or the folder chosen. */
export function exportRunKey(target: ExportTarget): string {
  return target.kind === 'archive' ? target.file : target.root;
}

/** True when `p` is `root` or inside it (after resolving `..`). */
export function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, path.resolve(p));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
