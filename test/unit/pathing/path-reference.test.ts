import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeFormatEnvironment } from '../../../electron/services/node-format-environment';
import { seededRandom } from '../../../shared/bakers/nwn2/point-reachability';
import { loadDocument } from '../../../shared/formats/inspect-file';
import { Nwn2PathSurface } from '../../../shared/pathing/nwn2-path';
import { pathSurfaceFor } from '../../../shared/pathing/path-for-document';
import type { Point3 } from '../../../shared/pathing/path-result';
import type { PathSurface } from '../../../shared/pathing/path-surface';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';
import { referenceFindPath } from '../../support/path-reference/reference-find-path';

/**
 * Issue 18 made Walkbench's own path search (A* over the faces, string pulling, corner
 * cutting) several times faster; it must still give the paths it gave. On every fixture
 * walkmesh of the four games, seeded random queries (node centres, and points scattered
 * over the mesh's bounds and moved onto it) give the same result as the pre-issue-18
 * implementation kept in test/support/path-reference: found or not, the same reason
 * code, the same corridor and the same polyline.
 */
const files = [
  ...listFixtures('nwn2', ['.trx', '.trn']),
  ...listFixtures('kotor', ['.wok']),
  ...listFixtures('kotor2', ['.wok']),
  ...listFixtures('skyrim', ['.esp', '.esm']),
  ...listFixtures('skyrim-land', ['.esp', '.esm']),
  ...listFixtures('source', ['.nav']),
  ...listFixtures('source-maps', ['.nav']),
];

/** The surface Walkbench's A* runs on: for a baked NWN2 walkmesh, the same mesh with its tables marked stale (so A* instead of the game's tables). */
function aStarSurface(file: string): PathSurface {
  const surface = pathSurfaceFor(loadDocument(file, readFixture(file), nodeFormatEnvironment), path.basename(file));
  if (surface instanceof Nwn2PathSurface && surface.baked) return new Nwn2PathSurface({ ...surface.aswm, bakeStale: true }, path.basename(file));
  return surface;
}

const QUERIES = 40;

describe('path queries against the pre-issue-18 search', () => {
  it.each(files.map((f) => [fixtureName(f), f]))('%s', (_name, file) => {
    const surface = aStarSurface(file);
    expect(surface.method).toBe('a-star');
    const G = surface.graph;
    const walkable: number[] = [];
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let v = 0; v < G.nodeCount; v++) {
      if (!G.walkable[v]) continue;
      walkable.push(v);
      x0 = Math.min(x0, G.centre[v * 3]!);
      x1 = Math.max(x1, G.centre[v * 3]!);
      y0 = Math.min(y0, G.centre[v * 3 + 1]!);
      y1 = Math.max(y1, G.centre[v * 3 + 1]!);
    }
    expect(walkable.length).toBeGreaterThan(0);
    const random = seededRandom(walkable.length);
    const centre = (v: number): Point3 => [G.centre[v * 3]!, G.centre[v * 3 + 1]!, G.centre[v * 3 + 2]!];
    const pick = () => walkable[Math.floor(random() * walkable.length)]!;
    const scattered = (): Point3 => {
      const c = centre(pick());
      return [x0 + random() * (x1 - x0), y0 + random() * (y1 - y0), c[2]];
    };
    let found = 0;
    for (let i = 0; i < QUERIES; i++) {
      const [a, b]: [Point3, Point3] = i % 4 === 3 ? [scattered(), scattered()] : [centre(pick()), centre(pick())];
      const options = i % 4 === 3 ? {} : { tolerance: 0 };
      const ours = surface.findPath(a, b, options);
      const reference = referenceFindPath(surface, a, b, options);
      const what = `query ${i}: ${a.join(',')} → ${b.join(',')}`;
      expect(ours.found, what).toBe(reference.found);
      expect(ours.code, what).toBe(reference.code);
      if (!reference.found) continue;
      found++;
      expect(ours.length!, what).toBeCloseTo(reference.length!, 9);
      expect(ours.corridor, what).toEqual(reference.corridor);
      expect(ours.points, what).toEqual(reference.points);
    }
    // Most fixtures are one connected floor; a few are many small pieces, where centre pairs often are not joined.
    expect(found).toBeGreaterThan(0);
  });
});
