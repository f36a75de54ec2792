import { MalformedInputError } from '../../binary/malformed-input-error';
import { ModelMappingError } from '../../model/model-mapping-error';
import { createWalkmesh, type Walkmesh } from '../../model/walkmesh';
import { COVER_MASK, TRI_PREFERRED, type NvnmDocument } from './nvnm-document';
import { gridDivisorFor, MAX_GRID_DIVISOR, rebuildGrid } from './nvnm-grid';
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
 * The navmesh's vertex positions taken from the walkmesh through the face corners: mesh
 * vertex `triangles[c]` is navmesh vertex `triVertices[c]`. This survives an OBJ round trip,
 * which renumbers and compacts vertices but keeps the faces in order. Undefined when the
 * corners do not map consistently (the faces were re-cut).
 */
function positionsThroughCorners(v: NvnmDocument, mesh: Walkmesh): Uint32Array | undefined {
  const meshBits = new Uint32Array(mesh.positions.buffer, mesh.positions.byteOffset, mesh.positions.length);
  const toNavmesh = new Int32Array(meshBits.length / 3).fill(-1);
  const out = new Uint32Array(v.vertices);
  const set = new Uint8Array(v.vertices.length / 3);
  for (let c = 0; c < v.triVertices.length; c++) {
    const mv = mesh.triangles[c]!;
    const nv = v.triVertices[c]!;
    if (nv >= set.length) return undefined;
    if (toNavmesh[mv] === -1) toNavmesh[mv] = nv;
    else if (toNavmesh[mv] !== nv) return undefined;
    if (set[nv]) {
      for (let a = 0; a < 3; a++) if (out[nv * 3 + a] !== meshBits[mv * 3 + a]) return undefined;
      continue;
    }
    set[nv] = 1;
    for (let a = 0; a < 3; a++) out[nv * 3 + a] = meshBits[mv * 3 + a]!;
  }
  return out;
}

/** The NVNM with a walkmesh's geometry and flags applied; the same object when nothing changed. */
function applyMesh(v: NvnmDocument, mesh: Walkmesh, formId: number): NvnmDocument {
  if (mesh.triangles.length !== v.triVertices.length) {
    // Neighbours and door references store triangle indices (spec §11), so the count must stay.
    throw new ModelMappingError(`navmesh ${formIdHex(formId)}: changing the triangle count (${v.triFlags.length} → ${mesh.triangles.length / 3}) is not supported`);
  }
  const flags = Uint16Array.from(mesh.faceMaterial, (m) => m & 0xffff);
  let vertices = positionsThroughCorners(v, mesh);
  let triVertices = v.triVertices;
  if (!vertices) {
    // Re-cut faces over the same vertices: take the walkmesh's numbering as it is.
    vertices = new Uint32Array(mesh.positions.buffer.slice(mesh.positions.byteOffset, mesh.positions.byteOffset + mesh.positions.byteLength));
    if (vertices.length !== v.vertices.length) {
      throw new ModelMappingError(`navmesh ${formIdHex(formId)}: the faces no longer match the navmesh's vertices (${v.vertices.length / 3} → ${vertices.length / 3})`);
    }
    for (const i of mesh.triangles) if (i > 0xffff) throw new ModelMappingError(`navmesh ${formIdHex(formId)}: vertex index ${i} does not fit a u16`);
    triVertices = new Uint16Array(mesh.triangles);
  }
  const geometryChanged = !sameWords(vertices, v.vertices) || triVertices !== v.triVertices;
  if (!geometryChanged && sameWords(flags, v.triFlags)) return v;
  const next: NvnmDocument = { ...v, vertices, triVertices, triFlags: flags };
  if (geometryChanged) {
    const divisor = v.gridDivisor >= 1 && v.gridDivisor <= MAX_GRID_DIVISOR ? v.gridDivisor : gridDivisorFor(v.triFlags.length);
    Object.assign(next, rebuildGrid(next, divisor));
    const cover: number[] = [];
    for (let t = 0; t < next.triCover.length; t++) if ((next.triCover[t]! & COVER_MASK) !== 0) cover.push(t);
    next.coverTriangles = new Int16Array(cover);
  }
  return next;
}

/** The NVMI floats the CK derives from a navmesh: vertex mean x, y, z and the preferred-triangle fraction (spec §9.1). */
export function nvmiFloatsOf(v: NvnmDocument): Uint32Array {
  const p = new Float32Array(new Uint32Array(v.vertices).buffer);
  const nv = p.length / 3;
  const sum = [0, 0, 0];
  for (let i = 0; i < p.length; i++) sum[i % 3] += p[i]!;
  let preferred = 0;
  for (const f of v.triFlags) if (f & TRI_PREFERRED) preferred++;
  const nt = v.triFlags.length;
  const out = new Float32Array([nv ? sum[0]! / nv : 0, nv ? sum[1]! / nv : 0, nv ? sum[2]! / nv : 0, nt ? preferred / nt : 0]);
  return new Uint32Array(out.buffer);
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
    r.naviFloats.set(n.formId, nvmiFloatsOf(next));
  });
  return r.byDocument.size === 0 ? base : { items: replaceNvnm(base.items, r) };
}
