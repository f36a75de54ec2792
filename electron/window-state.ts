import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The main window's size, position and maximized flag, remembered between runs. Kept
 * free of Electron imports so the placement rules are tested in plain Node.
 */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

export interface WindowPlacement {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 800 } as const;
export const MIN_WINDOW_SIZE = { width: 640, height: 420 } as const;

/** How much of a saved window must still be on a display for the position to be reused. */
const MIN_VISIBLE = { width: 160, height: 80 };

function isCoordinate(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 1_000_000;
}

/** The saved state, or null when the text is not one (first run, hand-edited file…). */
export function parseWindowState(text: string): WindowState | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const { bounds, maximized } = raw as { bounds?: unknown; maximized?: unknown };
  if (typeof bounds !== 'object' || bounds === null || typeof maximized !== 'boolean') return null;
  const { x, y, width, height } = bounds as Record<string, unknown>;
  if (!isCoordinate(x) || !isCoordinate(y) || !isCoordinate(width) || !isCoordinate(height)) return null;
  if (width <= 0 || height <= 0) return null;
  return { bounds: { x, y, width, height }, maximized };
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * Where to open the window: the saved bounds when enough of them is on one of today's
 * displays (a monitor may have been unplugged), otherwise the default size, centred by
 * Electron. The size never exceeds the largest work area.
 */
export function placeWindow(saved: WindowState | null, workAreas: readonly Rect[]): WindowPlacement {
  const maxWidth = Math.max(MIN_WINDOW_SIZE.width, ...workAreas.map((a) => a.width));
  const maxHeight = Math.max(MIN_WINDOW_SIZE.height, ...workAreas.map((a) => a.height));
  const clampSize = (w: number, h: number) => ({
    width: Math.min(Math.max(w, MIN_WINDOW_SIZE.width), maxWidth),
    height: Math.min(Math.max(h, MIN_WINDOW_SIZE.height), maxHeight),
  });
  if (!saved) return { ...clampSize(DEFAULT_WINDOW_SIZE.width, DEFAULT_WINDOW_SIZE.height), maximized: false };
  const size = clampSize(saved.bounds.width, saved.bounds.height);
  const bounds = { x: saved.bounds.x, y: saved.bounds.y, ...size };
  const visible = workAreas.some((area) => {
    const o = overlap(bounds, area);
    return o.width >= MIN_VISIBLE.width && o.height >= MIN_VISIBLE.height;
  });
  return visible ? { ...bounds, maximized: saved.maximized } : { ...size, maximized: saved.maximized };
}

export function loadWindowState(file: string): WindowState | null {
  try {
    return parseWindowState(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Writes through a temporary file so a crash mid-write never leaves half a state file. */
export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(tmp, file);
}

/** The part of BrowserWindow the tracker needs (structural, so no Electron import). */
export interface TrackedWindow {
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isDestroyed(): boolean;
  on(event: 'close' | 'resized' | 'moved' | 'maximize' | 'unmaximize', listener: () => void): unknown;
}

/**
 * Saves the state when the window closes and, debounced, after it is moved or resized, so
 * a crash loses at most the last second. The normal bounds are saved even while
 * maximized, so un-maximizing next time restores the previous size.
 */
export function trackWindowState(win: TrackedWindow, file: string, onError: (e: unknown) => void): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (win.isDestroyed()) return;
    try {
      saveWindowState(file, { bounds: win.getNormalBounds(), maximized: win.isMaximized() });
    } catch (e) {
      onError(e);
    }
  };
  const later = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, 1000);
  };
  for (const event of ['resized', 'moved', 'maximize', 'unmaximize'] as const) win.on(event, later);
  win.on('close', save);
}
