import type { LevelContextGap } from '../../model/level-context';

/**
 * Finding the compiled map of a `.nav`: the engine saves `maps/NAME.nav` beside
 * `maps/NAME.bsp` and stores the map's size in the nav's `bspSize` field (version 4 on),
 * warning "built using a different version of this map" when they differ. Paths here are
 * plain strings ('/' or '\' separated); the caller reads the file.
 */

/** `maps/NAME.bsp` beside `maps/NAME.nav` (same folder, same base name). */
export function bspPathForNav(navPath: string): string {
  const slash = Math.max(navPath.lastIndexOf('/'), navPath.lastIndexOf('\\'));
  const dot = navPath.lastIndexOf('.');
  const stem = dot > slash ? navPath.slice(0, dot) : navPath;
  return `${stem}.bsp`;
}

/**
 * Whether a map may be drawn under a nav: undefined when it may, else the gap to report.
 * `bspSize` 0 means the nav does not say (versions before 4 store none; the engine writes 0
 * for a nav built without a map file): the map is used unchecked. `bspBytes` undefined
 * means the map was not found.
 */
export function bspGapForNav(nav: { version: number; bspSize: number }, bspPath: string, bspBytes: number | undefined): LevelContextGap | undefined {
  if (bspBytes === undefined) return { what: bspPath, why: 'not found beside the .nav (the map is read from maps/NAME.bsp next to maps/NAME.nav)' };
  if (nav.bspSize !== 0 && nav.bspSize !== bspBytes) {
    return {
      what: bspPath,
      why: `the .nav was built for a ${nav.bspSize}-byte map but this map is ${bspBytes} bytes (a different version of the map; the game warns the same way)`,
    };
  }
  return undefined;
}
