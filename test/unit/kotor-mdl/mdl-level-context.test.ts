import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchModelWalkmesh } from '../../../shared/bakers/kotor/bwm-model-match';
import { floatsOf } from '../../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { MDL_NODE_AABB, MDL_NODE_EMITTER, MDL_NODE_LIGHT, walkmeshNodeOf } from '../../../shared/formats/kotor/mdl-document';
import { kotorModelContextPieces } from '../../../shared/formats/kotor/mdl-level-context';
import { readKotorModel } from '../../../shared/formats/kotor/mdl-reader';
import { checkLevelContextPiece } from '../../../shared/model/level-context';
import { fixturesRoot, listFixtures, readFixture } from '../../support/fixtures';

const rooms = listFixtures('kotor/k1-blackvulkar', ['.wok']);

describe('KotOR room models as level context', () => {
  for (const wokFile of rooms) {
    const room = path.basename(wokFile, '.wok');
    it(`${room}: the drawn trimeshes, placed by the LYT position, surround the WOK`, () => {
      const model = readKotorModel(readFixture(path.join(fixturesRoot, 'kotor/k1-blackvulkar-models', `${room}.mdl`)), null, `${room}.mdl`);
      const wok = readBwm(readFixture(wokFile));
      // The room's LYT position as the WOK and the model tell it (the LYT is not among the fixtures).
      const [x, y, z] = matchModelWalkmesh(wok, walkmeshNodeOf(model)!, model.nodes).lyt;
      const pieces = kotorModelContextPieces(model, { x, y, z }, `room ${room}`);
      expect(pieces).toHaveLength(1);
      const piece = pieces[0]!;
      checkLevelContextPiece(piece);
      expect(piece.kind).toBe('room');
      expect(piece.label).toBe(`room ${room}`);
      let expected = 0;
      const textures = new Set<string>();
      for (const n of model.nodes) {
        if (!n.mesh || !n.mesh.render || n.flags & (MDL_NODE_AABB | MDL_NODE_LIGHT | MDL_NODE_EMITTER)) continue;
        expected += n.mesh.faces.length / 3;
        textures.add(n.mesh.texture0.toLowerCase());
      }
      expect(piece.triangles.length / 3).toBe(expected);
      // The walkmesh is not drawn as room geometry: fewer triangles than with it.
      expect(expected).toBeGreaterThan(0);
      expect(piece.surfaces!.length).toBeGreaterThan(0);
      for (const s of piece.surfaces!) expect(textures.has(s) || model.nodes.some((n) => n.name === s)).toBe(true);
      expect(piece.positions.every(Number.isFinite)).toBe(true);
      // The room geometry's bounds contain every WOK vertex in X and Y, and the walkable
      // faces' vertices in Z too (non-walkable wall faces rise above the drawn ceiling in
      // m10aa_03a and m10aa_08a; the floor is 0.01 below the drawn floor in some rooms).
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      for (let i = 0; i < piece.positions.length; i++) {
        lo[i % 3] = Math.min(lo[i % 3]!, piece.positions[i]!);
        hi[i % 3] = Math.max(hi[i % 3]!, piece.positions[i]!);
      }
      const v = floatsOf(wok.vertices);
      const walkableVertex = new Uint8Array(v.length / 3);
      for (let k = 0; k < (wok.adjacency.length / 3) * 3; k++) walkableVertex[wok.faces[k]!] = 1;
      for (let i = 0; i < v.length; i++) {
        if (i % 3 === 2 && !walkableVertex[Math.floor(i / 3)]) continue;
        expect(v[i]!, `${room} vertex ${Math.floor(i / 3)} axis ${i % 3}`).toBeGreaterThanOrEqual(lo[i % 3]! - 0.05);
        expect(v[i]!, `${room} vertex ${Math.floor(i / 3)} axis ${i % 3}`).toBeLessThanOrEqual(hi[i % 3]! + 0.05);
      }
      // And not by accident: without the LYT position they are far away.
      const unplaced = kotorModelContextPieces(model, { x: 0, y: 0, z: 0 }, 'x')[0]!;
      expect(Math.abs(unplaced.positions[0]! - piece.positions[0]!)).toBeGreaterThan(100);
    });
  }

  it('a door model gives its drawn meshes, and a model with nothing drawn gives no piece', () => {
    const door = readKotorModel(readFixture(path.join(fixturesRoot, 'kotor/pykotor-mdl/dor_lhr02.mdl')), null, 'dor_lhr02.mdl');
    const pieces = kotorModelContextPieces(door, { x: 1, y: 2, z: 3 }, 'door');
    expect(pieces.length).toBe(1);
    checkLevelContextPiece(pieces[0]!);
    const none = { ...door, nodes: door.nodes.map((n) => (n.mesh ? { ...n, mesh: { ...n.mesh, render: false } } : n)) };
    expect(kotorModelContextPieces(none, { x: 0, y: 0, z: 0 }, 'none')).toEqual([]);
  });

  it('leaves out the triangles of a non-finite vertex (a damaged model) and keeps the rest', () => {
    const room = readKotorModel(readFixture(path.join(fixturesRoot, 'kotor/k1-blackvulkar-models/m10aa_09a.mdl')), null, 'm10aa_09a.mdl');
    const whole = kotorModelContextPieces(room, { x: 0, y: 0, z: 0 }, 'r')[0]!;
    const node = room.nodes.find((n) => n.mesh && n.mesh.render && !(n.flags & MDL_NODE_AABB) && n.mesh.faces.length > 0)!;
    const vertices = node.mesh!.vertices.slice();
    vertices[0] = Number.NaN;
    let using = 0;
    for (let f = 0; f < node.mesh!.faces.length / 3; f++) if ([0, 1, 2].some((j) => node.mesh!.faces[3 * f + j] === 0)) using++;
    expect(using).toBeGreaterThan(0);
    const damaged = { ...room, nodes: room.nodes.map((n) => (n === node ? { ...n, mesh: { ...n.mesh!, vertices } } : n)) };
    const piece = kotorModelContextPieces(damaged, { x: 0, y: 0, z: 0 }, 'r')[0]!;
    checkLevelContextPiece(piece);
    expect(piece.triangles.length / 3).toBe(whole.triangles.length / 3 - using);
    for (const v of piece.triangles) expect(Number.isFinite(piece.positions[3 * v]!)).toBe(true);
  });
});
