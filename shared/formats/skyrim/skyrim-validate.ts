import type { Finding } from '../../validation/finding';
import { FindingSink } from '../../validation/finding-sink';
import { TRI_DOOR, TRI_EDGE_LINK_BITS, type NvnmDocument } from './nvnm-document';
import { MAX_GRID_DIVISOR } from './nvnm-grid';
import { formIdHex, type PluginDocument } from './plugin-document';
import { pluginMasters, pluginNavmeshes, type PluginNavmesh } from './plugin-navmeshes';

/** A master plugin given to check links against, by its file name as the MAST list spells it. */
export interface MasterPlugin {
  name: string;
  doc: PluginDocument;
}

/** A navmesh with its links translated to load-order-independent keys (`file:local id`). */
interface KeyedNavmesh {
  navmesh: PluginNavmesh;
  nvnm: NvnmDocument;
  key: string;
  /** Key of each edge link's target navmesh. */
  linkKeys: string[];
  fromPlugin: boolean;
}

function keyer(masters: readonly string[], self: string): (formId: number) => string {
  return (formId) => {
    const top = formId >>> 24;
    const file = top < masters.length ? masters[top]! : self;
    return `${file.toLowerCase()}:${(formId & 0xffffff).toString(16)}`;
  };
}

function keyed(doc: PluginDocument, self: string, fromPlugin: boolean, deleted?: Map<string, string>): KeyedNavmesh[] {
  const key = keyer(pluginMasters(doc), self);
  const out: KeyedNavmesh[] = [];
  for (const n of pluginNavmeshes(doc)) {
    if (n.deleted && deleted && !deleted.has(key(n.formId))) deleted.set(key(n.formId), self);
    if (!n.nvnm || n.deleted) continue;
    out.push({ navmesh: n, nvnm: n.nvnm, key: key(n.formId), linkKeys: Array.from(n.nvnm.edgeLinkNavmesh, key), fromPlugin });
  }
  return out;
}

/** Where links can point: the navmeshes of the plugin and the given masters. */
interface LinkTargets {
  byKey: ReadonlyMap<string, KeyedNavmesh>;
  /** Keys of deleted NAVM records → the file that deletes them. */
  deleted: ReadonlyMap<string, string>;
  /** Lower-case names of the files whose navmeshes are all known (the plugin and the given masters). */
  known: ReadonlySet<string>;
  /** Lower-case file name → the name as the plugin's header spells it. */
  names: ReadonlyMap<string, string>;
}

const fileOfKey = (key: string) => key.slice(0, key.lastIndexOf(':'));

function triangleArea2(pos: Float32Array, nv: number, a: number, b: number, c: number): number {
  if (a >= nv || b >= nv || c >= nv) return NaN;
  const ux = pos[b * 3]! - pos[a * 3]!, uy = pos[b * 3 + 1]! - pos[a * 3 + 1]!, uz = pos[b * 3 + 2]! - pos[a * 3 + 2]!;
  const vx = pos[c * 3]! - pos[a * 3]!, vy = pos[c * 3 + 1]! - pos[a * 3 + 1]!, vz = pos[c * 3 + 2]! - pos[a * 3 + 2]!;
  const x = uy * vz - uz * vy, y = uz * vx - ux * vz, z = ux * vy - uy * vx;
  return Math.sqrt(x * x + y * y + z * z);
}

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]!]!;
    i = parent[i]!;
  }
  return i;
}

function checkNavmesh(sink: FindingSink, k: KeyedNavmesh, targets: LinkTargets): void {
  const v = k.nvnm;
  const id = formIdHex(k.navmesh.formId);
  const nv = v.vertices.length / 3;
  const nt = v.triFlags.length;
  const nl = v.edgeLinkType.length;
  const pos = new Float32Array(new Uint32Array(v.vertices).buffer);
  const tri = (t: number) => ({ kind: 'triangle' as const, id: t });
  const parent = new Int32Array(nt).map((_, i) => i);
  const linkUses = new Uint32Array(nl);
  const reaches = new Uint8Array(nt);
  let linkBits = 0;

  const navmeshSubject = { kind: 'navmesh' as const, id: k.navmesh.formId };
  const finiteVertex = new Uint8Array(nv);
  for (let i = 0; i < nv; i++) {
    const x = pos[i * 3]!, y = pos[i * 3 + 1]!, z = pos[i * 3 + 2]!;
    if (Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z)) finiteVertex[i] = 1;
    else sink.error('navm.vertex.not-finite', navmeshSubject, () => `navmesh ${id} vertex ${i} is at (${x}, ${y}, ${z}); every coordinate must be a finite number`);
  }
  checkGridHeader(sink, v, id, navmeshSubject);
  for (let t = 0; t < nt; t++) {
    const a = v.triVertices[t * 3]!, b = v.triVertices[t * 3 + 1]!, c = v.triVertices[t * 3 + 2]!;
    if (a >= nv || b >= nv || c >= nv) {
      sink.error('navm.triangle.vertex-range', tri(t), () => `navmesh ${id} triangle ${t} uses vertices (${a}, ${b}, ${c}) but the navmesh has ${nv}`);
    } else if (!finiteVertex[a] || !finiteVertex[b] || !finiteVertex[c]) {
      // Reported with its vertex above; its area means nothing.
    } else if (triangleArea2(pos, nv, a, b, c) === 0) {
      sink.warning('navm.triangle.zero-area', tri(t), () => `navmesh ${id} triangle ${t} has zero area`);
    }
    for (let e = 0; e < 3; e++) {
      const value = v.triEdges[t * 3 + e]!;
      if ((v.triFlags[t]! & TRI_EDGE_LINK_BITS[e]!) !== 0) {
        linkBits++;
        if (value < 0 || value >= nl) {
          sink.error('navm.triangle.edge-link-range', tri(t), () => `navmesh ${id} triangle ${t} edge ${e} is flagged as an edge link but names link ${value} of ${nl}`);
        } else {
          linkUses[value]!++;
          reaches[t] = 1;
        }
      } else if (value !== -1) {
        if (value < 0 || value >= nt) {
          sink.error('navm.triangle.neighbour-range', tri(t), () => `navmesh ${id} triangle ${t} edge ${e} names triangle ${value} but the navmesh has ${nt}`);
        } else {
          const back = [0, 1, 2].some((f) => v.triEdges[value * 3 + f] === t && (v.triFlags[value]! & TRI_EDGE_LINK_BITS[f]!) === 0);
          if (!back) sink.warning('navm.triangle.neighbour-asymmetric', tri(t), () => `navmesh ${id} triangle ${t} edge ${e} borders triangle ${value}, which does not border it back`);
          parent[find(parent, t)] = find(parent, value);
        }
      }
    }
  }
  checkOpenSharedEdges(sink, v, id);
  if (linkBits !== nl) {
    sink.warning('navm.edge-link.count', { kind: 'navmesh', id: k.navmesh.formId }, () => `navmesh ${id} has ${linkBits} edges flagged as links but ${nl} edge-link entries (one per linked edge expected)`);
  }
  for (let i = 0; i < nl; i++) {
    if (linkUses[i]! > 1) sink.warning('navm.edge-link.shared', { kind: 'navmesh', id: k.navmesh.formId }, () => `navmesh ${id} edge link ${i} is used by ${linkUses[i]} edges`);
    else if (linkUses[i] === 0) sink.warning('navm.edge-link.unused', { kind: 'navmesh', id: k.navmesh.formId }, () => `navmesh ${id} edge link ${i} is used by no edge`);
  }
  for (const t of v.coverTriangles) {
    if (t < 0 || t >= nt) sink.error('navm.cover.triangle-range', navmeshSubject, () => `navmesh ${id} cover list names triangle ${t} but the navmesh has ${nt}`);
  }
  for (const t of v.gridTriangles) {
    if (t < 0 || t >= nt) sink.error('navm.grid.triangle-range', navmeshSubject, () => `navmesh ${id} grid names triangle ${t} but the navmesh has ${nt}`);
  }
  checkLinks(sink, k, targets, id);
  checkDoors(sink, v, k.navmesh.formId, reaches);
  checkIslands(sink, v, id, parent, reaches);
}

/**
 * The grid header: its bounds are geometry (the game finds a point's cell from them), and a
 * divisor outside 1..12 is one the Creation Kit never writes and xEdit cannot read (its
 * cell counter gives 0 cells above 12).
 */
function checkGridHeader(sink: FindingSink, v: NvnmDocument, id: string, subject: { kind: 'navmesh'; id: number }): void {
  const bounds = new Float32Array(new Uint32Array(v.gridBounds).buffer);
  const names = ['max X distance', 'max Y distance', 'min X', 'min Y', 'min Z', 'max X', 'max Y', 'max Z'];
  for (let i = 0; i < bounds.length; i++) {
    if (!Number.isFinite(bounds[i]!)) sink.error('navm.grid.bounds-not-finite', subject, () => `navmesh ${id} grid ${names[i]} is ${bounds[i]}; it must be a finite number`);
  }
  if (v.gridDivisor < 1 || v.gridDivisor > MAX_GRID_DIVISOR) {
    sink.warning('navm.grid.divisor', subject, () => `navmesh ${id} grid divisor is ${v.gridDivisor} (${v.gridDivisor * v.gridDivisor} cells); the Creation Kit writes 1..${MAX_GRID_DIVISOR} and xEdit reads no cells above ${MAX_GRID_DIVISOR} (a bake rebuilds the grid)`);
  }
}

/**
 * Two triangles that share an edge (the same two vertices, opposite winding) while both
 * sides store it as open (−1, not an edge link): creatures cannot cross it. This is what
 * the CK itself reports as "Triangle A Edge i and Triangle B Edge j should be linked, but
 * they are not"; two fixture navmeshes carry one such pair each, and the rebake links them.
 * One hash of directed edges, so linear in the triangle count.
 */
function checkOpenSharedEdges(sink: FindingSink, v: NvnmDocument, id: string): void {
  const nt = v.triFlags.length;
  const nv = v.vertices.length / 3;
  const open = new Map<number, number>();
  const isOpen = (t: number, e: number) => v.triEdges[t * 3 + e] === -1 && (v.triFlags[t]! & TRI_EDGE_LINK_BITS[e]!) === 0;
  for (let t = 0; t < nt; t++) {
    for (let e = 0; e < 3; e++) {
      if (!isOpen(t, e)) continue;
      const a = v.triVertices[t * 3 + e]!, b = v.triVertices[t * 3 + ((e + 1) % 3)]!;
      if (a >= nv || b >= nv) continue;
      open.set(a * 65536 + b, t * 3 + e);
    }
  }
  for (const [key, slot] of open) {
    const a = Math.floor(key / 65536), b = key % 65536;
    if (a > b) continue;
    const other = open.get(b * 65536 + a);
    if (other === undefined) continue;
    const t = Math.floor(slot / 3), u = Math.floor(other / 3);
    if (t === u) continue;
    sink.warning('navm.edge.open-shared', { kind: 'triangle', id: t }, () =>
      `navmesh ${id} triangle ${t} edge ${slot % 3} and triangle ${u} edge ${other % 3} share vertices ${a} and ${b} but are not linked: nothing can walk across (a rebake links them)`);
  }
}

/**
 * Each edge link must point at an existing triangle that links back. A link into a file
 * that was not given (a master left out) cannot be checked: it is reported once per target
 * navmesh as unverifiable, not as an error.
 */
function checkLinks(sink: FindingSink, k: KeyedNavmesh, targets: LinkTargets, id: string): void {
  const v = k.nvnm;
  const nt = v.triFlags.length;
  const unverifiable = new Map<number, { file: string; links: number }>();
  for (let t = 0; t < nt; t++) {
    for (let e = 0; e < 3; e++) {
      if ((v.triFlags[t]! & TRI_EDGE_LINK_BITS[e]!) === 0) continue;
      const li = v.triEdges[t * 3 + e]!;
      if (li < 0 || li >= v.edgeLinkType.length) continue;
      const linkKey = k.linkKeys[li]!;
      const target = targets.byKey.get(linkKey);
      if (!target) {
        const file = targets.names.get(fileOfKey(linkKey)) ?? fileOfKey(linkKey);
        const to = formIdHex(v.edgeLinkNavmesh[li]!);
        const deletedIn = targets.deleted.get(linkKey);
        if (deletedIn !== undefined || targets.known.has(file.toLowerCase())) {
          sink.error('navm.edge-link.missing-navmesh', { kind: 'triangle', id: t }, () =>
            `navmesh ${id} triangle ${t} links to navmesh ${to} of ${file}, which ${deletedIn !== undefined ? `${deletedIn} deletes` : 'holds no such navmesh'}`);
        } else {
          const u = unverifiable.get(v.edgeLinkNavmesh[li]!) ?? { file, links: 0 };
          u.links++;
          unverifiable.set(v.edgeLinkNavmesh[li]!, u);
        }
        continue;
      }
      const tv = target.nvnm;
      const u = v.edgeLinkTriangle[li]!;
      const tid = formIdHex(target.navmesh.formId);
      if (u < 0 || u >= tv.triFlags.length) {
        sink.error('navm.edge-link.triangle-range', { kind: 'triangle', id: t }, () => `navmesh ${id} triangle ${t} links to triangle ${u} of navmesh ${tid}, which has ${tv.triFlags.length}`);
        continue;
      }
      let back = false;
      for (let f = 0; f < 3 && !back; f++) {
        if ((tv.triFlags[u]! & TRI_EDGE_LINK_BITS[f]!) === 0) continue;
        const bi = tv.triEdges[u * 3 + f]!;
        back = bi >= 0 && bi < tv.edgeLinkType.length && target.linkKeys[bi] === k.key && tv.edgeLinkTriangle[bi] === t;
      }
      if (!back) {
        sink.error('navm.edge-link.not-reciprocal', { kind: 'triangle', id: t }, () => `navmesh ${id} triangle ${t} links to triangle ${u} of navmesh ${tid}, which does not link back`);
      }
    }
  }
  for (const [formId, u] of unverifiable) {
    sink.warning('navm.edge-link.unverifiable', { kind: 'navmesh', id: k.navmesh.formId }, () =>
      `navmesh ${id} has ${u.links} edge link(s) into navmesh ${formIdHex(formId)} of ${u.file}, which was not given as a master: not checked`);
  }
}

function checkDoors(sink: FindingSink, v: NvnmDocument, formId: number, reaches: Uint8Array): void {
  const id = formIdHex(formId);
  const nt = v.triFlags.length;
  for (let i = 0; i < v.doorTriangle.length; i++) {
    const t = v.doorTriangle[i]!;
    if (t < 0 || t >= nt) {
      sink.error('navm.door.triangle-range', { kind: 'navmesh', id: formId }, () => `navmesh ${id} door link ${i} names triangle ${t} but the navmesh has ${nt}`);
      continue;
    }
    reaches[t] = 1;
    if ((v.triFlags[t]! & TRI_DOOR) === 0) {
      sink.warning('navm.door.not-flagged', { kind: 'triangle', id: t }, () => `navmesh ${id} triangle ${t} is linked to door ${formIdHex(v.doorRef[i]!)} but lacks the Door flag (0x400)`);
    }
  }
}

/** Parts of a navmesh joined to the rest by no internal edge, edge link or door. */
function checkIslands(sink: FindingSink, v: NvnmDocument, id: string, parent: Int32Array, reaches: Uint8Array): void {
  const nt = v.triFlags.length;
  const size = new Map<number, number>();
  const linked = new Set<number>();
  const first = new Map<number, number>();
  for (let t = 0; t < nt; t++) {
    const r = find(parent, t);
    size.set(r, (size.get(r) ?? 0) + 1);
    if (!first.has(r)) first.set(r, t);
    if (reaches[t]) linked.add(r);
  }
  if (size.size < 2) return;
  let largest = -1;
  for (const [r, n] of size) if (largest < 0 || n > size.get(largest)!) largest = r;
  for (const [r, n] of size) {
    if (r === largest || linked.has(r)) continue;
    const t = first.get(r)!;
    sink.warning('navm.island', { kind: 'triangle', id: t }, () => `navmesh ${id}: ${n} triangle(s) from triangle ${t} form an island that no other part of the navmesh reaches`);
  }
}

/**
 * Checks a plugin's navmeshes (issue §3): indices, edge-link flags against the link list,
 * reciprocal links within the plugin and against the given masters, door flags, zero-area
 * triangles, islands, and deleted NAVM records (which crash the game).
 */
export function validatePlugin(doc: PluginDocument, masters: readonly MasterPlugin[] = [], selfName = '(this plugin)'): Finding[] {
  const sink = new FindingSink();
  for (const n of pluginNavmeshes(doc)) {
    if (n.deleted) {
      sink.error('navm.deleted', { kind: 'navmesh', id: n.formId }, () => `navmesh ${formIdHex(n.formId)} is a deleted NAVM record; the game crashes when it loads a deleted navmesh`);
    }
  }
  const deleted = new Map<string, string>();
  const own = keyed(doc, selfName, true, deleted);
  const byKey = new Map<string, KeyedNavmesh>();
  for (const k of own) byKey.set(k.key, k);
  // The plugin's own records override the masters' (deleted ones included).
  for (const m of masters) {
    for (const k of keyed(m.doc, m.name, false, deleted)) if (!byKey.has(k.key) && !deleted.has(k.key)) byKey.set(k.key, k);
  }
  const known = new Set([selfName, ...masters.map((m) => m.name)].map((n) => n.toLowerCase()));
  const names = new Map([selfName, ...pluginMasters(doc)].map((n) => [n.toLowerCase(), n]));
  for (const k of own) checkNavmesh(sink, k, { byKey, deleted, known, names });
  return sink.finish();
}
