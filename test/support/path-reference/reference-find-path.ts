import { orient } from '../../../shared/geometry/segment';
import { polylineLength, pullPinned } from '../../../shared/pathing/funnel';
import { emptyResult, type PathResult, type Point3 } from '../../../shared/pathing/path-result';
import type { PathQueryOptions, PathSurface } from '../../../shared/pathing/path-surface';
import { cutCorners } from './corner-cutting';
import { CorridorSearch, type Corridor } from './corridor-search';

const searches = new WeakMap<PathSurface, CorridorSearch>();

/**
 * PathSurface.findPath (A* over the surface's graph, string pulling, corner cutting) as it
 * was before issue 18, from the reference copies beside this file; point location and
 * the off-mesh and no-path explanations are the surface's own (unchanged).
 */
export function referenceFindPath(surface: PathSurface, from: Point3, to: Point3, options: PathQueryOptions = {}): PathResult {
  let search = searches.get(surface);
  if (!search) {
    search = new CorridorSearch(surface.graph);
    searches.set(surface, search);
  }
  const result = emptyResult('a-star', surface.graph.nodeNoun);
  const [s, e] = surface.locateEnds(from, to, options);
  if (!surface.placeEnds(result, s, e, from, to, options)) return result;
  const sn = result.start!.node, en = result.end!.node;
  const corridor = search.find(sn, ...result.start!.point, en, ...result.end!.point);
  if (corridor) return finishPath(surface, result, corridor);
  surface.explainNoPath(result, sn, en, to);
  return result;
}

function finishPath(surface: PathSurface, result: PathResult, corridor: Corridor): PathResult {
  const G = surface.graph;
  const n = corridor.nodes.length + 1;
  const left = new Float64Array(n * 3);
  const right = new Float64Array(n * 3);
  const s = result.start!.point, e = result.end!.point;
  left.set(s, 0);
  right.set(s, 0);
  for (let i = 0; i < corridor.links.length; i++) {
    const l = corridor.links[i]!;
    const u = corridor.nodes[i]!, v = corridor.nodes[i + 1]!;
    const P = G.linkPortal;
    const ax = P[l * 6]!, ay = P[l * 6 + 1]!, bx = P[l * 6 + 3]!, by = P[l * 6 + 4]!;
    let side = orient(ax, ay, bx, by, G.centre[u * 3]!, G.centre[u * 3 + 1]!);
    if (side === 0) side = -orient(ax, ay, bx, by, G.centre[v * 3]!, G.centre[v * 3 + 1]!);
    const [li, ri] = side > 0 ? [3, 0] : [0, 3];
    for (let c = 0; c < 3; c++) {
      left[(i + 1) * 3 + c] = P[l * 6 + li + c]!;
      right[(i + 1) * 3 + c] = P[l * 6 + ri + c]!;
    }
  }
  left.set(e, (n - 1) * 3);
  right.set(e, (n - 1) * 3);
  const pulled = pullPinned(left, right, n);
  const [flat, nodes] = cutCorners(G, pulled.points, pulled.portals, corridor.nodes);
  const points: Point3[] = [];
  for (let i = 0; i < flat.length; i += 3) points.push([flat[i]!, flat[i + 1]!, flat[i + 2]!]);
  result.found = true;
  result.points = points;
  result.length = polylineLength(flat);
  result.corridor = nodes;
  result.facesCrossed = nodes.length;
  return result;
}
