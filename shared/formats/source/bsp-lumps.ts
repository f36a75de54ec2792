import { MalformedInputError } from '../../binary/malformed-input-error';
import type { BspEntities, BspFaces, BspFormat, BspLump, BspModels, BspTexinfo } from './bsp-document';

/**
 * What both BSP readers share: checked access to the lumps of one file, the lump layouts
 * GoldSrc and Source have in common (planes, vertices, edges, surfedges), the entity text
 * and the cross-checks of face → surfedge → edge → vertex references. Every array is sized
 * from a lump's length (entries × entry size ≤ the lump, which lies inside the file), never
 * from a count field alone.
 */
export class BspInput {
  readonly dv: DataView;
  /**
   * `bytes` is the file, or one lump's decompressed bytes: then `decompressedFrom` is the
   * lump's offset in the file, which errors give (with the byte within the lump named).
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly format: BspFormat,
    readonly fileName: string,
    readonly decompressedFrom?: number,
  ) {
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  error(offset: number, field: string, expected: string, found: string): MalformedInputError {
    if (this.decompressedFrom !== undefined) {
      return new MalformedInputError({ format: this.format, offset: this.decompressedFrom, field: `${field} (byte ${offset} of the decompressed lump)`, expected, found, file: this.fileName });
    }
    return new MalformedInputError({ format: this.format, offset, field, expected, found, file: this.fileName });
  }

  /** Entries of a fixed-size lump: its length must be a whole number of entries. */
  entries(lump: BspLump, entrySize: number): number {
    if (lump.length % entrySize !== 0) {
      throw this.error(lump.headerOffset, `${lumpLabel(lump)}.length`, `a multiple of the ${entrySize}-byte entry`, String(lump.length));
    }
    return lump.length / entrySize;
  }

  f32(o: number): number {
    return this.dv.getFloat32(o, true);
  }
  i32(o: number): number {
    return this.dv.getInt32(o, true);
  }
  u32(o: number): number {
    return this.dv.getUint32(o, true);
  }
  u16(o: number): number {
    return this.dv.getUint16(o, true);
  }
  i16(o: number): number {
    return this.dv.getInt16(o, true);
  }
}

/** `lump 7 (faces)`: how errors name a lump. */
export function lumpLabel(lump: BspLump): string {
  return `lump ${lump.index} (${lump.name})`;
}


/** Checks every directory entry lies inside the file. */
export function checkLumpRanges(input: BspInput, lumps: readonly BspLump[]): void {
  const size = input.bytes.length;
  for (const lump of lumps) {
    if (lump.offset < 0 || lump.length < 0 || lump.offset > size || lump.length > size - lump.offset) {
      throw input.error(
        lump.headerOffset,
        `${lumpLabel(lump)} offset/length`,
        `a range inside the ${size}-byte file`,
        `offset ${lump.offset}, length ${lump.length}`,
      );
    }
  }
}

export function readPlanes(input: BspInput, lump: BspLump): Float32Array {
  const n = input.entries(lump, 20);
  const out = new Float32Array(n * 4);
  for (let i = 0, o = lump.offset; i < n; i++, o += 20) {
    out[i * 4] = input.f32(o);
    out[i * 4 + 1] = input.f32(o + 4);
    out[i * 4 + 2] = input.f32(o + 8);
    out[i * 4 + 3] = input.f32(o + 12);
  }
  return out;
}

export function readVertices(input: BspInput, lump: BspLump): Float32Array {
  const n = input.entries(lump, 12);
  const out = new Float32Array(n * 3);
  for (let i = 0, o = lump.offset; i < n * 3; i++, o += 4) out[i] = input.f32(o);
  return out;
}

export function readEdges(input: BspInput, lump: BspLump, vertexCount: number): Uint16Array {
  const n = input.entries(lump, 4);
  const out = new Uint16Array(n * 2);
  for (let i = 0, o = lump.offset; i < n * 2; i++, o += 2) {
    const v = input.u16(o);
    // Edge 0 is the (0, 0) placeholder compilers write (no surfedge can name it by sign); it is checked too.
    if (v >= vertexCount) throw input.error(o, `${lumpLabel(lump)}[${i >> 1}].vertex[${i & 1}]`, `a vertex index below ${vertexCount}`, String(v));
    out[i] = v;
  }
  return out;
}

export function readSurfedges(input: BspInput, lump: BspLump, edgeCount: number): Int32Array {
  const n = input.entries(lump, 4);
  const out = new Int32Array(n);
  for (let i = 0, o = lump.offset; i < n; i++, o += 4) {
    const e = input.i32(o);
    if (e >= edgeCount || -e >= edgeCount) {
      throw input.error(o, `${lumpLabel(lump)}[${i}]`, `an edge index within ±${edgeCount - 1}`, String(e));
    }
    out[i] = e;
  }
  return out;
}

/**
 * Checks each face's edge run lies inside the surfedges, its texinfo inside the texinfo
 * list, its plane inside the planes and its displacement inside the displacements, so
 * geometry built from the map needs no checks. Compilers give every face its own run of
 * surfedges and every displacement one face (true of all 13 fixture maps, GoldSrc and
 * Source), so the runs together may not exceed the surfedges and no displacement may be
 * named twice: what is drawn then grows with the file, whatever its faces claim.
 */
export function checkFaces(
  input: BspInput,
  lump: BspLump,
  faces: BspFaces,
  entrySize: number,
  counts: { surfedges: number; texinfo: number; planes: number; displacements: number },
): void {
  let total = 0;
  const dispFace = new Int32Array(counts.displacements).fill(-1);
  for (let f = 0; f < faces.count; f++) {
    const o = lump.offset + f * entrySize;
    const first = faces.firstEdge[f]!;
    const n = faces.edgeCount[f]!;
    if (first < 0 || first > counts.surfedges || n > counts.surfedges - first) {
      throw input.error(o, `${lumpLabel(lump)}[${f}].firstEdge/numEdges`, `a run inside the ${counts.surfedges} surfedges`, `${first} + ${n}`);
    }
    total += n;
    if (total > counts.surfedges) {
      throw input.error(o, `${lumpLabel(lump)}[${f}].numEdges`, `face edge runs totalling at most the ${counts.surfedges} surfedges (each face has its own run)`, `${total} edges by face ${f}`);
    }
    const t = faces.texinfo[f]!;
    if (t < -1 || t >= counts.texinfo) throw input.error(o, `${lumpLabel(lump)}[${f}].texinfo`, `-1 or a texinfo index below ${counts.texinfo}`, String(t));
    if (faces.plane[f]! >= counts.planes) {
      throw input.error(o, `${lumpLabel(lump)}[${f}].planenum`, `a plane index below ${counts.planes}`, String(faces.plane[f]!));
    }
    const d = faces.dispinfo[f]!;
    if (d < -1 || d >= counts.displacements) {
      throw input.error(o, `${lumpLabel(lump)}[${f}].dispinfo`, `-1 or a displacement index below ${counts.displacements}`, String(d));
    }
    if (d >= 0) {
      if (dispFace[d] !== -1) throw input.error(o, `${lumpLabel(lump)}[${f}].dispinfo`, `a displacement no other face has (face ${dispFace[d]!} has it)`, String(d));
      dispFace[d] = f;
    }
  }
}

/** Checks texinfo → texture references (an index past the list is a broken file). */
/**
 * The texinfo lump's two columns Walkbench uses: the texture index (GoldSrc miptex, Source
 * texdata) and the surface flags, at their offsets in an entry of `entryBytes`.
 */
export function readTexinfo(input: BspInput, lump: BspLump, entryBytes: number, textureAt: number, flagsAt: number): BspTexinfo {
  const n = input.entries(lump, entryBytes);
  const flags = new Uint32Array(n);
  const texture = new Int32Array(n);
  for (let i = 0, o = lump.offset; i < n; i++, o += entryBytes) {
    texture[i] = input.i32(o + textureAt);
    flags[i] = input.u32(o + flagsAt);
  }
  return { count: n, flags, texture };
}

export function checkTexinfo(input: BspInput, lump: BspLump, texinfo: BspTexinfo, entrySize: number, textureCount: number, textureField: string): void {
  for (let i = 0; i < texinfo.count; i++) {
    const t = texinfo.texture[i]!;
    if (t < -1 || t >= textureCount) {
      throw input.error(lump.offset + i * entrySize, `${lumpLabel(lump)}[${i}].${textureField}`, `an index below ${textureCount}`, String(t));
    }
  }
}

/** Checks each model's face run lies inside the faces. */
export function checkModels(input: BspInput, lump: BspLump, models: BspModels, entrySize: number, faceCount: number): void {
  let total = 0;
  for (let m = 0; m < models.count; m++) {
    const first = models.firstFace[m]!;
    const n = models.faceCount[m]!;
    if (first < 0 || n < 0 || first > faceCount || n > faceCount - first) {
      throw input.error(lump.offset + m * entrySize, `${lumpLabel(lump)}[${m}].firstface/numfaces`, `a run inside the ${faceCount} faces`, `${first} + ${n}`);
    }
    // Each face belongs to one model (all 13 fixture maps): the runs together fit in the faces.
    total += n;
    if (total > faceCount) {
      throw input.error(lump.offset + m * entrySize, `${lumpLabel(lump)}[${m}].numfaces`, `model face runs totalling at most the ${faceCount} faces`, `${total} faces by model ${m}`);
    }
  }
}

/** Bytes [from, to) as Latin-1 up to the first NUL (texture names are ASCII in practice). */
export function latin1(bytes: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i++) {
    const c = bytes[i]!;
    if (c === 0) break;
    s += String.fromCharCode(c);
  }
  return s;
}

/**
 * The entity lump: `{ "key" "value" ... }` blocks. Tolerant, because the engine is (a
 * damaged block ends at the next `}` or the end of the lump); never throws. Entities with
 * no pairs are left out, so the lists grow by at most one pair per 4 bytes of text.
 */
export function readEntities(bytes: Uint8Array, offset: number, length: number): BspEntities {
  const end = offset + length;
  const keys: string[] = [];
  const values: string[] = [];
  const starts: number[] = [0];
  let open = false;
  let pendingKey: string | undefined;
  let i = offset;
  while (i < end) {
    const c = bytes[i]!;
    if (c === 0) break;
    if (c === 0x7b /* { */) {
      // An unclosed entity's pairs are dropped.
      keys.length = values.length = starts[starts.length - 1]!;
      open = true;
      pendingKey = undefined;
      i++;
    } else if (c === 0x7d /* } */) {
      if (open && keys.length > starts[starts.length - 1]!) starts.push(keys.length);
      open = false;
      i++;
    } else if (c === 0x22 /* " */) {
      let j = i + 1;
      while (j < end && bytes[j] !== 0x22 && bytes[j] !== 0) j++;
      const text = latin1(bytes, i + 1, j);
      i = j + 1;
      if (!open) continue;
      if (pendingKey === undefined) pendingKey = text;
      else {
        keys.push(pendingKey);
        values.push(text);
        pendingKey = undefined;
      }
    } else i++;
  }
  keys.length = values.length = starts[starts.length - 1]!;
  return { count: starts.length - 1, start: Uint32Array.from(starts), keys, values };
}
