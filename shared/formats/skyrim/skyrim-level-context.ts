import { isMalformedInputError } from '../../binary/malformed-input-error';
import type { LevelContext, LevelContextGap, LevelContextPiece } from '../../model/level-context';
import { LAND_SIDE, LAND_VERTICES, landTriangles, landVertexXY, readLandRecord, type LandRecord } from './land-record';
import { formIdHex, RECORD_FLAG_DELETED, walkRecords, type PluginDocument, type PluginRecord } from './plugin-document';
import { pluginMasters } from './plugin-navmeshes';

/**
 * The level around a Skyrim navmesh (issue 19): the landscape of exterior cells from their
 * LAND records and the placed objects (REFR) as their bounding boxes (the base object's
 * OBND), from the plugin and whichever of its masters are loaded. NIF models are not read,
 * so bounds stand for every object.
 *
 * FormIDs: a FormID's top byte indexes the file's own master list (MAST order), the
 * file's own records using the index just past it; so every FormID is turned into (owning
 * file, object id) before records of different files are compared. The plugin's records
 * override its masters', later masters override earlier ones (the game's load order).
 */

/** A plugin file read, by its file name (matched without regard to case against MAST). */
export interface SkyrimContextFile {
  name: string;
  doc: PluginDocument;
}

export type SkyrimContextScope =
  /** One cell, by its FormID in the plugin's numbering (as pluginCells gives it). */
  | { cell: number }
  /** The cells of a worldspace (FormID in the plugin's numbering), optionally inside a grid rectangle. */
  | { worldspace: number; grid?: { x0: number; y0: number; x1: number; y1: number } };

export interface SkyrimContextOptions {
  /** At most this many terrain cells (default 256: 524,288 triangles); the rest is one gap. */
  maxTerrainCells?: number;
  /** At most this many bounds boxes (default 20,000); the rest is one gap. */
  maxBounds?: number;
}

/** Group types (skyrim-navm.md §2.3): world children, exterior block/sub-block, cell children, persistent, temporary. */
const GROUP_WORLD = 1;
const GROUP_CELL_CHILDREN = 6;
const GROUP_PERSISTENT = 8;
const GROUP_TEMPORARY = 9;
const CELL_INTERIOR = 0x1;
const CELL_UNITS = 4096;

/** A record of one file with the key that names it across files. */
interface Owned {
  key: number;
  record: PluginRecord;
  file: FileIndex;
}

class FileIndex {
  readonly masters: string[];
  readonly ownIndex: number;
  /** Base objects with OBND, by key. */
  readonly bounded = new Map<number, PluginRecord>();
  /** Any record's signature and EditorID by key (to name a base object without OBND). */
  readonly signatures = new Map<number, string>();
  readonly cells = new Map<number, PluginRecord>();
  readonly worldOfCell = new Map<number, number>();
  readonly cellsOfWorld = new Map<number, number[]>();
  readonly persistentCellOfWorld = new Map<number, number>();
  readonly lands = new Map<number, PluginRecord>();
  readonly refs = new Map<number, Owned[]>();
  readonly landTextures = new Map<number, string>();

  constructor(readonly name: string, doc: PluginDocument, private readonly slots: Map<string, number>) {
    this.masters = pluginMasters(doc);
    this.ownIndex = this.masters.length;
    for (const { record, parents } of walkRecords(doc.items)) {
      const key = this.keyOf(record.formId);
      const sig = record.signature;
      if (sig === 'CELL') {
        this.cells.set(key, record);
        const world = parents.find((g) => g.groupType === GROUP_WORLD);
        if (world) {
          const w = this.keyOf(world.label);
          this.worldOfCell.set(key, w);
          let list = this.cellsOfWorld.get(w);
          if (!list) this.cellsOfWorld.set(w, (list = []));
          list.push(key);
          // The worldspace's persistent cell sits directly in the world-children group.
          if (parents[parents.length - 1]?.groupType === GROUP_WORLD) this.persistentCellOfWorld.set(w, key);
        }
        continue;
      }
      if (sig === 'LAND' || sig === 'REFR') {
        let cell: number | undefined;
        for (const g of parents) if (g.groupType === GROUP_CELL_CHILDREN || g.groupType === GROUP_PERSISTENT || g.groupType === GROUP_TEMPORARY) cell = g.label;
        if (cell === undefined) continue;
        const ck = this.keyOf(cell);
        if (sig === 'LAND') this.lands.set(ck, record);
        else {
          let list = this.refs.get(ck);
          if (!list) this.refs.set(ck, (list = []));
          list.push({ key, record, file: this });
        }
        continue;
      }
      this.signatures.set(key, sig);
      if (sig === 'LTEX') this.landTextures.set(key, editorId(record) ?? `LTEX ${formIdHex(record.formId)}`);
      if (record.subrecords.some((s) => s.signature === 'OBND')) this.bounded.set(key, record);
    }
  }

  /**
   * The record a FormID of this file names, across files: the owning file's slot (its
   * lower-case name numbered in first-seen order) times 2^24 plus the object id. Numbers,
   * not strings: a master such as Skyrim.esm has about a million records.
   */
  keyOf(formId: number): number {
    const top = formId >>> 24;
    const owner = (top < this.masters.length ? this.masters[top]! : this.name).toLowerCase();
    let slot = this.slots.get(owner);
    if (slot === undefined) this.slots.set(owner, (slot = this.slots.size));
    return slot * 0x1000000 + (formId & 0xffffff);
  }

  /** A FormID of the plugin in this file's numbering (undefined when its owner is not among this file's masters). */
  ownerName(formId: number): string {
    const top = formId >>> 24;
    return top < this.masters.length ? this.masters[top]! : this.name;
  }
}

function editorId(record: PluginRecord): string | undefined {
  const s = record.subrecords.find((x) => x.signature === 'EDID');
  if (!s || s.kind !== 'raw') return undefined;
  let end = s.data.indexOf(0);
  if (end < 0) end = s.data.length;
  return String.fromCharCode(...s.data.subarray(0, Math.min(end, 256)));
}

function raw(record: PluginRecord, signature: string): Uint8Array | undefined {
  const s = record.subrecords.find((x) => x.signature === signature);
  return s && s.kind === 'raw' ? s.data : undefined;
}

function viewOf(d: Uint8Array): DataView {
  return new DataView(d.buffer, d.byteOffset, d.byteLength);
}

/**
 * The plugin and its loaded masters indexed once (cells, LANDs, references, bounded base
 * objects), in load order: masters first, the plugin last; later files override earlier
 * ones. Build it once per plugin and ask skyrimLevelContextIn for each cell.
 */
export class SkyrimLoadOrder {
  readonly files: FileIndex[];
  readonly plugin: FileIndex;
  /** Master names the plugin lists but that were not given. */
  readonly missing: Set<string>;

  constructor(plugin: SkyrimContextFile, masters: readonly SkyrimContextFile[]) {
    const slots = new Map<string, number>();
    this.plugin = new FileIndex(plugin.name, plugin.doc, slots);
    const byName = new Map(masters.map((m) => [m.name.toLowerCase(), m] as const));
    this.files = [];
    this.missing = new Set();
    for (const name of this.plugin.masters) {
      const m = byName.get(name.toLowerCase());
      if (m) this.files.push(new FileIndex(m.name, m.doc, slots));
      else this.missing.add(name);
    }
    this.files.push(this.plugin);
  }

  isLoaded(owner: string): boolean {
    return this.files.some((f) => f.name.toLowerCase() === owner.toLowerCase());
  }

  /** The winning record of `key` among `pick(file)` maps. */
  last<T>(pick: (f: FileIndex) => Map<number, T>, key: number): T | undefined {
    for (let i = this.files.length - 1; i >= 0; i--) {
      const v = pick(this.files[i]!).get(key);
      if (v !== undefined) return v;
    }
    return undefined;
  }
}

/** A cell's exterior grid (XCLC) and whether it is an interior, from its winning CELL record. */
function cellFacts(record: PluginRecord | undefined): { interior: boolean; grid: [number, number] | undefined; name: string | undefined } {
  if (!record) return { interior: false, grid: undefined, name: undefined };
  const data = raw(record, 'DATA');
  const interior = data !== undefined && data.length >= 1 && (data[0]! & CELL_INTERIOR) !== 0;
  const xclc = raw(record, 'XCLC');
  const grid: [number, number] | undefined = !interior && xclc && xclc.length >= 8 ? [viewOf(xclc).getInt32(0, true), viewOf(xclc).getInt32(4, true)] : undefined;
  return { interior, grid, name: editorId(record) };
}

/**
 * The level context of one cell, or of a worldspace's cells, of `plugin` with the
 * `masters` that were loaded (matched to its MAST list by name). Never throws for what a
 * file holds: a LAND record that does not decode becomes a gap naming the error.
 */
export function skyrimLevelContext(plugin: SkyrimContextFile, scope: SkyrimContextScope, masters: readonly SkyrimContextFile[] = [], options: SkyrimContextOptions = {}): LevelContext {
  return skyrimLevelContextIn(new SkyrimLoadOrder(plugin, masters), scope, options);
}

/** skyrimLevelContext on a load order already indexed. */
export function skyrimLevelContextIn(order: SkyrimLoadOrder, scope: SkyrimContextScope, options: SkyrimContextOptions = {}): LevelContext {
  const pieces: LevelContextPiece[] = [];
  const gaps: LevelContextGap[] = [];
  const maxCells = options.maxTerrainCells ?? 256;
  const maxBounds = options.maxBounds ?? 20000;

  let cellKeys: number[];
  if ('cell' in scope) cellKeys = [order.plugin.keyOf(scope.cell)];
  else {
    const world = order.plugin.keyOf(scope.worldspace);
    const set = new Set<number>();
    for (const f of order.files) for (const c of f.cellsOfWorld.get(world) ?? []) set.add(c);
    cellKeys = [...set].filter((c) => {
      const g = cellFacts(order.last((f) => f.cells, c)).grid;
      if (!scope.grid) return true;
      return g !== undefined && g[0] >= scope.grid.x0 && g[0] <= scope.grid.x1 && g[1] >= scope.grid.y0 && g[1] <= scope.grid.y1;
    });
    if (cellKeys.length === 0) gaps.push({ what: `worldspace ${formIdHex(scope.worldspace)}`, why: 'no cell of it is in the plugin or its loaded masters' });
  }

  const references = new Map<number, Owned>();
  let terrainCells = 0;
  let skippedCells = 0;
  for (const ck of cellKeys) {
    const cellRecord = order.last((f) => f.cells, ck);
    const facts = cellFacts(cellRecord);
    const cellName = facts.name ?? (cellRecord ? `cell ${formIdHex(cellRecord.formId)}` : 'cell');
    if (!cellRecord && 'cell' in scope) gaps.push({ what: `cell ${formIdHex(scope.cell)}`, why: 'its CELL record is not in the plugin or its loaded masters' });
    const landRecord = order.last((f) => f.lands, ck);
    if (landRecord && !(landRecord.flags & RECORD_FLAG_DELETED)) {
      if (!facts.grid) gaps.push({ what: `LAND ${formIdHex(landRecord.formId)} of ${cellName}`, why: 'its cell has no exterior grid (XCLC), so its place is unknown' });
      else if (terrainCells >= maxCells) skippedCells++;
      else {
        try {
          const land = readLandRecord(landRecord);
          const piece = terrainPiece(land, facts.grid, `terrain ${cellName} (${facts.grid[0]}, ${facts.grid[1]})`, order);
          if (piece) {
            pieces.push(piece);
            terrainCells++;
          } else gaps.push({ what: `LAND ${formIdHex(landRecord.formId)} of ${cellName}`, why: 'it has no height map (VHGT)' });
        } catch (e) {
          if (!isMalformedInputError(e)) throw e;
          gaps.push({ what: `LAND ${formIdHex(landRecord.formId)} of ${cellName}`, why: e.message });
        }
      }
    }
    for (const f of order.files) for (const r of f.refs.get(ck) ?? []) references.set(r.key, r);
    // Persistent references of an exterior cell live in the worldspace's persistent cell;
    // those standing inside this cell's square belong to it.
    if (facts.grid && 'cell' in scope) {
      const world = order.last((f) => f.worldOfCell, ck);
      const persistent = world !== undefined ? order.last((f) => f.persistentCellOfWorld, world) : undefined;
      if (persistent !== undefined && persistent !== ck) {
        const [gx, gy] = facts.grid;
        for (const f of order.files) {
          for (const r of f.refs.get(persistent) ?? []) {
            const p = refPlacement(r.record);
            if (p && Math.floor(p.position[0] / CELL_UNITS) === gx && Math.floor(p.position[1] / CELL_UNITS) === gy) references.set(r.key, r);
          }
        }
      }
    }
  }
  if (skippedCells > 0) gaps.push({ what: `${skippedCells} more terrain cell(s)`, why: `over the budget of ${maxCells} terrain cells for one context` });

  boundsPieces([...references.values()], order, pieces, gaps, maxBounds);
  return { game: 'skyrim', pieces, gaps };
}

/** Light for the shading of terrain without vertex colours: from the north-west, high. */
const LIGHT = (() => {
  const l = [-0.4, 0.5, 0.77];
  const n = Math.hypot(...l);
  return l.map((v) => v / n) as [number, number, number];
})();

function terrainPiece(land: LandRecord, grid: [number, number], label: string, order: SkyrimLoadOrder): LevelContextPiece | undefined {
  const h = land.heights;
  if (!h) return undefined;
  const positions = new Float32Array(LAND_VERTICES * 3);
  for (let r = 0; r < LAND_SIDE; r++) {
    for (let c = 0; c < LAND_SIDE; c++) {
      const v = r * LAND_SIDE + c;
      const [x, y] = landVertexXY(grid[0], grid[1], c, r);
      positions[v * 3] = x;
      positions[v * 3 + 1] = y;
      positions[v * 3 + 2] = h[v]!;
    }
  }
  // Colour: VCLR (the CK's vertex tint, white where unpainted) times the shading by the
  // stored normal (VNML), so relief reads even on an unpainted cell. Without VCLR, a
  // neutral ground colour.
  const colours = new Uint8Array(LAND_VERTICES * 4);
  for (let v = 0; v < LAND_VERTICES; v++) {
    let shade = 1;
    if (land.normals) {
      const nx = land.normals[v * 3]!;
      const ny = land.normals[v * 3 + 1]!;
      const nz = land.normals[v * 3 + 2]!;
      const len = Math.hypot(nx, ny, nz) || 1;
      shade = 0.45 + 0.55 * Math.max(0, (nx * LIGHT[0] + ny * LIGHT[1] + nz * LIGHT[2]) / len);
    }
    const base = land.colours ? [land.colours[v * 3]!, land.colours[v * 3 + 1]!, land.colours[v * 3 + 2]!] : [150, 140, 115];
    colours[v * 4] = Math.round(base[0]! * shade);
    colours[v * 4 + 1] = Math.round(base[1]! * shade);
    colours[v * 4 + 2] = Math.round(base[2]! * shade);
    colours[v * 4 + 3] = 255;
  }
  const triangles = landTriangles();
  // Surface per triangle: the base texture (BTXT) of its quadrant, named by the LTEX's
  // EditorID where a loaded file has it.
  const surfaces: string[] = [];
  const quadrantSurface = [-1, -1, -1, -1];
  for (const layer of land.layers) {
    if (layer.kind !== 'base') continue;
    const key = layer.texture === 0 ? -1 : order.plugin.keyOf(layer.texture);
    const name = layer.texture === 0 ? 'default dirt' : (order.last((f) => f.landTextures, key) ?? `LTEX ${formIdHex(layer.texture)}`);
    let i = surfaces.indexOf(name);
    if (i < 0) i = surfaces.push(name) - 1;
    quadrantSurface[layer.quadrant] = i;
  }
  let faceSurface: Uint16Array | undefined;
  if (quadrantSurface.every((q) => q >= 0)) {
    const n = LAND_SIDE - 1;
    faceSurface = new Uint16Array(n * n * 2);
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const q = (r >= n / 2 ? 2 : 0) + (c >= n / 2 ? 1 : 0);
        faceSurface[(r * n + c) * 2] = quadrantSurface[q]!;
        faceSurface[(r * n + c) * 2 + 1] = quadrantSurface[q]!;
      }
    }
  }
  return { label, kind: 'terrain', positions, triangles, vertexColours: colours, ...(faceSurface ? { faceSurface, surfaces } : {}) };
}

interface Placement {
  base: number;
  position: [number, number, number];
  rotation: [number, number, number];
  scale: number;
}

/** NAME (base FormID), DATA (position, rotation in radians), XSCL (scale, default 1); undefined when NAME or DATA is short. */
function refPlacement(record: PluginRecord): Placement | undefined {
  const name = raw(record, 'NAME');
  const data = raw(record, 'DATA');
  if (!name || name.length < 4 || !data || data.length < 24) return undefined;
  const d = viewOf(data);
  const xscl = raw(record, 'XSCL');
  const scale = xscl && xscl.length >= 4 ? viewOf(xscl).getFloat32(0, true) : 1;
  return {
    base: viewOf(name).getUint32(0, true),
    position: [d.getFloat32(0, true), d.getFloat32(4, true), d.getFloat32(8, true)],
    rotation: [d.getFloat32(12, true), d.getFloat32(16, true), d.getFloat32(20, true)],
    scale,
  };
}

/** The 12 triangles of a box, counter-clockwise seen from outside, on corners numbered by bits (x 1, y 2, z 4). */
const BOX_TRIANGLES = [0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5];

/**
 * The placed references as boxes, merged into one piece (one draw call for thousands of
 * objects); faceSurface names each box's base object so a pick can tell them apart.
 *
 * Rotation: the reference's DATA angles (radians) turn the object clockwise about X, Y
 * and Z, applied Z first, then Y, then X, as OpenMW places Bethesda references; only the
 * Z angle is common, and the boxes are for orientation, so a wrong order for the rare
 * tilted object costs little.
 */
function boundsPieces(refs: Owned[], order: SkyrimLoadOrder, pieces: LevelContextPiece[], gaps: LevelContextGap[], maxBounds: number): void {
  const missing = new Map<string, { why: string; count: number }>();
  const boxes: { corners: Float32Array; surface: string }[] = [];
  let over = 0;
  for (const ref of refs) {
    if (ref.record.flags & RECORD_FLAG_DELETED) continue;
    const p = refPlacement(ref.record);
    if (!p) continue;
    if (![...p.position, ...p.rotation, p.scale].every(Number.isFinite)) continue;
    const baseKey = ref.file.keyOf(p.base);
    const owner = ref.file.ownerName(p.base);
    const baseRecord = order.last((f) => f.bounded, baseKey);
    const label = `base object ${formIdHex(p.base)}`;
    if (!baseRecord) {
      const sig = order.last((f) => f.signatures, baseKey);
      const why = !order.isLoaded(owner)
        ? `it is in ${owner}, which is not loaded`
        : sig
          ? `its ${sig} record has no object bounds (OBND)`
          : `it is not in ${owner}`;
      const m = missing.get(label);
      if (m) m.count++;
      else missing.set(label, { why, count: 1 });
      continue;
    }
    if (boxes.length >= maxBounds) {
      over++;
      continue;
    }
    const obnd = raw(baseRecord, 'OBND');
    if (!obnd || obnd.length < 12) {
      missing.set(label, { why: `its OBND is ${obnd?.length ?? 0} bytes, not 12`, count: (missing.get(label)?.count ?? 0) + 1 });
      continue;
    }
    const o = viewOf(obnd);
    const lo = [o.getInt16(0, true), o.getInt16(2, true), o.getInt16(4, true)];
    const hi = [o.getInt16(6, true), o.getInt16(8, true), o.getInt16(10, true)];
    boxes.push({ corners: boxCorners(lo, hi, p), surface: `${baseRecord.signature} ${editorId(baseRecord) ?? formIdHex(p.base)}` });
  }
  for (const [what, m] of missing) gaps.push({ what: `${what} (${m.count} reference${m.count === 1 ? '' : 's'})`, why: m.why });
  if (over > 0) gaps.push({ what: `${over} more placed object(s)`, why: `over the budget of ${maxBounds} boxes for one context` });
  if (boxes.length === 0) return;
  const positions = new Float32Array(boxes.length * 24);
  const triangles = new Uint32Array(boxes.length * 36);
  const faceSurface = new Uint16Array(boxes.length * 12);
  const surfaces: string[] = [];
  const surfaceIndex = new Map<string, number>();
  boxes.forEach((b, i) => {
    positions.set(b.corners, i * 24);
    for (let k = 0; k < 36; k++) triangles[i * 36 + k] = i * 8 + BOX_TRIANGLES[k]!;
    let s = surfaceIndex.get(b.surface);
    // Surface indices are u16: past 65,535 names, the rest share the last one.
    if (s === undefined) {
      s = Math.min(surfaces.length, 0xffff);
      if (s === surfaces.length) surfaces.push(b.surface);
      surfaceIndex.set(b.surface, s);
    }
    faceSurface.fill(s, i * 12, i * 12 + 12);
  });
  pieces.push({ label: `placed objects (${boxes.length} bounds)`, kind: 'bounds', positions, triangles, faceSurface, surfaces });
}

function boxCorners(lo: number[], hi: number[], p: Placement): Float32Array {
  const [rx, ry, rz] = p.rotation;
  // Clockwise angles: rotate by −angle about each axis, Z first.
  const cz = Math.cos(-rz), sz = Math.sin(-rz);
  const cy = Math.cos(-ry), sy = Math.sin(-ry);
  const cx = Math.cos(-rx), sx = Math.sin(-rx);
  const out = new Float32Array(24);
  for (let k = 0; k < 8; k++) {
    let x = ((k & 1) ? hi[0]! : lo[0]!) * p.scale;
    let y = ((k & 2) ? hi[1]! : lo[1]!) * p.scale;
    let z = ((k & 4) ? hi[2]! : lo[2]!) * p.scale;
    [x, y] = [cz * x - sz * y, sz * x + cz * y];
    [x, z] = [cy * x + sy * z, -sy * x + cy * z];
    [y, z] = [cx * y - sx * z, sx * y + cx * z];
    out[k * 3] = p.position[0] + x;
    out[k * 3 + 1] = p.position[1] + y;
    out[k * 3 + 2] = p.position[2] + z;
  }
  return out;
}
