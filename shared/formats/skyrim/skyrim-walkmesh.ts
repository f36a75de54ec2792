import { MalformedInputError } from '../../binary/malformed-input-error';
import { ModelMappingError } from '../../model/model-mapping-error';
import { createWalkmesh, type Walkmesh } from '../../model/walkmesh';
import { naviFloatsOf } from '../../bakers/skyrim/navi-rebake';
import { buildGrid, gridBoundsOf } from '../../bakers/skyrim/navmesh-grid';
import { rebakeCoverList, rebakeEdges } from '../../bakers/skyrim/navmesh-rebake';
import { TRI_EDGE_LINK_BITS, TRI_FOUND, type NvnmDocument } from './nvnm-document';
import { gridDivisorFor, MAX_GRID_DIVISOR } from './nvnm-grid';
import { formIdHex, NVNM_FORMAT, PLUGIN_FORMAT, type PluginDocument, type PluginItem, type Subrecord } from './plugin-document';
import { pluginNavmeshes, type PluginNavmesh } from './plugin-navmeshes';

/** The navmeshes that become walkmeshes: every NAVM with an NVNM version 12. */
function modelled(doc: PluginDocument): (PluginNavmesh & { nvnm: NvnmDocument })[] {
  return pluginNavmeshes(doc).filter((n): n is PluginNavmesh & { nvnm: NvnmDocument } => n.nvnm !== undefined);
}

/**
 * One walkmesh per navmesh, in file order. faceOwner holds the navmesh's index among the
 * plugin's NAVM records (not its FormID: FormIDs do not fit the "owner index" meaning and
 * can collide with NO_OWNER), faceMaterial the triangle flags; every face is walkable.
 */
export function pluginToWalkmeshes(doc: PluginDocument, name: string): Walkmesh[] {
  return modelled(doc).map((n) => {
    const v = n.nvnm;
    const nv = v.vertices.length / 3;
    const triangles = new Uint32Array(v.triVertices);
    const bad = triangles.findIndex((i) => i >= nv);
    if (bad >= 0) {
      throw new MalformedInputError({
        format: NVNM_FORMAT, offset: n.record.sourceOffset, field: `NAVM ${formIdHex(n.formId)} NVNM.triangles[${Math.floor(bad / 3)}]`,
        expected: `vertex indices below ${nv}`, found: String(triangles[bad]),
      });
    }
    const faces = v.triFlags.length;
    return createWalkmesh({
      name: `${name} NAVM ${formIdHex(n.formId)}`,
      game: 'skyrim',
      format: PLUGIN_FORMAT,
      positions: new Float32Array(new Uint32Array(v.vertices).buffer),
      triangles,
      faceWalkable: new Uint8Array(faces).fill(1),
      faceMaterial: new Uint32Array(v.triFlags),
      faceOwner: new Uint32Array(faces).fill(n.index),
    });
  });
}

function sameWords(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The navmesh's vertex positions taken from the walkmesh through the corners of the faces
 * that stand for its stored triangles: mesh vertex `triangles[c]` is navmesh vertex
 * `triVertices[c]`. This survives an OBJ round trip, which renumbers and compacts vertices
 * but keeps the faces in order. Undefined when the corners do not map consistently (the
 * faces were re-cut).
 */
function positionsThroughCorners(v: NvnmDocument, mesh: Walkmesh): { vertices: Uint32Array; toNavmesh: Int32Array } | undefined {
  const meshBits = new Uint32Array(mesh.positions.buffer, mesh.positions.byteOffset, mesh.positions.length);
  const toNavmesh = new Int32Array(meshBits.length / 3).fill(-1);
  const out = new Uint32Array(v.vertices);
  const set = new Uint8Array(v.vertices.length / 3);
  for (let c = 0; c < v.triVertices.length; c++) {
    const mv = mesh.triangles[c]!;
    const nv = v.triVertices[c]!;
    if (nv >= set.length || mv >= toNavmesh.length) return undefined;
    if (toNavmesh[mv] === -1) toNavmesh[mv] = nv;
    else if (toNavmesh[mv] !== nv) return undefined;
    if (set[nv]) {
      for (let a = 0; a < 3; a++) if (out[nv * 3 + a] !== meshBits[mv * 3 + a]) return undefined;
      continue;
    }
    set[nv] = 1;
    for (let a = 0; a < 3; a++) out[nv * 3 + a] = meshBits[mv * 3 + a]!;
  }
  return { vertices: out, toNavmesh };
}

const LINK_BITS = TRI_EDGE_LINK_BITS[0] | TRI_EDGE_LINK_BITS[1] | TRI_EDGE_LINK_BITS[2];

/**
 * The walkmesh's faces as navmesh triangles, keeping every stored triangle's index: the
 * first faces are the stored triangles (same corners, or re-cut over the same numbering)
 * and any further face is appended, with the vertices the navmesh lacks appended too.
 */
function meshGeometry(v: NvnmDocument, mesh: Walkmesh, formId: number): { vertices: Uint32Array; triVertices: Uint16Array } {
  const faces = mesh.triangles.length / 3;
  const nt = v.triFlags.length;
  const mapped = positionsThroughCorners(v, mesh);
  if (mapped) {
    if (faces === nt) return { vertices: mapped.vertices, triVertices: v.triVertices };
    const meshBits = new Uint32Array(mesh.positions.buffer, mesh.positions.byteOffset, mesh.positions.length);
    const extra: number[] = [];
    let nv = mapped.vertices.length / 3;
    const triVertices = new Uint16Array(faces * 3);
    triVertices.set(v.triVertices);
    for (let c = nt * 3; c < faces * 3; c++) {
      const mv = mesh.triangles[c]!;
      if (mapped.toNavmesh[mv] === -1) {
        mapped.toNavmesh[mv] = nv++;
        for (let a = 0; a < 3; a++) extra.push(meshBits[mv * 3 + a]!);
      }
      triVertices[c] = mapped.toNavmesh[mv]!;
    }
    if (nv > 0xffff) throw new ModelMappingError(`navmesh ${formIdHex(formId)}: ${nv} vertices do not fit u16 indices`);
    const vertices = new Uint32Array(mapped.vertices.length + extra.length);
    vertices.set(mapped.vertices);
    vertices.set(extra, mapped.vertices.length);
    return { vertices, triVertices };
  }
  // Re-cut faces over the navmesh's own numbering (new vertices appended): take it as it is.
  const vertices = new Uint32Array(mesh.positions.buffer.slice(mesh.positions.byteOffset, mesh.positions.byteOffset + mesh.positions.byteLength));
  if (vertices.length < v.vertices.length) {
    throw new ModelMappingError(`navmesh ${formIdHex(formId)}: the faces no longer match the navmesh's vertices (${v.vertices.length / 3} → ${vertices.length / 3})`);
  }
  for (const i of mesh.triangles) if (i > 0xffff) throw new ModelMappingError(`navmesh ${formIdHex(formId)}: vertex index ${i} does not fit a u16`);
  return { vertices, triVertices: new Uint16Array(mesh.triangles) };
}

/** The NVNM with a walkmesh's geometry and flags applied; the same object when nothing changed. */
function applyMesh(v: NvnmDocument, mesh: Walkmesh, formId: number): NvnmDocument {
  const nt = v.triFlags.length;
  const faces = mesh.triangles.length / 3;
  if (faces < nt) {
    // Neighbours and door references store triangle indices (spec §11); which triangles went is not known here.
    throw new ModelMappingError(`navmesh ${formIdHex(formId)}: removing triangles through the walkmesh (${nt} → ${faces}) is not supported, as it would renumber triangles that neighbours and doors name; delete them with a navmesh edit, which keeps border triangles' indices`);
  }
  if (faces > 0x7fff) throw new ModelMappingError(`navmesh ${formIdHex(formId)}: ${faces} triangles exceed the s16 limit of 32767`);
  // Link bits belong to the link lists: stored triangles keep theirs, new ones get none.
  const flags = Uint16Array.from(mesh.faceMaterial, (m, t) => (t < nt ? (m & 0xffff & ~LINK_BITS) | (v.triFlags[t]! & LINK_BITS) : m & 0xffff & ~LINK_BITS || TRI_FOUND));
  const { vertices, triVertices } = meshGeometry(v, mesh, formId);
  const topologyChanged = !sameWords(triVertices, v.triVertices);
  const geometryChanged = topologyChanged || !sameWords(vertices, v.vertices);
  if (!geometryChanged && sameWords(flags, v.triFlags)) return v;
  const next: NvnmDocument = { ...v, vertices, triVertices, triFlags: flags };
  if (!geometryChanged) return next;
  if (topologyChanged) {
    const triCover = new Uint16Array(faces);
    triCover.set(v.triCover);
    const triEdges = new Int16Array(faces * 3).fill(-1);
    triEdges.set(v.triEdges);
    Object.assign(next, { triCover, triEdges });
    const edges = rebakeEdges(next);
    Object.assign(next, { triEdges: edges.triEdges, triFlags: edges.triFlags });
    next.coverTriangles = rebakeCoverList(next);
  }
  const keep = v.gridDivisor >= 1 && v.gridDivisor <= MAX_GRID_DIVISOR && faces === nt;
  if (keep && !topologyChanged && sameXY(vertices, v.vertices)) {
    // The grid lists each triangle by its x, y footprint (navmesh-grid.ts), so a move
    // straight up or down keeps every stored list; only the bounds' heights follow. A
    // rebuild would replace the CK's lists with buildGrid's, which differ by one entry on
    // 2 of the 23 fixture navmeshes (found by test/integration/fixture-corpus.test.ts).
    const b = new Uint32Array(gridBoundsOf(next, v.gridDivisor).buffer);
    const gridBounds = v.gridBounds.slice();
    gridBounds[GRID_MIN_Z] = b[GRID_MIN_Z]!;
    gridBounds[GRID_MAX_Z] = b[GRID_MAX_Z]!;
    return Object.assign(next, { gridBounds });
  }
  return Object.assign(next, buildGrid(next, keep ? v.gridDivisor : gridDivisorFor(faces)));
}

/** Words of the grid bounds (max distance x, y; min x, y, z; max x, y, z) that depend on heights. */
const GRID_MIN_Z = 4;
const GRID_MAX_Z = 7;

/** True when every vertex keeps its x and y bits (heights may differ). */
function sameXY(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 3) if (a[i] !== b[i] || a[i + 1] !== b[i + 1]) return false;
  return true;
}

interface Replacement {
  byDocument: Map<NvnmDocument, NvnmDocument>;
  /** New NVMI floats by navmesh FormID, for the NAVI entries of edited navmeshes. */
  naviFloats: Map<number, Uint32Array>;
}

function replaceNvnm(items: readonly PluginItem[], r: Replacement): PluginItem[] {
  return items.map((item) => {
    if (item.kind === 'group') return { ...item, children: replaceNvnm(item.children, r) };
    if (item.signature !== 'NAVM' && item.signature !== 'NAVI') return item;
    let changed = false;
    const subrecords = item.subrecords.map((s): Subrecord => {
      if (s.kind === 'nvnm') {
        const next = r.byDocument.get(s.nvnm);
        if (!next) return s;
        changed = true;
        return { ...s, nvnm: next };
      }
      if (s.kind === 'nvmi') {
        const floats = r.naviFloats.get(s.nvmi.navmesh);
        if (!floats) return s;
        changed = true;
        return { ...s, nvmi: { ...s.nvmi, floats } };
      }
      return s;
    });
    return changed ? { ...item, subrecords } : item;
  });
}

/**
 * The plugin with the walkmeshes (one per modelled navmesh, in pluginToWalkmeshes order)
 * applied; unchanged navmeshes keep their NVNM, so an unchanged model writes identical bytes.
 * An edited navmesh's NAVI entry gets its new vertex mean and preferred fraction.
 */
export function pluginFromWalkmeshes(meshes: readonly Walkmesh[], base: PluginDocument | undefined): PluginDocument {
  if (!base) throw new ModelMappingError('a Skyrim plugin cannot be built from walkmeshes alone: open the plugin the navmeshes belong to');
  const navmeshes = modelled(base);
  if (meshes.length !== navmeshes.length) throw new ModelMappingError(`the plugin has ${navmeshes.length} navmeshes, not ${meshes.length}`);
  const r: Replacement = { byDocument: new Map(), naviFloats: new Map() };
  navmeshes.forEach((n, i) => {
    const next = applyMesh(n.nvnm, meshes[i]!, n.formId);
    if (next === n.nvnm) return;
    r.byDocument.set(n.nvnm, next);
    r.naviFloats.set(n.formId, naviFloatsOf(next));
  });
  return r.byDocument.size === 0 ? base : { items: replaceNvnm(base.items, r) };
}
