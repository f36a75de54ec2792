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
  const geometry = areasOfMesh(mesh);
  const version = base?.version ?? NEW_FILE_VERSION;
  const attributeLimit = navGates.attributeBytes(version) === 4 ? 0xffffffff : navGates.attributeBytes(version) === 2 ? 0xffff : 0xff;
  for (const g of geometry) {
    if (g.attributes > attributeLimit) {
      throw new ModelMappingError(`area ${g.id}: attribute flags 0x${g.attributes.toString(16)} do not fit the ${navGates.attributeBytes(version)}-byte field of version ${version}`);
    }
  }

  const baseRecords = base ? unpackAreas(base.areas) : [];
  const byId = new Map(baseRecords.map((r) => [r.id, r]));
  const kept = new Set(geometry.map((g) => g.id));
  const records: NavAreaRecord[] = [];
  const added: AreaGeometry[] = [];
  const geometryById = new Map(geometry.map((g) => [g.id, g]));
  for (const r of baseRecords) {
    const g = geometryById.get(r.id);
    if (g) records.push(applyGeometry(r, g));
  }
  for (const g of geometry) if (!byId.has(g.id)) added.push(g);
  added.sort((x, y) => x.id - y.id);
  for (const g of added) records.push(applyGeometry(newRecord(g.id), g));

  const exists = (id: number) => kept.has(id);
  const spots = new Set(records.flatMap((r) => r.hidingSpots.map((h) => h.id)));
  for (const r of records) dropReferences(r, exists, (id) => spots.has(id));

  const ladders = base ? structuredCloneLadders(base) : emptyLadders();
  for (let i = 0; i < ladders.areas.length; i++) if (ladders.areas[i] !== 0 && !exists(ladders.areas[i]!)) ladders.areas[i] = 0;

  const present = {
    earliestOccupy: navGates.earliestOccupy(version),
    lightIntensity: navGates.lightIntensity(version),
    visibility: navGates.visibility(version),
    tfAttributes: (base?.customLayout ?? 'none') === 'tf-attributes',
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
    if (Math.abs(v - o) <= KEEP_TOLERANCE * Math.max(1, Math.abs(o))) bits[i] = r.corners[i]!;
    else f[i] = v;
  }
  return { ...r, attributes: g.attributes, corners: bits };
}

/** Drops what refers to removed areas, and encounter spots whose hiding spot went with them. */
function dropReferences(r: NavAreaRecord, exists: (id: number) => boolean, spotExists: (id: number) => boolean): void {
  r.connections = r.connections.map((list) => list.filter(exists)) as NavAreaRecord['connections'];
  r.approach = r.approach.filter((e) => [e.here, e.prev, e.next].every((id) => id === 0 || exists(id)));
  r.encounters = r.encounters.filter((e) => exists(e.from) && exists(e.to));
  for (const e of r.encounters) if (!e.spots.every((s) => spotExists(s.id))) e.spots = e.spots.filter((s) => spotExists(s.id));
  r.visible = r.visible.filter((v) => exists(v.id));
  if (r.inheritVisibilityFrom !== 0 && !exists(r.inheritVisibilityFrom)) r.inheritVisibilityFrom = 0;
}

/** Groups the faces by area ID and recovers each area's axis-aligned quad. */
function areasOfMesh(mesh: Walkmesh): AreaGeometry[] {
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
    if (id === 0) throw new ModelMappingError('area ID 0 is reserved for "no area"');
    const attributes = mesh.faceMaterial[list[0]!]!;
    for (const f of list) {
      if (mesh.faceMaterial[f] !== attributes) {
        throw new ModelMappingError(`area ${id}: its faces carry different attribute flags (0x${attributes.toString(16)} and 0x${mesh.faceMaterial[f]!.toString(16)})`);
      }
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
