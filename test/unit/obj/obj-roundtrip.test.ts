import { statSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readObj } from '../../../shared/formats/obj/obj-reader';
import { writeObj } from '../../../shared/formats/obj/obj-writer';
import { decodeMaterialName } from '../../../shared/formats/obj/obj-material-name';
import { readNav } from '../../../shared/formats/source/nav-reader';
import { navToWalkmesh } from '../../../shared/formats/source/nav-walkmesh';
import { createWalkmesh, faceCount, NO_OWNER, type Walkmesh } from '../../../shared/model/walkmesh';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';

const navOptions = { name: 'unnamed', game: 'source', format: 'source-nav' } as const;

/** The three smallest .nav fixtures and the median one: varied games, quick to run. */
function pickNavFixtures(): string[] {
  const bySize = listFixtures('source', ['.nav']).sort((a, b) => statSync(a).size - statSync(b).size);
  return [...bySize.slice(0, 3), bySize[Math.floor(bySize.length / 2)]!];
}

function loadNav(file: string): Walkmesh {
  return navToWalkmesh(readNav(readFixture(file)), fixtureName(file));
}

function bitsOf(a: Float32Array): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.length);
}

function expectIdentical(got: Walkmesh, want: Walkmesh): void {
  expect(got.name).toBe(want.name);
  expect(got.positions.length).toBe(want.positions.length);
  // Compare bit patterns: -0 and 0 must not pass for one another.
  expect(Buffer.from(bitsOf(got.positions).buffer, got.positions.byteOffset, got.positions.byteLength).equals(Buffer.from(bitsOf(want.positions).buffer, want.positions.byteOffset, want.positions.byteLength))).toBe(true);
  expect(Array.from(got.triangles)).toEqual(Array.from(want.triangles));
  expect(Array.from(got.faceWalkable)).toEqual(Array.from(want.faceWalkable));
  expect(Array.from(got.faceMaterial)).toEqual(Array.from(want.faceMaterial));
  expect(Array.from(got.faceOwner)).toEqual(Array.from(want.faceOwner));
}

interface FaceRecord {
  corners: number[];
  walkable: number;
  material: number;
  owner: number;
}

/** Each face as its corner coordinates and attributes: independent of vertex numbering. */
function faceRecords(m: Walkmesh): FaceRecord[] {
  const out: FaceRecord[] = [];
  for (let f = 0; f < faceCount(m); f++) {
    const corners: number[] = [];
    for (let c = 0; c < 3; c++) {
      const v = m.triangles[f * 3 + c]!;
      corners.push(m.positions[v * 3]!, m.positions[v * 3 + 1]!, m.positions[v * 3 + 2]!);
    }
    out.push({ corners, walkable: m.faceWalkable[f]!, material: m.faceMaterial[f]!, owner: m.faceOwner[f]! });
  }
  return out;
}

/**
 * What a trip through Blender does to the text (import, edit nothing, export): comments
 * replaced by Blender's header, the library renamed, coordinates printed with six
 * decimals, smoothing off, normals and UVs added so corners read `v/vt/vn`, and `.001`
 * appended to material names that Blender had to rename as duplicates.
 */
function simulateBlenderReexport(obj: string): string {
  const out = ['# Blender 4.2.3', '# www.blender.org', 'mtllib level_edited.mtl'];
  let vertices = 0;
  let uvs = 0;
  let normals = 0;
  let pendingVertices = 0;
  const flush = () => {
    // Blender writes an object's vertices, then its UVs and normals, then its faces.
    for (let i = 0; i < pendingVertices; i++) out.push(`vt ${(i % 7) / 7} 0.5`);
    uvs += pendingVertices;
    if (pendingVertices > 0) {
      out.push('vn -0.0000 -0.0000 1.0000');
      normals++;
      out.push('s 0');
    }
    pendingVertices = 0;
  };
  const renamed = new Map<string, string>();
  for (const line of obj.split('\n')) {
    const [keyword, ...rest] = line.split(' ');
    if (keyword === 'v') {
      out.push(`v ${rest.map((x) => Number(x).toFixed(6)).join(' ')}`);
      vertices++;
      pendingVertices++;
    } else if (keyword === 'f') {
      flush();
      const base = uvs - vertices; // UV i of this object belongs to vertex i
      out.push(`f ${rest.map((i) => `${i}/${Number(i) + base}/${normals}`).join(' ')}`);
    } else if (keyword === 'usemtl') {
      flush();
      const name = rest.join(' ');
      if (!renamed.has(name)) renamed.set(name, renamed.size % 2 === 1 ? `${name}.001` : name);
      out.push(`usemtl ${renamed.get(name)!}`);
    } else if (keyword === 'o') {
      flush();
      out.push(line);
    }
  }
  flush();
  return `${out.join('\n')}\n`;
}

const float32 = fc.float({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });

const randomMesh = (index: number): fc.Arbitrary<Walkmesh> =>
  fc.integer({ min: 1, max: 12 }).chain((vertices) =>
    fc
      .record({
        positions: fc.array(float32, { minLength: vertices * 3, maxLength: vertices * 3 }),
        faces: fc.array(
          fc.record({
            corners: fc.tuple(fc.nat(vertices - 1), fc.nat(vertices - 1), fc.nat(vertices - 1)),
            walkable: fc.integer({ min: 0, max: 1 }),
            material: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 0xffffffff })),
            owner: fc.oneof(fc.constant(NO_OWNER), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 0xffffffff })),
          }),
          { maxLength: 16 },
        ),
      })
      .map(({ positions, faces }) =>
        createWalkmesh({
          name: `mesh_${index}`,
          game: 'source',
          format: 'source-nav',
          positions: Float32Array.from(positions),
          triangles: Uint32Array.from(faces.flatMap((f) => f.corners)),
          faceWalkable: Uint8Array.from(faces.map((f) => f.walkable)),
          faceMaterial: Uint32Array.from(faces.map((f) => f.material)),
          faceOwner: Uint32Array.from(faces.map((f) => f.owner)),
        }),
      ),
  );

const randomMeshes = fc.integer({ min: 1, max: 4 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => randomMesh(i))));

describe('OBJ export and import', () => {
  const files = pickNavFixtures();

  it.each(files.map((f) => [fixtureName(f), f]))('%s comes back bit for bit', (_name, file) => {
    const mesh = loadNav(file);
    expect(faceCount(mesh)).toBeGreaterThan(0);
    const { obj, mtl } = writeObj([mesh], { mtlFileName: 'level.mtl' });
    const back = readObj(obj, navOptions);
    expect(back).toHaveLength(1);
    expectIdentical(back[0]!, mesh);
    expect(back[0]!.game).toBe('source');
    // Every material used in the OBJ is defined in the MTL.
    const used = new Set(obj.split('\n').filter((l) => l.startsWith('usemtl ')).map((l) => l.slice(7)));
    const defined = new Set(mtl.split('\n').filter((l) => l.startsWith('newmtl ')).map((l) => l.slice(7)));
    expect(defined).toEqual(used);
  });

  it('keeps several walkmeshes apart, with global face indices in the file', () => {
    const meshes = files.slice(0, 3).map(loadNav);
    const { obj } = writeObj(meshes);
    expect(obj.split('\n').filter((l) => l.startsWith('o '))).toHaveLength(3);
    const back = readObj(obj, navOptions);
    expect(back).toHaveLength(3);
    back.forEach((m, i) => expectIdentical(m, meshes[i]!));
  });

  it.each(files.slice(0, 2).map((f) => [fixtureName(f), f]))('%s keeps its attributes through a Blender re-export', (_name, file) => {
    const mesh = loadNav(file);
    const { obj } = writeObj([mesh], { mtlFileName: 'level.mtl', materialLabel: (m, f) => (m.faceWalkable[f] ? 'Floor' : 'Wall') });
    const edited = simulateBlenderReexport(obj);
    // The simulation really changed what the reader sees.
    expect(edited).toMatch(/^usemtl .*\.001$/m);
    expect(edited).toMatch(/^f \d+\/\d+\/\d+ /m);
    expect(edited).not.toContain('Walkbench');
    const [back] = readObj(edited, navOptions);
    expect(Array.from(back!.triangles)).toEqual(Array.from(mesh.triangles));
    expect(Array.from(back!.faceWalkable)).toEqual(Array.from(mesh.faceWalkable));
    expect(Array.from(back!.faceMaterial)).toEqual(Array.from(mesh.faceMaterial));
    expect(Array.from(back!.faceOwner)).toEqual(Array.from(mesh.faceOwner));
    expect(back!.positions.length).toBe(mesh.positions.length);
    let worst = 0;
    for (let i = 0; i < mesh.positions.length; i++) worst = Math.max(worst, Math.abs(back!.positions[i]! - mesh.positions[i]!));
    expect(worst).toBeLessThanOrEqual(1e-5);
  });

  it('keeps attributes through a Blender re-export of random meshes, positions within 1e-5', () => {
    const nearUnit = fc.float({ noNaN: true, noDefaultInfinity: true, min: -100, max: 100 });
    fc.assert(
      fc.property(randomMeshes, fc.array(nearUnit, { maxLength: 36 }), (meshes, coords) => {
        // Coordinates of ordinary magnitude, so six decimals are within 1e-5.
        const scaled = meshes.map((m) => ({ ...m, positions: m.positions.map((_, i) => coords[i % Math.max(1, coords.length)] ?? 0) }));
        const back = readObj(simulateBlenderReexport(writeObj(scaled).obj), navOptions);
        expect(back.map((m) => m.name)).toEqual(scaled.map((m) => m.name));
        back.forEach((m, i) => {
          const got = faceRecords(m);
          const want = faceRecords(scaled[i]!);
          expect(got.map(({ corners: _c, ...a }) => a)).toEqual(want.map(({ corners: _c, ...a }) => a));
          got.forEach((f, k) => f.corners.forEach((c, j) => expect(Math.abs(c - want[k]!.corners[j]!)).toBeLessThanOrEqual(1e-5)));
        });
      }),
      { numRuns: 200 },
    );
  });

  it('round-trips random meshes exactly: every face, corner bit pattern and attribute', () => {
    fc.assert(
      fc.property(randomMeshes, (meshes) => {
        const back = readObj(writeObj(meshes).obj, navOptions);
        expect(back.map((m) => m.name)).toEqual(meshes.map((m) => m.name));
        back.forEach((m, i) => {
          const want = meshes[i]!;
          const got = faceRecords(m);
          const expected = faceRecords(want);
          expect(got.length).toBe(expected.length);
          got.forEach((f, k) => {
            expect(f.walkable).toBe(expected[k]!.walkable);
            expect(f.material).toBe(expected[k]!.material);
            expect(f.owner).toBe(expected[k]!.owner);
            f.corners.forEach((c, j) => expect(Object.is(c, expected[k]!.corners[j])).toBe(true));
          });
          // Only the vertices some face uses come back, each once.
          expect(m.positions.length / 3).toBe(new Set(want.triangles).size);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('shares one usemtl line per run of faces with the same material', () => {
    const mesh = createWalkmesh({
      name: 'runs',
      game: 'source',
      format: 'source-nav',
      positions: new Float32Array(9),
      triangles: Uint32Array.from([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]),
      faceMaterial: Uint32Array.from([1, 1, 2, 2, 1]),
    });
    const { obj, mtl } = writeObj([mesh]);
    const statements = obj.split('\n').filter((l) => l.startsWith('usemtl') || l.startsWith('f'));
    expect(statements.map((l) => l.split(' ')[0])).toEqual(['usemtl', 'f', 'f', 'usemtl', 'f', 'f', 'usemtl', 'f']);
    expect(statements[0]).toBe('usemtl wb_w1_m0x1_o-');
    expect(mtl.match(/^newmtl /gm)).toHaveLength(2);
    expect(obj).not.toContain('mtllib');
  });

  it('puts labels in the material names and colours walkable faces green, the rest red', () => {
    const mesh = createWalkmesh({
      name: 'colours',
      game: 'kotor',
      format: 'kotor-wok',
      positions: new Float32Array(9),
      triangles: new Uint32Array(3 * 8),
      faceWalkable: Uint8Array.from([1, 1, 1, 1, 0, 0, 0, 0]),
      faceMaterial: Uint32Array.from([0, 1, 2, 3, 0, 7, 15, 0xffffffff]),
    });
    const { obj, mtl } = writeObj([mesh], { mtlFileName: 'colours.mtl', materialLabel: (m, f) => `surface ${m.faceMaterial[f]}` });
    expect(obj).toContain('mtllib colours.mtl');
    expect(obj).toContain('usemtl surface_7__wb_w0_m0x7_o-');
    const blocks = mtl.split('newmtl ').slice(1);
    expect(blocks).toHaveLength(8);
    const colours = new Set<string>();
    for (const block of blocks) {
      const name = block.split('\n')[0]!;
      const kd = /^Kd (\S+) (\S+) (\S+)$/m.exec(block);
      expect(kd).not.toBeNull();
      const [r, g, b] = kd!.slice(1).map(Number) as [number, number, number];
      for (const c of [r, g, b]) {
        expect(c).toBeGreaterThanOrEqual(0);
        expect(c).toBeLessThanOrEqual(1);
      }
      const attrs = decodeMaterialName(name)!;
      if (attrs.walkable) expect(g).toBeGreaterThan(Math.max(r, b));
      else expect(r).toBeGreaterThan(Math.max(g, b));
      colours.add(kd![0]);
    }
    expect(colours.size).toBeGreaterThan(4); // material values tell apart
  });

  it('refuses a non-finite coordinate, naming the mesh and the vertex', () => {
    const positions = Float32Array.from([0, 0, 0, 1, NaN, 0, 0, 1, 0]);
    const mesh = createWalkmesh({ name: 'broken', game: 'source', format: 'source-nav', positions, triangles: Uint32Array.from([0, 1, 2]) });
    expect(() => writeObj([mesh])).toThrow(/"broken" vertex 1 .*non-finite/);
    positions[4] = Infinity;
    expect(() => writeObj([mesh])).toThrow(/vertex 1/);
  });

  it('writes names on one line and coordinates as given, without swapping axes', () => {
    const mesh = createWalkmesh({ name: 'two\nlines', game: 'nwn2', format: 'nwn2-trx', positions: Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9.5]), triangles: Uint32Array.from([0, 1, 2]) });
    const { obj } = writeObj([mesh]);
    expect(obj).toContain('o two lines\nv 1 2 3\nv 4 5 6\nv 7 8 9.5\n');
    expect(obj).toContain('f 1 2 3');
  });
});
