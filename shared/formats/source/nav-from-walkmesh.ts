import { NO_OWNER, type Walkmesh } from '../../model/walkmesh';
import { ModelMappingError } from '../../model/model-mapping-error';
import { emptyLadders } from './nav-reader';
import { packAreas, unpackAreas, type NavAreaRecord } from './nav-area-records';
import { NavCorner as C, placesFromList, type NavDocument } from './nav-document';
import { navGates } from './nav-layout';

/**
 * A coordinate read back from text (OBJ) within this relative distance of the stored one
 * keeps the stored bit pattern: Blender prints 6 decimals, which cannot always restore a
 * float32 exactly, and an area nobody moved must not change its bytes.
 */
const KEEP_TOLERANCE = 1e-5;
/** Version written for a mesh that has no base document. */
const NEW_FILE_VERSION = 16;

interface AreaGeometry {
  id: number;
  attributes: number;
  /** nw x y z, se x y z, ne z, sw z */
  corners: Float64Array;
}

/**
 * Applies a walkmesh (areas as face pairs tagged with their area ID, as navToWalkmesh makes
 * them) to a `.nav` document: corners and attributes come from the faces, everything else
 * (connections, hiding spots, visibility…) from `base`. Areas missing from the mesh are
 * removed together with every reference to them; areas new to the mesh are added with
 * empty lists. Without a base, a version-16 SDK file (sub-version 0) is built.
 */
export function navFromWalkmesh(mesh: Walkmesh, base: NavDocument | undefined): NavDocument {
  const baseRecords = base ? unpackAreas(base.areas) : [];
  const baseIdCount = new Map<number, number>();
  for (const r of baseRecords) baseIdCount.set(r.id, (baseIdCount.get(r.id) ?? 0) + 1);
  const geometry = areasOfMesh(mesh, baseIdCount);
  const version = base?.version ?? NEW_FILE_VERSION;
  const attributeLimit = navGates.attributeBytes(version) === 4 ? 0xffffffff : navGates.attributeBytes(version) === 2 ? 0xffff : 0xff;
  for (const g of geometry) {
    if (g.attributes > attributeLimit) {
      throw new ModelMappingError(`area ${g.id}: attribute flags 0x${g.attributes.toString(16)} do not fit the ${navGates.attributeBytes(version)}-byte field of version ${version}`);
    }
  }

  const kept = new Set(geometry.map((g) => g.id));
  const records: NavAreaRecord[] = [];
  const added: AreaGeometry[] = [];
  // Areas sharing one ID (the engine loads such files; lookups find one of them) are
  // matched to their quads in order, as navToWalkmesh laid them out.
  const geometryById = new Map<number, AreaGeometry[]>();
  for (const g of geometry) {
    const list = geometryById.get(g.id);
    if (list) list.push(g);
    else geometryById.set(g.id, [g]);
  }
  for (const r of baseRecords) {
    const g = geometryById.get(r.id)?.shift();
    if (g) records.push(applyGeometry(r, g));
  }
  for (const g of geometry) if (!baseIdCount.has(g.id)) added.push(g);
  added.sort((x, y) => x.id - y.id);
  for (const g of added) records.push(applyGeometry(newRecord(g.id), g));

  // Only references to areas this edit removed are dropped. A reference the file already
  // held to an ID it does not have (12 real CS:GO maps inherit visibility from absent
  // areas; the engine loads them) is not the edit's business and is kept as stored.
  const removed = new Set(baseRecords.filter((r) => !kept.has(r.id)).map((r) => r.id));
  // Before v3 encounter spots are positions, not hiding-spot IDs (and v1 spots have no ID).
  const removedSpots = new Set(navGates.encounterPaths(version) ? baseRecords.filter((r) => removed.has(r.id)).flatMap((r) => r.hidingSpots.map((h) => h.id)) : []);
  for (const r of records) dropReferences(r, (id) => removed.has(id), (id) => removedSpots.has(id));

  const ladders = base ? structuredCloneLadders(base) : emptyLadders();
  for (let i = 0; i < ladders.areas.length; i++) if (removed.has(ladders.areas[i]!)) ladders.areas[i] = 0;

  const present = {
    earliestOccupy: navGates.earliestOccupy(version),
    lightIntensity: navGates.lightIntensity(version),
    visibility: navGates.visibility(version),
    tfAttributes: (base?.customLayout ?? 'none') === 'tf-attributes',
    legacyEncounters: navGates.legacyEncounters(version),
  };
  return {
    version,
    subVersion: base?.subVersion ?? 0,
    bspSize: base?.bspSize ?? 0,
    isAnalyzed: base?.isAnalyzed ?? 0,
    places: base ? { count: base.places.count, data: base.places.data.slice(), start: base.places.start.slice() } : placesFromList([]),
    hasUnnamedAreas: base ? base.hasUnnamedAreas : records.some((r) => r.place === 0) ? 1 : 0,
    customLayout: base?.customLayout ?? 'none',
    areas: packAreas(records, present),
    ladders,
    trailing: base ? base.trailing.slice() : new Uint8Array(0),
  };
}

function structuredCloneLadders(base: NavDocument): NavDocument['ladders'] {
  const L = base.ladders;
  return { count: L.count, id: L.id.slice(), words: L.words.slice(), dangling: L.dangling.slice(), areas: L.areas.slice() };
}

function newRecord(id: number): NavAreaRecord {
  const light = new Float32Array([1, 1, 1, 1]);
  return {
    id,
    attributes: 0,
    corners: new Uint32Array(8),
    connections: [[], [], [], []],
    hidingSpots: [],
    approach: [],
    encounters: [],
    place: 0,
    ladderLinks: [[], []],
    earliestOccupy: new Uint32Array(2),
    // The engine's default light intensity is 1 (fully lit) until nav_analyze measures it.
    lightIntensity: new Uint32Array(light.buffer),
    visible: [],
    inheritVisibilityFrom: 0,
    tfAttributes: 0,
  };
}

function applyGeometry(r: NavAreaRecord, g: AreaGeometry): NavAreaRecord {
  const old = new Float32Array(r.corners.buffer, r.corners.byteOffset, 8);
  const bits = new Uint32Array(8);
  const f = new Float32Array(bits.buffer);
  for (let i = 0; i < 8; i++) {
    const v = g.corners[i]!;
    const o = old[i]!;
    // NaN never equals itself, and a float32 NaN read into a number loses its payload:
    // a NaN corner nobody edited keeps its stored bits.
    if (Math.abs(v - o) <= KEEP_TOLERANCE * Math.max(1, Math.abs(o)) || (Number.isNaN(v) && Number.isNaN(o))) bits[i] = r.corners[i]!;
    else f[i] = v;
  }
  return { ...r, attributes: g.attributes, corners: bits };
}

/**
 * Drops what refers to areas the edit removed, and encounter spots whose hiding spot went
 * with them. A record with no such reference is left as it was (same arrays), so its bytes
 * cannot change.
 */
function dropReferences(r: NavAreaRecord, removed: (id: number) => boolean, spotRemoved: (id: number) => boolean): void {
  if (r.connections.some((list) => list.some(removed))) r.connections = r.connections.map((list) => list.filter((id) => !removed(id))) as NavAreaRecord['connections'];
  if (r.approach.some((e) => removed(e.here) || removed(e.prev) || removed(e.next))) {
    r.approach = r.approach.filter((e) => !removed(e.here) && !removed(e.prev) && !removed(e.next));
  }
  if (r.encounters.some((e) => removed(e.from) || removed(e.to))) r.encounters = r.encounters.filter((e) => !removed(e.from) && !removed(e.to));
  for (const e of r.encounters) if (e.spots.some((s) => spotRemoved(s.id))) e.spots = e.spots.filter((s) => !spotRemoved(s.id));
  if (r.visible.some((v) => removed(v.id))) r.visible = r.visible.filter((v) => !removed(v.id));
  if (removed(r.inheritVisibilityFrom)) r.inheritVisibilityFrom = 0;
}

/**
 * An area's corners read from its two faces as navToWalkmesh lays them out, (NW, NE, SE)
 * and (NW, SE, SW), when the four vertices still make the area's rectangle (NE level with
 * NW and above SE, SW beside NW and level with SE). The corner roles come from the faces,
 * not from comparing coordinates, so an area whose corners coincide (zero width or depth)
 * or are stored out of order comes back with its corners exactly as stored. Undefined for
 * faces laid out otherwise (e.g. a mesh from an OBJ), which the bounding box then reads.
 */
function cornersByTopology(P: Float32Array, T: Uint32Array, list: readonly number[]): Float64Array | undefined {
  if (list.length !== 2) return undefined;
  for (const [f, g] of [[list[0]!, list[1]!], [list[1]!, list[0]!]] as const) {
    const nw = T[f * 3]!;
    const ne = T[f * 3 + 1]!;
    const se = T[f * 3 + 2]!;
    if (T[g * 3] !== nw || T[g * 3 + 1] !== se) continue;
    const sw = T[g * 3 + 2]!;
    const x = (v: number) => P[v * 3]!;
    const y = (v: number) => P[v * 3 + 1]!;
    const eps = 1e-3 * Math.max(1, Math.abs(x(se) - x(nw)), Math.abs(y(se) - y(nw)));
    const near = (a: number, b: number) => a === b || Math.abs(a - b) <= eps || (Number.isNaN(a) && Number.isNaN(b));
    if (!near(y(ne), y(nw)) || !near(x(ne), x(se)) || !near(x(sw), x(nw)) || !near(y(sw), y(se))) continue;
    const corners = new Float64Array(8);
    corners[C.NwX] = x(nw);
    corners[C.NwY] = y(nw);
    corners[C.NwZ] = P[nw * 3 + 2]!;
    corners[C.SeX] = x(se);
    corners[C.SeY] = y(se);
    corners[C.SeZ] = P[se * 3 + 2]!;
    corners[C.NeZ] = P[ne * 3 + 2]!;
    corners[C.SwZ] = P[sw * 3 + 2]!;
    return corners;
  }
  return undefined;
}

/**
 * Groups the faces by area ID and recovers each area's axis-aligned quad. An ID that the
 * base file gives to k > 1 areas owns 2k faces, read as k quads in face order.
 */
function areasOfMesh(mesh: Walkmesh, baseIdCount: ReadonlyMap<number, number>): AreaGeometry[] {
  const faces = new Map<number, number[]>();
  const faceCount = mesh.triangles.length / 3;
  for (let f = 0; f < faceCount; f++) {
    const owner = mesh.faceOwner[f]!;
    if (owner === NO_OWNER) throw new ModelMappingError(`face ${f} has no area ID; every face of a .nav mesh must belong to an area`);
    let list = faces.get(owner);
    if (!list) faces.set(owner, (list = []));
    list.push(f);
  }
  const P = mesh.positions;
  const T = mesh.triangles;
  const out: AreaGeometry[] = [];
  for (const [id, list] of faces) {
    // A file may hold an area with ID 0 (nothing can refer to it); a new one may not.
    if (id === 0 && !baseIdCount.has(0)) throw new ModelMappingError('area ID 0 is reserved for "no area"');
    const shared = baseIdCount.get(id) ?? 0;
    if (shared > 1 && list.length === 2 * shared) {
      const pairs = Array.from({ length: shared }, (_, k) => list.slice(2 * k, 2 * k + 2));
      const quads = pairs.map((pair) => (mesh.faceMaterial[pair[0]!] === mesh.faceMaterial[pair[1]!] ? cornersByTopology(P, T, pair) : undefined));
      if (quads.every((q) => q !== undefined)) {
        quads.forEach((q, k) => out.push({ id, attributes: mesh.faceMaterial[pairs[k]![0]!]!, corners: q! }));
        continue;
      }
    }
    const attributes = mesh.faceMaterial[list[0]!]!;
    for (const f of list) {
      if (mesh.faceMaterial[f] !== attributes) {
        throw new ModelMappingError(`area ${id}: its faces carry different attribute flags (0x${attributes.toString(16)} and 0x${mesh.faceMaterial[f]!.toString(16)})`);
      }
    }
    const quad = cornersByTopology(P, T, list);
    if (quad) {
      out.push({ id, attributes, corners: quad });
      continue;
    }
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const f of list) {
      for (let k = 0; k < 3; k++) {
        const v = T[f * 3 + k]!;
        minX = Math.min(minX, P[v * 3]!);
        maxX = Math.max(maxX, P[v * 3]!);
        minY = Math.min(minY, P[v * 3 + 1]!);
        maxY = Math.max(maxY, P[v * 3 + 1]!);
      }
    }
    const eps = 1e-3 * Math.max(1, maxX - minX, maxY - minY);
    const z: (number | undefined)[] = [undefined, undefined, undefined, undefined]; // NW, NE, SE, SW
    for (const f of list) {
      for (let k = 0; k < 3; k++) {
        const v = T[f * 3 + k]!;
        const x = P[v * 3]!;
        const y = P[v * 3 + 1]!;
        const atMinX = Math.abs(x - minX) <= eps;
        const atMaxX = Math.abs(x - maxX) <= eps;
        const atMinY = Math.abs(y - minY) <= eps;
        const atMaxY = Math.abs(y - maxY) <= eps;
        const corner = atMinX && atMinY ? 0 : atMaxX && atMinY ? 1 : atMaxX && atMaxY ? 2 : atMinX && atMaxY ? 3 : -1;
        if (corner < 0) {
          throw new ModelMappingError(`area ${id}: vertex ${v} at (${x}, ${y}) is not a corner of the area's rectangle; .nav areas are axis-aligned quads`);
        }
        z[corner] ??= P[v * 3 + 2]!;
      }
    }
    const names = ['north-west', 'north-east', 'south-east', 'south-west'];
    z.forEach((value, i) => {
      if (value === undefined) throw new ModelMappingError(`area ${id}: no vertex at its ${names[i]} corner; .nav areas are axis-aligned quads`);
    });
    const corners = new Float64Array(8);
    corners[C.NwX] = minX;
    corners[C.NwY] = minY;
    corners[C.NwZ] = z[0]!;
    corners[C.SeX] = maxX;
    corners[C.SeY] = maxY;
    corners[C.SeZ] = z[2]!;
    corners[C.NeZ] = z[1]!;
    corners[C.SwZ] = z[3]!;
    out.push({ id, attributes, corners });
  }
  return out;
}
