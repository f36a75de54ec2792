import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW_SIZE, loadWindowState, MIN_WINDOW_SIZE, parseWindowState, placeWindow, saveWindowState } from '../../../electron/window-state';

const screen = { x: 0, y: 0, width: 1920, height: 1040 };
const right = { x: 1920, y: 0, width: 2560, height: 1400 };

describe('window state', () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-window-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('opens at the default size, centred, the first time', () => {
    expect(placeWindow(null, [screen])).toEqual({ ...DEFAULT_WINDOW_SIZE, maximized: false });
  });

  it('restores saved bounds that are still on a display', () => {
    const saved = { bounds: { x: 2100, y: 100, width: 1400, height: 900 }, maximized: true };
    expect(placeWindow(saved, [screen, right])).toEqual({ x: 2100, y: 100, width: 1400, height: 900, maximized: true });
  });

  it('drops the position of a window left on an unplugged monitor but keeps its size', () => {
    const saved = { bounds: { x: 2100, y: 100, width: 1400, height: 900 }, maximized: false };
    expect(placeWindow(saved, [screen])).toEqual({ width: 1400, height: 900, maximized: false });
    // Barely visible (40 px) counts as lost too.
    const edge = { bounds: { x: 1880, y: 100, width: 800, height: 600 }, maximized: false };
    expect(placeWindow(edge, [screen]).x).toBeUndefined();
  });

  it('clamps the size between the minimum and the largest display', () => {
    const tiny = placeWindow({ bounds: { x: 10, y: 10, width: 100, height: 50 }, maximized: false }, [screen]);
    expect([tiny.width, tiny.height]).toEqual([MIN_WINDOW_SIZE.width, MIN_WINDOW_SIZE.height]);
    const huge = placeWindow({ bounds: { x: 0, y: 0, width: 9000, height: 9000 }, maximized: false }, [screen]);
    expect([huge.width, huge.height]).toEqual([1920, 1040]);
  });

  it('ignores files that are not a saved state', () => {
    for (const text of ['', 'null', '{"bounds":{"x":1,"y":2,"width":3},"maximized":false}', '{"bounds":{"x":1,"y":2,"width":-3,"height":4},"maximized":false}', '{"bounds":{"x":1.5,"y":2,"width":3,"height":4},"maximized":false}', '{"bounds":{"x":1,"y":2,"width":3,"height":4},"maximized":"yes"}']) {
      expect(parseWindowState(text), text).toBeNull();
    }
    expect(loadWindowState(path.join(tmp, 'missing.json'))).toBeNull();
  });

  it('saves and loads the state through a file', () => {
    const file = path.join(tmp, 'nested', 'window-state.json');
    const state = { bounds: { x: -20, y: 40, width: 1000, height: 700 }, maximized: true };
    saveWindowState(file, state);
    expect(loadWindowState(file)).toEqual(state);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(state);
  });
});
