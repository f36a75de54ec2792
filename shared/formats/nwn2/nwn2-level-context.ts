import type { LevelContext, LevelContextGap, LevelContextPiece } from '../../model/level-context';
import type { RgbaImage } from '../images/rgba-image';
import { readBlendMap, sampleBlendMap, type BlendMap } from './blend-map';
import { composeMegatileTexture, shrinkTexture, textureRepeats, tileSideFor } from './terrain-texture-compose';
import type { TrxDocument } from './trx-document';
import type { TrrnPayload } from './trrn-packet';
import type { WatrPayload } from './watr-packet';

/**
 * The terrain and water of an NWN2 exterior as level context (issue 19), from the TRN/TRX's
 * own TRRN and WATR packets (spec §2.3, §2.4). Positions are used as stored: world
 * coordinates in metres, Z up, the frame of the ASWM walkmesh (nwn-lib-d's trrn-export
 * and the footstep pass compare them with walkmesh positions directly).
 *
 * Colour of a terrain vertex, as decided here (the toolset's shader is not public):
 * - the 6 texture colours (TRRN header, floats 0..1) weighted by the blend maps: DDS A's
 *   R, G, B, A for textures 0–3 and DDS B's R, G for 4–5 (spec §2.3), sampled at the
 *   vertex's place in the megatile's x/y bounding box (the rule nwn-lib-d's footstep pass
 *   uses; image row 0 at the box's low y, a choice no file confirms);
 * - when a blend map does not decode (compressed or absent), equal weights over the
 *   textures that have a name; the vertex "weights" pair (two floats, spec §2.3) cannot
 *   weight six textures, so it is not used;
 * - times the vertex tint (BGRA), unless every tint of the packet is black (then it is
 *   taken for unset); times a shading by the stored normal so relief reads from above.
 * Water triangles flagged 1 ("no water", spec §2.4) are left out.
 */
export interface Nwn2TerrainOptions {
  /** Leave out the colours (cheaper for a huge exterior). */
  colours?: boolean;
  /**
   * The terrain textures found in the designer's files, by lower-case name (decoded DDS or
   * TGA). With any, each megatile also gets an image of its textures blended by its blend
   * maps and a UV per vertex (terrain-texture-compose.ts); a texture the megatile names that
   * is not here is drawn as a flat tile of its TRRN colour (the designer was told it is
   * missing). A megatile none of whose textures is here keeps its colours only.
   */
  textures?: ReadonlyMap<string, RgbaImage>;
}

const LIGHT = (() => {
  const l = [-0.4, 0.5, 0.77];
  const n = Math.hypot(...l);
  return l.map((v) => v / n) as [number, number, number];
})();

function clamp01(v: number): number {
  return v > 1 ? 1 : v > 0 ? v : 0;
}

/** The pieces of every parsed TRRN and WATR packet; packets that did not parse become gaps. */
export function nwn2TerrainContext(doc: TrxDocument, options: Nwn2TerrainOptions = {}): LevelContext {
  const pieces: LevelContextPiece[] = [];
  const gaps: LevelContextGap[] = [];
  let terrain = 0;
  const shrunk = new Map<string, RgbaImage>();
  const textures = options.textures && options.textures.size > 0 ? { images: options.textures, shrunk } : undefined;
  doc.packets.forEach((p, i) => {
    if (p.kind === 'trrn') {
      if (!p.trrn) gaps.push({ what: `TRRN packet #${i}`, why: `it does not parse: ${p.parseError ?? 'unknown error'}` });
      else {
        const piece = terrainPiece(p.trrn, `terrain megatile ${terrain}`, options.colours !== false);
        if (piece && textures) addTexture(piece, p.trrn, textures);
        if (piece) pieces.push(piece);
        else gaps.push({ what: `TRRN packet #${i}`, why: 'its triangles use vertices it does not have' });
      }
      terrain++;
    } else if (p.kind === 'watr') {
      if (!p.watr) gaps.push({ what: `WATR packet #${i}`, why: `it does not parse: ${p.parseError ?? 'unknown error'}` });
      else {
        const piece = waterPiece(p.watr, `water megatile ${p.watr.megatile[0]},${p.watr.megatile[1]}`);
        if (piece === 'bad') gaps.push({ what: `WATR packet #${i}`, why: 'its triangles use vertices it does not have' });
        else if (piece) pieces.push(piece);
      }
    }
  });
  return { game: 'nwn2', pieces, gaps };
}

function indicesInRange(tri: Uint16Array, vertices: number): boolean {
  for (let i = 0; i < tri.length; i++) if (tri[i]! >= vertices) return false;
  return true;
}

function terrainPiece(t: TrrnPayload, label: string, withColours: boolean): LevelContextPiece | undefined {
  const nv = t.positions.length / 3;
  if (!indicesInRange(t.triangles, nv)) return undefined;
  const positions = t.positions.slice();
  const triangles = Uint32Array.from(t.triangles);
  const surfaces = t.textureNames.map((n, i) => n || `texture ${i}`);
  if (!withColours) return { label, kind: 'terrain', positions, triangles };
  return { label, kind: 'terrain', positions, triangles, vertexColours: blendColours(t), surfaces, faceSurface: dominantTexture(t, triangles) };
}

/**
 * The megatile's composed image and a UV per vertex: its place in the megatile's x/y box,
 * the frame the image (and the blend maps) span.
 */
function addTexture(piece: LevelContextPiece, t: TrrnPayload, textures: { images: ReadonlyMap<string, RgbaImage>; shrunk: Map<string, RgbaImage> }): void {
  const names = t.textureNames.map((n) => n.trim().toLowerCase());
  if (!names.some((n) => n && textures.images.has(n))) return;
  const repeats = textureRepeats(t);
  const side = tileSideFor(repeats);
  const tiles = names.map((n, k) => {
    if (!n) return undefined;
    const image = textures.images.get(n);
    const key = image ? `${n}|${side}` : `colour:${k}|${t.textureColours.subarray(k * 3, k * 3 + 3).join(',')}|${side}`;
    let tile = textures.shrunk.get(key);
    if (!tile) {
      tile = image ? shrinkTexture(image, side) : flatTile(t.textureColours, k, side);
      textures.shrunk.set(key, tile);
    }
    return tile;
  });
  const image = composeMegatileTexture({ tiles, blendA: readBlendMap(t.ddsA), blendB: readBlendMap(t.ddsB), repeats });
  const [x0, y0, x1, y1] = boxOf(t.positions);
  const sx = x1 > x0 ? 1 / (x1 - x0) : 0;
  const sy = y1 > y0 ? 1 / (y1 - y0) : 0;
  const nv = t.positions.length / 3;
  const uvs = new Float32Array(nv * 2);
  for (let v = 0; v < nv; v++) {
    uvs[v * 2] = (t.positions[v * 3]! - x0) * sx;
    uvs[v * 2 + 1] = (t.positions[v * 3 + 1]! - y0) * sy;
  }
  piece.uvs = uvs;
  piece.texture = { width: image.width, height: image.height, rgba: image.rgba, name: names.filter((n) => n).join(', ') };
}

/** A texture the install lacks, as a flat tile of the colour the TRRN header gives it. */
function flatTile(colours: Float32Array, k: number, side: number): RgbaImage {
  const rgba = new Uint8Array(side * side * 4);
  const c = [0, 1, 2].map((i) => Math.round(255 * clamp01(colours[k * 3 + i]!)));
  for (let p = 0; p < side * side; p++) rgba.set([c[0]!, c[1]!, c[2]!, 255], p * 4);
  return { width: side, height: side, rgba };
}

/** The megatile's x/y box, for the blend-map coordinates. */
function boxOf(positions: Float32Array): [number, number, number, number] {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let v = 0; v < positions.length; v += 3) {
    const x = positions[v]!, y = positions[v + 1]!;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return [x0, y0, x1, y1];
}

/** The six blend weights (0–255) of a vertex, or undefined without decodable blend maps. */
function weightsAt(a: BlendMap | undefined, b: BlendMap | undefined, u: number, v: number, out: Float32Array): boolean {
  if (!a) return false;
  for (let c = 0; c < 4; c++) out[c] = sampleBlendMap(a, u, v, c);
  out[4] = b ? sampleBlendMap(b, u, v, 0) : 0;
  out[5] = b ? sampleBlendMap(b, u, v, 1) : 0;
  return true;
}

function blendColours(t: TrrnPayload): Uint8Array {
  const nv = t.positions.length / 3;
  const out = new Uint8Array(nv * 4);
  const a = readBlendMap(t.ddsA);
  const b = readBlendMap(t.ddsB);
  const [x0, y0, x1, y1] = boxOf(t.positions);
  const sx = x1 > x0 ? 1 / (x1 - x0) : 0;
  const sy = y1 > y0 ? 1 / (y1 - y0) : 0;
  const named = t.textureNames.map((n) => (n ? 1 : 0));
  const anyNamed = named.some((n) => n > 0);
  let tinted = false;
  for (let v = 0; v < nv && !tinted; v++) tinted = t.tints[v * 4]! > 0 || t.tints[v * 4 + 1]! > 0 || t.tints[v * 4 + 2]! > 0;
  const w = new Float32Array(6);
  for (let v = 0; v < nv; v++) {
    const u = (t.positions[v * 3]! - x0) * sx;
    const vv = (t.positions[v * 3 + 1]! - y0) * sy;
    if (!weightsAt(a, b, u, vv, w)) for (let k = 0; k < 6; k++) w[k] = anyNamed ? named[k]! : k === 0 ? 1 : 0;
    let sum = 0;
    for (let k = 0; k < 6; k++) sum += w[k]!;
    if (sum <= 0) {
      w[0] = 1;
      sum = 1;
    }
    let r = 0, g = 0, bl = 0;
    for (let k = 0; k < 6; k++) {
      const f = w[k]! / sum;
      r += f * clamp01(t.textureColours[k * 3]!);
      g += f * clamp01(t.textureColours[k * 3 + 1]!);
      bl += f * clamp01(t.textureColours[k * 3 + 2]!);
    }
    if (tinted) {
      // Tints are stored B, G, R, A.
      r *= t.tints[v * 4 + 2]! / 255;
      g *= t.tints[v * 4 + 1]! / 255;
      bl *= t.tints[v * 4]! / 255;
    }
    const nx = t.normals[v * 3]!, ny = t.normals[v * 3 + 1]!, nz = t.normals[v * 3 + 2]!;
    const len = Math.hypot(nx, ny, nz);
    const shade = len > 0 && Number.isFinite(len) ? 0.45 + 0.55 * Math.max(0, (nx * LIGHT[0] + ny * LIGHT[1] + nz * LIGHT[2]) / len) : 1;
    out[v * 4] = Math.round(255 * clamp01(r * shade));
    out[v * 4 + 1] = Math.round(255 * clamp01(g * shade));
    out[v * 4 + 2] = Math.round(255 * clamp01(bl * shade));
    out[v * 4 + 3] = 255;
  }
  return out;
}

/** Per triangle, the texture with the highest blend weight at its centre (as nwn-lib-d's footstep pass picks it). */
function dominantTexture(t: TrrnPayload, triangles: Uint32Array): Uint16Array {
  const T = triangles.length / 3;
  const out = new Uint16Array(T);
  const a = readBlendMap(t.ddsA);
  if (!a) return out;
  const b = readBlendMap(t.ddsB);
  const [x0, y0, x1, y1] = boxOf(t.positions);
  const sx = x1 > x0 ? 1 / (x1 - x0) : 0;
  const sy = y1 > y0 ? 1 / (y1 - y0) : 0;
  const w = new Float32Array(6);
  const p = t.positions;
  for (let i = 0; i < T; i++) {
    const ia = triangles[i * 3]! * 3, ib = triangles[i * 3 + 1]! * 3, ic = triangles[i * 3 + 2]! * 3;
    const cx = (p[ia]! + p[ib]! + p[ic]!) / 3;
    const cy = (p[ia + 1]! + p[ib + 1]! + p[ic + 1]!) / 3;
    weightsAt(a, b, (cx - x0) * sx, (cy - y0) * sy, w);
    let best = 0;
    for (let k = 1; k < 6; k++) if (w[k]! > w[best]!) best = k;
    out[i] = best;
  }
  return out;
}

function waterPiece(w: WatrPayload, label: string): LevelContextPiece | undefined | 'bad' {
  const nv = w.positions.length / 3;
  if (!indicesInRange(w.triangles, nv)) return 'bad';
  const T = w.triangleFlags.length;
  let kept = 0;
  for (let i = 0; i < T; i++) if (w.triangleFlags[i] === 0) kept++;
  if (kept === 0) return undefined;
  const triangles = new Uint32Array(kept * 3);
  for (let i = 0, k = 0; i < T; i++) {
    if (w.triangleFlags[i] !== 0) continue;
    triangles[k++] = w.triangles[i * 3]!;
    triangles[k++] = w.triangles[i * 3 + 1]!;
    triangles[k++] = w.triangles[i * 3 + 2]!;
  }
  const colours = new Uint8Array(nv * 4);
  const [r, g, b] = w.colour.map((c) => Math.round(255 * clamp01(c)));
  for (let v = 0; v < nv; v++) {
    colours[v * 4] = r!;
    colours[v * 4 + 1] = g!;
    colours[v * 4 + 2] = b!;
    colours[v * 4 + 3] = 160;
  }
  return { label, kind: 'water', positions: w.positions.slice(), triangles, vertexColours: colours };
}
