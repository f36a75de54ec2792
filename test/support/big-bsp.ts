import { mulberry32 } from './seeded-random';

/**
 * A deterministic synthetic Source map (VBSP version 20) of about `targetBytes` bytes, for
 * the bench: the issue asks that a 100 MB BSP open with the walkmesh first and stay
 * interactive, and no such map is in the fixtures. It has what large real maps have, at
 * the engine's limits: a heightfield floor of cells (every 5th a power-3 displacement), a
 * ceiling over it (some of it skybox and nodraw, which the context leaves out), brush
 * entities placed by their origin, and the rest of the size as lightmap bytes (what fills
 * most of a real 100 MB map, with the pakfile). Vertices stay under 65,536 (edges index
 * them with 16 bits) and faces under 65,536 (planes and displacement faces are 16-bit).
 */
export interface SyntheticMap {
  bytes: Uint8Array;
  faces: number;
  displacements: number;
  /** Triangles the level context should draw (floors, displacements, drawn ceilings, entity faces). */
  drawnTriangles: number;
}

const CELL = 128;
const GRID = 170;
const DISP_EVERY = 5;
const DISP_POWER = 3;
const ENTITY_MODELS = 16;
const MATERIALS = ['CONCRETE/CONCRETEFLOOR001A', 'NATURE/BLENDGRASSGRAVEL001A', 'DEV/DEV_MEASUREGENERIC01', 'TOOLS/TOOLSSKYBOX', 'TOOLS/TOOLSNODRAW', 'METAL/METALCEILING001A'];
const SURF_SKY = 0x4;
const SURF_NODRAW = 0x80;

export function syntheticVbsp(targetBytes: number, seed = 19): SyntheticMap {
  const rand = mulberry32(seed);
  const side = GRID + 1;
  const vertices: number[] = [];
  const height = (i: number, j: number) => Math.round(64 * Math.sin(i / 9) + 48 * Math.cos(j / 7));
  for (let j = 0; j < side; j++) for (let i = 0; i < side; i++) vertices.push(i * CELL, j * CELL, height(i, j));
  for (let j = 0; j < side; j++) for (let i = 0; i < side; i++) vertices.push(i * CELL, j * CELL, 512);
  const floorV = (i: number, j: number) => j * side + i;
  const ceilV = (i: number, j: number) => side * side + j * side + i;

  const faceVerts: number[][] = [];
  const faceTex: number[] = [];
  const faceDisp: number[] = [];
  let displacements = 0;
  let drawnTriangles = 0;
  const dispSide = (1 << DISP_POWER) + 1;
  for (let j = 0; j < GRID; j++) {
    for (let i = 0; i < GRID; i++) {
      // Counter-clockwise seen from above would face up; compilers store faces clockwise seen from the front.
      faceVerts.push([floorV(i, j), floorV(i, j + 1), floorV(i + 1, j + 1), floorV(i + 1, j)]);
      const disp = (i + j * GRID) % DISP_EVERY === 0;
      faceTex.push(disp ? 1 : 0);
      faceDisp.push(disp ? displacements++ : -1);
      drawnTriangles += disp ? 2 * (dispSide - 1) ** 2 : 2;
    }
  }
  for (let j = 0; j < GRID; j++) {
    for (let i = 0; i < GRID; i++) {
      faceVerts.push([ceilV(i, j), ceilV(i + 1, j), ceilV(i + 1, j + 1), ceilV(i, j + 1)]);
      const r = rand();
      const tex = r < 0.3 ? 3 : r < 0.4 ? 4 : 5;
      faceTex.push(tex);
      faceDisp.push(-1);
      if (tex === 5) drawnTriangles += 2;
    }
  }
  const worldFaces = faceVerts.length;
  // Brush entities: a 64-unit square plate each, built around their own origin.
  for (let m = 0; m < ENTITY_MODELS; m++) {
    const b = vertices.length / 3;
    vertices.push(-32, -32, 0, -32, 32, 0, 32, 32, 0, 32, -32, 0);
    faceVerts.push([b, b + 1, b + 2, b + 3]);
    faceTex.push(2);
    faceDisp.push(-1);
    drawnTriangles += 2;
  }
  if (vertices.length / 3 > 0xffff || faceVerts.length > 0xffff) throw new Error('synthetic map over the engine limits');

  // Lumps.
  const lumps = new Map<number, Uint8Array>();
  const put = (index: number, bytes: Uint8Array) => lumps.set(index, bytes);
  // Planes (one per face), edges and surfedges (four per face, edge 0 the placeholder).
  const faceCount = faceVerts.length;
  const planes = new DataView(new ArrayBuffer(faceCount * 20));
  const edges = new DataView(new ArrayBuffer((1 + faceCount * 4) * 4));
  const surfedges = new DataView(new ArrayBuffer(faceCount * 4 * 4));
  const faces = new DataView(new ArrayBuffer(faceCount * 56));
  const V = vertices;
  for (let f = 0; f < faceCount; f++) {
    const vs = faceVerts[f]!;
    // Plane normal from the clockwise-from-front cycle: its right-handed normal points back.
    const [a, b, c] = [vs[0]! * 3, vs[1]! * 3, vs[2]! * 3];
    const ux = V[b]! - V[a]!, uy = V[b + 1]! - V[a + 1]!, uz = V[b + 2]! - V[a + 2]!;
    const wx = V[c]! - V[a]!, wy = V[c + 1]! - V[a + 1]!, wz = V[c + 2]! - V[a + 2]!;
    let nx = -(uy * wz - uz * wy), ny = -(uz * wx - ux * wz), nz = -(ux * wy - uy * wx);
    const len = Math.hypot(nx, ny, nz) || 1;
    nx /= len;
    ny /= len;
    nz /= len;
    planes.setFloat32(f * 20, nx, true);
    planes.setFloat32(f * 20 + 4, ny, true);
    planes.setFloat32(f * 20 + 8, nz, true);
    planes.setFloat32(f * 20 + 12, nx * V[a]! + ny * V[a + 1]! + nz * V[a + 2]!, true);
    for (let k = 0; k < 4; k++) {
      const e = 1 + f * 4 + k;
      edges.setUint16(e * 4, vs[k]!, true);
      edges.setUint16(e * 4 + 2, vs[(k + 1) % 4]!, true);
      surfedges.setInt32((f * 4 + k) * 4, e, true);
    }
    const o = f * 56;
    faces.setUint16(o, f, true);
    faces.setInt32(o + 4, f * 4, true);
    faces.setInt16(o + 8, 4, true);
    faces.setInt16(o + 10, faceTex[f]!, true);
    faces.setInt16(o + 12, faceDisp[f]!, true);
    faces.setInt32(o + 44, -1, true);
  }
  put(1, u8(planes));
  put(12, u8(edges));
  put(13, u8(surfedges));
  put(7, u8(faces));
  put(3, new Uint8Array(Float32Array.from(vertices).buffer));

  // Displacements: start at each floor face's first corner; bumps from the generator.
  const dispInfo = new DataView(new ArrayBuffer(displacements * 176));
  const dispVerts = new DataView(new ArrayBuffer(displacements * dispSide * dispSide * 20));
  const dispTris = new Uint8Array(displacements * 2 * (dispSide - 1) ** 2 * 2);
  for (let f = 0, d = 0; f < worldFaces; f++) {
    if (faceDisp[f]! < 0) continue;
    const v0 = faceVerts[f]![0]! * 3;
    const o = d * 176;
    dispInfo.setFloat32(o, V[v0]!, true);
    dispInfo.setFloat32(o + 4, V[v0 + 1]!, true);
    dispInfo.setFloat32(o + 8, V[v0 + 2]!, true);
    dispInfo.setInt32(o + 12, d * dispSide * dispSide, true);
    dispInfo.setInt32(o + 16, d * 2 * (dispSide - 1) ** 2, true);
    dispInfo.setInt32(o + 20, DISP_POWER, true);
    dispInfo.setUint16(o + 36, f, true);
    for (let k = 0; k < dispSide * dispSide; k++) {
      const w = (d * dispSide * dispSide + k) * 20;
      dispVerts.setFloat32(w + 8, 1, true);
      dispVerts.setFloat32(w + 12, Math.round(rand() * 24), true);
    }
    d++;
  }
  put(26, u8(dispInfo));
  put(33, u8(dispVerts));
  put(48, dispTris);

  // Materials.
  const names = MATERIALS.map((m) => `${m}\0`).join('');
  put(43, ascii(names));
  const table = new DataView(new ArrayBuffer(MATERIALS.length * 4));
  const texdata = new DataView(new ArrayBuffer(MATERIALS.length * 32));
  const texinfo = new DataView(new ArrayBuffer(MATERIALS.length * 72));
  let at = 0;
  MATERIALS.forEach((m, i) => {
    table.setInt32(i * 4, at, true);
    at += m.length + 1;
    texdata.setInt32(i * 32 + 12, i, true);
    texdata.setInt32(i * 32 + 16, 512, true);
    texdata.setInt32(i * 32 + 20, 512, true);
    texinfo.setInt32(i * 72 + 64, m === 'TOOLS/TOOLSSKYBOX' ? SURF_SKY : m === 'TOOLS/TOOLSNODRAW' ? SURF_NODRAW : 0, true);
    texinfo.setInt32(i * 72 + 68, i, true);
  });
  put(44, u8(table));
  put(2, u8(texdata));
  put(6, u8(texinfo));

  // Models: the world, then one plate per brush entity.
  const models = new DataView(new ArrayBuffer((1 + ENTITY_MODELS) * 48));
  const world = [0, 0, -128, GRID * CELL, GRID * CELL, 512];
  world.forEach((v, k) => models.setFloat32(k * 4, v, true));
  models.setInt32(44, worldFaces, true);
  let entities = `{\n"classname" "worldspawn"\n"mapversion" "1"\n}\n`;
  for (let m = 1; m <= ENTITY_MODELS; m++) {
    const o = m * 48;
    [-32, -32, 0, 32, 32, 0].forEach((v, k) => models.setFloat32(o + k * 4, v, true));
    models.setInt32(o + 40, worldFaces + m - 1, true);
    models.setInt32(o + 44, 1, true);
    entities += `{\n"classname" "func_brush"\n"model" "*${m}"\n"origin" "${m * 640} ${m * 320} 600"\n}\n`;
  }
  put(14, u8(models));
  put(0, ascii(`${entities}\0`));

  // Lightmaps fill the rest.
  const header = 1036;
  let used = header;
  for (const b of lumps.values()) used += align4(b.length);
  const lighting = new Uint8Array(Math.max(0, targetBytes - used));
  const words = new Uint32Array(lighting.buffer, 0, lighting.length >> 2);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  put(8, lighting);

  // Assemble: header, then each lump 4-aligned in index order.
  let total = header;
  for (const b of lumps.values()) total += align4(b.length);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  out.set([0x56, 0x42, 0x53, 0x50]);
  dv.setInt32(4, 20, true);
  let offset = header;
  for (const index of [...lumps.keys()].sort((a, b) => a - b)) {
    const b = lumps.get(index)!;
    dv.setInt32(8 + index * 16, offset, true);
    dv.setInt32(12 + index * 16, b.length, true);
    out.set(b, offset);
    offset += align4(b.length);
  }
  dv.setInt32(8 + 64 * 16, 1, true);
  return { bytes: out, faces: faceCount, displacements, drawnTriangles };
}

function u8(dv: DataView): Uint8Array {
  return new Uint8Array(dv.buffer, dv.byteOffset, dv.byteLength);
}

function ascii(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

function align4(n: number): number {
  return (n + 3) & ~3;
}
