import { orient } from '../geometry/segment';
import { CorridorSearch, type Corridor } from './corridor-search';
import { cutCorners } from './corner-cutting';
import { polylineLength, pullPinned } from './funnel';
import type { NavGraph } from './nav-graph';
import { PathDiagnostics } from './path-diagnostics';
import { emptyResult, type PathEnd, type PathResult, type Point3 } from './path-result';
import { PointLocator, type LocatedPoint } from './point-locator';

/** Default horizontal distance (metres) a query point may be moved to reach the walkable surface. */
export const DEFAULT_SNAP_TOLERANCE = 1;
/** The same metre in the games that measure in other units: Source (inches) and Skyrim (about 1.4 cm). */
export const SOURCE_SNAP_TOLERANCE = 40;
export const SKYRIM_SNAP_TOLERANCE = 70;

export interface PathQueryOptions {
  /** Distance a point off the walkable surface may be moved onto it (default: the surface's snapTolerance). */
  tolerance?: number;
  /** Index of the part (navmesh) the start must be on; the end may be on any part of the same space. */
  part?: number;
}

/**
 * One walkmesh of a file that holds several (a Skyrim plugin's navmeshes): its faces are
 * `faceStart .. faceEnd` of the surface. Parts of one space (a cell, a worldspace) share
 * coordinates; parts of different spaces overlap without meeting.
 */
export interface SurfacePart {
  index: number;
  name: string;
  /** Identifier a user may type, e.g. a FormID in hex. */
  id: string;
  faceStart: number;
  faceEnd: number;
  space: string;
}

/**
 * What a path query needs for one file: the graph, point location over the file's
 * triangles and the map from a triangle to its graph node (itself for triangle meshes,
 * its area for Source). Built once per file; every query after that is A* on the graph.
 */
export class PathSurface {
  readonly locator: PointLocator;
  readonly search: CorridorSearch;
  readonly diagnostics: PathDiagnostics;

  constructor(
    readonly graph: NavGraph,
    positions: ArrayLike<number>,
    triangles: ArrayLike<number>,
    faceWalkable: Uint8Array,
    /** Graph node of each face (null: the face index is the node). */
    readonly faceNode: Int32Array | null = null,
    readonly method = 'a-star',
  ) {
    this.locator = new PointLocator(positions, triangles, faceWalkable);
    this.search = new CorridorSearch(graph);
    this.diagnostics = new PathDiagnostics(graph);
  }

  /** Default for PathQueryOptions.tolerance, in the file's units (about a metre). */
  snapTolerance = DEFAULT_SNAP_TOLERANCE;

  /** The file's walkmeshes when it has several (empty for one). */
  parts: SurfacePart[] = [];

  /** The part a user named by index, id or name (case-insensitive), or undefined. */
  findPart(selector: string): SurfacePart | undefined {
    const s = selector.trim().toLowerCase();
    const hex = s.replace(/^0x/, '');
    return this.parts.find((p) => p.id.toLowerCase().replace(/^0x/, '') === hex)
      ?? this.parts.find((p) => p.name.toLowerCase() === s)
      ?? (/^\d+$/.test(s) ? this.parts[Number(s)] : undefined)
      ?? this.parts.find((p) => p.name.toLowerCase().includes(s));
  }

  private partOfFace(face: number): SurfacePart | undefined {
    // Parts are few (tens of navmeshes), so a scan is cheaper than a per-face table.
    return this.parts.find((p) => face >= p.faceStart && face < p.faceEnd);
  }

  /** The located start and end, honouring the part selection and keeping the end in the start's space. */
  locateEnds(from: Point3, to: Point3, options: PathQueryOptions): [LocatedPoint, LocatedPoint] {
    const chosen = options.part !== undefined ? this.parts[options.part] : undefined;
    const s = this.locate(from, options, chosen ? (f) => f >= chosen.faceStart && f < chosen.faceEnd : undefined);
    const space = s.face >= 0 ? this.partOfFace(s.face)?.space : chosen?.space;
    const e = this.locate(to, options, space !== undefined ? (f) => this.partOfFace(f)?.space === space : undefined);
    return [s, e];
  }

  nodeOfFace(face: number): number {
    return this.faceNode ? this.faceNode[face]! : face;
  }

  /** Locates a point; `accept` limits the faces it may land on. */
  locate(p: Point3, options: PathQueryOptions, accept?: (face: number) => boolean): LocatedPoint {
    return this.locator.locate(p[0], p[1], p[2], options.tolerance ?? this.snapTolerance, accept);
  }

  /** The path between two points, or the reason there is none. */
  findPath(from: Point3, to: Point3, options: PathQueryOptions = {}): PathResult {
    const result = emptyResult(this.method, this.graph.nodeNoun);
    const [s, e] = this.locateEnds(from, to, options);
    if (!this.placeEnds(result, s, e, from, to, options)) return result;
    const sn = result.start!.node, en = result.end!.node;
    const corridor = this.search.find(sn, ...result.start!.point, en, ...result.end!.point);
    if (corridor) return this.finishPath(result, corridor);
    this.explainNoPath(result, sn, en, to);
    return result;
  }

  /** Fills start and end, or the off-mesh reason; false when a point is off the surface. */
  placeEnds(result: PathResult, s: LocatedPoint, e: LocatedPoint, from: Point3, to: Point3, options: PathQueryOptions): boolean {
    const tol = options.tolerance ?? this.snapTolerance;
    for (const [which, loc, p] of [['start', s, from], ['end', e, to]] as const) {
      if (loc.face >= 0) {
        const node = this.nodeOfFace(loc.face);
        const end: PathEnd = { node, label: this.graph.label(node), point: [loc.x, loc.y, loc.z], moved: loc.moved };
        if (which === 'start') result.start = end;
        else result.end = end;
        continue;
      }
      if (result.code) continue;
      result.code = which === 'start' ? 'start-off-mesh' : 'end-off-mesh';
      const where = `(${p.map((v) => round(v)).join(', ')})`;
      result.reason = loc.unwalkableFace >= 0
        ? `the ${which} point ${where} is on unwalkable ${this.graph.label(this.nodeOfFace(loc.unwalkableFace))}`
        : `the ${which} point ${where} is not on a walkable ${this.graph.nodeNoun.replace(/s$/, '')} (none within a distance of ${tol})`;
    }
    return result.code === null;
  }

  /** The polyline through a corridor, with length and faces crossed. */
  finishPath(result: PathResult, corridor: Corridor, shortcut = true): PathResult {
    const G = this.graph;
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
      // Seen from inside u looking across the portal, the corner on u's left of a→b is on the walker's right.
      let side = orient(ax, ay, bx, by, G.centre[u * 3]!, G.centre[u * 3 + 1]!);
      if (side === 0) side = -orient(ax, ay, bx, by, G.centre[v * 3]!, G.centre[v * 3 + 1]!);
      const li = side > 0 ? 3 : 0;
      const ri = 3 - li;
      for (let c = 0; c < 3; c++) {
        left[(i + 1) * 3 + c] = P[l * 6 + li + c]!;
        right[(i + 1) * 3 + c] = P[l * 6 + ri + c]!;
      }
    }
    left.set(e, (n - 1) * 3);
    right.set(e, (n - 1) * 3);
    const pulled = pullPinned(left, right, n);
    let flat = pulled.points;
    let nodes = corridor.nodes;
    if (shortcut) [flat, nodes] = cutCorners(this.graph, pulled.points, pulled.portals, corridor.nodes);
    const points: Point3[] = [];
    for (let i = 0; i < flat.length; i += 3) points.push([flat[i]!, flat[i + 1]!, flat[i + 2]!]);
    result.found = true;
    result.points = points;
    result.length = polylineLength(flat);
    result.corridor = nodes;
    result.facesCrossed = nodes.length;
    return result;
  }

  /** Reason, components, breaks and unlinked seams when A* found nothing. */
  explainNoPath(result: PathResult, sn: number, en: number, goal: Point3): void {
    const D = this.diagnostics;
    const comp = D.components();
    const cs = comp[sn]!, ce = comp[en]!;
    const G = this.graph;
    if (cs === ce) {
      result.code = 'one-way';
      result.reason = `${G.label(en)} is in the same connected region as ${G.label(sn)} but only reachable against a one-way link`;
      return;
    }
    result.components = { start: cs, end: ce };
    result.breaks = D.breaksNear(D.nodesOf(cs), (v) => comp[v] === cs, result.end?.point ?? goal);
    const unlinked = D.unlinkedBetween(cs, ce);
    if (unlinked.length > 0) {
      result.unlinked = unlinked;
      const u = unlinked[0]!;
      result.code = 'unlinked-edge';
      result.reason = `start and end are in different connected regions (${cs} and ${ce}) that meet at an unlinked edge between ${u.fromLabel} and ${u.toLabel} near (${u.a.map(round).join(', ')})` +
        (unlinked.length > 1 ? ` (${unlinked.length} unlinked edges on the way)` : '');
      return;
    }
    result.code = 'different-components';
    result.reason = `start (${G.label(sn)}) and end (${G.label(en)}) are in different connected regions (${cs} and ${ce}) with no edge between them`;
  }
}

export function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
