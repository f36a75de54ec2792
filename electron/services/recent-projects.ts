import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where browser mode (`walkbench serve`) keeps its recent projects, the Electron app having
 * its own user data folder: `$XDG_CONFIG_HOME/walkbench` (else `~/.config/walkbench`), or
 * `%APPDATA%\Walkbench` on Windows.
 */
export function defaultRecentProjectsFile(env: NodeJS.ProcessEnv = process.env, platform: string = process.platform, home: string = os.homedir()): string {
  if (platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'Walkbench', 'recent-projects.json');
  const config = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return path.join(config, 'walkbench', 'recent-projects.json');
}

/** How many projects the File ▸ Recent Projects menu lists. */
export const MAX_RECENT_PROJECTS = 10;

export interface RecentProjectsOptions {
  max?: number;
  /** Case-insensitive paths (Windows, default macOS volumes); defaults to this platform's rule. */
  caseInsensitive?: boolean;
  /** Whether a listed project is still there (tests inject it). */
  exists?: (file: string) => boolean;
}

export interface RecentProjects {
  /** Most recent first, without projects that no longer exist. */
  list(): string[];
  /** Puts `file` first (once) and saves; returns the new list. */
  add(file: string): string[];
  remove(file: string): string[];
  clear(): void;
}

interface Stored {
  version: 1;
  projects: string[];
}

/** The stored list, or [] when the text is not one (first run, hand-edited or damaged file). */
export function parseRecentProjects(text: string): string[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return [];
  }
  if (typeof raw !== 'object' || raw === null) return [];
  const projects = (raw as { projects?: unknown }).projects;
  if (!Array.isArray(projects)) return [];
  return projects.filter((p): p is string => typeof p === 'string' && p.length > 0 && p.length <= 32_767 && !p.includes('\0') && path.isAbsolute(p));
}

/**
 * The recently opened projects, kept in a small JSON file under the app's user data
 * folder. No Electron here: the main process passes the file's path, tests a temporary one.
 * A damaged file is treated as empty rather than stopping the app from starting.
 */
export function createRecentProjects(file: string, options: RecentProjectsOptions = {}): RecentProjects {
  const max = options.max ?? MAX_RECENT_PROJECTS;
  const folded = options.caseInsensitive ?? (process.platform === 'win32' || process.platform === 'darwin');
  const exists = options.exists ?? existsSync;
  const key = (p: string) => (folded ? path.resolve(p).toLowerCase() : path.resolve(p));

  function load(): string[] {
    try {
      return parseRecentProjects(readFileSync(file, 'utf8'));
    } catch {
      return [];
    }
  }

  /** Through a temporary file, so a crash mid-write never leaves half a list. */
  function save(projects: string[]): void {
    const stored: Stored = { version: 1, projects };
    mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(stored, null, 2)}\n`);
    renameSync(tmp, file);
  }

  function without(list: string[], p: string): string[] {
    const k = key(p);
    return list.filter((q) => key(q) !== k);
  }

  return {
    list: () => load().filter((p) => exists(p)).slice(0, max),
    add(project) {
      if (!path.isAbsolute(project)) throw new RangeError(`a recent project needs an absolute path, not ${JSON.stringify(project)}`);
      const next = [path.resolve(project), ...without(load(), project)].slice(0, max);
      save(next);
      return next;
    },
    remove(project) {
      const next = without(load(), project);
      save(next);
      return next;
    },
    clear: () => save([]),
  };
}
