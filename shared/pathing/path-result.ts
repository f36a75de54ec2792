/** One point as x, y, z. */
export type Point3 = [number, number, number];

/** Why there is no path, as a stable code for scripts. */
export type NoPathCode =
  | 'start-off-mesh'
  | 'end-off-mesh'
  | 'different-components'
  | 'unlinked-edge'
  | 'islands-unreachable'
  | 'one-way'
  | 'baked-tables-broken';

/** Where a query point landed. */
export interface PathEnd {
  /** The node (face or area) the point is on. */
  node: number;
  label: string;
  /** The point on the walkable surface the path starts or ends at. */
  point: Point3;
  /** Horizontal metres the point was moved to reach the surface (0 when it was on it). */
  moved: number;
}

/** A segment of the walkable region's border where a path cannot go on. */
export interface BreakEdge {
  node: number;
  label: string;
  a: Point3;
  b: Point3;
  /** Horizontal distance from the goal. */
  distance: number;
}

/** Two border edges that lie on each other but are not linked (a missing transition, edge link or connection). */
export interface UnlinkedEdge {
  from: number;
  to: number;
  fromLabel: string;
  toLabel: string;
  a: Point3;
  b: Point3;
}

export interface PathResult {
  found: boolean;
  /** Length of the polyline in metres (null without a path). */
  length: number | null;
  /** The polyline from start to end (empty without a path). */
  points: Point3[];
  /** Faces (or Source areas) the path crosses, start and end included. */
  facesCrossed: number;
  /** The corridor: the nodes crossed, in order. */
  corridor: number[];
  /** "faces" or "areas". */
  nodeNoun: string;
  /** How the path was computed: `a-star` or `nwn2-baked-tables`. */
  method: string;
  start: PathEnd | null;
  end: PathEnd | null;
  /** One sentence saying why there is no path (null when found). */
  reason: string | null;
  code: NoPathCode | null;
  /** Connected components of start and end when they differ. */
  components: { start: number; end: number } | null;
  /** NWN2: the islands of start and end and the island route the baked tables give. */
  islands: { start: number; end: number; route: number[] } | null;
  /** Border edges of the start's region nearest the goal: where the walkable region breaks. */
  breaks: BreakEdge[];
  /** Coinciding border edges with no link that would join start and end. */
  unlinked: UnlinkedEdge[];
}

export function emptyResult(method: string, nodeNoun: string): PathResult {
  return {
    found: false,
    length: null,
    points: [],
    facesCrossed: 0,
    corridor: [],
    nodeNoun,
    method,
    start: null,
    end: null,
    reason: null,
    code: null,
    components: null,
    islands: null,
    breaks: [],
    unlinked: [],
  };
}
