import { describe, expect, it } from 'vitest';
import { readObj } from '../../../shared/formats/obj/obj-reader';
import { writeObj } from '../../../shared/formats/obj/obj-writer';
import { ModelMappingError } from '../../../shared/model/model-mapping-error';
import { applyEdit } from '../../../shared/edits/apply-edit';
import { copyWalkmesh } from '../../../shared/edits/walkmesh-copy';
import { faceCount } from '../../../shared/model/walkmesh';
import { detectFormat } from '../../../shared/formats/format-registry';
import { buildGrid } from '../../../shared/bakers/skyrim/navmesh-grid';
import { gridCellCountOf, gridCellTriangles } from '../../../shared/formats/skyrim/nvnm-document';
import { pluginFormat } from '../../../shared/formats/skyrim/plugin-format';
import { pluginNaviEntries, pluginNavmeshes } from '../../../shared/formats/skyrim/plugin-navmeshes';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { env, firstDifference, floatsOf, modelledNavmeshes, readFixturePlugin } from './skyrim-helpers';

describe('Skyrim plugin format handler', () => {
  it('is detected for .esp and .esm by its TES4 header', () => {
    const { bytes } = readFixturePlugin('FreeCamera.esp');
    expect(detectFormat('FreeCamera.esp', bytes)?.id).toBe('skyrim-plugin');
    expect(detectFormat('renamed.bin', bytes)?.id).toBe('skyrim-plugin');
    expect(detectFormat('Master.esm', undefined)?.id).toBe('skyrim-plugin');
    expect(pluginFormat.sniff(bytes.subarray(0, 20))).toBe(false);
  });

  it('summarises navmeshes with their cell or grid, counts and links', () => {
    const { doc } = readFixturePlugin('DawnOfTheSilverHand.esp');
    const s = pluginFormat.summarize(doc);
    expect(s.counts.navmeshes).toBe(17);
    expect(s.counts.deletedNavmeshes).toBe(2);
    expect(s.counts.compressedRecords).toBe(186);
    expect(s.details.game).toBe('Skyrim LE (form version 43)');
    expect(s.details.masters).toBe('Skyrim.esm, Update.esm');
    const lines = Object.entries(s.details).filter(([k]) => k.startsWith('navmesh '));
    expect(lines).toHaveLength(17);
    expect(lines.filter(([, v]) => String(v).startsWith('deleted'))).toHaveLength(2);
    expect(lines.some(([, v]) => /worldspace 0x0000003C grid \(-?\d+, -?\d+\).*edge links to [1-9]/.test(String(v)))).toBe(true);
    expect(lines.some(([, v]) => /interior cell 0x[0-9A-F]{8}, 1501 vertices, 1621 triangles/.test(String(v)))).toBe(true);
    const hex = (id: number) => `0x${id.toString(16).toUpperCase().padStart(8, '0')}`;
    for (const n of modelledNavmeshes(doc)) {
      const line = String(s.details[`navmesh ${hex(n.formId)}`]);
      for (const target of new Set(n.nvnm.edgeLinkNavmesh)) expect(line).toContain(`${hex(target)} ×`);
      for (const door of n.nvnm.doorRef) expect(line).toContain(hex(door));
    }
  });

  it('maps each navmesh to one walkmesh: owner = navmesh index, material = triangle flags, all walkable', () => {
    const { doc } = readFixturePlugin('DwemerSecrets.esp');
    const meshes = pluginFormat.toWalkmeshes(doc, 'DwemerSecrets.esp');
    const navmeshes = pluginNavmeshes(doc);
    const modelled = modelledNavmeshes(doc);
    expect(meshes).toHaveLength(modelled.length);
    meshes.forEach((m, i) => {
      const n = modelled[i]!;
      expect(navmeshes[m.faceOwner[0]!]!.formId).toBe(n.formId);
      expect(m.game).toBe('skyrim');
      expect(m.positions).toEqual(floatsOf(n.nvnm.vertices));
      expect(Array.from(m.triangles)).toEqual(Array.from(n.nvnm.triVertices));
      expect(Array.from(m.faceMaterial)).toEqual(Array.from(n.nvnm.triFlags));
      expect(m.faceWalkable.every((w) => w === 1)).toBe(true);
      expect(m.faceOwner.every((o) => o === n.index)).toBe(true);
    });
  });

  it.each(['DawnOfTheSilverHand.esp', 'DwemerSecrets.esp', 'FreeCamera.esp'])('%s: an unchanged model writes identical bytes', (base) => {
    const { bytes, doc } = readFixturePlugin(base);
    const meshes = pluginFormat.toWalkmeshes(doc, base).map((m) => ({ ...m, positions: m.positions.slice(), faceMaterial: m.faceMaterial.slice() }));
    const rebuilt = pluginFormat.fromWalkmeshes!(meshes, doc);
    expect(firstDifference(pluginFormat.write(rebuilt, env), bytes)).toBeNull();
  });

  it('applies an edited vertex, rebuilds that navmesh\'s grid and leaves the base document alone', () => {
    const { bytes, doc } = readFixturePlugin('DwemerSecrets.esp');
    const meshes = pluginFormat.toWalkmeshes(doc, 'x');
    const target = meshes.findIndex((m) => m.triangles.length > 30);
    const moved = meshes.map((m) => ({ ...m, positions: m.positions.slice() }));
    moved[target]!.positions[0] = moved[target]!.positions[0]! - 500;
    const edited = pluginFormat.fromWalkmeshes!(moved, doc);
    const out = pluginFormat.write(edited, env);
    expect(firstDifference(out, bytes)).not.toBeNull();
    expect(firstDifference(pluginFormat.write(doc, env), bytes)).toBeNull();
    const reread = modelledNavmeshes(readPlugin(out, env))[target]!.nvnm;
    expect(floatsOf(reread.vertices)[0]).toBe(moved[target]!.positions[0]);
    expect(floatsOf(reread.gridBounds)[2]).toBeLessThanOrEqual(moved[target]!.positions[0]!);
    expect(reread.gridTriangles.length).toBeGreaterThanOrEqual(reread.triFlags.length);
    const entry = pluginNaviEntries(readPlugin(out, env))[0]!.entries.find((e) => e.navmesh === modelledNavmeshes(doc)[target]!.formId)!;
    const before = pluginNaviEntries(doc)[0]!.entries.find((e) => e.navmesh === entry.navmesh)!;
    const nv = moved[target]!.positions.length / 3;
    expect(floatsOf(entry.floats)[0]).toBeCloseTo(floatsOf(before.floats)[0]! - 500 / nv, 1);
    expect(floatsOf(entry.floats)[3]).toBe(floatsOf(before.floats)[3]);
    expect(modelledNavmeshes(readPlugin(out, env)).filter((_, i) => i !== target).map((n) => n.nvnm.vertices)).toEqual(
      modelledNavmeshes(doc).filter((_, i) => i !== target).map((n) => n.nvnm.vertices),
    );
  });

  it('refuses to drop triangles through the walkmesh (neighbours link to triangle indices)', () => {
    const { doc } = readFixturePlugin('FreeCamera.esp');
    const [m] = pluginFormat.toWalkmeshes(doc, 'x');
    const fewer = { ...m!, triangles: m!.triangles.slice(3), faceMaterial: m!.faceMaterial.slice(1), faceOwner: m!.faceOwner.slice(1), faceWalkable: m!.faceWalkable.slice(1) };
    expect(() => pluginFormat.fromWalkmeshes!([fewer], doc)).toThrow(/removing triangles through the walkmesh \(12 → 11\) is not supported/);
    expect(() => pluginFormat.fromWalkmeshes!([m!], undefined)).toThrow(ModelMappingError);
  });

  it('appends faces added to the walkmesh as new triangles: stored indices kept, adjacency, grid and NAVI entry rebuilt', () => {
    const { doc } = readFixturePlugin('DwemerSecrets.esp');
    const meshes = pluginFormat.toWalkmeshes(doc, 'x');
    const i = modelledNavmeshes(doc).findIndex((n) => n.formId === 0x02002e28);
    const v = modelledNavmeshes(doc)[i]!.nvnm;
    const nt = v.triFlags.length;
    const nv = v.vertices.length / 3;
    let t = 0;
    let k = 0;
    while (v.triEdges[t * 3 + k] !== -1) if (++k === 3) [t, k] = [t + 1, 0];
    const a = v.triVertices[t * 3 + k]!;
    const b = v.triVertices[t * 3 + ((k + 1) % 3)]!;
    const m = meshes[i]!;
    const p = (x: number, c: number) => m.positions[x * 3 + c]!;
    const apex = [(p(a, 0) + p(b, 0)) / 2 + (p(b, 1) - p(a, 1)) / 2, (p(a, 1) + p(b, 1)) / 2 - (p(b, 0) - p(a, 0)) / 2, (p(a, 2) + p(b, 2)) / 2];
    const grown = {
      ...m,
      positions: Float32Array.from([...m.positions, ...apex]),
      triangles: Uint32Array.from([...m.triangles, b, a, nv]),
      faceMaterial: Uint32Array.from([...m.faceMaterial, 0x800]),
      faceOwner: Uint32Array.from([...m.faceOwner, m.faceOwner[0]!]),
      faceWalkable: Uint8Array.from([...m.faceWalkable, 1]),
    };
    const edited = pluginFormat.fromWalkmeshes!(meshes.map((x, j) => (j === i ? grown : x)), doc);
    const back = readPlugin(pluginFormat.write(edited, env), env);
    const after = modelledNavmeshes(back)[i]!.nvnm;
    expect(after.triFlags.length).toBe(nt + 1);
    expect(after.triVertices.subarray(0, nt * 3)).toEqual(v.triVertices);
    expect(Array.from(after.triVertices.subarray(nt * 3))).toEqual([b, a, nv]);
    expect(after.triEdges[nt * 3]).toBe(t);
    expect(after.triEdges[t * 3 + k]).toBe(nt);
    expect(after.gridTriangles).toContain(nt);
    const entry = pluginNaviEntries(back)[0]!.entries.find((e) => e.navmesh === 0x02002e28)!;
    expect(floatsOf(entry.floats)[0]).toBeCloseTo((floatsOf(v.vertices).filter((_, j) => j % 3 === 0).reduce((s2, x) => s2 + x, 0) + apex[0]!) / (nv + 1), 0);
    expect(pluginFormat.validate(back).filter((f) => f.severity === 'error').map((f) => f.code)).toEqual(['navm.deleted']);
  });

  it('writes a walkmesh edge split (a re-cut stored face plus appended faces) as a valid navmesh with its links intact', () => {
    const { doc } = readFixturePlugin('DwemerSecrets.esp');
    const meshes = pluginFormat.toWalkmeshes(doc, 'x').map(copyWalkmesh);
    const i = modelledNavmeshes(doc).findIndex((n) => n.formId === 0x000f26c7);
    const v = modelledNavmeshes(doc)[i]!.nvnm;
    const mesh = meshes[i]!;
    applyEdit(mesh, { kind: 'split-edge', edge: [mesh.triangles[0]!, mesh.triangles[1]!] });
    const back = readPlugin(pluginFormat.write(pluginFormat.fromWalkmeshes!(meshes, doc), env), env);
    const after = modelledNavmeshes(back)[i]!.nvnm;
    expect(after.triFlags.length).toBe(faceCount(mesh));
    expect(after.triFlags.length).toBeGreaterThan(v.triFlags.length);
    expect(after.edgeLinkNavmesh).toEqual(v.edgeLinkNavmesh);
    expect(after.edgeLinkTriangle).toEqual(v.edgeLinkTriangle);
    for (let t = 0; t < v.triFlags.length; t++) expect(after.triFlags[t]! & 7, `triangle ${t}`).toBe(v.triFlags[t]! & 7);
    // The CK's own open shared edge in navmesh 0x000F26C8 (not the edited one) stays reported.
    const findings = pluginFormat.validate(back).filter((f) => f.code !== 'navm.edge-link.unverifiable');
    expect(findings.map((f) => f.code).sort()).toEqual(['navm.deleted', 'navm.edge.open-shared']);
    expect(findings.find((f) => f.code === 'navm.edge.open-shared')!.message).toMatch(/^navmesh 0x000F26C8 /);
  });

  it('rebuilds grids with the stored bounds and all but 1 of the CK grids\' 15,962 entries', () => {
    let stored = 0;
    let found = 0;
    for (const base of ['DawnOfTheSilverHand.esp', 'DwemerSecrets.esp', 'FreeCamera.esp']) {
      for (const { nvnm: v } of modelledNavmeshes(readFixturePlugin(base).doc)) {
        const g = buildGrid(v, v.gridDivisor);
        expect(g.gridBounds).toEqual(v.gridBounds);
        for (let c = 0; c < gridCellCountOf(v); c++) {
          const mine = new Set(gridCellTriangles(g, c));
          const theirs = gridCellTriangles(v, c);
          for (const t of theirs) if (mine.has(t)) found++;
          stored += theirs.length;
        }
      }
    }
    expect(stored).toBe(15962);
    expect(stored - found).toBe(1);
  });
});

describe('Skyrim plugin ↔ OBJ', () => {
  it.each(['DawnOfTheSilverHand.esp', 'DwemerSecrets.esp', 'FreeCamera.esp'])('%s: navmeshes written to OBJ and read back give the plugin\'s bytes', (base) => {
    const { bytes, doc } = readFixturePlugin(base);
    const { obj } = writeObj(pluginFormat.toWalkmeshes(doc, base));
    const meshes = readObj(obj, { name: base, game: 'skyrim', format: 'skyrim-plugin' });
    expect(meshes).toHaveLength(modelledNavmeshes(doc).length);
    expect(firstDifference(pluginFormat.write(pluginFormat.fromWalkmeshes!(meshes, doc), env), bytes)).toBeNull();
  });

  it('applies a vertex moved in the OBJ to the navmesh vertex its faces name', () => {
    const { doc } = readFixturePlugin('FreeCamera.esp');
    const { obj } = writeObj(pluginFormat.toWalkmeshes(doc, 'x'));
    const meshes = readObj(obj, { name: 'x', game: 'skyrim', format: 'skyrim-plugin' });
    const m = meshes[0]!;
    const moved = m.triangles[0]!;
    m.positions[moved * 3 + 2] = m.positions[moved * 3 + 2]! + 64;
    const edited = modelledNavmeshes(pluginFormat.fromWalkmeshes!(meshes, doc))[0]!.nvnm;
    const original = modelledNavmeshes(doc)[0]!.nvnm;
    const nv = original.triVertices[0]!;
    expect(floatsOf(edited.vertices)[nv * 3 + 2]).toBe(floatsOf(original.vertices)[nv * 3 + 2]! + 64);
    expect(Array.from(edited.triVertices)).toEqual(Array.from(original.triVertices));
    const changed = Array.from(floatsOf(edited.vertices)).filter((x, i) => x !== floatsOf(original.vertices)[i]);
    expect(changed).toHaveLength(1);
  });
});
