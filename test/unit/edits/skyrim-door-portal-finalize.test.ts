import { describe, expect, it } from 'vitest';
import { replaceNavmeshData } from '../../../shared/bakers/skyrim/plugin-rebake';
import { applyDocumentEdit } from '../../../shared/edits/apply-document-edit';
import type { DocumentEditCommand } from '../../../shared/edits/document-edit-command';
import { skyrimDoorPortals, type DoorPortal } from '../../../shared/edits/skyrim-door-portals';
import { liveNavmeshes } from '../../../shared/edits/skyrim-edge-links';
import { applySkyrimFinalize, plannedDoorLinks } from '../../../shared/edits/skyrim-finalize';
import { NAVI_FORM_ID, type NvmiEntry } from '../../../shared/formats/skyrim/navi-document';
import { writeNvmi } from '../../../shared/formats/skyrim/navi-writer';
import { PATHING_DOOR_HASH, TRI_DOOR, type NvnmDocument } from '../../../shared/formats/skyrim/nvnm-document';
import { formIdHex, type PluginDocument } from '../../../shared/formats/skyrim/plugin-document';
import { pluginNaviEntries } from '../../../shared/formats/skyrim/plugin-navmeshes';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { writePlugin } from '../../../shared/formats/skyrim/plugin-writer';
import { env, readFixturePlugin, recordBytes } from '../skyrim/skyrim-helpers';

const apply = (cmd: DocumentEditCommand, doc: PluginDocument) => applyDocumentEdit({ target: 'skyrim-plugin', doc }, cmd);

function nvmiOf(doc: PluginDocument): Map<number, NvmiEntry> {
  const out = new Map<number, NvmiEntry>();
  for (const { entries } of pluginNaviEntries(doc)) for (const e of entries) if (!out.has(e.navmesh)) out.set(e.navmesh, e);
  return out;
}

/**
 * The plugin without these door portals, made by hand here (not with the edits under test):
 * each door-link entry goes, the triangle's Door flag goes when no other door link stays on
 * it, and the door's pair goes from the navmesh's NVMI door list.
 */
function strip(doc: PluginDocument, portals: readonly DoorPortal[]): PluginDocument {
  const all = liveNavmeshes(doc);
  const nvmi = nvmiOf(doc);
  const nvnmMap = new Map<NvnmDocument, NvnmDocument>();
  const nvmiMap = new Map<NvmiEntry, NvmiEntry>();
  for (const p of portals) {
    const v = nvnmMap.get(all.get(p.navmesh)!) ?? all.get(p.navmesh)!;
    const keep = Array.from(v.doorRef, (d, i) => !(d === p.door && v.doorTriangle[i] === p.triangle));
    const triFlags = new Uint16Array(v.triFlags);
    const doorTriangle = Int16Array.from(Array.from(v.doorTriangle).filter((_, i) => keep[i]));
    if (!doorTriangle.includes(p.triangle)) triFlags[p.triangle]! &= ~TRI_DOOR;
    const next: NvnmDocument = {
      ...v, triFlags, doorTriangle,
      doorHash: Uint32Array.from(Array.from(v.doorHash).filter((_, i) => keep[i])),
      doorRef: Uint32Array.from(Array.from(v.doorRef).filter((_, i) => keep[i])),
    };
    nvnmMap.set(all.get(p.navmesh)!, next);
    const e = nvmi.get(p.navmesh);
    if (!e) continue;
    const current = nvmiMap.get(e) ?? e;
    const pairs: number[] = [];
    for (let i = 0; i + 1 < current.doors.length; i += 2) if (current.doors[i + 1] !== p.door) pairs.push(current.doors[i]!, current.doors[i + 1]!);
    nvmiMap.set(e, { ...current, doors: Uint32Array.from(pairs) });
  }
  return { items: replaceNavmeshData(doc.items, nvnmMap, nvmiMap) };
}

/** Each record's bytes as written, by `index SIG FORMID`. */
function writtenRecords(doc: PluginDocument): { file: Uint8Array; records: Map<string, Uint8Array> } {
  const file = writePlugin(doc, env);
  return { file, records: recordBytes(readPlugin(file, env), file) };
}

const keyOf = (records: Map<string, Uint8Array>, sig: string, formId: number) => [...records.keys()].find((k) => k.endsWith(` ${sig} ${formIdHex(formId)}`))!;

describe('Skyrim Finalize makes door portals', () => {
  const { bytes, doc } = readFixturePlugin('DawnOfTheSilverHand.esp');
  const original = recordBytes(doc, bytes);
  const report = skyrimDoorPortals(doc);
  const linked = report.portals.filter((p) => p.state === 'linked');
  const stripped = strip(doc, linked);

  it('the stripped plugin lacks exactly the 2 door portals of its own doors', () => {
    expect(linked.length).toBe(2);
    const r = skyrimDoorPortals(stripped);
    expect(r.counts).toEqual({ linked: 0, missing: 2, 'master-door': 3, 'master-navmesh': 2 });
    const all = liveNavmeshes(stripped);
    for (const p of linked) {
      expect(all.get(p.navmesh)!.doorRef).not.toContain(p.door);
      expect(all.get(p.navmesh)!.triFlags[p.triangle]! & TRI_DOOR).toBe(0);
      expect(Array.from(nvmiOf(stripped).get(p.navmesh)!.doors)).not.toContain(p.door);
    }
  });

  it('Finalize puts the door links back: entry, Door flag and NVMI door, byte for byte as the CK wrote them', () => {
    const r = applySkyrimFinalize(stripped, { kind: 'skyrim-finalize' });
    expect(r.doorPortals.made).toBe(2);
    expect(r.doorPortals.summary).toMatch(/^Finalize made 2 door portal\(s\); 2 door portal\(s\) of this plugin's doors linked as their XNDP names them; 3 naming doors of the masters/);
    expect(skyrimDoorPortals(r.doc).counts).toEqual(report.counts);
    const all = liveNavmeshes(r.doc);
    for (const p of linked) {
      const v = all.get(p.navmesh)!;
      const i = Array.from(v.doorRef).findIndex((d, k) => d === p.door && v.doorTriangle[k] === p.triangle);
      expect(i).toBeGreaterThanOrEqual(0);
      expect(v.doorHash[i]).toBe(PATHING_DOOR_HASH);
      expect(v.triFlags[p.triangle]! & TRI_DOOR).toBe(TRI_DOOR);
    }
    // The same Finalize on the unstripped file (which only links edges) writes the very same file.
    const plain = applySkyrimFinalize(doc, { kind: 'skyrim-finalize' });
    expect(plain.doorPortals.made).toBe(0);
    const made = writtenRecords(r.doc);
    expect(Buffer.compare(made.file, writtenRecords(plain.doc).file)).toBe(0);
    // Finalize also links edges, some on the door portals' navmeshes (their NAVM records and
    // the NAVI neighbour lists change for that). Taking back only those edge links (the
    // unlink part of Finalize's own inverse) leaves the door portals Finalize made: the
    // file is then the original, byte for byte, door-link entries, Door flags and NVMI doors included.
    const touched = new Set(r.plan.links.flatMap((l) => [l.a.navmesh, l.b.navmesh]));
    expect(linked.some((p) => touched.has(p.navmesh))).toBe(true);
    expect(r.inverse.kind).toBe('document-batch');
    const unlink = r.inverse.kind === 'document-batch' ? r.inverse.commands.find((c) => c.kind === 'skyrim-unlink-edges') : undefined;
    expect(unlink).toBeDefined();
    const doorsKept = writtenRecords(apply(unlink!, r.doc).doc as PluginDocument);
    const originalNvmi = nvmiOf(doc), keptNvmi = nvmiOf(readPlugin(doorsKept.file, env));
    for (const p of linked) {
      const k = keyOf(original, 'NAVM', p.navmesh);
      expect(Buffer.compare(doorsKept.records.get(k)!, original.get(k)!)).toBe(0);
      expect(Buffer.compare(writeNvmi(keptNvmi.get(p.navmesh)!), writeNvmi(originalNvmi.get(p.navmesh)!))).toBe(0);
    }
    const navi = keyOf(original, 'NAVI', NAVI_FORM_ID);
    expect(Buffer.compare(doorsKept.records.get(navi)!, original.get(navi)!)).toBe(0);
    expect(Buffer.compare(doorsKept.file, bytes)).toBe(0);
    // The door part of Finalize alone, on the stripped file, gives the original file too.
    const doorsOnly = apply({ kind: 'skyrim-add-door-links', links: plannedDoorLinks(stripped) }, stripped);
    const doorsWritten = writtenRecords(doorsOnly.doc as PluginDocument);
    expect(Buffer.compare(doorsWritten.file, bytes)).toBe(0);
  });

  it('undo gives the stripped bytes back exactly, and redo the made ones', () => {
    const strippedFile = writePlugin(stripped, env);
    const r = apply({ kind: 'skyrim-finalize' }, stripped);
    expect(r.notes[0]).toMatch(/and made 2 door portal\(s\)$/);
    expect(r.inverse.kind).toBe('document-batch');
    const undone = apply(r.inverse, r.doc as PluginDocument);
    expect(Buffer.compare(writePlugin(undone.doc as PluginDocument, env), strippedFile)).toBe(0);
    const redone = apply(undone.inverse, undone.doc as PluginDocument);
    expect(Buffer.compare(writePlugin(redone.doc as PluginDocument, env), writePlugin(r.doc as PluginDocument, env))).toBe(0);
  });

  it('door portals alone are enough for Finalize; a plugin with nothing missing is refused as before', () => {
    const once = applySkyrimFinalize(doc, { kind: 'skyrim-finalize' }).doc;
    expect(() => applySkyrimFinalize(once, { kind: 'skyrim-finalize' })).toThrow(/nothing to link: every edge that meets another is linked both ways already/);
    const onlyDoors = strip(once, linked);
    const r = applySkyrimFinalize(onlyDoors, { kind: 'skyrim-finalize' });
    expect(r.plan.sides.length).toBe(0);
    expect(r.doorPortals.made).toBe(2);
    expect(r.inverse.kind).toBe('skyrim-remove-door-links');
    expect(Buffer.compare(writePlugin(r.doc, env), writePlugin(once, env))).toBe(0);
    // A fix-up of one triangle's links makes no door portal.
    expect(plannedDoorLinks(onlyDoors, [linked[0]!.navmesh])).toEqual([linked[0]!.navmesh, linked[0]!.triangle, linked[0]!.door]);
    expect(() => applySkyrimFinalize(onlyDoors, { kind: 'skyrim-finalize', navmeshes: [linked[0]!.navmesh], triangle: linked[0]!.triangle })).toThrow(/nothing to link/);
  });

  it("doors of the masters and XNDPs naming the masters' navmeshes are left as stored", () => {
    const r = applySkyrimFinalize(stripped, { kind: 'skyrim-finalize' });
    const before = liveNavmeshes(doc), after = liveNavmeshes(r.doc);
    const masterDoors = report.portals.filter((p) => p.state === 'master-door');
    expect(masterDoors.length).toBe(3);
    for (const id of new Set(masterDoors.map((p) => p.navmesh))) {
      const v = before.get(id)!, w = after.get(id)!;
      expect(Array.from(w.doorRef)).toEqual(Array.from(v.doorRef));
      expect(Array.from(w.doorTriangle)).toEqual(Array.from(v.doorTriangle));
      expect(Array.from(w.triFlags, (f) => f & TRI_DOOR)).toEqual(Array.from(v.triFlags, (f) => f & TRI_DOOR));
      expect(Array.from(nvmiOf(r.doc).get(id)!.doors)).toEqual(Array.from(nvmiOf(doc).get(id)!.doors));
    }
    const masterNavmeshes = report.portals.filter((p) => p.state === 'master-navmesh');
    expect(masterNavmeshes.length).toBe(2);
    for (const p of masterNavmeshes) expect(after.has(p.navmesh)).toBe(false);
    const doorsByNavmesh = (d: PluginDocument) => [...liveNavmeshes(d)].map(([id, v]) => `${id}:${Array.from(v.doorRef).join(',')}`);
    expect(doorsByNavmesh(r.doc)).toEqual(doorsByNavmesh(doc));
  });

  it('a door link removed from the middle of a list comes back at its place on undo; adding one twice is refused', () => {
    const p = report.portals.filter((x) => x.state === 'master-door')[1]!;
    const removed = apply({ kind: 'skyrim-remove-door-links', links: [p.navmesh, p.triangle, p.door] }, doc);
    const v = liveNavmeshes(removed.doc as PluginDocument).get(p.navmesh)!;
    expect(Array.from(v.doorRef)).not.toContain(p.door);
    expect(v.triFlags[p.triangle]! & TRI_DOOR).toBe(0);
    expect(Array.from(nvmiOf(removed.doc as PluginDocument).get(p.navmesh)!.doors)).not.toContain(p.door);
    expect(removed.inverse).toEqual({ kind: 'skyrim-add-door-links', links: [p.navmesh, p.triangle, p.door], at: [1, 1] });
    const back = apply(removed.inverse, removed.doc as PluginDocument);
    expect(Buffer.compare(writePlugin(back.doc as PluginDocument, env), bytes)).toBe(0);
    expect(() => apply({ kind: 'skyrim-add-door-links', links: [p.navmesh, p.triangle, p.door] }, doc)).toThrow(/already links door/);
    expect(() => apply({ kind: 'skyrim-add-door-links', links: [p.navmesh, 1_000_000, p.door] }, doc)).toThrow(/triangle 1000000 does not exist/);
  });
});
