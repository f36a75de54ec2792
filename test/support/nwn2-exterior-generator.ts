import { exteriorHeight, generateExteriorAswm } from '../../shared/bakers/nwn2/exterior-generator';
import type { FormatEnvironment } from '../../shared/formats/format-environment';
import { writeBlendMap } from '../../shared/formats/nwn2/blend-map';
import { newTrxDocument, type TrxDocument } from '../../shared/formats/nwn2/trx-document';
import { writeTrx } from '../../shared/formats/nwn2/trx-writer';

/**
 * Generated NWN2 exteriors with terrain, for tests and the bench. No small public NWN2
 * exterior exists (spec §13), so TRRN and WATR packets are built here byte by byte to the
 * layouts of nwn2-trn-trx.md §2.3 and §2.4, and put in a TRX with the ASWM walkmesh of
 * shared/bakers/nwn2/exterior-generator.ts, whose heights they share (exteriorHeight): a
 * megatile is 40 m, 25 × 25 vertices (24 cells, the same 10/6 m cells as the walkmesh,
 * with the walkmesh's checkerboard diagonals), so the walkmesh lies exactly on the terrain.
 *
 * Texture blend: six textures with known colours; DDS A (32-bit, 32 × 32) gives texture 0
 * full weight on the west half of each megatile, DDS B gives texture 4 full weight on the
 * east half, so a reader that mixes up the maps or the channels gets the wrong colour.
 */
export const GENERATED_TEXTURES = ['tt_grass01', 'tt_dirt01', 'tt_rock01', 'tt_sand01', 'tt_snow01', 'tt_mud01'] as const;
export const GENERATED_TEXTURE_COLOURS: readonly (readonly [number, number, number])[] = [
  [0.25, 0.6, 0.2], [0.5, 0.35, 0.2], [0.5, 0.5, 0.5], [0.8, 0.75, 0.5], [0.95, 0.95, 1], [0.3, 0.25, 0.15],
];
export const MEGATILE_METRES = 40;
const CELLS = 24;
const SIDE = CELLS + 1;
const BLEND_PIXELS = 32;

class ByteWriter {
  private buf: Uint8Array;
  private dv: DataView;
  length = 0;
  constructor(capacity: number) {
    this.buf = new Uint8Array(capacity);
    this.dv = new DataView(this.buf.buffer);
  }
  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf);
    this.buf = next;
    this.dv = new DataView(next.buffer);
  }
  u8(v: number): void { this.room(1); this.buf[this.length++] = v; }
  u16(v: number): void { this.room(2); this.dv.setUint16(this.length, v, true); this.length += 2; }
  u32(v: number): void { this.room(4); this.dv.setUint32(this.length, v >>> 0, true); this.length += 4; }
  f32(v: number): void { this.room(4); this.dv.setFloat32(this.length, v, true); this.length += 4; }
  bytes(b: Uint8Array): void { this.room(b.length); this.buf.set(b, this.length); this.length += b.length; }
  text(s: string, size: number): void {
    const b = new Uint8Array(size);
    for (let i = 0; i < Math.min(s.length, size - 1); i++) b[i] = s.charCodeAt(i);
    this.bytes(b);
  }
  finish(): Uint8Array { return this.buf.slice(0, this.length); }
}

/** The blend maps of a generated megatile: texture 0 (DDS A red) west, texture 4 (DDS B red) east. */
function blendMaps(): { a: Uint8Array; b: Uint8Array } {
  const n = BLEND_PIXELS;
  const a = new Uint8Array(n * n * 4);
  const b = new Uint8Array(n * n * 4);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const p = (y * n + x) * 4;
      if (x < n / 2) a[p] = 255;
      else b[p] = 255;
    }
  }
  return { a: writeBlendMap({ width: n, height: n, rgba: a }), b: writeBlendMap({ width: n, height: n, rgba: b }) };
}

/** Corners of the two triangles of cell (i, j) (global cell indices), counter-clockwise, on local vertex ids. */
function cellTriangles(i: number, j: number, v00: number): number[] {
  const v10 = v00 + 1;
  const v01 = v00 + SIDE;
  const v11 = v01 + 1;
  return (i + j) % 2 === 0 ? [v00, v10, v11, v00, v11, v01] : [v00, v10, v01, v10, v11, v01];
}

/** One TRRN payload for megatile (mx, my), spec §2.3. */
export function buildTrrnPayload(mx: number, my: number, height: (x: number, y: number) => number = exteriorHeight): Uint8Array {
  const w = new ByteWriter(400 + SIDE * SIDE * 44 + CELLS * CELLS * 12 + 2 * (128 + BLEND_PIXELS * BLEND_PIXELS * 4) + 16);
  w.text(`megatile ${mx},${my}`, 128);
  for (const t of GENERATED_TEXTURES) w.text(t, 32);
  for (const c of GENERATED_TEXTURE_COLOURS) for (const v of c) w.f32(v);
  w.u32(SIDE * SIDE);
  w.u32(CELLS * CELLS * 2);
  const cell = MEGATILE_METRES / CELLS;
  const e = cell / 2;
  for (let j = 0; j < SIDE; j++) {
    for (let i = 0; i < SIDE; i++) {
      const x = mx * MEGATILE_METRES + i * cell;
      const y = my * MEGATILE_METRES + j * cell;
      w.f32(x);
      w.f32(y);
      w.f32(height(x, y));
      const dx = (height(x + e, y) - height(x - e, y)) / (2 * e);
      const dy = (height(x, y + e) - height(x, y - e)) / (2 * e);
      const len = Math.hypot(dx, dy, 1);
      w.f32(-dx / len);
      w.f32(-dy / len);
      w.f32(1 / len);
      // Tint BGRA: white, as an untinted megatile.
      w.u8(255); w.u8(255); w.u8(255); w.u8(255);
      w.f32((i / CELLS) * 10);
      w.f32((j / CELLS) * 10);
      w.f32(i / CELLS);
      w.f32(j / CELLS);
    }
  }
  for (let j = 0; j < CELLS; j++) for (let i = 0; i < CELLS; i++) for (const v of cellTriangles(mx * CELLS + i, my * CELLS + j, j * SIDE + i)) w.u16(v);
  const { a, b } = blendMaps();
  w.u32(a.length);
  w.bytes(a);
  w.u32(b.length);
  w.bytes(b);
  // One grass patch of two blades, so the reader's grass path is exercised.
  w.u32(1);
  w.text('grass01', 32);
  w.text('tt_grassblade', 32);
  w.u32(2);
  for (let k = 0; k < 18; k++) w.f32(k === 0 ? mx * MEGATILE_METRES + 1 : k === 1 ? my * MEGATILE_METRES + 1 : 0.5);
  return w.finish();
}

/**
 * One WATR payload for megatile (mx, my) at height z, spec §2.4: 625 vertices and 1,152
 * triangles like every real one; triangles of the north half are flagged 1 (no water).
 */
export function buildWatrPayload(mx: number, my: number, z: number, colour: readonly [number, number, number] = [0.1, 0.3, 0.5]): Uint8Array {
  const w = new ByteWriter(328 + SIDE * SIDE * 28 + CELLS * CELLS * 20 + 200);
  w.text('water', 32);
  w.bytes(new Uint8Array(96));
  for (const c of colour) w.f32(c);
  w.f32(0.5); w.f32(0.5);
  for (const v of [0.5, 0.2, 1, 180, 0.5]) w.f32(v);
  for (let t = 0; t < 3; t++) {
    w.text(`water0${t}`, 32);
    w.f32(1); w.f32(0); w.f32(0.1); w.f32(0);
  }
  w.f32(mx / 8); w.f32(my / 8);
  w.u32(SIDE * SIDE);
  w.u32(CELLS * CELLS * 2);
  const cell = MEGATILE_METRES / CELLS;
  for (let j = 0; j < SIDE; j++) {
    for (let i = 0; i < SIDE; i++) {
      w.f32(mx * MEGATILE_METRES + i * cell);
      w.f32(my * MEGATILE_METRES + j * cell);
      w.f32(z);
      w.f32((i / CELLS) * 5); w.f32((j / CELLS) * 5);
      w.f32(i / CELLS); w.f32(j / CELLS);
    }
  }
  for (let j = 0; j < CELLS; j++) for (let i = 0; i < CELLS; i++) for (const v of cellTriangles(i, j, j * SIDE + i)) w.u16(v);
  for (let j = 0; j < CELLS; j++) for (let i = 0; i < CELLS * 2; i++) w.u32(j >= CELLS / 2 ? 1 : 0);
  const dds = writeBlendMap({ width: 4, height: 4, rgba: new Uint8Array(64).fill(255) });
  w.u32(dds.length);
  w.bytes(dds);
  w.u32(mx);
  w.u32(my);
  return w.finish();
}

export interface GeneratedExteriorOptions {
  /** Megatiles per side (the TRWH size). */
  megatiles: number;
  /** Border tiles of the walkmesh (default 8 when the area is large enough, else 1). */
  border?: number;
  /** Megatiles that get a WATR packet (default: megatile 0,0 at z = 0). */
  water?: readonly { mx: number; my: number; z: number }[];
  /** Unwalkable patches in the walkmesh (default 160, fewer on small areas). */
  patches?: number;
}

/** A TRX document with TRWH, a TRRN per megatile (row-major), the WATR packets and the ASWM walkmesh. */
export function generateExteriorWithTerrain(options: GeneratedExteriorOptions): TrxDocument {
  const n = options.megatiles;
  const tiles = n * 4;
  const border = options.border ?? (tiles >= 24 ? 8 : 1);
  const aswm = generateExteriorAswm({ tiles, border, patches: options.patches ?? Math.min(160, tiles * 2) });
  const doc = newTrxDocument(aswm, { width: n, height: n });
  const terrain = [];
  for (let my = 0; my < n; my++) for (let mx = 0; mx < n; mx++) terrain.push({ kind: 'unknown' as const, type: 'TRRN', payload: buildTrrnPayload(mx, my) });
  const water = (options.water ?? [{ mx: 0, my: 0, z: 0 }]).map((w) => ({ kind: 'unknown' as const, type: 'WATR', payload: buildWatrPayload(w.mx, w.my, w.z) }));
  doc.packets.splice(1, 0, ...terrain, ...water);
  return doc;
}

/** The generated exterior as TRX bytes (read them back with readTrx to get the parsed packets). */
export function generateExteriorTrxBytes(options: GeneratedExteriorOptions, env: FormatEnvironment): Uint8Array {
  return writeTrx(generateExteriorWithTerrain(options), env);
}
