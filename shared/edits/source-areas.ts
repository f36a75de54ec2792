import { faceCount, vertexCount, type Walkmesh } from '../model/walkmesh';
import type { BatchCommand, MergeAreasCommand, SplitAreaCommand } from './edit-command';
import { EditError } from './edit-error';
import { checkCoordinate, checkUint32 } from './edit-checks';

/** A Source area in the model: its two faces and its corners NW, NE, SE, SW (north is -Y). */
interface AreaQuad {
  faces: number[];
  corners: [number, number, number, number];
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

function areaQuad(mesh: Walkmesh, id: number, kind: string): AreaQuad {
  if (mesh.game !== 'source') throw new EditError(kind, `"${mesh.name}" is not a Source .nav mesh; areas are a Source notion`);
  checkUint32(id, kind, 'area');
  const faces: number[] = [];
  for (let f = 0; f < faceCount(mesh); f++) if (mesh.faceOwner[f] === id) faces.push(f);
  if (faces.length === 0) throw new EditError(kind, `"${mesh.name}" has no area ${id}`);
  const P = mesh.positions;
  const vertices = new Set<number>();
  for (const f of faces) for (let k = 0; k < 3; k++) vertices.add(mesh.triangles[f * 3 + k]!);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const v of vertices) {
    minX = Math.min(minX, P[v * 3]!);
    maxX = Math.max(maxX, P[v * 3]!);
    minY = Math.min(minY, P[v * 3 + 1]!);
    maxY = Math.max(maxY, P[v * 3 + 1]!);
  }
  const corner = (x: number, y: number): number => {
    for (const v of vertices) if (P[v * 3] === x && P[v * 3 + 1] === y) return v;
    throw new EditError(kind, `area ${id} has no vertex at its corner (${x}, ${y}); it is not the rectangle a .nav area is`);
  };
  if (faces.length !== 2 || vertices.size !== 4) throw new EditError(kind, `area ${id} has ${faces.length} faces on ${vertices.size} vertices, not the two faces on four corners that Walkbench reads a .nav area as`);
  return { faces, corners: [corner(minX, minY), corner(maxX, minY), corner(maxX, maxY), corner(minX, maxY)], minX, minY, maxX, maxY };
}

function nextAreaId(mesh: Walkmesh): number {
  let max = 0;
  for (let f = 0; f < faceCount(mesh); f++) if (mesh.faceOwner[f] !== 0xffffffff) max = Math.max(max, mesh.faceOwner[f]!);
  return max + 1;
}

/**
 * Splits a Source area in two at `at` along x (a north–south cut) or y: the area keeps its
 * ID, connections and the west (north) part; the east (south) part becomes a new area with
 * the next free ID and no connections (nav_split's connections are the game's to rebuild
 * with nav_analyze). Corner heights on the cut are interpolated along the edges.
 */
export function compileSplitArea(mesh: Walkmesh, cmd: SplitAreaCommand): BatchCommand {
  const kind = cmd.kind;
  const q = areaQuad(mesh, cmd.area, kind);
  if (cmd.axis !== 'x' && cmd.axis !== 'y') throw new EditError(kind, `axis is ${String(cmd.axis)}, not "x" or "y"`);
  checkCoordinate(cmd.at, kind, 'at');
  const at = Math.fround(cmd.at);
  const [lo, hi] = cmd.axis === 'x' ? [q.minX, q.maxX] : [q.minY, q.maxY];
  if (!(at > lo && at < hi)) throw new EditError(kind, `at ${cmd.at} is not strictly inside area ${cmd.area}'s ${cmd.axis} range ${lo} .. ${hi}`);
  const P = mesh.positions;
  const [nw, ne, se, sw] = q.corners;
  const t = (at - lo) / (hi - lo);
  const z = (a: number, b: number) => Math.fround(P[a * 3 + 2]! + (P[b * 3 + 2]! - P[a * 3 + 2]!) * t);
  // The two cut points, once for each half: along x they sit on the north and south edges, along y on the west and east edges.
  const cut =
    cmd.axis === 'x'
      ? [at, q.minY, z(nw, ne), at, q.maxY, z(sw, se)]
      : [q.minX, at, z(nw, sw), q.maxX, at, z(ne, se)];
  const V = vertexCount(mesh);
  const [c0, c1, d0, d1] = [V, V + 1, V + 2, V + 3];
  // Kept part (NW, NE, SE, SW order) and the new part, as navToWalkmesh lays out an area.
  const kept = cmd.axis === 'x' ? [nw, c0, c1, sw] : [nw, ne, c1, c0];
  const added = cmd.axis === 'x' ? [d0, ne, se, d1] : [d0, d1, se, sw];
  const quad = (c: number[]) => [c[0]!, c[1]!, c[2]!, c[0]!, c[2]!, c[3]!];
  const F = faceCount(mesh);
  const id = nextAreaId(mesh);
  const material = mesh.faceMaterial[q.faces[0]!]!;
  return {
    kind: 'batch',
    commands: [
      { kind: 'append-vertices', positions: [...cut, ...cut] },
      { kind: 'set-triangles', faces: q.faces, triangles: quad(kept) },
      { kind: 'insert-faces', at: [F, F + 1], triangles: quad(added), walkable: [1, 1], material: [material, material], owner: [id, id] },
    ],
  };
}

/**
 * Merges area `remove` into area `keep` when together they make one rectangle (they share
 * a whole side): `keep` grows over both and keeps its ID and connections; `remove` goes,
 * and with it every reference to it when the file is written.
 */
export function compileMergeAreas(mesh: Walkmesh, cmd: MergeAreasCommand): BatchCommand {
  const kind = cmd.kind;
  if (cmd.keep === cmd.remove) throw new EditError(kind, `keep and remove are both area ${cmd.keep}`);
  const a = areaQuad(mesh, cmd.keep, kind);
  const b = areaQuad(mesh, cmd.remove, kind);
  const P = mesh.positions;
  const [nw, ne, se, sw] = a.corners;
  const pos = (v: number) => [P[v * 3]!, P[v * 3 + 1]!, P[v * 3 + 2]!];
  let vertices: number[];
  let positions: number[];
  if (a.minY === b.minY && a.maxY === b.maxY && (a.maxX === b.minX || b.maxX === a.minX)) {
    // Side by side: the kept area's east (or west) corners move to the other's far side.
    vertices = a.maxX === b.minX ? [ne, se] : [nw, sw];
    positions = a.maxX === b.minX ? [...pos(b.corners[1]), ...pos(b.corners[2])] : [...pos(b.corners[0]), ...pos(b.corners[3])];
  } else if (a.minX === b.minX && a.maxX === b.maxX && (a.maxY === b.minY || b.maxY === a.minY)) {
    vertices = a.maxY === b.minY ? [sw, se] : [nw, ne];
    positions = a.maxY === b.minY ? [...pos(b.corners[3]), ...pos(b.corners[2])] : [...pos(b.corners[0]), ...pos(b.corners[1])];
  } else {
    throw new EditError(kind, `areas ${cmd.keep} and ${cmd.remove} do not share a whole side, so together they are not one rectangle`);
  }
  return { kind: 'batch', commands: [{ kind: 'move-vertices', vertices, positions }, { kind: 'delete-faces', faces: b.faces }] };
}
