/**
 * The graph a path query runs on: convex walkable polygons (triangles of a walkmesh, or
 * the rectangles of Source nav areas) joined by links, each link carrying its portal (the
 * segment a creature crosses to pass from one polygon to the next). Links are directed
 * because Source connections are; the triangle meshes add both directions. Stored as
 * compressed rows over typed arrays so that a 100,000-face mesh is a few allocations.
 */
export interface NavGraph {
  nodeCount: number;
  /** 1 where creatures may stand on the node. */
  walkable: Uint8Array;
  /** x, y, z per node (the mean of its outline). */
  centre: Float64Array;
  /** Outline of node n: points polyStart[n] .. polyStart[n + 1] (x, y, z each, in polyPoints). */
  polyStart: Uint32Array;
  polyPoints: Float64Array;
  /** Per outline edge (point k → k + 1 of its node): 1 when some link crosses it. */
  polyEdgeLinked: Uint8Array;
  /** Links of node n: linkStart[n] .. linkStart[n + 1]. */
  linkStart: Uint32Array;
  linkTarget: Int32Array;
  /** Portal per link: a x, y, z then b x, y, z. */
  linkPortal: Float64Array;
  /** The outline edge of the link's source node the portal lies on, or -1. */
  linkOutlineEdge: Int32Array;
  /** What a node is called in messages, e.g. `face 12` or `area 3507`. */
  label(node: number): string;
  /** The noun for a node in counts ("faces", "areas"). */
  nodeNoun: string;
}

/** Collects nodes and links, then packs them into a NavGraph. */
export class NavGraphBuilder {
  private readonly linkFrom: number[] = [];
  private readonly linkTo: number[] = [];
  private readonly portals: number[] = [];
  private readonly linkEdge: number[] = [];

  constructor(
    readonly nodeCount: number,
    readonly polyStart: Uint32Array,
    readonly polyPoints: Float64Array,
    readonly walkable: Uint8Array,
  ) {}

  /** A link from node `from` to `to` through the portal (a, b); `outlineEdge` is the outline edge index of `from` it crosses, or -1. */
  add(from: number, to: number, ax: number, ay: number, az: number, bx: number, by: number, bz: number, outlineEdge: number): void {
    this.linkFrom.push(from);
    this.linkTo.push(to);
    this.portals.push(ax, ay, az, bx, by, bz);
    this.linkEdge.push(outlineEdge);
  }

  /** A link from `from` to `to` through outline edge e of `from`. */
  addThroughEdge(from: number, to: number, e: number): void {
    const s = this.polyStart[from]!, n = this.polyStart[from + 1]! - s;
    const a = (s + e) * 3, c = (s + (e + 1 === n ? 0 : e + 1)) * 3;
    const p = this.polyPoints;
    this.add(from, to, p[a]!, p[a + 1]!, p[a + 2]!, p[c]!, p[c + 1]!, p[c + 2]!, e);
  }

  finish(label: (node: number) => string, nodeNoun: string): NavGraph {
    const n = this.nodeCount;
    const L = this.linkFrom.length;
    const linkStart = new Uint32Array(n + 1);
    for (let i = 0; i < L; i++) linkStart[this.linkFrom[i]! + 1]!++;
    for (let i = 0; i < n; i++) linkStart[i + 1]! += linkStart[i]!;
    const fill = linkStart.slice(0, n);
    const linkTarget = new Int32Array(L);
    const linkPortal = new Float64Array(L * 6);
    const linkOutlineEdge = new Int32Array(L);
    const polyEdgeLinked = new Uint8Array(this.polyStart[n]!);
    for (let i = 0; i < L; i++) {
      const from = this.linkFrom[i]!;
      const at = fill[from]!++;
      linkTarget[at] = this.linkTo[i]!;
      for (let k = 0; k < 6; k++) linkPortal[at * 6 + k] = this.portals[i * 6 + k]!;
      const e = this.linkEdge[i]!;
      linkOutlineEdge[at] = e;
      if (e >= 0) polyEdgeLinked[this.polyStart[from]! + e] = 1;
    }
    const centre = new Float64Array(n * 3);
    for (let v = 0; v < n; v++) {
      const s = this.polyStart[v]!, e = this.polyStart[v + 1]!;
      const m = Math.max(1, e - s);
      for (let p = s; p < e; p++) for (let c = 0; c < 3; c++) centre[v * 3 + c]! += this.polyPoints[p * 3 + c]! / m;
    }
    return { nodeCount: n, walkable: this.walkable, centre, polyStart: this.polyStart, polyPoints: this.polyPoints, polyEdgeLinked, linkStart, linkTarget, linkPortal, linkOutlineEdge, label, nodeNoun };
  }
}

/** Outline arrays for a triangle mesh: three points per face, in the face's vertex order. */
export function triangleOutlines(positions: ArrayLike<number>, triangles: ArrayLike<number>): { polyStart: Uint32Array; polyPoints: Float64Array } {
  const T = triangles.length / 3;
  const polyStart = new Uint32Array(T + 1);
  for (let t = 0; t <= T; t++) polyStart[t] = t * 3;
  const polyPoints = new Float64Array(T * 9);
  for (let i = 0; i < T * 3; i++) {
    const v = triangles[i]! * 3;
    polyPoints[i * 3] = positions[v]!;
    polyPoints[i * 3 + 1] = positions[v + 1]!;
    polyPoints[i * 3 + 2] = positions[v + 2]!;
  }
  return { polyStart, polyPoints };
}

/**
 * A builder over triangles where `neighbours[3f + e]` is the face across edge e
 * (v_e → v_e+1) of face f, or -1, with a link from every walkable face to every walkable
 * neighbour through the face's own edge (the neighbour's edge coincides with it). Callers
 * add further links (edge links between navmeshes) before finishing.
 */
export function triangleGraphBuilder(positions: ArrayLike<number>, triangles: ArrayLike<number>, walkable: Uint8Array, neighbours: Int32Array): NavGraphBuilder {
  const { polyStart, polyPoints } = triangleOutlines(positions, triangles);
  const T = triangles.length / 3;
  const b = new NavGraphBuilder(T, polyStart, polyPoints, walkable);
  for (let f = 0; f < T; f++) {
    if (!walkable[f]) continue;
    for (let e = 0; e < 3; e++) {
      const g = neighbours[f * 3 + e]!;
      if (g < 0 || g >= T || g === f || !walkable[g]) continue;
      b.addThroughEdge(f, g, e);
    }
  }
  return b;
}
