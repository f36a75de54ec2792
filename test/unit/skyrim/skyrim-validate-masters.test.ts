import { describe, expect, it } from 'vitest';
import { TRI_EDGE_LINK_BITS } from '../../../shared/formats/skyrim/nvnm-document';
import { formIdHex, RECORD_FLAG_DELETED, type PluginRecord } from '../../../shared/formats/skyrim/plugin-document';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { validatePlugin, type MasterPlugin } from '../../../shared/formats/skyrim/skyrim-validate';
import { env, modelledNavmeshes, readFixturePlugin } from './skyrim-helpers';
import { renumberNavmesh, splitMaster } from './skyrim-master-builder';

/** A vanilla navmesh of DawnOfTheSilverHand, linked to and from the plugin's new navmesh 0x0200E9CD. */
const MOVED = 0x000fd765;
const SELF = 'DawnOfTheSilverHand.esp';
/**
 * 0x0200E9CD, renumbered as if it overrode a Skyrim.esm navmesh: a master cannot link to
 * a plugin's own navmesh, but it can link to a vanilla one the plugin overrides.
 */
const PARTNER = 0x0000e9cd;

const base = readFixturePlugin(SELF).doc;
renumberNavmesh(base, 0x0200e9cd, PARTNER);
const split = splitMaster(base, [MOVED]);

/** Linked edges of the plugin's navmeshes into Skyrim.esm, by target FormID. */
function linksIntoSkyrim(): Map<number, number> {
  const own = new Set(modelledNavmeshes(split.plugin).map((n) => n.formId));
  const out = new Map<number, number>();
  for (const n of modelledNavmeshes(split.plugin)) {
    const v = n.nvnm;
    for (let t = 0; t < v.triFlags.length; t++) {
      for (let k = 0; k < 3; k++) {
        if ((v.triFlags[t]! & TRI_EDGE_LINK_BITS[k]!) === 0) continue;
        const target = v.edgeLinkNavmesh[v.triEdges[t * 3 + k]!]!;
        if (target >>> 24 === 0 && !own.has(target)) out.set(target, (out.get(target) ?? 0) + 1);
      }
    }
  }
  return out;
}

function masterCopy(): MasterPlugin {
  return { name: 'Skyrim.esm', doc: readPlugin(split.masterBytes, env) };
}

describe('Skyrim validation against masters', () => {
  const into = linksIntoSkyrim();

  it('builds a master holding the moved navmesh, which the plugin no longer holds', () => {
    expect(modelledNavmeshes(split.master).map((n) => n.formId)).toEqual([MOVED]);
    expect(modelledNavmeshes(split.plugin).some((n) => n.formId === MOVED)).toBe(false);
    expect(into.get(MOVED)).toBeGreaterThan(0);
  });

  it('without the master, reports links into it as unverifiable warnings, not errors', () => {
    const found = validatePlugin(split.plugin, [], SELF);
    expect(found.filter((f) => f.code.startsWith('navm.edge-link') && f.severity === 'error')).toEqual([]);
    const about = found.filter((f) => f.code === 'navm.edge-link.unverifiable' && f.message.includes(`into navmesh ${formIdHex(MOVED)} of Skyrim.esm`));
    expect(about.length).toBeGreaterThan(0);
    const counted = about.reduce((n, f) => n + Number(/has (\d+) edge link/.exec(f.message)![1]), 0);
    expect(counted).toBe(into.get(MOVED));
  });

  it('with the master, checks those links (all reciprocal) and reports links to navmeshes the master lacks', () => {
    const found = validatePlugin(split.plugin, [masterCopy()], SELF);
    expect(found.filter((f) => f.code === 'navm.edge-link.unverifiable')).toEqual([]);
    expect(found.filter((f) => f.code === 'navm.edge-link.not-reciprocal')).toEqual([]);
    const missing = found.filter((f) => f.code === 'navm.edge-link.missing-navmesh');
    let expected = 0;
    for (const [target, n] of into) if (target !== MOVED) expected += n;
    expect(missing).toHaveLength(expected);
    expect(missing.some((f) => f.message.includes(formIdHex(MOVED)))).toBe(false);
    expect(missing[0]!.message).toMatch(/links to navmesh 0x00[0-9A-F]{6} of Skyrim\.esm, which holds no such navmesh$/);
  });

  it('reports a link the master does not reciprocate', () => {
    const master = masterCopy();
    const moved = modelledNavmeshes(master.doc)[0]!.nvnm;
    const li = moved.edgeLinkNavmesh.findIndex((id) => id >>> 24 === 0);
    const from = moved.edgeLinkNavmesh[li]!;
    const t = moved.edgeLinkTriangle[li]!;
    moved.edgeLinkTriangle[li] = -1;
    const found = validatePlugin(split.plugin, [master], SELF).filter((f) => f.code === 'navm.edge-link.not-reciprocal');
    expect(found).toEqual([
      expect.objectContaining({ severity: 'error', subject: { kind: 'triangle', id: t }, message: expect.stringMatching(new RegExp(`^navmesh ${formIdHex(from)} triangle ${t} links to triangle \\d+ of navmesh ${formIdHex(MOVED)}, which does not link back$`)) }),
    ]);
  });

  it('reports links into a navmesh the master deletes', () => {
    const master = masterCopy();
    const record = modelledNavmeshes(master.doc)[0]!.record as PluginRecord;
    record.flags |= RECORD_FLAG_DELETED;
    record.subrecords = [];
    const found = validatePlugin(split.plugin, [master], SELF).filter((f) => f.code === 'navm.edge-link.missing-navmesh' && f.message.includes(formIdHex(MOVED)));
    expect(found).toHaveLength(into.get(MOVED)!);
    expect(found[0]!.message).toMatch(/of Skyrim\.esm, which Skyrim\.esm deletes$/);
  });

  it('reports links into a navmesh the plugin itself deletes or does not hold, master or not', () => {
    const { doc } = readFixturePlugin('DwemerSecrets.esp');
    const deleted = 0x000f26c9;
    expect(modelledNavmeshes(doc).some((n) => n.formId === deleted)).toBe(false);
    const [a, b] = modelledNavmeshes(doc).filter((n) => n.nvnm.edgeLinkNavmesh.length > 0);
    a!.nvnm.edgeLinkNavmesh[0] = deleted;
    b!.nvnm.edgeLinkNavmesh[0] = 0x02fffff0;
    const found = validatePlugin(doc, [], 'DwemerSecrets.esp').filter((f) => f.code === 'navm.edge-link.missing-navmesh');
    expect(found.map((f) => f.message.replace(/ triangle \d+ /, ' triangle T '))).toEqual([
      `navmesh ${formIdHex(a!.formId)} triangle T links to navmesh 0x000F26C9 of Skyrim.esm, which DwemerSecrets.esp deletes`,
      `navmesh ${formIdHex(b!.formId)} triangle T links to navmesh 0x02FFFFF0 of DwemerSecrets.esp, which holds no such navmesh`,
    ]);
  });
});
