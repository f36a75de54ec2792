import { floatView, MAX_TILE_NODES } from '../../formats/nwn2/aswm-document';
import type { BakeMesh } from './bake-mesh';
import type { TilePathTables } from './bake-tile-paths';
import { TileLinks } from './tile-links';
import { TileWalls } from './tile-walls';
import { PairVisibility } from './pair-visibility';

/**
 * The line-of-sight bit (0x80) of the tile path tables (spec §5.7). The toolset's rule
 * is unknown (none of the rules the spec lists as tested reproduces it); this one is
 * sound:
 *
 *   LOS(A, B) is set only when every point of A sees every point of B inside the tile's
 *   walkable triangles, i.e. when the convex hull H of A ∪ B (for convex A and B exactly
 *   the union of the segments from A to B) is covered by them, on A's sheet.
 *
 * It is decided from the tile's walls (tile-walls.ts: sides that do not lead to a
 * walkable triangle of the tile on their other side, and every side of a triangle that
 * overlaps another):
 *
 *   LOS(A, B) ⇐ A and B are non-degenerate, reachable from each other within the tile,
 *   and no wall enters the interior of H.
 *
 * Why that suffices: around any point off the walls the tile's walkable triangles fan
 * round it completely (each side leads to a triangle on its other side, and following
 * the links round a corner comes back to the start), so the union of those triangles has
 * its boundary on walls. H is convex, so its interior is connected; it meets the union's
 * interior (A lies in H) and no boundary, so H lies inside the union. No overlapped
 * triangle reaches into H either (its sides are walls), so the triangles over H form a
 * single layer and a straight walk from any point of A ends at the point of B above its
 * end. A wall that only touches H's boundary (a straight wall A and B both lie along)
 * does not block. Predicates run in float64 on the stored float32 coordinates; a wall
 * entering H by less than EPSILON (0.1 µm) is ignored.
 *
 * The bit is symmetric, as in every toolset file. Pairs are tested per connected
 * component (pair-visibility.ts): a component whose hull no wall enters (an open or
 * convex floor) gets the bit on all its pairs after one test; otherwise each pair is
 * checked with bit masks against the few walls whose lines cross it. Cost per tile: a
 * sweep over the triangles sorted by x for the overlaps (O(N²) at worst, near-linear on
 * real tiles), O(N · W) to classify the N triangles against the W walls inside a
 * component's hull, and O(M² · W / 32) for the pairs of the M triangles with no corner on
 * a wall plus a span look-up per linked pair (the only pairs the rule below can set). Issue
 * 18 brought the step from 40 % of a fixture re-bake to about 27 % (1.8× faster), then to
 * about 24 % (another 1.12×; the nodes' wall corners now come from TileWalls' own pass over
 * the sides), then to about 19 % (another 1.34×: the tests whose outcome is a coin toss are
 * branch-free, see pair-visibility.ts and tile-walls.ts, and the working arrays are kept
 * from one bake to the next), without changing a bit
 * (test/unit/nwn2-bake/line-of-sight-reference.test.ts). The last figures are CPU time per
 * step (rebakeAswm's `now` on process.cpuUsage), median of 15 re-bakes of the 24 fixtures,
 * with other jobs keeping the 2-core machine at a load of 6–7: 111.6 → 83.4 ms of a
 * 461.7 → 429.5 ms bake (24.2 % → 19.4 %). At that load test/bench/nwn2-bake-bench.ts's wall
 * clock swung by ±20 % from run to run (share 23.0 % → 19.6 %, medians of 3 runs each).
 *
 * The toolset's own bits are far fewer (issue 15: on the 24 toolset TRX fixtures, 5.7 M
 * pairs reachable in both tables, the sound rule alone sets 3.7 M bits, the toolset 1.7 M,
 * agreement 0.63). What separates them most is walls: the toolset almost never sets the
 * bit between two triangles that are not linked to each other when one of them has a
 * corner on a wall of the tile (a side of one of its walkable triangles with no walkable
 * triangle across, in any tile: the edge of the walkable area, not a tile border the
 * floor continues over). Of the pairs the sound rule sets, it sets 0.91 where neither
 * touches such a wall and 0.13–0.29 where one does, whatever the corner's angle (convex,
 * straight, reflex) or the wall's kind (no link, or an unwalkable triangle). So that is
 * required too, which only removes bits (it stays sound): agreement 0.94 overall, 0.91 to
 * 0.98 per file, 97 % of our bits set by the toolset too (test/bench/nwn2-los-report.ts).
 * Pairs of linked triangles keep the sound rule alone (0.965 agreement there).
 *
 * Tiles marked in `skip` are left as they are (their bits come from an earlier bake).
 * Returns the number of ordered pairs that got the bit.
 */
export function markLineOfSight(m: BakeMesh, paths: TilePathTables, vertices: Uint32Array, triVertices: Uint32Array, triEdges: Uint32Array, edges: Uint32Array, skip?: Uint8Array): number {
  const positions = floatView(vertices);
  // Taken for the bake and put back at its end: a bake that throws leaves no half-used arrays behind.
  const kept = scratch ?? newScratch(m);
  scratch = undefined;
  const { graph, walls, pairs, component, queue, members } = kept;
  graph.use(m);
  let marked = 0;
  for (let k = 0; k < m.tileCount; k++) {
    const n = paths.nodeCount[k]!;
    if (n < 2 || skip?.[k]) continue;
    graph.load(k);
    walls.load(m, graph, positions, triVertices, triEdges, edges);
    component.fill(-1, 0, n);
    for (let root = 0; root < n; root++) {
      if (component[root]! >= 0) continue;
      let head = 0;
      let tail = 0;
      component[root] = root;
      queue[tail++] = root;
      while (head < tail) {
        const u = queue[head++]!;
        for (let a = graph.start[u]!, end = graph.start[u + 1]!; a < end; a++) {
          const v = graph.target[a]!;
          if (component[v]! < 0) {
            component[v] = root;
            queue[tail++] = v;
          }
        }
      }
      let size = 0;
      for (let i = 0; i < tail; i++) if (walls.solid[queue[i]!] === 1) members[size++] = queue[i]!;
      if (size >= 2) marked += pairs.mark(walls, members, size, paths.nodes, paths.nodesStart[k]!, n, walls.onWall, graph);
    }
  }
  graph.release();
  scratch = kept;
  return marked;
}

/**
 * The step's working arrays, kept from one bake to the next (issue 18): allocating them per
 * bake (a few MB once PairVisibility's per-wall arrays have grown) and collecting them again
 * cost a few per cent of the step on the 24 fixtures (its garbage collection alone showed as
 * about 5 % of its profile). Every bake leaves them as it found them
 * (TileLinks.release clears the last tile and drops the mesh, PairVisibility.mark its
 * member map).
 */
interface Scratch {
  graph: TileLinks;
  walls: TileWalls;
  pairs: PairVisibility;
  component: Int32Array;
  queue: Int32Array;
  members: Int32Array;
}

let scratch: Scratch | undefined;

function newScratch(m: BakeMesh): Scratch {
  return {
    graph: new TileLinks(m),
    walls: new TileWalls(),
    pairs: new PairVisibility(),
    component: new Int32Array(MAX_TILE_NODES),
    queue: new Int32Array(MAX_TILE_NODES),
    members: new Int32Array(MAX_TILE_NODES),
  };
}
