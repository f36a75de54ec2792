import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectDocument, loadDocument } from '../../../shared/formats/inspect-file';
import type { OpenedFile } from '../../../shared/ipc/contract';
import { createWalkmesh, NO_OWNER } from '../../../shared/model/walkmesh';
import { colourFaces, OTHER_RGB } from '../../../renderer/src/viewport/face-colours';
import { describeMaterial, faceInfo } from '../../../renderer/src/viewport/face-info';
import { FileViewData } from '../../../renderer/src/viewport/file-view-data';
import { findingTarget, findingTargets } from '../../../renderer/src/viewport/finding-target';
import { drawnBoxClasses } from '../../../renderer/src/viewport/box-budget';
import { OverlayBuilder } from '../../../shared/views/view-overlay';
import { fixturesRoot, readFixture } from '../../support/fixtures';

function openFixture(rel: string): OpenedFile {
  const file = path.join(fixturesRoot, rel);
  const bytes = readFixture(file);
  const loaded = loadDocument(file, bytes);
  return { name: path.basename(file), path: file, byteLength: bytes.length, report: inspectDocument(file, loaded), walkmeshes: loaded.handler.toWalkmeshes(loaded.document, 'x') };
}

/** Two separate unit squares, one walkable and one not, owned by areas 5 and 9. */
function twoSquares(): OpenedFile {
  const square = (x: number) => [x, 0, 0, x + 1, 0, 0, x + 1, 1, 0, x, 1, 0];
  const mesh = createWalkmesh({
    name: 'sq', game: 'source', format: 'test',
    positions: new Float32Array([...square(0), ...square(5)]),
    triangles: new Uint32Array([0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7]),
    faceWalkable: new Uint8Array([1, 1, 0, 0]),
    faceOwner: new Uint32Array([5, 5, 9, NO_OWNER]),
  });
  return { name: 'sq', path: null, byteLength: 0, report: { file: 'sq', format: null, game: 'source', ok: true, summary: null, errors: [], warnings: [], readFailure: null }, walkmeshes: [mesh] };
}

describe('renderer view logic', () => {
  it('picks the face under a game-space ray and misses empty space', () => {
    const data = new FileViewData(twoSquares());
    expect(data.pick([0.8, 0.2, 10], [0, 0, -1])).toMatchObject({ mesh: 0, face: 0 });
    expect(data.pick([0.2, 0.8, 10], [0, 0, -1])).toMatchObject({ mesh: 0, face: 1 });
    expect(data.pick([5.8, 0.2, -10], [0, 0, 1])).toMatchObject({ mesh: 0, face: 2 });
    expect(data.pick([3, 0.5, 10], [0, 0, -1])).toBeNull();
    expect(data.bvhBuildMs).toBeGreaterThanOrEqual(0);
  });

  it('colours islands and owners with legends that count faces, greying what has none', () => {
    const file = twoSquares();
    const data = new FileViewData(file);
    const islands = colourFaces(file.walkmeshes, 'island', data.islandIds());
    expect(islands.legend).toEqual([expect.objectContaining({ label: 'island #1', faces: 2 }), expect.objectContaining({ label: 'not walkable', faces: 2 })]);
    expect([...islands.faceRgb[0]!.slice(6, 9)]).toEqual([...OTHER_RGB].map((v) => Math.fround(v)));
    const owners = colourFaces(file.walkmeshes, 'owner');
    expect(owners.legend.map((e) => [e.label, e.faces])).toEqual([['area 5', 2], ['area 9', 1], ['no owner', 1]]);
    // A non-walkable face keeps its owner's hue, darker.
    const rgb = owners.faceRgb[0]!;
    expect(rgb[6]! + rgb[7]! + rgb[8]!).toBeLessThan(rgb[0]! + rgb[1]! + rgb[2]! + 0.5);
  });

  it('numbers islands across the navmeshes of a plugin, largest first', () => {
    const data = new FileViewData(openFixture('skyrim/DwemerSecrets.esp'));
    const ids = data.islandIds();
    const sizes = new Map<number, number>();
    for (const m of ids) for (const i of m) if (i >= 0) sizes.set(i, (sizes.get(i) ?? 0) + 1);
    const ordered = [...sizes.keys()].sort((a, b) => a - b).map((k) => sizes.get(k)!);
    expect(ordered).toEqual([...ordered].sort((a, b) => b - a));
    // Each navmesh's islands get their own numbers.
    const firstOf = ids.map((m) => m[0]);
    expect(new Set(firstOf).size).toBe(firstOf.length);
  });

  it('describes a face with the game names for materials and flags', () => {
    const wok = openFixture('kotor/k1-blackvulkar/m10aa_03a.wok');
    const mesh = wok.walkmeshes[0]!;
    const islands = new FileViewData(wok).islandIds()[0];
    const info = faceInfo(mesh, 39, islands)!;
    // A face the mesh no longer has (a selection that outlived an undo) describes as nothing.
    expect(faceInfo(mesh, mesh.triangles.length / 3, islands)).toBeNull();
    expect(info.material).toBe('Metal');
    expect(info.raw).toBe(String(mesh.faceMaterial[39]));
    expect(info.owner).toBe('none');
    expect(info.corners[1]).toEqual(info.corners[2]);
    const trx = openFixture('nwn2/kaedrin/fh_settlement.trx').walkmeshes[0]!;
    expect(describeMaterial(trx, 0x21)).toBe('Stone, walkable');
    // Found is on every CK triangle: it stays in the raw value, not in the name.
    expect(describeMaterial({ ...trx, game: 'skyrim' }, 0x840)).toBe('preferred');
  });

  it('draws whole AABB levels from the root down while they fit the box budget', () => {
    const b = new OverlayBuilder('aabb', ['depth 0', 'depth 1', 'depth 2', 'depth 3']);
    for (let d = 0; d < 4; d++) {
      for (let i = 0; i < 2 ** d; i++) {
        b.countItem(d);
        b.box(d, 0, 0, 0, 1, 1, 1);
      }
    }
    const o = b.finish()!;
    expect(o.boxClass.length).toBe(15);
    expect(drawnBoxClasses(o, 15)).toBe(3);
    expect(drawnBoxClasses(o, 14)).toBe(2);
    expect(drawnBoxClasses(o, 7)).toBe(2);
    expect(drawnBoxClasses(o, 6)).toBe(1);
    expect(drawnBoxClasses(o, 0)).toBe(-1);
  });

  it('finds the face a finding names: faces and triangles by index, areas and tiles by owner', () => {
    const file = twoSquares();
    const meshes = file.walkmeshes;
    expect(findingTarget(meshes, { severity: 'error', code: 'x', message: 'm', subject: { kind: 'face', id: 3 } })).toEqual({ mesh: 0, face: 3 });
    expect(findingTarget(meshes, { severity: 'error', code: 'x', message: 'm', subject: { kind: 'triangle', id: 4 } })).toBeNull();
    expect(findingTarget(meshes, { severity: 'warning', code: 'x', message: 'm', subject: { kind: 'area', id: 9 } })).toEqual({ mesh: 0, face: 2 });
    expect(findingTarget(meshes, { severity: 'warning', code: 'x', message: 'm', subject: { kind: 'ladder', id: 1 } })).toBeNull();
    expect(findingTarget(meshes, { severity: 'warning', code: 'x', message: 'm' })).toBeNull();
    const findings = [
      { severity: 'error' as const, code: 'a', message: 'face', subject: { kind: 'face' as const, id: 1 } },
      { severity: 'error' as const, code: 'b', message: 'area', subject: { kind: 'area' as const, id: 9 } },
      { severity: 'error' as const, code: 'c', message: 'gone', subject: { kind: 'area' as const, id: 77 } },
    ];
    const all = findingTargets(meshes, findings);
    expect([...all.entries()].map(([f, t]) => [f.code, t])).toEqual([['a', { mesh: 0, face: 1 }], ['b', { mesh: 0, face: 2 }]]);
  });
});
