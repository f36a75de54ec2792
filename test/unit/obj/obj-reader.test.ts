import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { readObj } from '../../../shared/formats/obj/obj-reader';
import { NO_OWNER, type Walkmesh } from '../../../shared/model/walkmesh';

const options = { name: 'imported', game: 'kotor', format: 'kotor-wok' } as const;

const square = ['v 0 0 0', 'v 1 0 0', 'v 1 1 0', 'v 0 1 0'];

function read(lines: string[]): Walkmesh[] {
  return readObj(lines.join('\n'), options);
}

function caught(text: string): MalformedInputError {
  try {
    readObj(text, options);
  } catch (e) {
    if (e instanceof MalformedInputError) return e;
    throw e;
  }
  throw new Error('expected a MalformedInputError, nothing was thrown');
}

describe('readObj', () => {
  it.each([
    ['v', 'f 1 2 3'],
    ['v/vt', 'f 1/1 2/2 3/3'],
    ['v//vn', 'f 1//1 2//1 3//1'],
    ['v/vt/vn', 'f 1/4/1 2/5/1 3/6/1'],
    ['negative', 'f -4 -3 -2'],
    ['negative v/vt/vn', 'f -4/-1/-1 -3/-2/-1 -2/-3/-1'],
  ])('reads %s face corners', (_form, face) => {
    const [mesh] = read([...square, 'vn 0 0 1', 'vt 0 0', face]);
    expect(Array.from(mesh!.triangles)).toEqual([0, 1, 2]);
    expect(Array.from(mesh!.positions)).toEqual([0, 0, 0, 1, 0, 0, 1, 1, 0]);
    expect(mesh!.name).toBe('imported');
    expect(mesh!.game).toBe('kotor');
    expect(mesh!.format).toBe('kotor-wok');
  });

  it('fans polygons into triangles that all take the polygon material', () => {
    const [mesh] = read([...square, 'v 0.5 2 0', 'usemtl wb_w0_m0x7_o9', 'f 1 2 3 5 4']);
    expect(Array.from(mesh!.triangles)).toEqual([0, 1, 2, 0, 2, 3, 0, 3, 4]);
    expect(Array.from(mesh!.faceWalkable)).toEqual([0, 0, 0]);
    expect(Array.from(mesh!.faceMaterial)).toEqual([7, 7, 7]);
    expect(Array.from(mesh!.faceOwner)).toEqual([9, 9, 9]);
  });

  it('ignores what it does not need and reads CRLF, tabs and odd spacing', () => {
    const text = [
      '# exported by something',
      'mtllib level.mtl',
      '',
      '   ',
      'g group1',
      's 1',
      'vp 0.5',
      'curv 0 1 1 2',
      '\tv\t0 0 0   ',
      'v  1 0 0',
      'v 1 1 0 1.0',
      'vt 0 0',
      'vn 0 0 1',
      'l 1 2',
      'p 1',
      's off',
      'f 1  2\t3 ',
      '# done',
    ].join('\r\n');
    const meshes = readObj(text, options);
    expect(meshes).toHaveLength(1);
    expect(Array.from(meshes[0]!.triangles)).toEqual([0, 1, 2]);
    expect(Array.from(meshes[0]!.positions)).toEqual([0, 0, 0, 1, 0, 0, 1, 1, 0]);
  });

  it('gives each object its own compact vertices, with global indices resolved', () => {
    const meshes = read([
      'v 9 9 9',
      ...square,
      'f 2 3 4',
      'o second',
      'v 5 5 5',
      'v 6 6 6',
      'f -1 5 -2',
      'o third',
      'f 7 2 6',
    ]);
    expect(meshes.map((m) => m.name)).toEqual(['imported', 'second', 'third']);
    expect(Array.from(meshes[0]!.positions)).toEqual([0, 0, 0, 1, 0, 0, 1, 1, 0]);
    expect(Array.from(meshes[1]!.triangles)).toEqual([0, 1, 2]);
    expect(Array.from(meshes[1]!.positions)).toEqual([6, 6, 6, 0, 1, 0, 5, 5, 5]);
    expect(Array.from(meshes[2]!.triangles)).toEqual([0, 1, 2]);
    expect(Array.from(meshes[2]!.positions)).toEqual([6, 6, 6, 0, 0, 0, 5, 5, 5]);
  });

  it('drops the unnamed leading object when it has no faces but keeps named empty objects', () => {
    const meshes = read([...square, 'o empty', 'o full', 'f 1 2 3']);
    expect(meshes.map((m) => [m.name, m.triangles.length])).toEqual([
      ['empty', 0],
      ['full', 3],
    ]);
    expect(meshes[0]!.positions.length).toBe(0);
  });

  it('gives faces without a Walkbench material name the defaults, and keeps usemtl across o', () => {
    const meshes = read([...square, 'f 1 2 3', 'usemtl Material.001', 'f 1 3 4', 'usemtl Grass__wb_w0_m0x10_o3.002', 'o next', 'f 1 2 4']);
    const a = meshes[0]!;
    expect(Array.from(a.faceWalkable)).toEqual([1, 1]);
    expect(Array.from(a.faceMaterial)).toEqual([0, 0]);
    expect(Array.from(a.faceOwner)).toEqual([NO_OWNER, NO_OWNER]);
    const b = meshes[1]!;
    expect([b.faceWalkable[0], b.faceMaterial[0], b.faceOwner[0]]).toEqual([0, 16, 3]);
  });

  it('reads any decimal coordinate exactly as Number() then float32 rounding would', () => {
    const digits = (max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 0, maxLength: max });
    const decimal = fc
      .tuple(fc.constantFrom('', '-', '+'), digits(12), fc.boolean(), digits(12), fc.option(fc.integer({ min: -40, max: 40 })))
      .filter(([, int, , frac]) => int.length + frac.length > 0)
      .map(([sign, int, point, frac, exp]) => `${sign}${int}${point || int === '' ? '.' : ''}${point || int === '' ? frac : ''}${exp === null ? '' : `e${exp}`}`);
    fc.assert(
      fc.property(decimal, (s) => {
        const [mesh] = readObj(`v ${s} 0 0\nf 1 1 1`, options);
        expect(Object.is(mesh!.positions[0], Math.fround(Number(s)))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads an empty file as no walkmesh', () => {
    expect(readObj('', options)).toEqual([]);
    expect(readObj('# nothing\n\n', options)).toEqual([]);
  });

  describe('malformed input', () => {
    const cases: [string, string[], number, string, RegExp][] = [
      ['an index past the last vertex', [...square, 'f 1 2 9'], 5, 'f', /"9"/],
      ['index 0', [...square, 'f 0 1 2'], 5, 'f', /"0"/],
      ['a negative index before the first vertex', [...square, 'f -5 1 2'], 5, 'f', /"-5"/],
      ['a forward reference', ['v 0 0 0', 'v 1 0 0', 'f 1 2 3', 'v 1 1 0'], 3, 'f', /"3"/],
      ['a face before any vertex', ['f 1 2 3'], 1, 'f', /"1"/],
      ['a non-numeric index', [...square, 'f 1 x 2'], 5, 'f', /"x"/],
      ['an index with a fraction', [...square, 'f 1 2.5 3'], 5, 'f', /"2\.5"/],
      ['a face with two vertices', [...square, 'f 1 2'], 5, 'f', /2/],
      ['a bad float', ['v 0 0 0', 'v 1 abc 0'], 2, 'v', /"abc"/],
      ['a hex float', ['v 0 0 0x10'], 1, 'v', /"0x10"/],
      ['nan', ['v nan 0 0'], 1, 'v', /"nan"/],
      ['an overflowing float', ['v 1e999 0 0'], 1, 'v', /"1e999"/],
      ['a malformed exponent', ['v 1e 0 0'], 1, 'v', /"1e"/],
      ['a vertex with two coordinates', ['v 1 2'], 1, 'v', /2/],
    ];

    it.each(cases)('%s throws a MalformedInputError pointing at the line', (_what, lines, lineNo, keyword, found) => {
      const text = ['# header', ...lines].join('\r\n');
      const err = caught(text);
      const line = lineNo + 1; // after the header
      const lineStart = text.split('\r\n').slice(0, line - 1).reduce((n, l) => n + l.length + 2, 0);
      expect(err.format).toBe('obj');
      expect(err.field).toBe(`line ${line} (${keyword})`);
      expect(err.offset).toBe(lineStart);
      expect(text.slice(err.offset).startsWith(lines[lineNo - 1]!)).toBe(true);
      expect(err.found).toMatch(found);
      expect(err.expected.length).toBeGreaterThan(0);
    });

    it('names the file through withFile', () => {
      const err = caught('v 0 0 0\nf 1 1 2').withFile('level.obj');
      expect(err.message).toContain('level.obj');
      expect(err.message).toContain('line 2 (f)');
    });
  });
});
